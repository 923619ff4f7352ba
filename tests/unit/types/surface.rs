//! Tests of `engine/types/surface.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::assets::names::RESERVED;

#[test]
fn every_member_has_a_signature_a_description_and_an_example() {
    let functions = surface_functions();
    let create = functions.iter().find(|f| f.name == "create").unwrap();
    assert_eq!(create.signature, "create(args: CreateArgs) -> WriteResult");
    let parallel = functions.iter().find(|f| f.name == "parallel").unwrap();
    assert_eq!(
        parallel.signature,
        "parallel(fns: { () -> any }) -> { { ok: boolean, value: any?, error: string? } }"
    );
    assert!(
        create.description.starts_with("Save a new tool"),
        "{create:?}"
    );
    assert!(create.examples[0].starts_with("local made = tools.create({"));
    let get = functions.iter().find(|f| f.name == "results.get").unwrap();
    assert_eq!(get.identity, "tools.results.get");
    assert_eq!(get.signature, "results.get(key: string) -> CachedResult?");
    for f in functions {
        assert!(!f.description.is_empty(), "{f:?}");
        assert!(!f.examples.is_empty(), "{} has no `e.g.` line", f.name);
        assert!(!f.description.contains("e.g. "), "{f:?}");
    }
}

#[test]
fn the_names_no_toolbox_may_take_are_the_members() {
    // A table of functions (`results.get`) takes its table's name.
    let mut members: Vec<&str> = surface_functions()
        .iter()
        .map(|f| f.name.split('.').next().unwrap_or_default())
        .collect();
    members.dedup();
    let mut reserved = RESERVED.to_vec();
    members.sort_unstable();
    reserved.sort_unstable();
    assert_eq!(members, reserved);
}
