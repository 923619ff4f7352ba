//! A description's operations as tools: one tool per operation, in the shape an MCP
//! server lists its tools (`name`, `title`, `description`, `inputSchema`,
//! `outputSchema`, `annotations`), so the upstream catalogue, its cache and everything
//! that reads it take them as they are; beside them, `x-codemode-request`, the plan a call
//! follows to become an HTTP request (see `request`).
//!
//! The tool's name is the `operationId` (mapped to an identifier by the catalogue, as an
//! MCP tool's is), else the method and the path's words (`get_repos_owner_repo`). It takes
//! one table: path, query and header parameters by name, and the request body's
//! properties beside them when the body is an object whose names no parameter takes
//! (else the whole body as `body`). It returns the JSON body of the first 2xx answer the
//! operation describes.

use serde_json::{json, Map, Value};

use super::schema::{cut, Inliner, Side};
use super::spec::Version;

/// Nodes one input schema may have (see `schema`).
const INPUT_BUDGET: usize = 1500;
/// Nodes one output schema may have: a result's type shows its first fields. The
/// checker loads every tool's declaration at once, and GitHub's 639 reading operations
/// with results of 25 nodes each are already more than it takes ("too complex").
const OUTPUT_BUDGET: usize = 12;
/// Most characters of an operation's description kept: its first paragraph says what it
/// does; the rest (media types, rate limits, fine print) would drown that for search.
const MAX_DESCRIPTION: usize = 400;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// What a description offers.
#[derive(Debug, Clone)]
pub(crate) struct Described {
    /// `title`, `version` and `description` of its `info`, as an MCP server's
    /// `serverInfo` would say them.
    pub about: Value,
    /// The tools, in the description's order.
    pub tools: Vec<Value>,
    /// What was left out, and why.
    pub left_out: Vec<String>,
}

/// The operations of `document` whose methods are among `methods` (upper-case), as tools.
/// With `response` (header names), each answers `{ status, headers, body }`.
pub(crate) fn tools(
    document: &Value,
    _version: Version,
    methods: &[String],
    response: Option<&[String]>,
) -> Described {
    let mut inputs = Inliner::new(document, Side::Input);
    let mut outputs = Inliner::new(document, Side::Output);
    let mut tools = Vec::new();
    let mut left_out = Vec::new();
    let empty = Map::new();
    let paths = document
        .get("paths")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (path, item) in paths {
        let item = follow(&inputs, item);
        let shared = item.get("parameters").and_then(Value::as_array);
        for method in METHODS {
            let Some(operation) = item.get(method).filter(|o| o.is_object()) else {
                continue;
            };
            let upper = method.to_ascii_uppercase();
            if !methods.contains(&upper) {
                left_out.push(format!(
                    "{upper} {path}: {upper} is not among the API's \"methods\""
                ));
                continue;
            }
            let mut made = tool(&mut inputs, &mut outputs, &upper, path, operation, shared);
            if let Some(names) = response {
                whole_answer(&mut made, names);
            }
            tools.push(made);
        }
    }
    let info = document.get("info").cloned().unwrap_or_default();
    let about = json!({
        "title": info.get("title"),
        "version": info.get("version"),
        "description": info.get("summary").or(info.get("description")),
        "instructions": info.get("description"),
    });
    Described {
        about,
        tools,
        left_out,
    }
}

/// A `$ref`'d object (a parameter, a body, a path item), followed.
fn follow<'a>(inliner: &Inliner<'a>, mut value: &'a Value) -> &'a Value {
    for _ in 0..8 {
        match value
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|p| inliner.resolve(p))
        {
            Some(target) => value = target,
            None => break,
        }
    }
    value
}

