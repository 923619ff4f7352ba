//! Tests of `engine/sandbox/bounded.rs`, compiled as its child module `tests` (they reach its
//! private items).

#[test]
fn the_embedded_helpers_are_bounded_luau_compiled_now() {
    let now = crate::assets::compiler()
        .compile(include_str!("../../../engine/sandbox/bounded.luau"))
        .unwrap();
    assert!(
        super::HELPERS == now.as_slice(),
        "bounded.luau: the bytecode build.rs embedded differs from compiling it with this Luau and setting"
    );
}
