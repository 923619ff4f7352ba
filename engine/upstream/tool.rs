//! One tool of an upstream server as codemode holds it: its names, schemas and how a
//! script calls it. A leaf the catalogue, the server's description and the call all read.

use serde_json::Value;

use super::types::{tool_types, ToolTypes};

/// One upstream tool.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UpstreamTool {
    /// The member name scripts use (`tools.<server>.<name>`): a Luau identifier.
    pub name: String,
    /// The tool's name on the server, sent in `tools/call`.
    pub original: String,
    /// Its `title`, if the server gave one.
    pub title: Option<String>,
    /// Its `description` ("" when the server gave none).
    pub description: String,
    /// Its `inputSchema` (a JSON Schema object).
    pub input_schema: Value,
    /// Its `outputSchema`, when the server declares structured results.
    pub output_schema: Option<Value>,
    /// Its `annotations` (`readOnlyHint`, ...), as the server sent them.
    pub annotations: Option<Value>,
    /// For an operation of an HTTP API, the plan its call follows (see `crate::openapi`).
    pub request: Option<Value>,
}

impl UpstreamTool {
    /// Its arguments and result as Luau types, from its input and output schemas.
    pub(crate) fn types(&self) -> ToolTypes {
        tool_types(&self.input_schema, self.output_schema.as_ref())
    }

    /// How a script calls it, after `tools.<server>.`: `name(args: { a: number }): any`
    /// (MCP tools take one object, so the call takes one table).
    pub(crate) fn signature(&self) -> String {
        self.signature_of(&self.types())
    }

    /// [`UpstreamTool::signature`] from types already read.
    pub(crate) fn signature_of(&self, types: &ToolTypes) -> String {
        format!(
            "{}(args: {}): {}",
            self.name,
            types.args_param(),
            types.returns
        )
    }
}
