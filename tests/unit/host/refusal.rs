//! Tests of `engine/host/refusal.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_tool_of_a_toolbox_that_could_not_be_listed_is_not_said_to_be_missing_for_good() {
    let why = "box.toolbox cannot be listed (Permission denied): give the user read access";
    let index = AssetIndex::with_unlisted_toolbox("box", why);
    let hint = missing_tool(&index, "box", "a").hint.unwrap();
    assert!(hint.starts_with(why), "{hint}");
    assert!(!hint.contains("holds no tools yet"), "{hint}");
}
