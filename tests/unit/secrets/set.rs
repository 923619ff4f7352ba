//! Tests of `engine/secrets/set.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn every_form_is_masked_in_one_pass_and_short_values_are_not() {
    remember("Bearer set-test-tok3n");
    remember("12345");
    assert_eq!(
        mask("auth: Bearer set-test-tok3n; bare set-test-tok3n; 12345"),
        "auth: ***; bare ***; 12345"
    );
    assert_eq!(&*mask_bytes(b"q=set-test-tok3n&x"), b"q=***&x".as_slice());
    assert!(matches!(mask("nothing here"), Cow::Borrowed(_)));
    let mut json = serde_json::json!({"set-test-tok3n": ["x set-test-tok3n", 1]});
    mask_json(&mut json);
    assert_eq!(json, serde_json::json!({"***": ["x ***", 1]}));
}

#[test]
fn base64_wrapped_at_any_column_is_masked() {
    let token = "set-test-wrapped-abcdefghijklmnopqrstuvwxyz0123456789";
    remember(&format!("Bearer {token}"));
    use base64::Engine;
    for prefix in ["", "a", "ab"] {
        let line = format!("{prefix}x-Authorization: Bearer {token}\r\n");
        let encoded = base64::engine::general_purpose::STANDARD.encode(&line);
        for (width, end) in [(76, "\n"), (64, "\r\n"), (20, "\n")] {
            let wrapped = encoded
                .as_bytes()
                .chunks(width)
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect::<Vec<_>>()
                .join(end);
            let masked = mask(&wrapped);
            assert!(masked.contains(MASK), "{width}: {masked}");
            // Joined again and decoded, nothing of the token is left.
            let joined: String = masked.split(['\r', '\n']).collect();
            assert!(
                !joined.contains(&encoded[12..encoded.len() - 12]),
                "{masked}"
            );
        }
    }
    assert_eq!(mask("line one\nline two"), "line one\nline two");
}
