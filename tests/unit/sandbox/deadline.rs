//! Tests of `engine/sandbox/deadline.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::sandbox::set_long_run_hook;
use std::sync::atomic::{AtomicUsize, Ordering};

static HANDED_OFF: AtomicUsize = AtomicUsize::new(0);

fn count(_: Option<&mut dyn FnMut()>) {
    HANDED_OFF.fetch_add(1, Ordering::SeqCst);
}

/// Runs a Luau loop for about `for_ms` milliseconds under a fresh deadline.
fn run_for(lua: &Lua, for_ms: u64) {
    arm(Duration::from_secs(5), None);
    let script = format!("local t = os.clock() while os.clock() - t < {for_ms} / 1000 do end");
    lua.load(script).exec().unwrap();
    disarm();
}

#[test]
fn the_long_run_hook_counts_from_the_start_of_the_run() {
    let lua = Lua::new();
    install(&lua).unwrap();
    let after = Duration::from_millis(30);
    set_long_run_hook(Some((count, after, Duration::from_secs(10))));
    // A type check or a queue before the run is not the run's time.
    std::thread::sleep(after * 2);
    run_for(&lua, 1);
    assert_eq!(
        HANDED_OFF.load(Ordering::SeqCst),
        0,
        "a short run was handed off"
    );
    run_for(&lua, 100);
    assert_eq!(
        HANDED_OFF.load(Ordering::SeqCst),
        1,
        "a long run was not handed off"
    );
    set_long_run_hook(None);
}
