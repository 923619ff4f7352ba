//! Tests of `engine/vfs/path.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn refuses_paths_that_could_leave_the_world() {
    for bad in ["/etc/passwd", "../x", "a/../../x", "a\\b", "a\0b", "C:/x"] {
        assert!(components(bad).is_err(), "{bad:?} was accepted");
    }
    assert_eq!(components("a//./b/").unwrap(), vec!["a", "b"]);
    assert!(components("").unwrap().is_empty());
    assert!(check_entry_name("a/b").is_err());
    assert!(check_entry_name("..").is_err());
    assert!(check_entry_name("ok.tool").is_ok());
}

#[test]
fn refuses_hidden_names_but_the_engines_own_files() {
    for bad in [
        ".git/config",
        ".env",
        "a/.cursor/mcp.json",
        ".metadata",
        "x/.metadata",
    ] {
        assert!(refuse_hidden(bad).is_err(), "{bad:?} was accepted");
    }
    for ok in [
        ".luaurc",
        "b.toolbox/.metadata",
        "b.toolbox/t.tool/.metadata",
        "a/b.txt",
    ] {
        assert!(refuse_hidden(ok).is_ok(), "{ok:?} was refused");
    }
    assert!(refuse_hidden(".git/x.tool/.metadata").is_err());
}
