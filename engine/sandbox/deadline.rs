//! The wall-clock deadline, enforced by Luau's interrupt.
//!
//! Luau calls the interrupt at every loop back-edge and call, and inside the pattern
//! matcher, so it must cost next to nothing: it is a plain C callback (not an mlua
//! closure, which costs a Rust callback frame per loop iteration) that reads the
//! deadline of the run on the current thread (`running.rs`) and reads the clock only
//! every few calls.
//! After expiry it fails on every call, so a `pcall` loop cannot swallow the timeout.
//!
//! A run may also carry a [`StopCheck`] (an MCP request its client cancelled): it is asked
//! far less often than the clock is read, and stops the run the same way. And a thread
//! with other duties (an async runtime's worker) may ask (`handoff.rs`) to be called back
//! once a run has gone on for a while, to hand those duties off.

use std::os::raw::c_int;
use std::time::Duration;

use mlua::{ffi, Lua};

use super::handoff::long_run;
pub use super::running::StopCheck;
use super::running::{clock, running};

/// The clock is read on every this many interrupts: they come every few instructions,
/// so the deadline stays exact to microseconds.
const CLOCK_EVERY: u32 = 16;
/// The stop check is asked on every this many interrupts (it may take a lock).
const STOP_EVERY: u32 = 1024;

/// Why a run was cut off by the interrupt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cutoff {
    /// The deadline passed.
    Deadline,
    /// The run's [`StopCheck`] said stop.
    Stopped,
}

unsafe extern "C-unwind" fn interrupt(state: *mut ffi::lua_State, gc: c_int) {
    if gc >= 0 {
        return; // a GC step, not a safepoint of the script
    }
    let at = running(|r| r.deadline.get());
    if at == 0 {
        return;
    }
    let tick = running(|r| r.ticks.get()).wrapping_add(1);
    running(|r| r.ticks.set(tick));
    if !running(|r| r.expired.get()) && tick.is_multiple_of(CLOCK_EVERY) {
        let now = clock();
        let long_run_at = running(|r| r.long_run_at.get());
        if now >= at {
            running(|r| r.expired.set(true));
        } else if long_run_at != 0 && now >= long_run_at {
            if let Some((hook, _, every)) = long_run() {
                running(|r| r.long_run_at.set(now.saturating_add(every)));
                hook(None);
            }
        } else if tick.is_multiple_of(STOP_EVERY) && stop_requested() {
            running(|r| r.expired.set(true));
            running(|r| r.stopped.set(true));
        } else {
            super::gate::ask(now);
        }
    }
    if running(|r| r.expired.get()) {
        let message = expiry();
        // SAFETY: called by Luau at a safepoint of `state`, where raising an error is allowed.
        unsafe { ffi::luaL_error(state, message.as_ptr()) }
    }
}

/// What the interrupt would raise now, reading the clock every time (for [`fence`]d
/// functions, whose calls may each do a lot of work).
fn expired_message() -> Option<&'static std::ffi::CStr> {
    let at = running(|r| r.deadline.get());
    if at == 0 {
        return None;
    }
    if !running(|r| r.expired.get()) {
        let tick = running(|r| r.ticks.get()).wrapping_add(1);
        running(|r| r.ticks.set(tick));
        if clock() >= at {
            running(|r| r.expired.set(true));
        } else if tick.is_multiple_of(STOP_EVERY) && stop_requested() {
            running(|r| r.expired.set(true));
            running(|r| r.stopped.set(true));
        }
    }
    running(|r| r.expired.get()).then(expiry)
}

/// For a host function the linker made, at every call: fails as the interrupt would once
/// the run's deadline has passed (the clock is read every time), its check refused it, or
/// its caller asked it to stop (asked every few calls, as the interrupt asks: it may take
/// a lock).
pub(super) fn entering() -> mlua::Result<()> {
    match expired_message() {
        Some(message) => Err(mlua::Error::runtime(message.to_string_lossy())),
        None => Ok(()),
    }
}

/// What every call raises once the run is cut off.
fn expiry() -> &'static std::ffi::CStr {
    if running(|r| r.refused.get()) {
        c"the run was stopped: its type check found a certain mistake"
    } else if running(|r| r.stopped.get()) {
        c"the run was stopped by its caller"
    } else {
        c"the script ran past its deadline"
    }
}

