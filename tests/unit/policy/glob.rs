//! Tests of `engine/policy/glob.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn p(text: &str) -> Pattern {
    Pattern::new(text).unwrap()
}

#[test]
fn stars_match_any_run_and_the_rest_matches_itself() {
    assert!(p("text.*").matches("text.slugify"));
    assert!(p("text.*").matches("text."));
    assert!(!p("text.*").matches("texts.slugify"));
    assert!(p("*.delete*").matches("files.delete"));
    assert!(p("*.delete*").matches("files.delete_all"));
    assert!(!p("*.delete*").matches("files.undelete"));
    assert!(p("github.merge_*").matches("github.merge_pull_request"));
    assert!(!p("github.merge_*").matches("github.merge"));
    assert!(p("*").matches("any.thing"));
    assert!(p("a*b*c.d").matches("aXbYbc.d"));
    assert!(!p("ops.read").matches("ops.reader"));
}

#[test]
fn a_toolbox_is_covered_or_possibly_touched() {
    assert!(p("ops.*").covers_all_after("ops."));
    assert!(p("o*").covers_all_after("ops."));
    assert!(!p("ops.drop*").covers_all_after("ops."));
    assert!(!p("*.delete*").covers_all_after("ops."));
    assert!(p("*.delete*").may_match_after("ops."));
    assert!(p("ops.read").may_match_after("ops."));
    assert!(!p("text.*").may_match_after("ops."));
    assert!(!p("op.read").may_match_after("ops."));
}

#[test]
fn bad_patterns_say_why() {
    assert!(Pattern::new("").is_err());
    assert!(Pattern::new("text .x").is_err());
    assert!(Pattern::new("ops").unwrap_err().contains("ops.*"));
    assert!(Pattern::new("ops*").is_ok());
}

#[test]
fn a_name_spelt_as_the_server_list_writes_it_is_refused_with_the_identity_spelling() {
    for (written, spelling) in [
        ("my-files.write_*", "my_files.write_*"),
        ("my-files.*", "my_files.*"),
        ("*.get-env", "*.get_env"),
        ("2fa.*", "_2fa.*"),
        ("my_srv.a.b", "my_srv.a_b"),
        ("srv.delete-all", "srv.delete_all\" (unless the server also has a tool of that name: then this one is \"srv.delete_all_2"),
        ("my files.*", ""),
    ] {
        match Pattern::new(written) {
            Err(e) if spelling.is_empty() => assert!(e.contains("space"), "{e}"),
            Err(e) => assert!(
                e.contains(&format!("write \"{spelling}\"")),
                "{written}: {e}"
            ),
            Ok(_) => assert_eq!(written, spelling, "{written} was taken"),
        }
    }
    let long = format!("srv.{}", "x".repeat(70));
    let e = Pattern::new(&long).unwrap_err();
    assert!(
        e.contains(&format!("write \"srv.{}*\"", "x".repeat(55))),
        "{e}"
    );
    assert!(Pattern::new(&format!("srv.{}*", "x".repeat(55))).is_ok());
    for fine in [
        "my_files.write_*",
        "*.delete*",
        "_2fa.*",
        "github.merge_*",
        "*",
    ] {
        assert!(Pattern::new(fine).is_ok(), "{fine}");
    }
}

/// The definition: a star takes any run, everything else itself.
fn by_definition(p: &[u8], t: &[u8]) -> bool {
    match p.split_first() {
        None => t.is_empty(),
        Some((b'*', rest)) => (0..=t.len()).any(|i| by_definition(rest, &t[i..])),
        Some((c, rest)) => t.first() == Some(c) && by_definition(rest, &t[1..]),
    }
}

/// Every word over `alphabet` of at most `max` letters.
fn words(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|w: &Vec<u8>| {
                alphabet.iter().map(move |&c| {
                    let mut w = w.clone();
                    w.push(c);
                    w
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn both_walks_agree_with_the_definition_on_every_short_pattern() {
    let texts = words(b"a.b", 4);
    for pattern in words(b"a.*", 5) {
        let glob = Pattern(String::from_utf8(pattern.clone()).unwrap());
        for text in &texts {
            let shown = String::from_utf8_lossy(text);
            assert_eq!(
                glob.matches(&shown),
                by_definition(&pattern, text),
                "{} on {shown}",
                glob.0
            );
            // Some continuation matches when the prefix matches some start of the
            // pattern (the rest of a pattern always matches something).
            let some = (0..=pattern.len()).any(|i| by_definition(&pattern[..i], text));
            assert_eq!(
                glob.may_match_after(&shown),
                some,
                "{} after {shown}",
                glob.0
            );
        }
    }
}
