//! Tests of `engine/upstream/catalogue.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

#[test]
fn colliding_names_map_the_same_in_any_listing_order() {
    let dash = json!({"name": "get-env", "inputSchema": {"type": "object"}});
    let dot = json!({"name": "get.env", "inputSchema": {"type": "object"}});
    for raw in [vec![dash.clone(), dot.clone()], vec![dot, dash]] {
        let c = Catalogue::from_raw("odd", 7, &raw);
        assert_eq!(c.tool("get_env").unwrap().original, "get-env");
        assert_eq!(c.tool("get_env_2").unwrap().original, "get.env");
    }
}

#[test]
fn maps_names_and_reports_what_it_leaves_out() {
    let raw = vec![
        json!({"name": "read-file", "description": "Read.", "inputSchema": {"type": "object"}}),
        json!({"name": "read_file"}),
        json!({"name": "read_file"}),
        json!({"description": "nameless"}),
        json!({"name": "end", "outputSchema": {"type": "object"}}),
    ];
    let c = Catalogue::from_raw("fs", 7, &raw);
    let names: Vec<&str> = c.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["read_file_2", "read_file", "end_"]);
    assert_eq!(c.tool("read_file_2").unwrap().original, "read-file");
    assert_eq!(c.tool("end_").unwrap().original, "end");
    assert!(c.tool("end_").unwrap().output_schema.is_some());
    // Two duplicates and a nameless tool left out; two tools without a schema kept.
    assert_eq!(c.problems.len(), 5, "{:?}", c.problems);
    assert!(c
        .problems
        .contains(&"'end' has no inputSchema; it takes any arguments, unchecked".to_string()));
}
