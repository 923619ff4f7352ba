//! Tests of `engine/openapi/schema.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

#[test]
fn refs_all_of_and_nullable_become_plain_json_schema() {
    let doc = json!({"components": {"schemas": {
        "Named": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "nullable": true},
            "id": {"type": "integer", "readOnly": true}}},
        "Pet": {"allOf": [{"$ref": "#/components/schemas/Named"},
            {"type": "object", "required": ["id"], "properties": {
                "tag": {"type": "string", "enum": ["a", "b"]},
                "parent": {"$ref": "#/components/schemas/Pet"}}}]}
    }}});
    let pet = json!({"$ref": "#/components/schemas/Pet"});
    let input = Inliner::new(&doc, Side::Input).inline(&pet, 1000);
    assert_eq!(input["type"], "object");
    assert_eq!(
        input["properties"]["name"]["type"],
        json!(["string", "null"])
    );
    assert!(input["properties"].get("id").is_none(), "{input}");
    assert_eq!(input["required"], json!(["name"]));
    assert_eq!(input["properties"]["tag"]["enum"], json!(["a", "b"]));
    // A cycle stops at its second visit.
    assert_eq!(input["properties"]["parent"], json!({}));
    let output = Inliner::new(&doc, Side::Output).inline(&pet, 1000);
    assert_eq!(output["properties"]["id"]["type"], "integer");
    assert_eq!(output["required"], json!(["name", "id"]));
    // A small budget cuts the schema, not the call.
    let small = Inliner::new(&doc, Side::Output).inline(&pet, 2);
    assert!(small.to_string().len() < input.to_string().len());
}
