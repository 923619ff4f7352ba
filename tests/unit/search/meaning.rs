//! Tests of `engine/search/meaning.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn the_joined_cosine_is_the_shares_of_the_two() {
    let x = join_vectors(Some(vec![1.0, 0.0]), 2, Some(vec![1.0, 0.0]), 2, 0.25).unwrap();
    let y = join_vectors(Some(vec![0.0, 1.0]), 2, Some(vec![1.0, 0.0]), 2, 0.25).unwrap();
    assert!((dot(&x, &y) - 0.25).abs() < 1e-6);
    assert!((dot(&x, &x) - 1.0).abs() < 1e-6);
}

#[test]
fn a_text_only_one_model_reads_still_has_a_vector() {
    assert!(join_vectors(None, 2, Some(vec![1.0, 0.0]), 2, 0.5).is_some());
    assert!(join_vectors(None, 2, None, 2, 0.5).is_none());
}

#[test]
fn both_tables_bring_a_request_nearer_its_tool_than_another() {
    let model = Bundled::default();
    let wordllama = StaticModel::wordllama();
    let joined = |t: &str| model.asset(t).unwrap();
    let second = |t: &str| wordllama.embed(t).unwrap();
    for embed in [&joined as &dyn Fn(&str) -> Vec<f32>, &second] {
        let mail = embed("Send an email message to a recipient.");
        let ask = embed("write a note to a colleague by e-mail");
        let other = embed("Compute the area of a triangle.");
        assert!(dot(&mail, &ask) > dot(&other, &ask));
    }
}
