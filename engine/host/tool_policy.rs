//! What a call of one tool is held to: its limits, its result cache, and the stamp of its
//! current version (cached results of an older one are not served). Folder tools read it
//! from their metadata, upstream tools from `mcp.json` or `apis.json`.

use crate::assets::{CachePolicy, ToolLimits};

/// A tool's limits and cache, and what identifies its current version.
pub(crate) struct Policy {
    pub(crate) limits: ToolLimits,
    pub(crate) cache: Option<CachePolicy>,
    /// Changes when the tool does (its files' hash; an upstream tool's definition).
    pub(crate) stamp: String,
}
