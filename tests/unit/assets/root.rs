//! Tests of `engine/assets/root.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_toolbox_folder_that_cannot_be_listed_says_so_and_a_gone_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let root = Root::disk(Origin::World, dir.path()).unwrap();
    // A file where the folder was (as unlistable as one without read access, which
    // root, running the tests, could list anyway).
    std::fs::write(dir.path().join("a.toolbox"), "").unwrap();
    let why = root.toolbox_entries("a.toolbox").others.unlisted.unwrap();
    assert!(why.starts_with("a.toolbox cannot be listed ("), "{why}");
    assert!(why.ends_with("give the user running codemode read access to the folder"));
    assert_eq!(root.toolbox_entries("gone.toolbox").others.unlisted, None);
}

#[test]
fn read_folders_are_the_walk_the_toolboxes_and_their_tools_only() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for rel in [
        "a.toolbox/one.tool/assets",
        "a.toolbox/shared.module",
        "a.toolbox/notes",
        "pkg/b.toolbox/two.tool",
        ".codemode/cache/assets",
        "node_modules/c.toolbox/three.tool",
        "fixtures/d.toolbox/four.tool",
        "loose.tool",
    ] {
        std::fs::create_dir_all(root.join(rel)).unwrap();
    }
    std::fs::write(root.join("fixtures").join(IGNORE_MARKER), "").unwrap();
    let rel = |from: &Path| {
        let mut found: Vec<String> = read_folders(&root, from)
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        found.sort();
        found
    };
    assert_eq!(
        rel(&root),
        [
            "",
            "a.toolbox",
            "a.toolbox/one.tool",
            "a.toolbox/shared.module",
            "pkg",
            "pkg/b.toolbox",
            "pkg/b.toolbox/two.tool"
        ]
    );
    // From a folder that appeared: the same rules, below it only.
    assert_eq!(
        rel(&root.join("pkg")),
        ["pkg", "pkg/b.toolbox", "pkg/b.toolbox/two.tool"]
    );
    assert_eq!(
        rel(&root.join("a.toolbox/one.tool")),
        ["a.toolbox/one.tool"]
    );
    assert!(rel(&root.join("a.toolbox/one.tool/assets")).is_empty());
    assert!(rel(&root.join(".codemode/cache")).is_empty());
    assert!(rel(&root.join("node_modules/c.toolbox")).is_empty());
}
