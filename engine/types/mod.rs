//! Luau types: the one model of a type a tool declares ([`Ty`], read by [`Ty::parse`]).
//!
//! Every surface judges a tool's types from the same [`Ty`]: `tools.bind` and command
//! lines check values against it, `--expose-tools` makes JSON Schema of it, and the
//! definition file `codemode types` writes prints it (see `sanitize`).

mod known;
mod model;
mod read;
mod sanitize;

pub use known::{type_problem, KNOWN_TYPES};
pub use model::{Callback, Field, Ty};
pub use read::Slot;
pub use sanitize::declarable;
