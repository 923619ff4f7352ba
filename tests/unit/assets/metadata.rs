//! Tests of `engine/assets/metadata.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn purpose_skips_headings_badges_and_front_matter() {
    let text =
        "---\ntitle: x\n---\n# Text\n\n![badge](x.svg)\n<!-- note -->\nSmall text helpers.\nMore.";
    assert_eq!(readme_purpose(text).as_deref(), Some("Small text helpers."));
    assert_eq!(readme_purpose("# Only a heading\n"), None);
}

#[test]
fn metadata_errors_name_the_file_and_the_fix() {
    let err = Metadata::parse("{tags: }", "a.tool/.metadata").unwrap_err();
    assert!(
        err.contains("a.tool/.metadata") && err.contains("expected"),
        "{err}"
    );
    let err = Metadata::parse(r#"{"status": "done"}"#, "m").unwrap_err();
    assert!(err.contains("\"ready\""), "{err}");
    let ok = Metadata::parse(r#"{"tags": ["a"], "extra": 1}"#, "m").unwrap();
    for (written, meant) in [("stauts", "status"), ("tag", "tags"), ("Kind", "kind")] {
        let text = format!(r#"{{"{written}": "planned"}}"#);
        let err = Metadata::parse(&text, "t/.metadata").unwrap_err();
        assert!(err.contains(&format!("did you mean \"{meant}\"")), "{err}");
    }
    let err = Metadata::parse(r#"{"kind": "workflw"}"#, "m").unwrap_err();
    assert!(err.contains("is not \"workflow\""), "{err}");
    assert_eq!(ok.tags, vec!["a"]);
    let many = serde_json::json!({ "tags": vec!["t"; 300_000] }).to_string();
    let err = Metadata::parse(&many, "m").unwrap_err();
    assert!(
        err.contains("300000 tags") && err.contains("at most 32"),
        "{err}"
    );
    let err = Metadata::parse(r#"{"limits": {"timeoutMs": 0}}"#, "t/.metadata").unwrap_err();
    assert!(err.contains("t/.metadata: limits.timeoutMs is 0"), "{err}");
    let err = Metadata::parse(r#"{"limits": {"timeout": 5}}"#, "m").unwrap_err();
    assert!(
        err.contains("no field \"timeout\"") && err.contains("\"timeoutMs\""),
        "{err}"
    );
    let err = Metadata::parse(r#"{"limits": {"maxOutputBytes": "big"}}"#, "m").unwrap_err();
    assert!(err.contains("must be a number, not a string"), "{err}");
    let err = Metadata::parse(r#"{"cache": {}}"#, "m").unwrap_err();
    assert!(err.contains("needs \"ttlSeconds\""), "{err}");
    let err = Metadata::parse(r#"{"cache": 60}"#, "m").unwrap_err();
    assert!(err.contains("must be an object"), "{err}");
    let ok = Metadata::parse(
        r#"{"limits": {"timeoutMs": 50, "maxOutputBytes": 100}, "cache": {"ttlSeconds": 9}}"#,
        "m",
    )
    .unwrap();
    assert_eq!(
        parse_limits(ok.limits.as_ref().unwrap(), "m").unwrap(),
        ToolLimits {
            timeout_ms: Some(50),
            max_output_bytes: Some(100)
        }
    );
    assert_eq!(
        parse_cache(ok.cache.as_ref().unwrap(), "m", &[])
            .unwrap()
            .ttl_seconds,
        9
    );
    let long = serde_json::json!({ "tags": ["x".repeat(65)] }).to_string();
    assert!(Metadata::parse(&long, "m")
        .unwrap_err()
        .contains("longer than 64"));
}
