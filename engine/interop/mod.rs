//! tools.json interop: export the world as a tools.json registry, and check one.
//!
//! The format (from the registry document the project follows) names each tool in
//! lowercase-hyphen form; `name::kebab` maps a Luau identity (`text.wordCount`) to it
//! (`text-word-count`). `location` points at the tool's `init.luau`, relative to the
//! directory holding the tools.json file.

mod check;
mod date;
mod export;
mod model;
pub(crate) mod name;
mod paths;

pub(crate) use check::check;
pub(crate) use export::{entry_point, export, tags};

/// Why an export could not be written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InteropError {
    /// Two identities map to the same tools.json name.
    #[error("tool names clash once written lowercase-hyphenated ({0}); rename one of each group")]
    NameClash(String),
}
