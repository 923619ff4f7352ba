//! codemode: a code-mode tool engine. Sandboxed Luau scripts drive tools that live as
//! folders on disk; the folders are the registry.
//!
//! - [`assets`] finds and reads toolboxes and tools (the asset index);
//! - [`registry`] holds the roots and the current index snapshot;
//! - [`runtime`] runs scripts in a sandboxed Luau VM with limits and builds the envelope;
//! - [`host`] holds the capabilities handed to the prelude;
//! - [`search`] ranks tools, toolboxes and workflows for `tools.search`;
//!
//! The command line (`engine/cli/`) is a thin binary over this library.

pub mod assets;
pub mod host;
pub mod registry;
pub mod runtime;
pub mod search;

pub use registry::Registry;
pub use runtime::{Envelope, ErrorKind, Limits, Output, Runtime};
