//! An OpenAPI schema made into a self-contained JSON Schema, which the engine's type model
//! (`crate::upstream::types`) and argument check read as they read an MCP tool's:
//! local `$ref`s inlined (a cycle, or nesting past a bound, becomes `{}`, anything),
//! `allOf` merged into one object, 3.0's `nullable: true` written as `type: [T, "null"]`,
//! `readOnly` properties left out of what a call sends and `writeOnly` ones out of what it
//! returns. A description can nest schemas without end (GitHub's repository holds its
//! owner, who holds repositories...), so each schema made is held to a node budget, past
//! which a part is `{}`: the types stay readable and the cache small.

use serde_json::{Map, Value};

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// What a call sends: `readOnly` properties are left out; descriptions kept.
    Input,
    /// What a call returns: `writeOnly` properties are left out; only the top description
    /// kept (the type of a result shows no per-field text).
    Output,
}

/// Most nested levels (objects, arrays, unions) spelled out.
const MAX_DEPTH: usize = 6;

/// Most characters of one description kept.
const MAX_DESCRIPTION: usize = 400;

/// Keywords copied as they are (their values hold no schema).
const PLAIN: [&str; 16] = [
    "type",
    "enum",
    "const",
    "format",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "multipleOf",
    "required",
];

/// Makes schemas of one document self-contained.
pub(crate) struct Inliner<'a> {
    root: &'a Value,
    side: Side,
    /// Nodes left to make for the current schema.
    budget: usize,
    /// The `$ref`s being inlined, outermost first (a cycle stops at the second visit).
    refs: Vec<String>,
}

impl<'a> Inliner<'a> {
    /// An inliner over `root` (the whole document) for `side`.
    pub(crate) fn new(root: &'a Value, side: Side) -> Self {
        Inliner {
            root,
            side,
            budget: 0,
            refs: Vec::new(),
        }
    }

    /// `schema` made self-contained, within `budget` nodes.
    pub(crate) fn inline(&mut self, schema: &Value, budget: usize) -> Value {
        self.budget = budget;
        self.refs.clear();
        self.walk(schema, 0, true)
    }

