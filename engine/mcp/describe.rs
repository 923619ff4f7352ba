//! What the server tells a model: the instructions and the two tools' descriptions.
//! They teach code mode in few tokens; the limits quoted are the server's own.

use serde_json::{json, Map, Value};

use crate::sandbox::Limits;
use crate::search::MAX_LIMIT;

/// Server instructions, sent at initialize / discover.
pub(crate) const INSTRUCTIONS: &str =
    "Code mode: instead of one tool call per step, write a short Luau \
script and run it with tool_exec; inside it call tools as tools.<box>.<name>(...), loop, filter \
and return only what you need. Find tools with search_tools, or in a script with \
tools.toolboxes() -> tools.list(\"box\", 3) -> tools.get(\"box.name\").";

/// The most bytes the list of toolboxes adds to `tool_exec`'s description; past it the
/// line ends with how many more there are.
const MAX_TOOLBOX_LINE: usize = 280;

/// The description of `tool_exec`, with the limits filled in and the `toolboxes` a script
/// may call (an MCP server's marked so), so a model knows at once what is there and a
/// server added while serving shows (with `tools/list_changed`). Kept under 1,500 bytes
/// (a test holds it there): it is read on every conversation's first screen.
pub(crate) fn tool_exec(limits: &Limits, toolboxes: &[(String, bool)]) -> String {
    let mut text = tool_exec_body(limits);
    text.push_str(&toolbox_line(toolboxes));
    text
}

/// `Toolboxes: a, b, files (MCP)`, cut at [`MAX_TOOLBOX_LINE`] bytes.
fn toolbox_line(toolboxes: &[(String, bool)]) -> String {
    if toolboxes.is_empty() {
        return String::new();
    }
    let mut line = String::from("\nToolboxes:");
    for (at, (name, mcp)) in toolboxes.iter().enumerate() {
        let item = format!(" {name}{}", if *mcp { " (MCP)" } else { "" });
        let left = toolboxes.len() - at;
        if line.len() + item.len() + 40 > MAX_TOOLBOX_LINE && left > 1 {
            line.push_str(&format!(" and {left} more (tools.toolboxes())"));
            return line;
        }
        line.push_str(&item);
        if left > 1 {
            line.push(',');
        }
    }
    line.push('.');
    line
}

fn tool_exec_body(limits: &Limits) -> String {
    format!(
        "Run a Luau script that calls tools; returns one JSON envelope \
{{ok, value, stdout, error?, truncated, elapsedMs}}.\n\
Find: print(tools.list(\"box\", 3)) (signatures, examples; tools.toolboxes() lists boxes); \
tools.get(\"box.name\"); tools.help(\"create\").\n\
Call: tools.box.name(a, b) returns the tool's value. MCP servers (the operator's .codemode/mcp.json) are toolboxes too, taking one table: \
tools.server.tool({{key = v}}). Side by side: tools.parallel({{function() return tools.s.a({{}}) end, \
function() return tools.s.b({{}}) end}}) -> {{{{ok, value?, error?}}}}.\n\
Author: tools.createToolbox{{name=\"mine\", description=\"...\"}}; \
tools.create{{toolbox=\"mine\", name=\"shout\", description=\"...\", args={{{{name=\"text\", type=\"string\", \
description=\"...\"}}}}, code=\"return string.upper(text)\"}} then tools.mine.shout(\"hi\"). \
Both save at once and return {{ok, error?}}; to change a bundled tool, tools.install(\"box\") first.\n\
Result: return x -> value (JSON); print -> stdout. On failure error={{kind, message, line?, hint?}}; \
kind type = a certain mistake found before anything ran; denied = policy.\n\
Limits: {} ms, {} MiB, {} output bytes. Each call starts fresh; no io/require (os: clock, time, date); vfs.read/write/list \
reach the world's files.",
        limits.timeout.as_millis(),
        limits.memory_bytes / (1024 * 1024),
        limits.max_output_bytes,
    )
}

/// The description of `search_tools`.
pub(crate) const SEARCH_TOOLS: &str = "Find tools by what they do (e.g. \"slug url\"). Returns \
{value: rows, total} with identity, signature, description and relevance p (0 to 1) per row; \
call a hit from \
tool_exec as tools.<box>.<signature> (tools of MCP servers, from mcp:<server>, take one table). \
An empty query lists the catalogue (or one toolbox). \
Rows below the relevance threshold are left out (no rows: nothing fits); all = true returns them too. \
Options: toolbox (only that one), limit (1 to 100; default 5, a listing 10), mode (\"keyword\" or \"semantic\"), all.";

/// `inputSchema` of `tool_exec`.
pub(crate) fn tool_exec_schema() -> Map<String, Value> {
    object(json!({
        "type": "object",
        "properties": {
            "script": {
                "type": "string",
                "description": "Luau source, e.g. return tools.text.slugify(\"Hello World\")"
            }
        },
        "required": ["script"]
    }))
}

/// `outputSchema` of `tool_exec`: the envelope, loosely (fields may be added later).
pub(crate) fn envelope_schema() -> Map<String, Value> {
    object(json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "value": {},
            "stdout": {"type": "string"},
            "error": {"type": "object"},
            "truncated": {"type": "boolean"},
            "elapsedMs": {"type": "number"}
        },
        "required": ["ok", "stdout"]
    }))
}

/// `outputSchema` of `search_tools`: the rows a search answers, and how many matched.
pub(crate) fn search_result_schema() -> Map<String, Value> {
    object(json!({
        "type": "object",
        "properties": {
            "value": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "identity": {"type": "string"},
                        "kind": {"type": "string", "enum": ["tool", "toolbox", "workflow", "function"]},
                        "signature": {"type": "string"},
                        "description": {"type": "string"},
                        "p": {"type": "number"},
                        "from": {"type": "string"},
                        "install": {"type": "string"},
                        "registered": {"type": "boolean"}
                    },
                    "required": ["identity", "kind", "description"]
                }
            },
            "total": {"type": "integer"},
            "note": {"type": "string"}
        },
        "required": ["value", "total"]
    }))
}

/// `inputSchema` of `search_tools`.
pub(crate) fn search_tools_schema() -> Map<String, Value> {
    object(json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words describing the job; empty lists the catalogue"},
            "toolbox": {"type": "string", "description": "Search only this toolbox"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "At most this many rows (default 5; a listing 10)"},
            "mode": {"type": "string", "enum": ["keyword", "semantic"]},
            "all": {"type": "boolean", "description": "Also rows below the relevance threshold (default false: no rows means nothing fits)"}
        },
        "required": ["query"]
    }))
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The toolboxes a script of `index` may call, by name, each marked when an MCP server
/// stands behind it.
pub(crate) fn toolboxes(
    index: &crate::assets::AssetIndex,
    upstream: &[crate::upstream::ServerView],
) -> Vec<(String, bool)> {
    let mut names: Vec<(String, bool)> = index
        .toolbox_names()
        .into_iter()
        .map(|n| (n.to_string(), false))
        .collect();
    names.extend(upstream.iter().map(|v| (v.name.clone(), true)));
    names.sort();
    names.dedup_by(|a, b| a.0 == b.0);
    names
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/describe.rs"]
mod tests;
