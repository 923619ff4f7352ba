//! JSON Schema for a tool's parameters, derived from the Luau types of its signature.
//!
//! The mapping is conservative: a type it cannot express exactly (a named type, a
//! function, a generic) becomes `{}` (anything), so a schema never refuses a call the
//! tool itself would accept.

use serde_json::{json, Map, Value};

use crate::assets::ToolMeta;

/// The `inputSchema` object for a tool: one property per parameter, in order;
/// parameters whose type is not optional are required.
pub fn input_schema(meta: &ToolMeta) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for arg in &meta.args {
        if arg.name == "..." {
            continue;
        }
        let (mut schema, optional) = luau_type(&arg.ty);
        if !arg.description.is_empty() {
            if let Value::Object(map) = &mut schema {
                map.insert("description".into(), Value::String(arg.description.clone()));
            }
        }
        properties.insert(arg.name.clone(), schema);
        if !optional && !arg.optional {
            required.push(Value::String(arg.name.clone()));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema
}

/// True for a type string this module's recursive reading should not enter: the reading
/// recurses once per bracket and `?`, on the caller's stack. No real type comes near.
fn nests_deeply(ty: &str) -> bool {
    ty.chars().filter(|c| "{([<?".contains(*c)).count() > 64
}

/// The schema for one Luau type, and whether the type admits `nil`. A type nested too
/// deeply to read is anything (`{}`).
pub fn luau_type(ty: &str) -> (Value, bool) {
    if nests_deeply(ty) {
        return (json!({}), false);
    }
    read_type(ty)
}

fn read_type(ty: &str) -> (Value, bool) {
    let ty = ty.trim();
    if ty.is_empty() {
        return (json!({}), false);
    }
    let parts = split_top(ty, '|');
    if parts.len() > 1 {
        let mut optional = false;
        let mut options = Vec::new();
        for part in parts {
            let (schema, opt) = read_type(part);
            optional |= opt;
            if part.trim() == "nil" {
                continue;
            }
            if schema == json!({}) {
                // One unconstrained member makes the whole union unconstrained.
                return (json!({}), optional);
            }
            options.push(schema);
        }
        return match options.len() {
            0 => (json!({}), true),
            1 => (options.remove(0), optional),
            _ => (merge_union(options), optional),
        };
    }
    if let Some(inner) = ty.strip_suffix('?') {
        return (read_type(inner).0, true);
    }
    if let Some(inner) = ty.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        if !inner.contains("->") && balanced(inner) {
            return read_type(inner);
        }
    }
    if ty.contains("->") {
        return (json!({}), false);
    }
    let schema = match ty {
        "string" => json!({"type": "string"}),
        "number" => json!({"type": "number"}),
        "boolean" => json!({"type": "boolean"}),
        "true" | "false" => json!({"type": "boolean", "const": ty == "true"}),
        "nil" => return (json!({"type": "null"}), true),
        "table" => json!({"type": ["object", "array"]}),
        _ if is_string_literal(ty) => json!({"type": "string", "const": &ty[1..ty.len() - 1]}),
        _ if ty.starts_with('{') && ty.ends_with('}') => table(&ty[1..ty.len() - 1]),
        _ => json!({}),
    };
    (schema, false)
}

