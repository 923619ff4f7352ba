//! Tests of `engine/search/wordpiece.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

const VOCAB: &str = "[PAD]\n[UNK]\nsend\nemail\n##s\nan\n.\nun\n##aff\n##able\n";

#[test]
fn greedy_longest_match_with_continuations() {
    let wp = WordPiece::new(VOCAB);
    let mut ids = Vec::new();
    wp.ids("Send an Emails. unaffable", &mut ids);
    assert_eq!(ids, [2, 5, 3, 4, 6, 7, 8, 9]);
}

#[test]
fn unknown_words_add_nothing() {
    let wp = WordPiece::new(VOCAB);
    let mut ids = Vec::new();
    wp.ids("sendx zzz", &mut ids);
    assert!(ids.is_empty());
}