/// Calls its upvalue with its arguments after looking at the deadline.
unsafe extern "C-unwind" fn fenced(state: *mut ffi::lua_State) -> c_int {
    if let Some(message) = expired_message() {
        // SAFETY: a C function of `state`, where raising an error is allowed.
        unsafe { ffi::luaL_error(state, message.as_ptr()) }
    }
    // SAFETY: Luau gives a C function its arguments and LUA_MINSTACK free slots; the
    // upvalue is the function `fence` closed over. An error is raised again as it came.
    unsafe {
        let n = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        let status = ffi::lua_pcall(state, n, ffi::LUA_MULTRET, 0);
        if status != 0 {
            // The builtin's own errors name where it was called from: with this closure
            // in between, that place is one level further up.
            if status == ffi::LUA_ERRRUN
                && ffi::lua_type(state, -1) == ffi::LUA_TSTRING
                && !has_location(state)
            {
                ffi::luaL_where(state, 1);
                ffi::lua_insert(state, -2);
                ffi::lua_concat(state, 2);
            }
            ffi::lua_error(state);
        }
        ffi::lua_gettop(state)
    }
}

/// True when the error message on top of the stack starts with `chunk:line:`.
///
/// # Safety
/// The value on top of `state`'s stack must be a string.
unsafe fn has_location(state: *mut ffi::lua_State) -> bool {
    let mut len = 0usize;
    // SAFETY: the caller checked the top is a string; the bytes live while it is there.
    let bytes = unsafe {
        let text = ffi::lua_tolstring(state, -1, &mut len);
        std::slice::from_raw_parts(text as *const u8, len.min(256))
    };
    let Some(colon) = bytes.iter().position(|&b| b == b':') else {
        return false;
    };
    let rest = &bytes[colon + 1..];
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    colon > 0 && digits > 0 && rest.get(digits) == Some(&b':')
}

/// `f`, looking at the run's deadline each time it is entered. A C function, so the fence
/// costs a few tens of nanoseconds, not a Rust callback.
pub(crate) fn fence(lua: &Lua, f: mlua::Function) -> mlua::Result<mlua::Function> {
    // SAFETY: `f` is the one value on the stack; the closure takes it as its upvalue and
    // leaves itself in its place, which is what is returned.
    unsafe {
        lua.exec_raw(f, |state| {
            ffi::lua_pushcclosurek(state, fenced, c"fenced".as_ptr(), 1, None);
        })
    }
}

/// Calls upvalue 1 (a tool's function) with its arguments under a budget of upvalue 2
/// milliseconds, nested inside the run's deadline: while the call runs, the interrupt
/// watches whichever ends first. When the budget ends it, the interrupt fails every
/// safepoint of the call (so the tool's own `pcall` cannot swallow it) until the call's
/// frame unwinds here; then the run's deadline is in force again and upvalue 3 is called,
/// which raises the error the caller's `pcall` (or the envelope) sees. When the run's own
/// deadline passed, or its caller stopped it, the run stops as it would without a budget.
unsafe extern "C-unwind" fn budgeted(state: *mut ffi::lua_State) -> c_int {
    if let Some(message) = expired_message() {
        // SAFETY: a C function of `state`, where raising an error is allowed.
        unsafe { ffi::luaL_error(state, message.as_ptr()) }
    }
    // SAFETY: upvalue 2 is the number `budget` closed over.
    let ms = unsafe { ffi::lua_tonumberx(state, ffi::lua_upvalueindex(2), std::ptr::null_mut()) };
    let outer = running(|r| r.deadline.get());
    let until = clock().saturating_add((ms.max(0.0) * 1e6) as u64).max(1);
    let tightened = outer == 0 || until < outer;
    if tightened {
        running(|r| r.deadline.set(until));
    }
    // SAFETY: as in `fenced`: the arguments are on the stack, upvalue 1 is the function.
    let status = unsafe {
        let n = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        ffi::lua_pcall(state, n, ffi::LUA_MULTRET, 0)
    };
    if tightened {
        running(|r| r.deadline.set(outer));
        let now = clock();
        let over = !running(|r| r.stopped.get()) && (running(|r| r.expired.get()) || now >= until);
        if over && outer != 0 && now >= outer {
            // The run's own deadline passed too: that is what stops the run.
            running(|r| r.expired.set(true));
            if status == 0 {
                // SAFETY: a C function of `state`, where raising an error is allowed.
                unsafe { ffi::luaL_error(state, c"the script ran past its deadline".as_ptr()) }
            }
        } else if over {
            running(|r| r.expired.set(false));
            // A full heap is the run's memory limit, whatever else passed: raised as it came.
            if status != ffi::LUA_ERRMEM {
                // SAFETY: upvalue 3 is the function that raises the tool's timeout; its
                // error unwinds through this frame as `fenced`'s do.
                unsafe {
                    ffi::lua_settop(state, 0);
                    ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
                    ffi::lua_call(state, 0, 0);
                }
                return 0;
            }
        }
    }
    if status != 0 {
        // SAFETY: the error value is on top; raised again as it came.
        unsafe { ffi::lua_error(state) }
    }
    // SAFETY: plain stack query of the running state.
    unsafe { ffi::lua_gettop(state) }
}

