//! What a tool says about itself, as plain data: its parameters, return, flags and the
//! assembled [`ToolMeta`], and where it was found. Every other file of the folder uses these;
//! this one uses none of them.

use serde::{Deserialize, Serialize};

use super::{CachePolicy, ToolLimits};

/// Where an asset was found. The world shadows the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Origin {
    /// The writable directory the engine is bound to.
    World,
    /// A read-only toolbox folder: bundled or given with `--library`.
    Library,
}

/// One parameter of a tool, merged from the signature and the `--!arg` docstring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Arg {
    /// Parameter name.
    pub name: String,
    /// Luau type as written (the signature wins over the docstring).
    #[serde(rename = "type")]
    pub ty: String,
    /// What the parameter means.
    pub description: String,
    /// True when the type is optional (`T?`).
    pub(crate) optional: bool,
}

/// The `--!return` docstring merged with the signature's return type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Returns {
    /// Luau type as written.
    #[serde(rename = "type")]
    pub ty: String,
    /// What the value means.
    pub description: String,
}

/// A `--!flag NAME [SHORT]` annotation: a boolean set by `--NAME` or `-SHORT`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Flag {
    /// The parameter (or options field) the flag sets.
    pub(crate) name: String,
    /// Optional one-letter alias.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) short: Option<String>,
}

/// Everything the four metadata sources say about one tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ToolMeta {
    /// `"<box>.<name>"`.
    pub identity: String,
    /// The tool's name (folder name without `.tool`).
    pub name: String,
    /// The toolbox's name.
    pub toolbox: String,
    /// `--!desc` lines joined, or the README purpose when there are none.
    pub description: String,
    /// The typed function signature as written, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Parameters in order.
    pub args: Vec<Arg>,
    /// Return value, when documented or typed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<Returns>,
    /// `--!example` lines.
    pub examples: Vec<String>,
    /// Tags from `.metadata`.
    pub tags: Vec<String>,
    /// `--!flag` annotations.
    pub(crate) flags: Vec<Flag>,
    /// `--!rest` parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rest: Option<String>,
    /// The type of a trailing `...` in the signature: the tool takes any number of such
    /// values after its parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vararg: Option<String>,
    /// `status` from `.metadata` (`ready` when absent).
    pub status: String,
    /// First descriptive line of README.md.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    /// True when the folder holds `render.luau`.
    #[serde(rename = "hasRender")]
    pub has_render: bool,
    /// `limits` from `.metadata`: the tool's own budget per call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) limits: Option<ToolLimits>,
    /// `cache` from `.metadata`: how long its results are reused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cache: Option<CachePolicy>,
}
