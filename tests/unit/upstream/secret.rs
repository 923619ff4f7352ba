//! Tests of `engine/upstream/secret.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn secrets_never_print() {
    let s = Secret::new("hunter2-token");
    assert_eq!(format!("{s:?} {s}"), "*** ***");
    let r = Redactor::new([&s, &Secret::new("Bearer abcdef123"), &Secret::new("1")]);
    assert_eq!(
        r.redact("token hunter2-token and abcdef123 and 1"),
        "token *** and *** and 1"
    );
}
