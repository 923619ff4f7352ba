//! Tests of `engine/search/rank.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn names(list: &[&str]) -> ServiceNames {
    ServiceNames(
        list.iter()
            .map(|n| (n.to_lowercase(), n.to_string()))
            .collect(),
    )
}

fn doc() -> AssetDoc {
    AssetDoc {
        key: "tool:box.x".into(),
        asset_type: AssetType::Tool,
        identity: "box.x".into(),
        name: "x".into(),
        toolbox: "box".into(),
        from: "world".into(),
        installed: true,
        registered: true,
        description: String::new(),
        signature: None,
        fields: Vec::new(),
        context: String::new(),
        title: None,
        arguments_mean: true,
    }
}

fn candidates<'a>(doc: &'a AssetDoc, ps: &[(f32, u8)]) -> Vec<Candidate<'a>> {
    ps.iter()
        .map(|&(p, pin)| Candidate {
            doc,
            pin,
            score: 0.0,
            keyword: 0.0,
            cosine: None,
            coverage: 0.0,
            p,
            crowd: 0.0,
        })
        .collect()
}

fn ps(rows: &[Candidate<'_>]) -> Vec<f32> {
    rows.iter()
        .map(|c| (c.p * 1000.0).round() / 1000.0)
        .collect()
}

#[test]
fn relevance_follows_the_order_of_the_rows() {
    let doc = doc();
    // A pin, then a run out of order, then one in order.
    let mut shown = candidates(&doc, &[(0.5, 2), (0.1, 0), (0.3, 0), (0.2, 0), (0.05, 0)]);
    let mut extra = candidates(&doc, &[(0.01, 0), (0.4, 0)]);
    in_order_of_relevance(&mut shown, &mut extra);
    assert_eq!(ps(&shown), [1.0, 0.2, 0.2, 0.2, 0.05]);
    // The weak rows pool among themselves, no surer than the weakest shown.
    assert_eq!(ps(&extra), [0.05, 0.05]);
    // Rows in order keep their own p.
    let mut sorted = candidates(&doc, &[(0.9, 0), (0.4, 0), (0.4, 0), (0.1, 0)]);
    pool_adjacent_violators(&mut sorted);
    assert_eq!(ps(&sorted), [0.9, 0.4, 0.4, 0.1]);
}

#[test]
fn a_service_is_read_at_a_sentence_start_only_when_written_as_a_name() {
    let known = names(&["github", "Spotify", "send"]);
    let found = |part: &str| services(part, &known).0;
    // Inside a sentence, any capitalised spelling names it.
    assert_eq!(found("create an issue on GitHub"), ["github"]);
    // Opening one: a capital inside the word, or the toolbox's own spelling.
    assert_eq!(found("GitHub: create an issue"), ["github"]);
    assert_eq!(found("Spotify play my mix"), ["Spotify"]);
    // An ordinary capitalised first word is not a service.
    assert!(found("Send an email").is_empty());
    assert!(found("Github issue list").is_empty());
    // The service's name is left out of what the request means.
    assert_eq!(
        services("GitHub: create an issue", &known).1.trim(),
        "create an issue"
    );
}
