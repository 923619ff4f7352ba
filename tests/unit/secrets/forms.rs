//! Tests of `engine/secrets/forms.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn has(forms: &[Vec<u8>], text: &str) -> bool {
    forms
        .iter()
        .any(|f| text.as_bytes().windows(f.len()).any(|w| w == f))
}

#[test]
fn a_bearer_token_is_found_bare_and_encoded_at_any_alignment() {
    let forms = forms("Bearer tok-3n/Z+q");
    for prefix in ["", "a", "ab", "abc"] {
        let line = format!("{prefix}Authorization: Bearer tok-3n/Z+q\r\n");
        assert!(has(&forms, &STANDARD.encode(&line)), "{prefix:?}");
        assert!(has(&forms, &URL_SAFE_NO_PAD.encode(&line)), "{prefix:?}");
    }
    assert!(has(&forms, "realm=\"x\", token=\"tok-3n/Z+q\""));
    assert!(has(&forms, "?t=tok-3n%2FZ%2Bq"));
    assert!(has(&forms, "?t=tok-3n%2fZ%2bq"));
    assert!(has(&forms, "%74%6F%6B%2D%33%6E%2F%5A%2B%71"));
    assert!(has(&forms, "?t=tok%2D3n%2FZ%2Bq"));
    assert!(has(&forms, "/p/tok-3n/Z%2Bq"));
    assert!(has(&forms, "{\"t\": \"tok-3n\\/Z+q\"}"));
    assert!(has(
        &forms,
        &"tok-3n/Z+q"
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    ));
    // A scheme alone is not a secret.
    assert!(!has(&forms, "Bearer realm"));
}

#[test]
fn html_safe_json_is_found() {
    let forms = forms("Bearer Tk<9&zQ-abcdefghij");
    assert!(has(
        &forms,
        "{\"a\":\"Bearer Tk\\u003c9\\u0026zQ-abcdefghij\"}"
    ));
    assert!(has(&forms, "{\"a\":\"Tk\\u003C9\\u0026zQ-abcdefghij\"}"));
}

#[test]
fn a_basic_credential_is_found_decoded() {
    let forms = forms(&format!(
        "Basic {}",
        STANDARD.encode("alice-svc:pa ss\"wörd")
    ));
    assert!(has(&forms, "user alice-svc:pa ss\"wörd"));
    assert!(has(&forms, "password was pa ss\"wörd"));
    assert!(has(&forms, "who: alice-svc"));
    assert!(has(&forms, "{\"p\": \"pa ss\\\"w\\u00f6rd\"}"));
    assert!(has(&forms, "p=pa+ss%22w%C3%B6rd"));
}

#[test]
fn short_parts_are_left_out() {
    assert!(forms("12345").is_empty());
    let forms = forms("Token abc");
    assert!(!has(&forms, "abc"));
    assert!(has(&forms, "Token abc"));
}
