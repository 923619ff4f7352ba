//! `--expose-tools`: every registered tool as its own MCP tool, for clients without code mode.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::Value;

use super::schema::input_schema;
use crate::assets::{AssetIndex, ToolEntry};
use crate::upstream::{ServerView, UpstreamTool};

/// MCP tool names clients accept widely: `^[A-Za-z0-9_-]{1,64}$` (no dots).
const MAX_NAME: usize = 64;

/// The MCP name of a tool: `<box>__<name>`.
pub(crate) fn mcp_name(toolbox: &str, name: &str) -> String {
    format!("{toolbox}__{name}")
}

/// The exposed tools of a snapshot and of the `upstream` servers' cached catalogues, as
/// `tools/list` shows them, by MCP name.
pub(crate) fn exposed_tools(index: &AssetIndex, upstream: &[ServerView]) -> BTreeMap<String, Tool> {
    let entries = exposed_entries(index);
    let mut tools: BTreeMap<String, Tool> = entries
        .iter()
        .map(|(name, entry)| {
            let schema = Arc::new(input_schema(entry.meta()));
            let tool = Tool::new(name.clone(), description(entry), schema);
            (name.clone(), tool)
        })
        .collect();
    for (name, (server, tool)) in exposed_upstream(upstream, &entries) {
        // The server's own schema: it checks the arguments itself.
        let schema = match &tool.input_schema {
            Value::Object(map) => map.clone(),
            _ => serde_json::Map::new(),
        };
        let mut text = format!("tools.{server}.{}", tool.signature());
        if !tool.description.is_empty() {
            text.push_str(": ");
            text.push_str(&tool.description);
        }
        text.push_str(&format!(" (from the MCP server '{server}')"));
        tools.insert(name.clone(), Tool::new(name, text, Arc::new(schema)));
    }
    tools
}

/// The exposed tools of upstream servers by MCP name (`<server>__<tool>`), with their
/// server's toolbox name; a name that is too long or already `taken` by a folder tool is
/// left out (logged).
pub(crate) fn exposed_upstream<'a>(
    upstream: &'a [ServerView],
    taken: &BTreeMap<String, Arc<ToolEntry>>,
) -> BTreeMap<String, (&'a str, &'a UpstreamTool)> {
    let mut out = BTreeMap::new();
    for view in upstream {
        for tool in view.tools() {
            let name = mcp_name(&view.name, &tool.name);
            if name.len() > MAX_NAME || taken.contains_key(&name) || out.contains_key(&name) {
                tracing::warn!(
                    "not exposing {}.{} as an MCP tool: the name {name} is longer than {MAX_NAME} characters or already taken",
                    view.name,
                    tool.name
                );
                continue;
            }
            out.insert(name, (view.name.as_str(), tool));
        }
    }
    out
}

/// The registry entries of the exposed tools, by MCP name: what a call needs, without
/// reading every tool's types into a schema. Unregistered tools are left out, and so is
/// a tool whose MCP name is too long or taken (logged, so an author can rename it).
pub(crate) fn exposed_entries(index: &AssetIndex) -> BTreeMap<String, Arc<ToolEntry>> {
    let mut out = BTreeMap::new();
    for entry in index.tools.values() {
        if !entry.is_registered() {
            continue;
        }
        let meta = &entry.meta();
        let name = mcp_name(&meta.toolbox, &meta.name);
        if name.len() > MAX_NAME || out.contains_key(&name) {
            tracing::warn!(
                "not exposing {} as an MCP tool: the name {name} is longer than {MAX_NAME} characters or already taken",
                meta.identity
            );
            continue;
        }
        out.insert(name, entry.clone());
    }
    out
}

/// The signature, the description and the examples, on a few lines.
fn description(entry: &ToolEntry) -> String {
    let meta = &entry.meta();
    let mut text = format!("tools.{}", meta.identity);
    match &meta.signature {
        Some(sig) => text = format!("tools.{}.{sig}", meta.toolbox),
        None => text.push_str("(...)"),
    }
    if !meta.description.is_empty() {
        text.push_str(": ");
        text.push_str(&meta.description);
    }
    if let Some(r) = &meta.returns {
        text.push_str(&format!("\nReturns {}", r.ty));
        if !r.description.is_empty() {
            text.push_str(&format!(": {}", r.description));
        }
    }
    for e in meta.examples.iter().take(2) {
        text.push_str(&format!("\ne.g. {e}"));
    }
    text
}