/// `{ T }` is an array, `{ [K]: V }` a map, `{ a: T, b: U }` a record.
fn table(body: &str) -> Value {
    let body = body.trim();
    if body.is_empty() {
        return json!({"type": ["object", "array"]});
    }
    if let Some(rest) = body.strip_prefix('[') {
        let Some(close) = matching_close(rest) else {
            return json!({"type": "object"});
        };
        let value_ty = rest[close + 1..].trim_start().trim_start_matches(':');
        return json!({"type": "object", "additionalProperties": read_type(value_ty).0});
    }
    let fields = split_top(body, ',')
        .into_iter()
        .flat_map(|f| split_top(f, ';'))
        .filter(|f| !f.trim().is_empty())
        .collect::<Vec<_>>();
    let is_record = fields.iter().all(|f| field(f).is_some());
    if !is_record {
        return match fields.as_slice() {
            [one] => json!({"type": "array", "items": read_type(one).0}),
            _ => json!({"type": ["object", "array"]}),
        };
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for f in fields {
        let Some((name, ty)) = field(f) else { continue };
        let (schema, optional) = read_type(ty);
        properties.insert(name.to_string(), schema);
        if !optional {
            required.push(json!(name));
        }
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    schema
}

/// `name: type` of a record field (with an optional `read`/`write` modifier).
fn field(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    let text = text
        .strip_prefix("read ")
        .or_else(|| text.strip_prefix("write "))
        .unwrap_or(text)
        .trim_start();
    let colon = text.find(':')?;
    let name = text[..colon].trim();
    let ok = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    ok.then(|| (name, text[colon + 1..].trim()))
}

/// Union members all of one `type` with `const`s become an `enum`; otherwise `anyOf`.
fn merge_union(options: Vec<Value>) -> Value {
    let consts: Option<Vec<Value>> = options.iter().map(|o| o.get("const").cloned()).collect();
    let same_type = options
        .windows(2)
        .all(|w| w[0].get("type") == w[1].get("type"));
    match consts {
        Some(values) if same_type => json!({"type": options[0]["type"], "enum": values}),
        _ => json!({ "anyOf": options }),
    }
}

fn is_string_literal(ty: &str) -> bool {
    ty.len() >= 2
        && ((ty.starts_with('"') && ty.ends_with('"'))
            || (ty.starts_with('\'') && ty.ends_with('\'')))
}

/// Splits at `sep` outside brackets, parentheses and quotes.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0usize);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '(' | '[' | '<') => depth += 1,
            (None, '}' | ')' | ']' | '>') => depth -= 1,
            (None, c) if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// True when brackets in `text` balance (so `(a) | (b)` is not read as one group).
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Index of the `]` closing an opened `[` at the start of `rest`.
fn matching_close(rest: &str) -> Option<usize> {
    let mut depth = 1i32;
    for (i, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_types_read_as_anything() {
        for ty in [
            format!("string{}", "?".repeat(100_000)),
            format!("{}string{}", "{".repeat(100_000), "}".repeat(100_000)),
        ] {
            assert!(nests_deeply(&ty));
        }
        assert!(!nests_deeply("{ name: string?, tags: { string }? }?"));
    }

    #[test]
    fn primitives_and_optionals() {
        assert_eq!(luau_type("string"), (json!({"type": "string"}), false));
        assert_eq!(luau_type("number?"), (json!({"type": "number"}), true));
        assert_eq!(
            luau_type("boolean | nil"),
            (json!({"type": "boolean"}), true)
        );
    }

    #[test]
    fn tables() {
        assert_eq!(
            luau_type("{string}").0,
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(
            luau_type("{ [string]: number }").0,
            json!({"type": "object", "additionalProperties": {"type": "number"}})
        );
        assert_eq!(
            luau_type("{ sep: string?, max: number }?"),
            (
                json!({"type": "object", "properties": {"sep": {"type": "string"}, "max": {"type": "number"}}, "required": ["max"]}),
                true
            )
        );
    }

    #[test]
    fn literals_become_enums_and_unknowns_anything() {
        assert_eq!(
            luau_type("\"keyword\" | \"semantic\"").0,
            json!({"type": "string", "enum": ["keyword", "semantic"]})
        );
        assert_eq!(luau_type("Options").0, json!({}));
        assert_eq!(luau_type("(string) -> number").0, json!({}));
        assert_eq!(luau_type("string | Custom").0, json!({}));
        assert_eq!(
            luau_type("string | number").0,
            json!({"anyOf": [{"type": "string"}, {"type": "number"}]})
        );
    }
}
