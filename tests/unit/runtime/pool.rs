//! Tests of `engine/runtime/pool.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

/// Lent places hold at most [`LENT_MEMORY`] at the memory limit, and at least one
/// is lent (a slow server never holds the only place).
#[test]
fn lent_places_are_bounded_by_their_memory() {
    assert_eq!(max_lent(256 << 20), 8);
    assert_eq!(max_lent(64 << 20), 32);
    assert_eq!(max_lent(16 << 20), 32);
    assert_eq!(max_lent(4 << 30), 1);
}
