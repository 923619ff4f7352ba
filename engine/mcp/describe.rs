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
tools.toolboxes() -> tools.list(3, \"box\") -> tools.get(\"box.name\").";

/// The description of `tool_exec`, with the limits filled in.
pub fn tool_exec(limits: &Limits) -> String {
    format!(
        "Run a Luau script that calls tools; returns one JSON envelope \
{{ok, value, stdout, error?, truncated, elapsedMs}}.\n\
Discover: print(tools.toolboxes().stdout); print(tools.list(3, \"box\").stdout) shows signatures, \
args and examples; tools.get(\"box.name\") gives one tool's metadata; tools.help() lists the \
functions of tools itself (tools.help(\"create\") shows one with an example). Discovery calls return \
{{stdout, value}}: stdout to read, value to compute with.\n\
Call: local r = tools.box.name(arg1, arg2) returns the tool's own value; arguments that do not fit \
its signature raise an error saying which.\n\
Author (tools are saved for later calls): tools.createToolbox{{name=\"mine\", description=\"...\"}}; \
tools.create{{toolbox=\"mine\", name=\"shout\", description=\"...\", args={{{{name=\"text\", type=\"string\", \
description=\"...\"}}}}, returns={{type=\"string\", description=\"...\"}}, code=\"return string.upper(text)\"}} \
(code is the function's body; its parameters are the args' names) then call tools.mine.shout(\"hi\"); \
tools.delete(\"mine.shout\"). These return {{ok, error?}}: check ok.\n\
Result: `return x` puts x in value as JSON; print() goes to stdout. On failure ok=false and \
error={{kind, message, line?, hint?}} (kind: syntax, runtime, timeout, memory, output, limit; \
type: a certain mistake at a tool call found by the type check, before anything the script did took effect; denied: the \
policy does not allow it, the message names the rule). Type-check warnings come back in diagnostics.\n\
Limits per call: {} ms, {} MiB memory, {} bytes of output. Each call starts fresh: globals do not \
persist. Sandboxed: no io, no os beyond the clock, no require; vfs.read/write/list reach the world's files.",
        limits.timeout.as_millis(),
        limits.memory_bytes / (1024 * 1024),
        limits.max_output_bytes,
    )
}

/// The description of `search_tools`.
pub const SEARCH_TOOLS: &str = "Find tools by what they do (e.g. \"slug url\"). Returns \
{value: rows, total} with identity, signature, description and relevance p (0 to 1) per row; \
call a hit from \
tool_exec as tools.<box>.<signature> (tools of MCP servers, from mcp:<server>, take one table). \
An empty query lists the catalogue (or one toolbox). \
Rows below the relevance threshold are left out (no rows: nothing fits); all = true returns them too. \
Options: toolbox (only that one), limit (1 to 100, default 10), mode (\"keyword\" or \"semantic\"), all.";

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
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "At most this many rows (default 10)"},
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::registry::Registry;
    use crate::runtime::{Output, Runtime};

    /// A model copies the authoring line of the description as it is; it must work.
    #[test]
    fn the_authoring_calls_in_the_description_work_as_written() {
        let text = tool_exec(&Limits::default());
        let line = text
            .lines()
            .find(|l| l.starts_with("Author"))
            .expect("an Author line");
        let calls: Vec<&str> = line
            .split("; ")
            .map(|part| part.split_once("): ").map_or(part, |(_, call)| call))
            .filter(|part| part.starts_with("tools.create"))
            .map(|part| part.split(" (code is").next().unwrap_or(part))
            .collect();
        assert_eq!(calls.len(), 2, "{line}");
        let script = format!(
            "local box = {}\nassert(box.ok, box.error)\nlocal made = {}\nassert(made.ok, made.error)\nreturn tools.mine.shout('hi')",
            calls[0], calls[1]
        );
        let world = tempfile::tempdir().unwrap();
        let registry = Arc::new(Registry::open(world.path(), &[], false).unwrap());
        let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
        let envelope = runtime.exec(&script, Output::Capture);
        assert_eq!(
            envelope.value,
            Some(json!("HI")),
            "{script}\n{}",
            envelope.to_json()
        );
    }
}
