//! Tests of `engine/interop/name.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn maps_identities_to_hyphen_names() {
    assert_eq!(kebab("text.wordCount"), "text-word-count");
    assert_eq!(kebab("text.slugify"), "text-slugify");
    assert_eq!(kebab("net.parseHTMLDoc"), "net-parse-html-doc");
    assert_eq!(kebab("my_box.base64Encode"), "my-box-base64-encode");
    assert_eq!(kebab("_private.__x"), "private-x");
    assert_eq!(kebab("HTTP.get"), "http-get");
    for id in ["text.wordCount", "net.parseHTMLDoc", "_a._b_", "A1.b2C"] {
        assert!(is_kebab(&kebab(id)), "{id} -> {}", kebab(id));
    }
}

#[test]
fn checks_the_name_format_and_finds_collisions() {
    assert!(is_kebab("torrent-finder") && is_kebab("a1"));
    assert!(!is_kebab("Torrent") && !is_kebab("a--b") && !is_kebab("-a") && !is_kebab("a b"));
    let found = collisions(["t.wordCount", "t.word_count", "t.other"]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "t-word-count");
}
