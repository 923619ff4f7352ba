//! Tests of `engine/openapi/config.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_bare_origin_from_the_environment_is_not_a_secret_and_a_token_in_a_url_is() {
    for origin in [
        "http://127.0.0.1:8001",
        "https://api.example.com/",
        "http://localhost:9",
    ] {
        assert!(is_bare_origin(origin), "{origin}");
    }
    for secret in [
        "https://api.telegram.org/bot123:abc",
        "https://user:pass@api.example.com",
        "https://api.example.com/?key=k",
        "not a url",
        "s3cret-token",
    ] {
        assert!(!is_bare_origin(secret), "{secret}");
    }
}

#[test]
fn each_bad_api_names_file_api_and_fix() {
    let world = tempfile::tempdir().unwrap();
    let dir = world.path().join(".codemode");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("spec.json"), "{}").unwrap();
    let file = dir.join("apis.json");
    let (apis, problems) = parse(
        world.path(),
        &file,
        r#"{"apis": {
                "good": {"spec": "spec.json", "baseUrl": "http://127.0.0.1:9/v1/"},
                "nospec": {"baseUrl": "http://a"},
                "nobase": {"spec": "spec.json"},
                "missing": {"spec": "nope.json", "baseUrl": "http://a"},
                "remote": {"spec": "https://example.com/o.json", "baseUrl": "http://a"},
                "verbs": {"spec": "spec.json", "baseUrl": "http://a", "methods": ["GET", "FETCH"]},
                "typo": {"spec": "spec.json", "baseUrl": "http://a", "headers": {}},
                "unset": {"spec": "spec.json", "baseUrl": "${CODEMODE_SURELY_UNSET}"},
                "resp": {"spec": "spec.json", "baseUrl": "http://a", "response": {"header": ["link"]}},
                "off": {"disabled": true}
            }}"#,
    );
    assert_eq!(apis.len(), 1);
    assert_eq!(apis[0].api.base_url, "http://127.0.0.1:9/v1");
    assert_eq!(apis[0].api.methods, ["GET", "HEAD"]);
    let find = |api: &str, needle: &str| {
        assert!(
            problems.iter().any(|p| p.api.as_deref() == Some(api)
                && p.file == file
                && p.message.contains(needle)),
            "no problem for {api} with {needle:?}: {problems:#?}"
        )
    };
    find("nospec", "has no \"spec\"");
    find("nobase", "has no \"baseUrl\"");
    find("missing", "fix the path");
    find("remote", "run codemode api sync remote");
    find("verbs", "not an HTTP method");
    find("typo", "credentials go in .codemode/http.json");
    find("unset", "${CODEMODE_SURELY_UNSET}, which is not set");
    find("resp", "the answer's headers to keep");
    assert_eq!(problems.len(), 8, "{problems:#?}");
}
