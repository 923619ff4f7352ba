//! JSON Schema for a tool's parameters, made from the type model ([`Ty`]) that
//! `tools.bind` checks against, so a client's schema accepts what binding accepts.
//!
//! JSON and Luau meet through `luau_literal`: `null` is `nil`, and `[]` and `{}` are both
//! the empty table. A type the checker cannot judge (a name defined elsewhere, a generic,
//! `typeof`) and a function type (no JSON value is one) become `{}` (anything), so a
//! schema never refuses a call the tool itself would accept.

use serde_json::{json, Map, Value};

use crate::assets::ToolMeta;
use crate::types::{Field, Ty};

/// The property that carries the values of a trailing `...`, as an array.
pub(crate) const VARARG_PROPERTY: &str = "...";

/// The `inputSchema` object for a tool: one property per parameter, in order (and
/// [`VARARG_PROPERTY`] for a trailing `...`); parameters whose type does not admit `nil`
/// are required, and no other property is taken.
pub(crate) fn input_schema(meta: &ToolMeta) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for arg in &meta.args {
        if arg.name == "..." {
            continue;
        }
        let ty = Ty::parse(&arg.ty);
        properties.insert(
            arg.name.clone(),
            described(json_schema(&ty), &arg.description),
        );
        if !ty.accepts_nil() {
            required.push(Value::String(arg.name.clone()));
        }
    }
    if let Some(vararg) = &meta.vararg {
        let items = json!({"type": "array", "items": json_schema(&Ty::parse(vararg))});
        properties.insert(
            VARARG_PROPERTY.into(),
            described(
                items,
                "The values passed after the other arguments, in order.",
            ),
        );
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    schema
}

fn described(mut schema: Value, description: &str) -> Value {
    if let (Value::Object(map), false) = (&mut schema, description.is_empty()) {
        map.insert("description".into(), Value::String(description.into()));
    }
    schema
}

/// The JSON Schema of the values of one type. `nil` is left to the caller: a record
/// field or parameter that admits it is simply not required.
pub(crate) fn json_schema(ty: &Ty) -> Value {
    if ty.accepts_anything() {
        return json!({});
    }
    match ty {
        Ty::Nil => json!({"type": "null"}),
        Ty::Boolean => json!({"type": "boolean"}),
        Ty::BoolLiteral(b) => json!({"type": "boolean", "const": b}),
        Ty::Number => json!({"type": "number"}),
        Ty::String | Ty::Path => json!({"type": "string"}),
        Ty::Literal(s) => json!({"type": "string", "const": s}),
        Ty::Table => json!({"type": ["object", "array"]}),
        Ty::Array(item) => json!({"type": "array", "items": json_schema(item)}),
        Ty::Map(k, v) => table(&[], Some((k, v))),
        Ty::Record(fields, indexer) => table(fields, indexer.as_deref().map(|kv| (&kv.0, &kv.1))),
        Ty::Union(members) => union(members),
        _ => json!({}),
    }
}

/// Members without `nil`; one unconstrained member makes the whole union unconstrained;
/// constants of one JSON type become an `enum`, anything else an `anyOf`.
fn union(members: &[Ty]) -> Value {
    let mut options: Vec<Value> = Vec::new();
    for m in members.iter().filter(|m| **m != Ty::Nil) {
        let schema = json_schema(m);
        if schema == json!({}) {
            return schema;
        }
        options.push(schema);
    }
    match options.len() {
        0 => json!({"type": "null"}),
        1 => options.remove(0),
        _ => {
            let consts: Option<Vec<Value>> =
                options.iter().map(|o| o.get("const").cloned()).collect();
            let same_type = options
                .windows(2)
                .all(|w| w[0].get("type") == w[1].get("type"));
            match consts {
                Some(values) if same_type => json!({"type": options[0]["type"], "enum": values}),
                _ => json!({ "anyOf": options }),
            }
        }
    }
}

/// A table with named fields and an optional indexer `[K]: V`. A JSON object carries
/// string keys, a JSON array the keys 1..n; the checker takes a key if it is a value of
/// `K`, and refuses a key that is neither a field nor taken by the indexer.
fn table(fields: &[Field], indexer: Option<(&Ty, &Ty)>) -> Value {
    let required: Vec<&str> = fields
        .iter()
        .filter(|f| !f.ty.accepts_nil())
        .map(|f| f.name.as_str())
        .collect();
    let keys = indexer.map_or(Keys::NONE, |(k, _)| Keys::of(k));
    let value = indexer.map_or(json!({}), |(_, v)| json_schema(v));
    let mut schema = Map::new();
    let object = !fields.is_empty() || !matches!(keys.names, Names::None);
    // Past the fields, an array's items are entries the indexer must take.
    let array = required.is_empty() && keys.indices;
    schema.insert(
        "type".into(),
        match (object, array) {
            (true, true) => json!(["object", "array"]),
            (false, true) => json!("array"),
            // Neither: only the empty table fits, and `{}` is one.
            _ => json!("object"),
        },
    );
    if !fields.is_empty() {
        let properties: Map<String, Value> = fields
            .iter()
            .map(|f| (f.name.clone(), json_schema(&f.ty)))
            .collect();
        schema.insert("properties".into(), Value::Object(properties));
    }
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    if object || !array {
        match &keys.names {
            Names::All => {
                schema.insert("additionalProperties".into(), value.clone());
            }
            Names::Some(choices) => {
                let mut names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                names.extend(choices.iter().map(String::as_str));
                schema.insert("propertyNames".into(), json!({ "enum": names }));
                schema.insert("additionalProperties".into(), value.clone());
            }
            Names::None => {
                schema.insert("additionalProperties".into(), json!(false));
            }
        }
    }
    if array {
        schema.insert("items".into(), value);
    }
    Value::Object(schema)
}

/// Which keys an indexer's key type takes.
struct Keys {
    names: Names,
    /// Array indices (numbers).
    indices: bool,
}

enum Names {
    All,
    Some(Vec<String>),
    None,
}

impl Keys {
    const NONE: Keys = Keys {
        names: Names::None,
        indices: false,
    };

    fn of(k: &Ty) -> Keys {
        if k.accepts_anything() {
            return Keys {
                names: Names::All,
                indices: true,
            };
        }
        match k {
            Ty::String | Ty::Path => Keys {
                names: Names::All,
                indices: false,
            },
            Ty::Number => Keys {
                names: Names::None,
                indices: true,
            },
            Ty::Literal(s) => Keys {
                names: Names::Some(vec![s.clone()]),
                indices: false,
            },
            Ty::Union(members) => members.iter().map(Keys::of).fold(Keys::NONE, Keys::or),
            _ => Keys::NONE,
        }
    }

    fn or(self, other: Keys) -> Keys {
        let names = match (self.names, other.names) {
            (Names::All, _) | (_, Names::All) => Names::All,
            (Names::Some(mut a), Names::Some(b)) => {
                a.extend(b);
                Names::Some(a)
            }
            (Names::Some(a), Names::None) | (Names::None, Names::Some(a)) => Names::Some(a),
            (Names::None, Names::None) => Names::None,
        };
        Keys {
            names,
            indices: self.indices || other.indices,
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/schema.rs"]
mod tests;
