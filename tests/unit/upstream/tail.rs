//! Tests of `engine/upstream/tail.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::upstream::secret::Secret;

#[test]
fn keeps_the_end_and_masks_secrets() {
    let tail = Tail::new(Redactor::new([&Secret::new("topsecret")]));
    for i in 0..500 {
        tail.push(format!("line {i} topsecret\n").as_bytes());
    }
    let text = tail.text();
    assert!(text.len() <= SHOWN + 4);
    assert!(text.starts_with("line "), "{text}");
    assert!(text.ends_with("line 499 ***\n"));
    assert!(!text.contains("topsecret"));
}
