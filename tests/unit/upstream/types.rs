//! Tests of `engine/upstream/types.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

#[test]
fn reads_the_common_shapes() {
    let input = json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Where."},
            "head": {"type": "integer"},
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "maybe": {"type": ["string", "null"]},
            "opts": {"type": "object", "properties": {"a": {"type": "boolean"}, "b": {"type": "number"}}, "required": ["a"]},
            "dict": {"type": "object", "additionalProperties": {"type": "number"}},
            "either": {"anyOf": [{"type": "string"}, {"type": "number"}]},
            "my-key": {"const": "x"},
            "anything": {}
        },
        "required": ["path", "mode"]
    });
    let t = tool_types(
        &input,
        Some(
            &json!({"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}),
        ),
    );
    let got: Vec<(&str, &str, bool)> = t
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.luau_type.as_str(), a.optional))
        .collect();
    assert_eq!(
        got,
        [
            ("path", "string", false),
            ("head", "number", true),
            ("mode", "\"fast\" | \"slow\"", false),
            ("tags", "{ string }", true),
            ("maybe", "string?", true),
            ("opts", "{ a: boolean, b: number? }", true),
            ("dict", "{ [string]: number }", true),
            ("either", "string | number", true),
            ("my-key", "\"x\"", true),
            ("anything", "any", true),
        ]
    );
    assert_eq!(t.args[0].description.as_deref(), Some("Where."));
    assert_eq!(t.returns, "{ n: number }");
    assert!(t
        .args_table()
        .starts_with("{ path: string, head: number?, mode: \"fast\" | \"slow\""));
    assert!(t.args_table().contains("[\"my-key\"]: \"x\"?"));
    assert!(t.args_table().contains("either: (string | number)?"));
    assert_eq!(tool_types(&json!({"type": "object"}), None).returns, "any");
}

#[test]
fn refs_resolve_and_hostile_schemas_stay_bounded() {
    let schema = json!({
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "$ref": "#/$defs/Node"
    });
    let text = luau_type(&schema);
    assert!(text.contains("next:"), "{text}");
    assert!(text.len() < MAX_TYPE_BYTES);
    let mut deep = json!({"type": "string"});
    for _ in 0..200 {
        deep = json!({"type": "array", "items": deep});
    }
    let text = luau_type(&deep);
    assert_eq!(text, format!("{}any{}", "{ ".repeat(9), " }".repeat(9)));
    let wide: serde_json::Map<String, Value> = (0..1000)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    assert_eq!(
        luau_type(&json!({"type": "object", "properties": wide})),
        "{ [string]: any }"
    );
    assert_eq!(luau_type(&json!({"enum": [1, 2]})), "number");
    // Values of mixed types: their union, whatever `type` says, never narrower.
    assert_eq!(
        luau_type(&json!({"type": "string", "enum": ["a\"b", "\n", "", 5, null]})),
        "(string | number)?"
    );
    assert_eq!(luau_type(&json!({"enum": ["a", [1]]})), "any");
    assert_eq!(luau_type(&json!({"type": "string", "enum": []})), "any");
    assert_eq!(
        luau_type(&json!({"type": "string", "enum": ["a\"b"]})),
        "\"a\\\"b\""
    );
    assert_eq!(luau_type(&json!(true)), "any");
    assert_eq!(luau_type(&json!({"$ref": "https://x/y"})), "any");
}
