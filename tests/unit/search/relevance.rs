//! Tests of `engine/search/relevance.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn more_evidence_is_more_relevant_and_never_a_pin() {
    let r = Relevance::default();
    let none = r.p(0.0, Some((None, 0.2)));
    let half = r.p(0.5, Some((Some(0.4), 0.2)));
    let full = r.p(1.0, Some((Some(0.9), 0.2)));
    assert!(none < half && half < full, "{none} {half} {full}");
    assert!(full < 1.0);
    assert!(!r.clears(none, true) && r.clears(full, true));
}

#[test]
fn keyword_mode_reads_the_words_alone() {
    let r = Relevance::default();
    assert!(r.p(1.0, None) > r.p(0.2, None));
    assert!(r.clears(r.p(1.0, None), true));
}
