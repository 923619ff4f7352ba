//! Tests of `engine/assets/tool.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn docstring_shorthands_agree_with_the_types_they_stand_for() {
    assert!(same_type("table", "{ sep: string? }?"));
    assert!(same_type("table", "Person"));
    assert!(same_type("string", "string?"));
    assert!(same_type("function", "(x: number) -> number"));
    assert!(same_type("{ a: number }", "{a:number}"));
    assert!(!same_type("string", "number"));
    assert!(!same_type("table", "string"));
    assert!(!same_type("number", "{ n: number }"));
}

#[test]
fn a_tool_folder_that_cannot_be_listed_is_not_said_to_miss_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let root = Root::disk(super::super::Origin::World, dir.path()).unwrap();
    std::fs::create_dir_all(dir.path().join("b.toolbox/plain.tool")).unwrap();
    // A folder gone between the toolbox's listing and its own stands in for one the
    // engine may not list (as root, permissions cannot make one).
    let (gone, ..) = read_folder(&root, "b.toolbox/gone.tool", "b");
    let (plain, ..) = read_folder(&root, "b.toolbox/plain.tool", "b");
    assert!(
        gone.refusals[0].starts_with("b.toolbox/gone.tool cannot be read (")
            && gone.refusals[0]
                .ends_with("give the user running codemode read access to the folder"),
        "{:?}",
        gone.refusals
    );
    assert_eq!(
        plain.refusals,
        ["b.toolbox/plain.tool/init.luau is missing; every tool needs one"]
    );
    // A source of another name is named, with the fix.
    std::fs::create_dir_all(dir.path().join("b.toolbox/lua.tool")).unwrap();
    std::fs::write(dir.path().join("b.toolbox/lua.tool/init.lua"), "return 1").unwrap();
    let (lua, ..) = read_folder(&root, "b.toolbox/lua.tool", "b");
    assert_eq!(
        lua.refusals,
        ["b.toolbox/lua.tool/init.luau is missing; found init.lua: rename it to init.luau"]
    );
}
