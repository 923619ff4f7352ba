//! Tests of `engine/assets/names.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn accepts_identifiers_and_refuses_the_rest() {
    assert!(check_name("tool", "slugify_2").is_ok());
    assert!(check_name("tool", "_x").is_ok());
    let err = check_name("tool", "my-tool").unwrap_err();
    assert!(err.contains("'my_tool'"), "{err}");
    assert!(check_name("tool", "2x").unwrap_err().contains("'_2x'"));
    assert!(check_name("tool", "").is_err());
    assert!(check_name("tool", &"a".repeat(65))
        .unwrap_err()
        .contains("at most 64"));
    assert!(check_name("tool", "end").unwrap_err().contains("keyword"));
    let err = check_name("toolbox", "__index").unwrap_err();
    assert!(
        err.contains("two underscores") && err.contains("'index'"),
        "{err}"
    );
    assert!(check_name("tool", "_private").is_ok());
    // Nothing usable in the name: a plain example, not a row of underscores.
    assert!(check_name("toolbox", "../..")
        .unwrap_err()
        .contains("'my_tool'"));
    assert!(check_name("tool", "a--b").unwrap_err().contains("'a_b'"));
    assert!(check_toolbox_name("list")
        .unwrap_err()
        .contains("tools.list"));
}

#[test]
fn nearest_finds_misspellings() {
    let names = ["slugify", "wordCount", "truncate"];
    assert_eq!(nearest("slugfy", names), vec!["slugify"]);
    assert_eq!(nearest("wordcount", names)[0], "wordCount");
    assert!(nearest("zzzz", names).is_empty());
}
