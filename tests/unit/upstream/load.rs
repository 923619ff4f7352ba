//! Tests of `engine/upstream/load.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn later_files_cannot_take_a_name_twice() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    std::fs::write(&a, r#"{"mcpServers": {"x": {"command": "a"}}}"#).unwrap();
    std::fs::write(
        &b,
        r#"{"mcpServers": {"x": {"command": "b"}, "y": {"command": "c"}}}"#,
    )
    .unwrap();
    let missing = dir.path().join("missing.json");
    // Outside the world: a file scripts could reach is not read at all.
    let world = tempfile::tempdir().unwrap();
    let c = load(world.path(), &[a, b.clone(), missing]);
    assert_eq!(c.servers.len(), 2);
    assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
    assert_eq!(c.problems[0].file, b);
    assert!(c.problems[0].message.contains("already used by server 'x'"));
    assert!(c.problems[1].message.contains("cannot read it"));
}
