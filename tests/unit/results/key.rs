//! Tests of `engine/results/key.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn every_part_of_a_call_changes_its_key() {
    let base = key("a.b", "1", "s", "[1]");
    assert_eq!(base.len(), KEY_CHARS);
    assert_eq!(base, key("a.b", "1", "s", "[1]"));
    assert_ne!(base, key("a.c", "1", "s", "[1]"));
    assert_ne!(base, key("a.b", "2", "s", "[1]"));
    assert_ne!(base, key("a.b", "1", "t", "[1]"));
    assert_ne!(base, key("a.b", "1", "s", "[2]"));
    // Lengths are hashed too: moving a byte from one part to the next is another call.
    assert_ne!(key("a.b1", "", "s", "[1]"), key("a.b", "1", "s", "[1]"));
}
