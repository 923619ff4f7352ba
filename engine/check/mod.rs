//! Type checking scripts and tools before they run, against the declarations
//! `codemode types` writes. Luau's checker runs in a process of its own (the
//! `codemode-check` binary: see `engine/checker/main.rs` for why); [`Checker`] starts it
//! on first use, keeps it, and talks to it over a pipe. A checker that is missing, crashes
//! or hangs never blocks a run: the run goes on unchecked with a diagnostic saying so.
//!
//! - `checking.rs` is what an engine holds: the checker, the mode, the declarations of
//!   the last snapshot (whole for a small world, by the toolboxes a script names for a
//!   large one: `named.rs` finds them);
//! - `process.rs` starts the checker and exchanges one request and reply at a time (a
//!   script's reply is read after the run is readied: [`PendingCheck`]); a one-shot run
//!   asks the user's resident checker instead, whose socket `resident.rs` finds;
//! - `verdict.rs` sorts what the checker says into what stops a run and what is only
//!   reported, by [`Mode`]; it alone decides, from the script's syntax tree and from plain
//!   facts the runtime reads off its registry about the tools named ([`Known`]);
//! - `script.rs` reads the syntax tree in one pass: where the script calls tools, and by
//!   a small dataflow pass, which field reads can only read a tool's result;
//! - `literal.rs` reads the table literals a script passes straight to tools, whose
//!   misspelt fields the checker lets through;
//! - `replies.rs` keeps what the checker said about a script, for its next run against
//!   the same declarations: in memory, and on disk for the next process;
//! - `tool.rs` prepares a tool's source for the checker;
//! - `diagnostic.rs` is one thing the checker said, as the envelope shows it.

mod checking;
mod diagnostic;
mod error;
mod literal;
mod mode;
mod named;
mod process;
mod replies;
mod resident;
mod script;
mod tool;
mod verdict;

pub(crate) use checking::{Checking, ToolCheck, MAX_DECLARED_TOOLS};
pub(crate) use diagnostic::{Counted, Extension, KeyOwner, Kind};
pub use diagnostic::{Diagnostic, Severity};
pub(crate) use error::CheckerError;
pub(crate) use literal::OptionLiteral;
pub use mode::Mode;
pub(crate) use named::{named_toolboxes, reaches_no_host};
pub(crate) use process::{Checked, Checker, Declarations, PendingCheck, DEFAULT_TIMEOUT};
pub(crate) use replies::Replies;
pub(crate) use tool::with_modules;
pub(crate) use verdict::{judge, sort, Known};
// What only the crate's own tests (and the benchmarks) reach.
#[cfg(test)]
pub(crate) use checking::WHOLE_WORLD_TOOLS;
#[cfg(test)]
pub(crate) use literal::{option_literals, RecentLiterals};
#[cfg(test)]
pub(crate) use named::{only_by_name, HOST_GLOBALS};
#[cfg(test)]
pub(crate) use replies::{Recent, MAX_ENTRIES, RECENT};
#[cfg(test)]
pub(crate) use script::ToolCalls;
#[cfg(test)]
pub(crate) use tool::tool_source;
#[cfg(test)]
pub(crate) use verdict::slip;
