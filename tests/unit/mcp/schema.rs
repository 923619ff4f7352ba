//! Tests of `engine/mcp/schema.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

/// The schema of a type as written, and whether it admits `nil`.
fn luau_type(ty: &str) -> (Value, bool) {
    let ty = Ty::parse(ty);
    (json_schema(&ty), ty.accepts_nil())
}

#[test]
fn hostile_types_read_as_anything() {
    for ty in [
        format!("string{}", "?".repeat(100_000)),
        format!("{}string{}", "{".repeat(100_000), "}".repeat(100_000)),
    ] {
        assert_eq!(luau_type(&ty).0, json!({}));
    }
    assert_ne!(
        luau_type("{ name: string?, tags: { string }? }?").0,
        json!({})
    );
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
    // A record takes no field it does not declare, as `tools.bind` refuses them.
    assert_eq!(
        luau_type("{ sep: string?, max: number }?"),
        (
            json!({"type": "object", "properties": {"sep": {"type": "string"}, "max": {"type": "number"}}, "required": ["max"], "additionalProperties": false}),
            true
        )
    );
    assert_eq!(
        luau_type("{ [number]: string }").0,
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        luau_type("{ name: string, [string]: number }").0,
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": {"type": "number"}})
    );
    // A field typed `any` may be left out, as binding lets it.
    assert_eq!(
        luau_type("{ null: any }").0,
        json!({"type": "object", "properties": {"null": {}}, "additionalProperties": false})
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
