//! Tests of `engine/openapi/request.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

#[test]
fn arguments_land_where_the_plan_says() {
    let plan = json!({"method": "POST", "path": "/repos/{owner}/{repo}/issues",
        "params": [{"key": "owner", "name": "owner", "in": "path"},
                   {"key": "repo", "name": "repo", "in": "path"},
                   {"key": "labels", "name": "labels", "in": "query"},
                   {"key": "filter", "name": "filter", "in": "query", "style": "deepObject"},
                   {"key": "X-Trace", "name": "X-Trace", "in": "header"}],
        "body": {"type": "application/json", "keys": ["title"]}});
    let args = json!({"owner": "a b", "repo": "r/x", "labels": ["x", "y"], "filter": {"kind": "bug"},
        "X-Trace": 7.0, "title": "hi"});
    let made = make(&plan, args.as_object().unwrap()).unwrap();
    assert_eq!(
        made.target,
        "/repos/a%20b/r%2Fx/issues?labels=x&labels=y&filter%5Bkind%5D=bug"
    );
    assert!(made.headers.contains(&("X-Trace".into(), "7".into())));
    assert_eq!(made.body.unwrap(), br#"{"title":"hi"}"#);
    let e = make(&plan, &Map::new()).unwrap_err();
    assert!(e.contains("`owner` is missing"), "{e}");
}

#[test]
fn objects_are_laid_out_in_the_simple_and_form_styles() {
    let plan = json!({"method": "GET", "path": "/p/{id}",
        "params": [{"key": "id", "name": "id", "in": "path"},
                   {"key": "f", "name": "f", "in": "query", "explode": false},
                   {"key": "g", "name": "g", "in": "query"},
                   {"key": "X-O", "name": "X-O", "in": "header", "explode": true}]});
    let args = json!({"id": {"a": 1, "b": "x"}, "f": {"c": 2}, "g": {"d": 3},
        "X-O": {"e": true}});
    let made = make(&plan, args.as_object().unwrap()).unwrap();
    assert_eq!(made.target, "/p/a,1,b,x?f=c%2C2&d=3");
    assert!(made.headers.contains(&("X-O".into(), "e=true".into())));
    let nested = json!({"id": {"a": {"deep": 1}}});
    let e = make(&plan, nested.as_object().unwrap()).unwrap_err();
    assert!(e.contains("not a table"), "{e}");
}

#[test]
fn a_path_parameter_cannot_step_out_of_its_path() {
    let plan = json!({"method": "GET", "path": "/secrets/{name}",
        "params": [{"key": "name", "name": "name", "in": "path"}]});
    for value in ["..", ".", "", "..."] {
        let args = json!({ "name": value });
        let e = make(&plan, args.as_object().unwrap()).unwrap_err();
        assert!(e.contains("cannot be empty, `.` or `..`"), "{value}: {e}");
    }
    let args = json!({ "name": "..x" });
    assert_eq!(
        make(&plan, args.as_object().unwrap()).unwrap().target,
        "/secrets/..x"
    );
}
