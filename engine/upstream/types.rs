//! JSON Schema to Luau type text, for an upstream tool's arguments (`inputSchema`
//! properties) and result (`outputSchema`).
//!
//! Objects become `{ a: T, b: U? }` (optional unless `required`), arrays `{ T }`, string
//! enums unions of string literals, `["string", "null"]` `string?`, unions (`anyOf`,
//! `oneOf`, type lists) `A | B`, local `$ref`s (`#/$defs/X`, `#/definitions/X`) the type
//! they point at. Anything else is `any`. Schemas come from servers nobody here wrote,
//! so reading is bounded: nesting past [`MAX_DEPTH`], more than `MAX_MEMBERS`
//! properties or alternatives, or a type text past `MAX_TYPE_BYTES` becomes `any`.

use serde_json::Value;

use super::names::is_identifier;

/// Deepest nesting read (objects, arrays, unions and `$ref`s all count).
pub(crate) const MAX_DEPTH: usize = 8;
/// Most properties of one object, or alternatives of one union, spelled out.
pub(crate) const MAX_MEMBERS: usize = 64;
/// Longest type text for one argument or result.
pub(crate) const MAX_TYPE_BYTES: usize = 4 * 1024;

/// One argument of an upstream tool: a property of its input schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgType {
    /// The property's name (as the server spells it; the key in the argument table).
    pub name: String,
    /// Its Luau type, without the `?` of an optional argument.
    pub luau_type: String,
    /// Its `description`.
    pub description: Option<String>,
    /// True unless the schema lists it in `required`.
    pub optional: bool,
}

/// The Luau view of one upstream tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolTypes {
    /// Its arguments, in the schema's order.
    pub args: Vec<ArgType>,
    /// The type of its result: from `outputSchema` when there is one (the structured
    /// result), else `any` (text, or a list of content items).
    pub returns: String,
    /// The `description` of the output schema, if any.
    pub returns_description: Option<String>,
}

impl ToolTypes {
    /// The type of the one table a call takes: [`ToolTypes::args_table`], optional (`?`)
    /// when no field is required, so a tool that needs nothing is called as `tool()`.
    pub(crate) fn args_param(&self) -> String {
        let table = self.args_table();
        if self.args.iter().any(|a| !a.optional) {
            table
        } else {
            format!("{table}?")
        }
    }

    /// The whole argument table as one Luau type: `{ path: string, head: number? }`.
    pub(crate) fn args_table(&self) -> String {
        if self.args.is_empty() {
            return "{}".to_string();
        }
        let fields: Vec<String> = self
            .args
            .iter()
            .map(|a| field(&a.name, &a.luau_type, a.optional))
            .collect();
        format!("{{ {} }}", fields.join(", "))
    }
}

/// The argument and result types of a tool with these schemas.
pub(crate) fn tool_types(input_schema: &Value, output_schema: Option<&Value>) -> ToolTypes {
    let reader = Reader { root: input_schema };
    let required = required(input_schema);
    let args = input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .take(MAX_MEMBERS)
                .map(|(name, schema)| ArgType {
                    name: name.clone(),
                    luau_type: bounded(reader.luau(schema, 1)),
                    description: schema
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    optional: !required.contains(&name.as_str()),
                })
                .collect()
        })
        .unwrap_or_default();
    let (returns, returns_description) = match output_schema {
        Some(schema) => (
            bounded(Reader { root: schema }.luau(schema, 0)),
            schema
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
        ),
        None => ("any".to_string(), None),
    };
    ToolTypes {
        args,
        returns,
        returns_description,
    }
}

/// The Luau type of one schema (its own `$ref`s resolved against itself).
#[cfg(test)]
pub(crate) fn luau_type(schema: &Value) -> String {
    bounded(Reader { root: schema }.luau(schema, 0))
}

fn bounded(text: String) -> String {
    if text.len() > MAX_TYPE_BYTES {
        "any".to_string()
    } else {
        text
    }
}

fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

struct Reader<'a> {
    root: &'a Value,
}

