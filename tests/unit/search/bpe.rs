//! Tests of `engine/search/bpe.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn bpe() -> Bpe {
    // Tokens: 0 <0x41> ("A" as a byte), 1 ▁, 2 a, 3 b, 4 ab, 5 ▁ab, 6 c, 7 \r.
    let vocab = "<0x41>\n▁\na\nb\nab\n▁ab\nc\n\\r\n";
    let mut bytes_vocab = String::new();
    for b in 0..=255u8 {
        if b != 0x41 {
            bytes_vocab.push_str(&format!("<0x{b:02X}>\n"));
        }
    }
    let vocab: &'static str = format!("{vocab}{bytes_vocab}").leak();
    Bpe::new(vocab, "2 3 4\n1 4 5\n")
}

#[test]
fn merges_apply_lowest_rank_first_within_each_word() {
    let mut out = Vec::new();
    bpe().ids("ab abc", 100, &mut out);
    assert_eq!(out, vec![5, 5, 6]);
}

#[test]
fn a_character_the_vocabulary_lacks_becomes_its_bytes() {
    let mut out = Vec::new();
    bpe().ids("A", 100, &mut out);
    assert_eq!(out, vec![1, 0]);
}

#[test]
fn escaped_tokens_are_read_back_and_the_limit_holds() {
    let bpe = bpe();
    assert_eq!(bpe.ids.get("\r"), Some(&7));
    let mut out = Vec::new();
    bpe.ids(&"ab ".repeat(1000), 10, &mut out);
    assert_eq!(out.len(), 10);
}

#[test]
fn a_long_word_is_merged_in_bounded_pieces() {
    // Merged whole, this word would take minutes; in pieces it takes milliseconds.
    let mut out = Vec::new();
    bpe().ids(&"ab".repeat(100_000), 1_000_000, &mut out);
    // Each piece is merged: no more tokens than characters, and at least one per pair.
    assert!((100_000..200_001).contains(&out.len()), "{}", out.len());
}
