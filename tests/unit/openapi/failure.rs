//! Tests of `engine/openapi/failure.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_refusal_names_the_api_and_apis_json_not_the_grant() {
    let refused = NetError::Refused {
        url: "http://elsewhere/x".into(),
        why: "the host elsewhere is not allowed (allowed: api.example.com)".into(),
        fix: "add `elsewhere:80` to capabilities.http of the profile".into(),
    };
    let text = explain(refused, "pets.list (GET /pets)", "pets", "api.example.com");
    assert!(
        text.contains("API 'pets' reaches only api.example.com")
            && text.contains(".codemode/apis.json"),
        "{text}"
    );
    assert!(!text.contains("capabilities.http") && !text.contains("http.request"));
}
