//! Tests of `engine/search/keyword.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::search::AssetType;

fn tool(name: &str, description: &str) -> AssetDoc {
    AssetDoc {
        key: format!("tool:box.{name}"),
        asset_type: AssetType::Tool,
        identity: format!("box.{name}"),
        name: name.to_string(),
        toolbox: "box".to_string(),
        from: "world".to_string(),
        installed: true,
        registered: true,
        description: description.to_string(),
        signature: None,
        fields: vec![(Role::Description, description.to_string())],
        context: String::new(),
        title: None,
        arguments_mean: true,
    }
}

fn keys(index: &KeywordIndex, query: &str, count: bool) -> (Vec<String>, usize) {
    let (hits, total) = index.search(query, 10, None, count).unwrap();
    (hits.into_iter().map(|h| h.key).collect(), total)
}

#[test]
fn compacting_merges_every_commit_into_one_segment_and_finds_the_same_tools() {
    let mut index = KeywordIndex::new(Tuning::default()).unwrap();
    for (i, (name, text)) in [("sendMail", "send an email"), ("sendSms", "send a text")]
        .into_iter()
        .enumerate()
    {
        let doc = tool(name, text);
        index.add(&doc.key, index.document(&doc)).unwrap();
        index.commit(&format!("g{i}")).unwrap();
    }
    let before = keys(&index, "send", true);
    assert_eq!(index.index.searchable_segment_ids().unwrap().len(), 2);
    index.compact().unwrap();
    assert_eq!(index.index.searchable_segment_ids().unwrap().len(), 1);
    assert_eq!(keys(&index, "send", true), before);
    assert_eq!(before.1, 2, "both commits' tools match: {before:?}");
    // The last commit's payload survives the merge: it names the generation on disk.
    assert_eq!(index.payload().as_deref(), Some("g1"));
}

#[test]
fn a_possessive_or_a_contraction_leaves_no_word_behind() {
    let mut index = KeywordIndex::new(Tuning::default()).unwrap();
    for (name, text) in [
        ("charge", "Charge a customer's card"),
        ("refund", "Refund a payment"),
    ] {
        let doc = tool(name, text);
        index.add(&doc.key, index.document(&doc)).unwrap();
    }
    index.commit("g").unwrap();
    assert_eq!(index.analyze("the customer's refund"), ["custom", "refund"]);
    assert_eq!(index.analyze("don't"), ["don"]);
    // "week's" leaves no `s` to match the charge's "customer's": only the refund is found.
    let (found, _) = keys(&index, "last week's refund", true);
    assert_eq!(found, ["tool:box.refund"]);
    assert_eq!(keys(&index, "s", true), (vec![], 0));
}

#[test]
fn without_counting_the_total_is_the_number_of_hits() {
    let mut index = KeywordIndex::new(Tuning::default()).unwrap();
    for i in 0..5 {
        let doc = tool(&format!("send{i}"), "send an email");
        index.add(&doc.key, index.document(&doc)).unwrap();
    }
    index.commit("g").unwrap();
    let (hits, total) = index.search("send", 2, None, true).unwrap();
    assert_eq!((hits.len(), total), (2, 5));
    let (hits, total) = index.search("send", 2, None, false).unwrap();
    assert_eq!((hits.len(), total), (2, 2));
}
