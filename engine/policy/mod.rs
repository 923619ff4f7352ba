//! What a run is allowed to do: which tools it may see and call, and which host
//! capabilities it gets. A world's `.codemode/policy.json` holds named profiles
//! (`file.rs`); a registry serves one [`Profile`]: its [`ToolRules`] filter the index
//! snapshot and the upstream catalogues the registry hands out, and host capabilities
//! read its [`Capabilities`] from the registry of the running script.

mod capabilities;
mod file;
mod glob;
mod rules;

pub use capabilities::Capabilities;
pub use file::{load, parse, PolicyError, Profile, DEFAULT_PROFILE, MAX_FILE_BYTES, POLICY_FILE};
pub use rules::{Denial, ToolRules, Verdict};
