//! Binding: checking and converting arguments against a tool's schema, and reading a
//! command line into arguments.
//!
//! - [`crate::types::Ty`] is the type model every check here walks;
//! - [`Schema`] is a tool's parameters, `--!flag`s, `--!rest` and trailing options table;
//! - [`check_slots`] is `tools.bind`: one slot per parameter, each checked against its type;
//! - [`collect_json`] reads JSON arguments (by position or by name) into those slots, for
//!   calls made from Rust, and [`lua_args`] turns bound slots into the call's Luau values;
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
mod value;

pub(crate) use check::{fits_literal, stray_field, wrong_kind};
pub(crate) use cmdline::{parse_command_line, MAX_WORDS};
pub use refusal::{Reason, Refusal};
pub(crate) use schema::Schema;
pub(crate) use shape::luau_type;
pub(crate) use slots::{check_slots, collect_json, collect_lua, collect_positional, Style};
pub(crate) use usage::help;
pub(crate) use value::{lua_args, lua_value};

#[cfg(test)]
#[path = "../../tests/unit/bind/mod.rs"]
mod tests;
