//! Tests of `engine/openapi/operation.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn links_read_as_their_words() {
    assert_eq!(
        unlink("See \"[Git References](https://git-scm.com/book)\" in the docs."),
        "See \"Git References\" in the docs."
    );
    assert_eq!(
        unlink("Specs from https://github.com/github/x with [a] b and [c](d"),
        "Specs from with [a] b and [c](d"
    );
}

#[test]
fn parameters_and_body_make_one_table_and_a_plan() {
    let doc = json!({
        "openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
        "components": {"parameters": {"Id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}}},
        "paths": {"/pets/{id}": {
            "parameters": [{"$ref": "#/components/parameters/Id"}],
            "get": {"operationId": "getPet", "summary": "Get a pet", "tags": ["pets"],
                    "parameters": [{"name": "fields", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}],
                    "responses": {"200": {"content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}},
            "patch": {"requestBody": {"required": true, "content": {"application/json": {"schema":
                    {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}},
                    "responses": {"204": {"description": "done"}}},
            "delete": {"responses": {"204": {"description": "gone"}}}
        }}
    });
    let all = ["GET".to_string(), "PATCH".to_string()];
    let described = tools(&doc, Version::V30, &all, None);
    assert_eq!(described.tools.len(), 2);
    assert_eq!(described.left_out.len(), 1, "DELETE is not allowed");
    let get = &described.tools[0];
    assert_eq!(get["name"], "getPet");
    assert_eq!(get["inputSchema"]["required"], json!(["id"]));
    assert_eq!(get["inputSchema"]["properties"]["id"]["type"], "integer");
    assert_eq!(get["outputSchema"]["properties"]["name"]["type"], "string");
    assert!(get["description"]
        .as_str()
        .unwrap()
        .ends_with("GET /pets/{id} (tags: pets)"));
    let patch = &described.tools[1];
    assert_eq!(patch["name"], "patch_pets_id");
    assert_eq!(patch["inputSchema"]["required"], json!(["id", "name"]));
    assert_eq!(patch["x-codemode-request"]["body"]["keys"], json!(["name"]));
    assert_eq!(patch["annotations"]["readOnlyHint"], false);
}
