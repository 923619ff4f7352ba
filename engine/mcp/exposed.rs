//! `--expose-tools`: every registered tool as its own MCP tool, for clients without code mode.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::{Map, Value};

use super::schema::{input_schema, json_schema, VARARG_PROPERTY};
use crate::assets::{AssetIndex, ToolEntry};
use crate::types::Ty;

/// MCP tool names clients accept widely: `^[A-Za-z0-9_-]{1,64}$` (no dots).
const MAX_NAME: usize = 64;

/// The MCP name of a tool: `<box>__<name>`.
pub fn mcp_name(toolbox: &str, name: &str) -> String {
    format!("{toolbox}__{name}")
}

/// The exposed tools of a snapshot as `tools/list` shows them, by MCP name.
pub fn exposed_tools(index: &AssetIndex) -> BTreeMap<String, Tool> {
    exposed_entries(index)
        .into_iter()
        .map(|(name, entry)| {
            let schema = Arc::new(input_schema(entry.meta()));
            let tool = Tool::new(name.clone(), description(&entry), schema);
            (name, tool)
        })
        .collect()
}

/// The registry entries of the exposed tools, by MCP name: what a call needs, without
/// reading every tool's types into a schema. Unregistered tools are left out, and so is
/// a tool whose MCP name is too long or taken (logged, so an author can rename it).
pub fn exposed_entries(index: &AssetIndex) -> BTreeMap<String, Arc<ToolEntry>> {
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

/// The arguments of an exposed call in parameter order, or a message saying what is wrong
/// (unknown names, missing required ones, a value of the wrong JSON type).
pub fn positional(entry: &ToolEntry, given: &Map<String, Value>) -> Result<Vec<Value>, String> {
    let meta = &entry.meta();
    let params: Vec<&str> = meta.args.iter().map(|a| a.name.as_str()).collect();
    let usage = format!(
        "{} takes {}",
        mcp_name(&meta.toolbox, &meta.name),
        describe_params(entry)
    );
    let takes = |k: &str| params.contains(&k) || (k == VARARG_PROPERTY && meta.vararg.is_some());
    if let Some(unknown) = given.keys().find(|k| !takes(k)) {
        return Err(format!("unknown argument \"{unknown}\"; {usage}"));
    }
    let mut out = Vec::new();
    for arg in &meta.args {
        let ty = Ty::parse(&arg.ty);
        let schema = json_schema(&ty);
        let value = given.get(&arg.name).cloned().unwrap_or(Value::Null);
        if value.is_null() {
            if !ty.accepts_nil() {
                return Err(format!("missing argument \"{}\"; {usage}", arg.name));
            }
        } else if let Some(expected) = schema.get("type").and_then(Value::as_str) {
            if !json_type_matches(expected, &value) {
                return Err(format!(
                    "argument \"{}\" must be a {expected} (Luau type {}), got {}; {usage}",
                    arg.name,
                    arg.ty,
                    json_type(&value)
                ));
            }
        }
        out.push(value);
    }
    match given.get(VARARG_PROPERTY) {
        None | Some(Value::Null) => {}
        Some(Value::Array(rest)) => out.extend(rest.iter().cloned()),
        Some(other) => {
            return Err(format!(
                "argument \"{VARARG_PROPERTY}\" must be an array of the values after the others, got {}; {usage}",
                json_type(other)
            ))
        }
    }
    while out.last().is_some_and(Value::is_null) {
        out.pop();
    }
    Ok(out)
}

fn describe_params(entry: &ToolEntry) -> String {
    let meta = entry.meta();
    let mut params: Vec<String> = meta
        .args
        .iter()
        .map(|a| format!("{}: {}", a.name, a.ty))
        .collect();
    if let Some(vararg) = &meta.vararg {
        params.push(format!("\"{VARARG_PROPERTY}\": {{ {vararg} }}"));
    }
    if params.is_empty() {
        return "no arguments".into();
    }
    params.join(", ")
}

fn json_type_matches(expected: &str, value: &Value) -> bool {
    match expected {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    }
}

/// How a JSON value's type reads in an error message ("a string", "an array").
pub(super) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
