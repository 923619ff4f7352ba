//! Tests of `engine/repl/pretty.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

#[test]
fn short_values_stay_on_one_line() {
    assert_eq!(
        pretty(&json!({"a": 1, "b c": [true, "x"]})),
        r#"{ a = 1, ["b c"] = { true, "x" } }"#
    );
    assert_eq!(pretty(&json!("hi")), r#""hi""#);
    assert_eq!(pretty(&json!(2)), "2");
}

#[test]
fn long_values_break_into_lines() {
    let long: Vec<String> = (0..20).map(|i| format!("item{i}")).collect();
    let text = pretty(&json!({ "items": long }));
    assert!(
        text.starts_with("{\n\titems = {\n\t\t\"item0\",\n"),
        "{text}"
    );
}
