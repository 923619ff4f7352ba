//! The tools.json document: the registry format other agent tooling reads.

use serde::{Deserialize, Serialize};

/// The schema version `codemode registry export` writes.
pub(crate) const SCHEMA_VERSION: &str = "1.0.0";

/// The statuses a tool entry may carry.
pub(crate) const STATUSES: [&str; 3] = ["ready", "planned", "deprecated"];

/// A whole tools.json file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ToolsJson {
    /// Semantic version of the schema.
    pub(crate) version: String,
    /// The tool entries.
    pub tools: Vec<ToolsJsonEntry>,
    /// Optional facts about the registry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) meta: Option<ToolsJsonMeta>,
}

/// One tool of a tools.json file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ToolsJsonEntry {
    /// Unique, lowercase, hyphen-separated name.
    pub(crate) name: String,
    /// One-paragraph description.
    pub(crate) description: String,
    /// Path of the entry point, relative to the directory holding the file.
    pub(crate) location: String,
    /// `ready`, `planned` or `deprecated`.
    pub(crate) status: String,
    /// The operations the tool offers.
    pub(crate) capabilities: Vec<String>,
    /// ISO 639-1 codes of the human languages the tool handles, when it handles any.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub(crate) languages: Vec<String>,
    /// Words a skill loader matches requests against.
    pub(crate) tags: Vec<String>,
}

/// The optional `meta` object.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ToolsJsonMeta {
    /// Path of the repository (here: the world), relative to the file.
    pub(crate) repo: String,
    /// ISO 8601 date the file was written.
    pub(crate) created: String,
    /// What the tools are for.
    pub(crate) purpose: String,
}
