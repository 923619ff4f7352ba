//! Tests of `engine/interop/paths.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn walks_up_and_down() {
    let r = |a: &str, b: &str| relative(Path::new(a), Path::new(b));
    assert_eq!(
        r("/w", "/w/t.toolbox/a.tool/init.luau"),
        "t.toolbox/a.tool/init.luau"
    );
    assert_eq!(
        r("/w/out", "/w/t.toolbox/init.luau"),
        "../t.toolbox/init.luau"
    );
    assert_eq!(r("/w", "/w"), ".");
}
