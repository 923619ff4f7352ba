//! Binding: checking and converting arguments against a tool's schema, and reading a
//! command line into arguments.
//!
//! - [`crate::types::Ty`] is the type model every check here walks;
//! - [`Schema`] is a tool's parameters, `--!flag`s, `--!rest` and trailing options table;
//! - [`check_slots`] is `tools.bind`: one slot per parameter, each checked against its type;
//! - [`parse_command_line`] is `tools.parseCommandLine`: shell words into slots;
//! - [`help`] and [`usage_line`] are the `--help` text of `codemode call`.
//!
//! A bound call is a positional array: `tool(table.unpack(r.args, 1, r.n))`.

mod check;
mod cmdline;
mod refusal;
mod schema;
mod shape;
mod slots;
mod usage;

pub use check::{check, Mismatch, NODE_BUDGET};
pub use cmdline::{parse_command_line, read_word};
pub use refusal::{Reason, Refusal};
pub use schema::{FlagSpec, Param, Schema};
pub use shape::{luau_type, Key, Kind, Shape};
pub use slots::{check_slots, collect_lua, Style};
pub use usage::{help, usage_line};

#[cfg(test)]
mod tests;