/// `f` held to `budget` inside the run's deadline (see [`budgeted`]); `on_timeout`
/// raises the error a call that outlived its budget fails with.
pub(crate) fn budget(
    lua: &Lua,
    f: mlua::Function,
    budget: Duration,
    on_timeout: mlua::Function,
) -> mlua::Result<mlua::Function> {
    let ms = budget.as_secs_f64() * 1e3;
    // SAFETY: the three values are on the stack; the closure takes them as its upvalues
    // and leaves itself in their place, which is what is returned.
    unsafe {
        lua.exec_raw((f, ms, on_timeout), |state| {
            ffi::lua_pushcclosurek(state, budgeted, c"budgeted".as_ptr(), 3, None);
        })
    }
}

fn stop_requested() -> bool {
    running(|r| r.stop.borrow().as_ref().is_some_and(|stop| stop()))
}

/// Installs the interrupt in a VM (once, when the VM is built).
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: only sets the VM-wide callback table's interrupt to a function that touches
    // nothing but this module's thread-locals and the state Luau hands it.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            (*ffi::lua_callbacks(state)).interrupt = Some(interrupt);
        })
    }
}

/// Starts the deadline (and the stop check, if any) of a run on this thread.
pub(crate) fn arm(timeout: Duration, stop: Option<StopCheck>) {
    running(|r| r.expired.set(false));
    running(|r| r.stopped.set(false));
    running(|r| r.refused.set(false));
    running(|r| r.ticks.set(0));
    drop(running(|r| r.stop.replace(stop)));
    let now = clock();
    running(|r| {
        r.deadline
            .set(now.saturating_add(timeout.as_nanos() as u64).max(1))
    });
    // The run starts now: the time its type check took before it is not the script's, and
    // counted, it handed a short script's thread off (a millisecond's pause) at its first
    // line.
    if let Some((_, after, _)) = long_run() {
        running(|r| r.long_run_at.set(now.saturating_add(after).max(1)));
    }
}

/// What is left of the run's deadline on this thread (`None` outside a run).
pub(crate) fn remaining() -> Option<Duration> {
    match running(|r| r.deadline.get()) {
        0 => None,
        at => Some(Duration::from_nanos(at.saturating_sub(clock()))),
    }
}

/// True once the run's caller asked it to stop.
pub(crate) fn stop_asked() -> bool {
    running(|r| r.stopped.get()) || stop_requested()
}

/// For host code that waits or works outside Luau (a compile, a long builtin): fails
/// the way the interrupt would once the run's deadline has passed or its caller asked to
/// stop, and marks the run cut off so that every later interrupt fails too.
pub(crate) fn check() -> mlua::Result<()> {
    let at = running(|r| r.deadline.get());
    if at == 0 {
        return Ok(());
    }
    if !running(|r| r.expired.get()) {
        if clock() >= at {
            running(|r| r.expired.set(true));
        } else if stop_requested() {
            running(|r| r.expired.set(true));
            running(|r| r.stopped.set(true));
        }
    }
    if !running(|r| r.expired.get()) {
        return Ok(());
    }
    Err(mlua::Error::runtime(expiry().to_string_lossy()))
}

/// Ends the run's deadline; says whether and why the interrupt cut the run off.
pub(crate) fn disarm() -> Option<Cutoff> {
    running(|r| r.deadline.set(0));
    drop(running(|r| r.stop.replace(None)));
    let stopped = running(|r| r.stopped.replace(false));
    running(|r| r.refused.set(false));
    match (running(|r| r.expired.replace(false)), stopped) {
        (false, _) => None,
        (true, false) => Some(Cutoff::Deadline),
        (true, true) => Some(Cutoff::Stopped),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/sandbox/deadline.rs"]
mod tests;
