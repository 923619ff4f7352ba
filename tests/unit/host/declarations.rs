//! Tests of `engine/host/declarations.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_toolbox_that_could_not_be_listed_is_typed_any_so_no_call_of_it_is_refused() {
    let why = "box.toolbox cannot be listed (Permission denied):\ngive the user read access";
    let index = AssetIndex::with_unlisted_toolbox("box", why);
    let text = definitions(&index, &[]);
    assert!(text.contains("\tbox: any,"), "{text}");
    assert!(
        text.contains("-- The toolbox `box` is typed `any`: box.toolbox cannot be listed (Permission denied): give"),
        "{text}"
    );
}
