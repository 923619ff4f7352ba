//! Tests of `engine/upstream/meta.rs`, compiled as its child module `tests` (they reach its
//! private items).

use serde_json::json;

use super::*;
use crate::upstream::Catalogue;

fn tool(schema: Json) -> UpstreamTool {
    let raw = vec![json!({ "name": "do-it", "description": "Does it.", "inputSchema": schema })];
    Catalogue::from_raw("srv", 0, &raw).tools.remove(0)
}

fn bind(tool: &UpstreamTool, words: &[&str]) -> Result<Map<String, Json>, Refusal> {
    let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    tool.bind_words("srv", &words, Path::new("/"))
}

#[test]
fn words_bind_by_the_input_schema() {
    let t = tool(json!({
        "type": "object",
        "properties": {
            "a": { "type": "number" },
            "mode": { "type": "string", "enum": ["fast", "slow"] },
            "dry-run": { "type": "boolean" },
            "tags": { "type": "array", "items": { "type": "string" } }
        },
        "required": ["a"]
    }));
    let bound = bind(
        &t,
        &[
            "--a",
            "2.5",
            "--mode",
            "slow",
            "--dry-run",
            "--tags",
            "x",
            "--tags",
            "y",
        ],
    )
    .unwrap();
    assert_eq!(
        Json::Object(bound),
        json!({ "a": 2.5, "mode": "slow", "dry-run": true, "tags": ["x", "y"] })
    );
    // One JSON word is the whole table.
    let bound = bind(&t, &[r#"{"a": 1}"#]).unwrap();
    assert_eq!(Json::Object(bound), json!({ "a": 1 }));
}

#[test]
fn bad_words_are_refused_naming_the_flags() {
    let t = tool(json!({
        "type": "object",
        "properties": { "a": { "type": "number" }, "b": { "type": "number" } },
        "required": ["a", "b"]
    }));
    let e = bind(&t, &["--a", "1", "--c", "3"]).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownFlag);
    assert!(
        e.message.contains("unknown flag --c") && e.message.contains("--a, --b"),
        "{}",
        e.message
    );
    let e = bind(&t, &["--a", "one"]).unwrap_err();
    assert_eq!(e.reason, Reason::BadValue);
    assert!(e.message.contains("expected a number"), "{}", e.message);
    let e = bind(&t, &["--a", "1"]).unwrap_err();
    assert!(e.message.contains("b"), "{}", e.message);
    assert!(bind(&t, &[]).is_err(), "required arguments are required");
}

#[test]
fn a_tool_without_required_arguments_takes_no_words() {
    let t = tool(json!({ "type": "object", "properties": { "n": { "type": "integer" } } }));
    assert!(bind(&t, &[]).unwrap().is_empty());
    let t = tool(json!({ "type": "object" }));
    assert!(bind(&t, &[]).unwrap().is_empty());
    assert_eq!(t.meta("srv").identity, "srv.do_it");
}
