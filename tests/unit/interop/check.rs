//! Tests of `engine/interop/check.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn semver_and_kinds() {
    assert!(is_semver("1.0.0") && is_semver("2.10.3-beta.1"));
    assert!(!is_semver("1.0") && !is_semver("01.0.0") && !is_semver("v1.0.0"));
}

#[test]
fn reports_every_reason_of_an_entry() {
    let dir = std::env::temp_dir();
    let text = r#"{"version": "1.0.0", "tools": [{"name": "Bad Name", "status": "done", "tags": [], "capabilities": "x", "languages": ["english"]}]}"#;
    let report = check(text, &dir);
    assert!(!report.ok());
    let errors = &report.findings[0].errors;
    for needle in [
        "not lowercase",
        "description",
        "location",
        "status \"done\"",
        "\"tags\" is empty",
        "capabilities",
        "english",
    ] {
        assert!(
            errors.iter().any(|e| e.contains(needle)),
            "{needle} missing in {errors:?}"
        );
    }
}

#[test]
fn languages_are_two_letter_iso_639_1_codes() {
    let dir = std::env::temp_dir();
    let text = r#"{"version": "1.0.0", "tools": [{"name": "a", "languages": ["en", "zh", "yo", "EN", "eng", "xx"]}]}"#;
    let report = check(text, &dir);
    let refused: Vec<&String> = report.findings[0]
        .errors
        .iter()
        .filter(|e| e.contains("ISO 639-1"))
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    for code in ["\"EN\"", "\"eng\"", "\"xx\""] {
        assert!(
            refused.iter().any(|e| e.contains(code)),
            "{code}: {refused:?}"
        );
    }
}
