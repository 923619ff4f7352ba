//! Tests of `engine/sandbox/compile.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use std::time::Instant;

/// A source near the size limit whose compile takes a while on any build.
fn slow_source() -> String {
    "a.b.c = x + 1\n".repeat(140_000) + "return 1"
}

#[test]
fn a_compile_past_the_deadline_ends_at_the_deadline() {
    let source = slow_source();
    let started = Instant::now();
    compiler().compile(&source).unwrap();
    let compile_time = started.elapsed();

    let lua = Lua::new();
    deadline::arm(compile_time / 10, None);
    let started = Instant::now();
    let result = load_text(&lua, source.as_bytes(), "script", None, usize::MAX);
    let waited = started.elapsed();
    let cutoff = deadline::disarm();
    assert!(result.is_err());
    assert_eq!(cutoff, Some(deadline::Cutoff::Deadline));
    assert!(
        waited < compile_time / 2,
        "waited {waited:?} for a compile of {compile_time:?}"
    );
}

#[test]
fn sources_over_the_cap_are_refused_before_compiling() {
    let lua = Lua::new();
    let err = load_text(&lua, slow_source().as_bytes(), "script", None, 1024).unwrap_err();
    assert!(err.to_string().contains("at most 1 KiB"), "{err}");
}

#[test]
fn large_sources_compile_off_thread_with_the_same_errors() {
    let lua = Lua::new();
    let ok = "x = 1\n".repeat(10_000) + "return 42";
    let f = load_text(&lua, ok.as_bytes(), "script", None, usize::MAX).unwrap();
    assert_eq!(f.call::<i64>(()).unwrap(), 42);
    let bad = "x = 1\n".repeat(10_000) + "return (";
    let err = load_text(&lua, bad.as_bytes(), "script", None, usize::MAX).unwrap_err();
    assert!(err.to_string().contains("script:10001:"), "{err}");
    let small_bad = "return (";
    let err = load_text(&lua, small_bad.as_bytes(), "script", None, usize::MAX).unwrap_err();
    assert!(err.to_string().contains("script:1:"), "{err}");
}
