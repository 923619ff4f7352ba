//! Tests of `engine/sandbox/hosterror.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn an_error_quoting_a_huge_name_stays_small() {
    let name = "n".repeat(20 << 20);
    let error = HostError::hinted(
        format!("no toolbox named '{name}'"),
        format!("not '{name}'"),
    );
    assert!(error.message.len() <= MAX_MESSAGE_BYTES);
    assert!(
        error.message.ends_with("bytes cut)"),
        "{}",
        &error.message[4000..]
    );
    assert!(error.hint.unwrap().len() <= MAX_HINT_BYTES);
}