fn tool(
    inputs: &mut Inliner,
    outputs: &mut Inliner,
    method: &str,
    path: &str,
    operation: &Value,
    shared: Option<&Vec<Value>>,
) -> Value {
    let text = |key: &str| operation.get(key).and_then(Value::as_str).unwrap_or("");
    let name = match text("operationId") {
        "" => fallback_name(method, path),
        id => id.to_string(),
    };
    // Operation parameters override the path's of the same name and place.
    let mut parameters: Vec<&Value> = Vec::new();
    let own = operation.get("parameters").and_then(Value::as_array);
    for parameter in shared
        .into_iter()
        .flatten()
        .chain(own.into_iter().flatten())
    {
        let parameter = follow(inputs, parameter);
        let key = |p: &Value| (p.get("name").cloned(), p.get("in").cloned());
        parameters.retain(|p| key(p) != key(parameter));
        parameters.push(parameter);
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut plan_params = Vec::new();
    for parameter in parameters {
        let (Some(name), Some(place)) = (
            parameter.get("name").and_then(Value::as_str),
            parameter.get("in").and_then(Value::as_str),
        ) else {
            continue;
        };
        if !matches!(place, "path" | "query" | "header") {
            // Cookies are the credentials' business, never a script's.
            continue;
        }
        let key = if properties.contains_key(name) {
            format!("{place}_{name}")
        } else {
            name.to_string()
        };
        let schema = parameter
            .get("schema")
            .or_else(|| {
                parameter
                    .get("content")
                    .and_then(Value::as_object)
                    .and_then(|c| c.values().next())
                    .and_then(|m| m.get("schema"))
            })
            .cloned()
            .unwrap_or_else(|| json!({}));
        let mut made = inputs.inline(&schema, INPUT_BUDGET);
        if let (Some(description), Value::Object(map)) = (
            parameter.get("description").and_then(Value::as_str),
            &mut made,
        ) {
            map.insert("description".into(), description.into());
        }
        if place == "path" || parameter.get("required") == Some(&Value::Bool(true)) {
            required.push(Value::String(key.clone()));
        }
        properties.insert(key.clone(), made);
        let mut plan = json!({"key": key, "name": name, "in": place});
        for extra in ["style", "explode"] {
            if let Some(v) = parameter.get(extra) {
                plan[extra] = v.clone();
            }
        }
        plan_params.push(plan);
    }
    // An argument's documentation is read by the agent and the search index: a link's
    // target is neither's business (its words would count as the argument's).
    for property in properties.values_mut() {
        if let Some(Value::String(text)) = property.get_mut("description") {
            *text = unlink(text);
        }
    }
    let mut body_plan = Value::Null;
    if let Some(body) = operation.get("requestBody") {
        let body = follow(inputs, body);
        let body_required = body.get("required") == Some(&Value::Bool(true));
        if let Some((media, schema)) = media(body) {
            let made = inputs.inline(schema, INPUT_BUDGET);
            let fields = made.get("properties").and_then(Value::as_object);
            let flat = media_is_json(&media)
                && fields.is_some_and(|f| {
                    !f.is_empty() && f.keys().all(|k| !properties.contains_key(k))
                });
            if flat {
                let fields = fields.cloned().unwrap_or_default();
                let keys: Vec<Value> = fields.keys().map(|k| Value::String(k.clone())).collect();
                if body_required {
                    if let Some(Value::Array(names)) = made.get("required") {
                        required.extend(names.iter().cloned());
                    }
                }
                properties.extend(fields);
                body_plan = json!({"type": media, "keys": keys});
            } else {
                let key = if properties.contains_key("body") {
                    "requestBody"
                } else {
                    "body"
                };
                if body_required {
                    required.push(Value::String(key.into()));
                }
                properties.insert(key.into(), made);
                body_plan = json!({"type": media, "key": key});
            }
        }
    }
    let output = operation
        .get("responses")
        .and_then(Value::as_object)
        .and_then(|responses| {
            responses
                .iter()
                .filter(|(code, _)| code.starts_with('2'))
                .find_map(|(_, response)| {
                    let response = follow(outputs, response);
                    response
                        .get("content")
                        .and_then(Value::as_object)?
                        .iter()
                        .find(|(media, _)| media_is_json(media))
                        .and_then(|(_, m)| m.get("schema"))
                })
        })
        .map(|schema| outputs.inline(schema, OUTPUT_BUDGET));
    let summary = text("summary");
    let mut description = String::new();
    let long = unlink(text("description"));
    let long = long.as_str();
    if !summary.is_empty() {
        description.push_str(summary.trim_end_matches('.'));
        description.push('.');
    }
    if !long.is_empty() && long.trim_end_matches('.') != summary.trim_end_matches('.') {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        let first = long.split("\n\n").next().unwrap_or(long).trim();
        description.push_str(&cut(first, MAX_DESCRIPTION));
    }
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    description.push_str(&format!("{method} {path}"));
    if let Some(Value::Array(tags)) = operation.get("tags") {
        let tags: Vec<&str> = tags.iter().filter_map(Value::as_str).collect();
        if !tags.is_empty() {
            description.push_str(&format!(" (tags: {})", tags.join(", ")));
        }
    }
    if operation.get("deprecated") == Some(&Value::Bool(true)) {
        description.push_str(" (deprecated)");
    }
    let reads = matches!(method, "GET" | "HEAD" | "OPTIONS");
    let mut tool = json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": required},
        "annotations": {
            "readOnlyHint": reads,
            "idempotentHint": reads || matches!(method, "PUT" | "DELETE"),
            "destructiveHint": method == "DELETE",
        },
        "x-codemode-request": {"method": method, "path": path, "params": plan_params, "body": body_plan},
    });
    if !summary.is_empty() {
        tool["title"] = summary.into();
    }
    if let Some(output) = output {
        tool["outputSchema"] = output;
    }
    tool
}

