//! The wall-clock deadline, enforced by Luau's interrupt.
//!
//! Luau calls the interrupt at every loop back-edge and call, and inside the pattern
//! matcher, so it must cost next to nothing: it is a plain C callback (not an mlua
//! closure, which costs a Rust callback frame per loop iteration) that reads the
//! deadline of the run on the current thread and reads the clock only every few calls.
//! After expiry it fails on every call, so a `pcall` loop cannot swallow the timeout.

use std::cell::Cell;
use std::os::raw::c_int;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use mlua::{ffi, Lua};

/// The clock is read on every this many interrupts: they come every few instructions,
/// so the deadline stays exact to microseconds.
const CLOCK_EVERY: u32 = 16;

thread_local! {
    /// Deadline of the run executing on this thread, in nanoseconds since [`epoch`]; 0 = none.
    static DEADLINE: Cell<u64> = const { Cell::new(0) };
    /// Set once the deadline passed.
    static EXPIRED: Cell<bool> = const { Cell::new(false) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_nanos() -> u64 {
    epoch().elapsed().as_nanos() as u64
}

unsafe extern "C-unwind" fn interrupt(state: *mut ffi::lua_State, gc: c_int) {
    if gc >= 0 {
        return; // a GC step, not a safepoint of the script
    }
    let at = DEADLINE.get();
    if at == 0 {
        return;
    }
    let tick = TICKS.get().wrapping_add(1);
    TICKS.set(tick);
    if EXPIRED.get() || (tick.is_multiple_of(CLOCK_EVERY) && now_nanos() >= at) {
        EXPIRED.set(true);
        // SAFETY: called by Luau at a safepoint of `state`, where raising an error is allowed.
        unsafe { ffi::luaL_error(state, c"the script ran past its deadline".as_ptr()) }
    }
}

/// Installs the interrupt in a VM (once, when the VM is built).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: only sets the VM-wide callback table's interrupt to a function that touches
    // nothing but this module's thread-locals and the state Luau hands it.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            (*ffi::lua_callbacks(state)).interrupt = Some(interrupt);
        })
    }
}

/// Starts the deadline of a run on this thread.
pub fn arm(timeout: Duration) {
    EXPIRED.set(false);
    TICKS.set(0);
    DEADLINE.set(now_nanos().saturating_add(timeout.as_nanos() as u64).max(1));
}

/// Ends the run's deadline; returns whether it expired.
pub fn disarm() -> bool {
    DEADLINE.set(0);
    EXPIRED.replace(false)
}