impl Reader<'_> {
    fn luau(&self, schema: &Value, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "any".into();
        }
        let Value::Object(fields) = schema else {
            // `true` (anything) and `false` (nothing) schemas, or garbage.
            return "any".into();
        };
        if let Some(target) = fields.get("$ref").and_then(Value::as_str) {
            return match self.resolve(target) {
                Some(resolved) => self.luau(resolved, depth + 1),
                None => "any".into(),
            };
        }
        if let Some(value) = fields.get("const") {
            return literal(value).unwrap_or_else(|| "any".into());
        }
        if let Some(Value::Array(options)) = fields.get("enum") {
            let literals: Option<Vec<String>> =
                options.iter().take(MAX_MEMBERS + 1).map(literal).collect();
            return match literals {
                Some(l) if !l.is_empty() && l.len() <= MAX_MEMBERS => union(l),
                // Numbers (Luau has no number literals), tables or too many values: the
                // types of the values, whatever `type` says (a server that lists `5`
                // among a string's values takes it), never narrower than the list.
                _ => union(value_types(options)),
            };
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(options)) = fields.get(key) {
                if options.len() > MAX_MEMBERS {
                    return "any".into();
                }
                return union(options.iter().map(|o| self.luau(o, depth + 1)).collect());
            }
        }
        self.by_type(fields, depth)
    }

    fn by_type(&self, fields: &serde_json::Map<String, Value>, depth: usize) -> String {
        match fields.get("type") {
            Some(Value::String(t)) => self.single(t, fields, depth),
            Some(Value::Array(types)) if types.len() <= MAX_MEMBERS => union(
                types
                    .iter()
                    .map(|t| match t.as_str() {
                        Some(t) => self.single(t, fields, depth),
                        None => "any".into(),
                    })
                    .collect(),
            ),
            // No type: an object if it has properties, else anything.
            _ if fields.contains_key("properties") => self.single("object", fields, depth),
            _ => "any".into(),
        }
    }

    fn single(&self, t: &str, fields: &serde_json::Map<String, Value>, depth: usize) -> String {
        match t {
            "string" => "string".into(),
            "number" | "integer" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "nil".into(),
            "array" => match fields.get("items") {
                Some(items @ Value::Object(_)) => format!("{{ {} }}", self.luau(items, depth + 1)),
                _ => "{ any }".into(),
            },
            "object" => self.object(fields, depth),
            _ => "any".into(),
        }
    }

    fn object(&self, fields: &serde_json::Map<String, Value>, depth: usize) -> String {
        let props = fields.get("properties").and_then(Value::as_object);
        let extra = fields.get("additionalProperties");
        match props {
            Some(props) if !props.is_empty() => {
                if props.len() > MAX_MEMBERS {
                    return "{ [string]: any }".into();
                }
                let required: Vec<&str> = fields
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let members: Vec<String> = props
                    .iter()
                    .map(|(name, schema)| {
                        field(
                            name,
                            &self.luau(schema, depth + 1),
                            !required.contains(&name.as_str()),
                        )
                    })
                    .collect();
                format!("{{ {} }}", members.join(", "))
            }
            _ => match extra {
                Some(schema @ Value::Object(_)) => {
                    format!("{{ [string]: {} }}", self.luau(schema, depth + 1))
                }
                _ => "{ [string]: any }".into(),
            },
        }
    }

    /// A local reference: `#`, `#/$defs/Name`, `#/definitions/Name` (JSON Pointer).
    fn resolve(&self, target: &str) -> Option<&Value> {
        let pointer = target.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        self.root.pointer(pointer)
    }
}

/// `name: T` or `name: T?`; names that are not identifiers are quoted (`["a-b"]: T`).
fn field(name: &str, ty: &str, optional: bool) -> String {
    let key = if is_identifier(name) {
        name.to_string()
    } else {
        format!("[{}]", quote(name))
    };
    if optional {
        format!("{key}: {}", optional_type(ty))
    } else {
        format!("{key}: {ty}")
    }
}

/// `T?`, with parentheses around a union and without doubling a `?`.
fn optional_type(ty: &str) -> String {
    if ty == "any" || ty.ends_with('?') {
        ty.to_string()
    } else if ty.contains(" | ") && !(ty.starts_with('{') && ty.ends_with('}')) {
        format!("({ty})?")
    } else {
        format!("{ty}?")
    }
}

/// Joins alternatives: `nil` among them makes the rest optional; `any` swallows all.
fn union(options: Vec<String>) -> String {
    let mut nullable = false;
    let mut kept: Vec<String> = Vec::new();
    for option in options {
        if option == "any" {
            return "any".into();
        }
        if option == "nil" {
            nullable = true;
            continue;
        }
        let option = match option.strip_suffix('?') {
            Some(inner) => {
                nullable = true;
                inner
                    .strip_prefix('(')
                    .and_then(|i| i.strip_suffix(')'))
                    .unwrap_or(inner)
                    .to_string()
            }
            None => option,
        };
        if !kept.contains(&option) {
            kept.push(option);
        }
    }
    let joined = match kept.len() {
        0 => return "nil".into(),
        1 => kept.remove(0),
        _ => kept.join(" | "),
    };
    if nullable {
        optional_type(&joined)
    } else {
        joined
    }
}

/// The Luau types of `values` (an enum's), each once: `any` for an empty list or one
/// holding arrays or objects.
fn value_types(values: &[Value]) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    for value in values {
        let ty = match value {
            Value::String(_) => "string",
            Value::Number(_) => "number",
            Value::Bool(_) => "boolean",
            Value::Null => "nil",
            Value::Array(_) | Value::Object(_) => return vec!["any".into()],
        };
        if !types.iter().any(|t| t == ty) {
            types.push(ty.into());
        }
    }
    if types.is_empty() {
        return vec!["any".into()];
    }
    types
}

/// A Luau singleton type for a JSON value: strings and booleans only (Luau has no number
/// literal types).
fn literal(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.len() <= 200 && !s.chars().any(char::is_control) => Some(quote(s)),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => Some("nil".into()),
        _ => None,
    }
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/types.rs"]
mod tests;
