//! Tests of `engine/search/embed.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn related_texts_are_closer_than_unrelated_ones() {
    let m = StaticModel::minilm();
    let mail = m.embed("compose and send an email message").unwrap();
    let query = m.embed("write a note to a colleague by e-mail").unwrap();
    let other = m.embed("compute the area of a triangle").unwrap();
    assert!(dot(&mail, &query) > dot(&other, &query));
}

#[test]
fn a_word_is_near_the_words_of_its_meaning() {
    let near = StaticModel::minilm().neighbours("memory", 0.6);
    assert!(near.iter().any(|w| w == "remembering"), "{near:?}");
    assert!(!near.iter().any(|w| w == "memory"), "{near:?}");
    assert!(StaticModel::minilm().neighbours("xqzt", 0.6).is_empty());
    assert!(StaticModel::wordllama()
        .neighbours("memory", 0.6)
        .is_empty());
}

#[test]
fn text_without_known_tokens_has_no_vector() {
    assert!(StaticModel::minilm().embed("").is_none());
}