    /// The target of a local `$ref` (`#/components/schemas/Pet`).
    pub(crate) fn resolve(&self, pointer: &str) -> Option<&'a Value> {
        let path = pointer.strip_prefix('#')?;
        let path = path.replace("~1", "/").replace("~0", "~");
        let path = percent_encoding::percent_decode_str(&path)
            .decode_utf8()
            .ok()?;
        self.root.pointer(&path)
    }

    fn walk(&mut self, schema: &Value, depth: usize, top: bool) -> Value {
        let Value::Object(fields) = schema else {
            // `true`, `false` or garbage: anything.
            return Value::Object(Map::new());
        };
        if self.budget == 0 || depth > MAX_DEPTH {
            return Value::Object(Map::new());
        }
        self.budget -= 1;
        if let Some(pointer) = fields.get("$ref").and_then(Value::as_str) {
            if self.refs.iter().any(|r| r == pointer) {
                return Value::Object(Map::new());
            }
            let Some(target) = self.resolve(pointer) else {
                return Value::Object(Map::new());
            };
            self.refs.push(pointer.to_string());
            let mut out = self.walk(target, depth, top);
            self.refs.pop();
            // 3.1 lets a `$ref` carry its own description beside it.
            if let (Some(Value::String(own)), Value::Object(map)) =
                (fields.get("description"), &mut out)
            {
                if self.side == Side::Input || top {
                    map.insert(
                        "description".into(),
                        Value::String(cut(own, MAX_DESCRIPTION)),
                    );
                }
            }
            return out;
        }
        if let Some(Value::Array(parts)) = fields.get("allOf") {
            return self.merged(fields, parts, depth, top);
        }
        let mut out = Map::new();
        for key in PLAIN {
            if let Some(value) = fields.get(key) {
                out.insert(key.to_string(), value.clone());
            }
        }
        if let Some(Value::String(text)) = fields.get("description") {
            if self.side == Side::Input || top {
                out.insert(
                    "description".into(),
                    Value::String(cut(text, MAX_DESCRIPTION)),
                );
            }
        }
        if fields.get("nullable") == Some(&Value::Bool(true)) {
            match out.get("type").cloned() {
                Some(Value::String(t)) => {
                    out.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
                }
                Some(Value::Array(mut types)) if !types.iter().any(|t| t == "null") => {
                    types.push("null".into());
                    out.insert("type".into(), Value::Array(types));
                }
                _ => {}
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(options)) = fields.get(key) {
                let made: Vec<Value> = options
                    .iter()
                    .map(|o| self.walk(o, depth + 1, false))
                    .collect();
                out.insert(key.into(), Value::Array(made));
            }
        }
        if let Some(items) = fields.get("items") {
            out.insert("items".into(), self.walk(items, depth + 1, false));
        }
        if let Some(Value::Object(properties)) = fields.get("properties") {
            let mut made = Map::new();
            let mut dropped = Vec::new();
            for (name, property) in properties {
                if self.hidden(property) {
                    dropped.push(name.as_str());
                    continue;
                }
                made.insert(name.clone(), self.walk(property, depth + 1, false));
            }
            out.insert("properties".into(), Value::Object(made));
            if let Some(Value::Array(required)) = out.get_mut("required") {
                required.retain(|r| !r.as_str().is_some_and(|r| dropped.contains(&r)));
            }
        }
        match fields.get("additionalProperties") {
            Some(extra @ Value::Object(_)) => {
                let made = self.walk(extra, depth + 1, false);
                out.insert("additionalProperties".into(), made);
            }
            Some(Value::Bool(allowed)) => {
                out.insert("additionalProperties".into(), Value::Bool(*allowed));
            }
            _ => {}
        }
        Value::Object(out)
    }

    /// True for a property the side leaves out (`readOnly` in what is sent, `writeOnly`
    /// in what is returned), `$ref`s followed.
    fn hidden(&self, property: &Value) -> bool {
        let mut property = property;
        for _ in 0..8 {
            match property
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|p| self.resolve(p))
            {
                Some(target) => property = target,
                None => break,
            }
        }
        let flag = match self.side {
            Side::Input => "readOnly",
            Side::Output => "writeOnly",
        };
        property.get(flag) == Some(&Value::Bool(true))
    }

    /// `allOf` as one schema: the parts' properties and required names together, the
    /// other keywords of the first part that has them.
    fn merged(
        &mut self,
        fields: &Map<String, Value>,
        parts: &[Value],
        depth: usize,
        top: bool,
    ) -> Value {
        let mut own = fields.clone();
        own.remove("allOf");
        let mut out = Map::new();
        for part in std::iter::once(&Value::Object(own)).chain(parts) {
            let Value::Object(made) = self.walk(part, depth, top) else {
                continue;
            };
            for (key, value) in made {
                match (key.as_str(), out.get_mut(&key), value) {
                    ("properties", Some(Value::Object(have)), Value::Object(more)) => {
                        have.extend(more)
                    }
                    ("required", Some(Value::Array(have)), Value::Array(more)) => {
                        for name in more {
                            if !have.contains(&name) {
                                have.push(name);
                            }
                        }
                    }
                    (_, Some(_), _) => {}
                    (_, None, value) => {
                        out.insert(key, value);
                    }
                }
            }
        }
        // A part may require a property another part's side leaves out (`readOnly`).
        if self.side == Side::Input {
            if let (Some(Value::Object(properties)), Some(Value::Array(required))) =
                (out.get("properties").cloned(), out.get_mut("required"))
            {
                required.retain(|r| r.as_str().is_some_and(|r| properties.contains_key(r)));
            }
        }
        if out.contains_key("properties") && !out.contains_key("type") {
            out.insert("type".into(), "object".into());
        }
        Value::Object(out)
    }
}

/// `text` cut to `max` characters, with `...` when it was longer.
pub(super) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/openapi/schema.rs"]
mod tests;
