//! What a run is allowed to do: which tools it may see and call, and which host
//! capabilities it gets. A world's `.codemode/policy.json` holds named profiles
//! (`file.rs`); a registry serves one [`Profile`]: its [`ToolRules`] filter the index
//! snapshot and the upstream catalogues the registry hands out, and host capabilities
//! read its [`Capabilities`] from the registry of the running script.

mod capabilities;
mod file;
mod glob;
mod rules;

pub(crate) use capabilities::Capabilities;
pub use file::PolicyError;
pub(crate) use file::{load, parse, Profile, MAX_FILE_BYTES, POLICY_FILE};
pub(crate) use rules::{Denial, ToolRules};