/// Makes `tool` answer `{ status, headers, body }` (see `response::whole`): its output
/// type wraps the body's, and its plan says which headers to keep.
fn whole_answer(tool: &mut Value, names: &[String]) {
    let body = tool
        .as_object_mut()
        .and_then(|t| t.remove("outputSchema"))
        .unwrap_or_else(|| json!({}));
    let headers: Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), json!({"type": "string"})))
        .collect();
    tool["outputSchema"] = json!({
        "type": "object",
        "required": ["status", "headers"],
        "properties": {
            "status": {"type": "integer", "description": "the answer's HTTP status"},
            "headers": {"type": "object", "properties": headers,
                        "description": "the headers apis.json names, when the answer had them"},
            "body": body,
        },
    });
    tool["x-codemode-request"]["answer"] = json!({ "headers": names });
}

/// The body's media type and schema: JSON first, then a form, then text.
fn media(body: &Value) -> Option<(String, &Value)> {
    let content = body.get("content")?.as_object()?;
    let pick = |want: &dyn Fn(&str) -> bool| {
        content
            .iter()
            .find(|(media, _)| want(media))
            .map(|(media, m)| (media.clone(), m.get("schema").unwrap_or(&Value::Null)))
    };
    pick(&|m| media_is_json(m))
        .or_else(|| pick(&|m| m == "application/x-www-form-urlencoded"))
        .or_else(|| pick(&|m| m.starts_with("text/")))
}

/// True for `application/json` and its kin (`application/vnd.github+json`).
pub(crate) fn media_is_json(media: &str) -> bool {
    let media = media.split(';').next().unwrap_or("").trim();
    media == "application/json" || media.ends_with("+json") || media == "*/*"
}

/// A name for an operation without an `operationId`: its method and the words of its
/// path (`GET /repos/{owner}/{repo}` is `get_repos_owner_repo`).
fn fallback_name(method: &str, path: &str) -> String {
    let mut name = method.to_ascii_lowercase();
    for word in path.split(|c: char| !c.is_ascii_alphanumeric()) {
        if !word.is_empty() {
            name.push('_');
            name.push_str(&word.to_ascii_lowercase());
        }
    }
    name
}

/// `text` with each Markdown link written as its words (`[Git References](https://...)`
/// is "Git References") and bare URLs left out: a URL's words (`docs github com rest
/// using the rest api`) say nothing of what an operation does, and would rank it for
/// requests it does not answer.
fn unlink(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let (before, after) = rest.split_at(open);
        out.push_str(&drop_urls(before));
        let link = after.find("](").and_then(|mid| {
            let close = after[mid..].find(')')? + mid;
            // A link's words hold no bracket; otherwise it is not a link.
            (!after[1..mid].contains(['[', ']'])).then_some((mid, close))
        });
        match link {
            Some((mid, close)) => {
                out.push_str(&after[1..mid]);
                rest = &after[close + 1..];
            }
            None => {
                out.push('[');
                rest = &after[1..];
            }
        }
    }
    out.push_str(&drop_urls(rest));
    out
}

/// `text` without its `http://` and `https://` URLs.
fn drop_urls(text: &str) -> String {
    text.split(' ')
        .filter(|w| {
            let w = w.trim_start_matches(['(', '"', '<', '\'']);
            !(w.starts_with("http://") || w.starts_with("https://"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[path = "../../tests/unit/openapi/operation.rs"]
mod tests;
