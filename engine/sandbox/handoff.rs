//! A thread's other duties while a run goes on or waits: an async runtime's worker asks,
//! through [`set_long_run_hook`], to be called back once a run has gone on for a while
//! (the interrupt calls it, `deadline.rs`), and to hand its duties off while host code
//! blocks the thread ([`blocking`]); a pool lends a waiting run's place to another script
//! through [`set_wait_hook`]. These belong to the thread, not to one run: a pool's worker
//! sets them once for all its runs.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

use super::running::running;

/// Hands the thread's other duties off; given work (host code about to block the
/// thread), runs that work with the duties handed off.
pub(crate) type HandOff = fn(Option<&mut dyn FnMut()>);

/// A long-run hook, how long a run goes on before it is first called and how often it is
/// called again, in nanoseconds.
pub(super) type LongRunHook = (HandOff, u64, u64);

thread_local! {
    /// The long-run hook and how often it is called again while the run goes on.
    static LONG_RUN: Cell<Option<LongRunHook>> = const { Cell::new(None) };
    /// Told when the run on this thread starts and ends waiting outside the VM.
    static WAIT_HOOK: RefCell<Option<WaitHook>> = const { RefCell::new(None) };
}

/// Called with `true` when a run starts waiting outside the VM (see [`blocking`]); when it
/// answers `true`, it is called with `false` once the wait ends. A pool lends the waiting
/// run's place to another script this way.
pub(crate) type WaitHook = Arc<dyn Fn(bool) -> bool + Send + Sync>;

/// The long-run hook of this thread, if one is set.
pub(super) fn long_run() -> Option<LongRunHook> {
    LONG_RUN.get()
}

/// Calls `hook` once the next run on this thread has gone on for `after`, then every
/// `every` while it goes on (`None` clears it). Set before the run's deadline is armed,
/// cleared after it is disarmed.
pub(crate) fn set_long_run_hook(hook: Option<(HandOff, Duration, Duration)>) {
    match hook {
        // The countdown starts when the run does (`deadline::arm`).
        Some((hook, after, every)) => {
            LONG_RUN.set(Some((
                hook,
                after.as_nanos() as u64,
                every.as_nanos() as u64,
            )));
        }
        None => {
            LONG_RUN.set(None);
            running(|r| r.long_run_at.set(0));
        }
    }
}

/// Runs `wait`, host code that blocks the thread until something outside the VM answers
/// (an upstream MCP server, an HTTP request), through the long-run hook when the run set
/// one: no Luau runs while it waits, so the interrupt cannot hand the thread's other
/// duties off, and an async worker blocked here would hold up every task queued on it
/// (another client's request, the reply writer) until the wait ends.
pub(crate) fn blocking<R>(wait: impl FnOnce() -> R) -> R {
    let told = WAIT_HOOK
        .with_borrow(Clone::clone)
        .filter(|hook| hook(true));
    // Told of the wait's end however it ends (a panic in host code included).
    let _ended = told.map(WaitEnded);
    let Some((hook, _, _)) = long_run() else {
        return wait();
    };
    let mut pending = Some(wait);
    let mut done = None;
    hook(Some(&mut || {
        if let Some(wait) = pending.take() {
            done = Some(wait());
        }
    }));
    match (done, pending) {
        (Some(done), _) => done,
        // A hook that did not run the work: run it here.
        (None, Some(wait)) => wait(),
        (None, None) => unreachable!("the work ran and gave a result"),
    }
}

/// Tells a [`WaitHook`] that the wait ended, when dropped.
struct WaitEnded(WaitHook);

impl Drop for WaitEnded {
    fn drop(&mut self) {
        (self.0)(false);
    }
}

/// Sets (or, with `None`, clears) the hook told of the waits of runs on this thread.
pub(crate) fn set_wait_hook(hook: Option<WaitHook>) {
    WAIT_HOOK.set(hook);
}
