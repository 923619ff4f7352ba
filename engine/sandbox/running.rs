//! The run on this thread, as Luau's interrupt, the fences and the gate read it: its
//! deadline, whether and why it was cut off, its caller's stop check, and the verdict of
//! its type check not yet given. One value per thread, because the interrupt is a plain C
//! callback that reads it at every loop back-edge and could not afford the run's app data
//! (see `context.rs`, which holds the rest of the run: its output and accounting, and the
//! host's state). [`super::deadline::arm`] starts the run's part of it and
//! [`super::deadline::disarm`] clears it; the gate sets and takes the verdict around them
//! (`gate.rs`).

use std::cell::{Cell, RefCell};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Asked during a run whether its caller wants it stopped; `true` stops it.
pub type StopCheck = Arc<dyn Fn() -> bool + Send + Sync>;

/// The verdict on the run on this thread. Asked with `false`, it answers `None` while the
/// checker has not answered; asked with `true`, it waits for the answer. `Some(true)`: the
/// run may go on; `Some(false)`: it is refused.
pub(crate) type Verdict = Box<dyn FnMut(bool) -> Option<bool>>;

/// See the module's documentation; every field belongs to the run on this thread.
pub(super) struct Running {
    /// The deadline, in nanoseconds of the deadline's clock; 0 = no run.
    pub(super) deadline: Cell<u64>,
    /// Set once the run is cut off (its deadline passed, its caller stopped it, or its
    /// check refused it): every later safepoint fails.
    pub(super) expired: Cell<bool>,
    /// Interrupts since the run started: the clock is read on every few.
    pub(super) ticks: Cell<u32>,
    /// The run's caller's stop check, if it has one.
    pub(super) stop: RefCell<Option<StopCheck>>,
    /// Set when the stop check (or a refusal), not the clock, cut the run off.
    pub(super) stopped: Cell<bool>,
    /// Set when the run's type check refused it while it ran.
    pub(super) refused: Cell<bool>,
    /// When to call the thread's long-run hook next; 0 = never.
    pub(super) long_run_at: Cell<u64>,
    /// The verdict of the run's check not yet given.
    pub(super) verdict: RefCell<Option<Verdict>>,
    /// When the interrupt asks for the verdict next; 0 = nothing to ask.
    pub(super) ask_at: Cell<u64>,
}

thread_local! {
    pub(super) static RUNNING: Running = const {
        Running {
            deadline: Cell::new(0),
            expired: Cell::new(false),
            ticks: Cell::new(0),
            stop: RefCell::new(None),
            stopped: Cell::new(false),
            refused: Cell::new(false),
            long_run_at: Cell::new(0),
            verdict: RefCell::new(None),
            ask_at: Cell::new(0),
        }
    };
}

/// `f` of the run on this thread.
pub(super) fn running<R>(f: impl FnOnce(&Running) -> R) -> R {
    RUNNING.with(f)
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The clock the deadline is kept in (nanoseconds since the first use).
pub(super) fn clock() -> u64 {
    epoch().elapsed().as_nanos() as u64
}

/// Cuts the run on this thread off because its type check refused it: every later call
/// fails, as after the deadline, so a `pcall` cannot go on past the refusal.
pub(super) fn refuse() {
    running(|r| r.refused.set(true));
    running(|r| r.stopped.set(true));
    running(|r| r.expired.set(true));
}

/// True once the run's type check refused it.
pub(super) fn refused() -> bool {
    running(|r| r.refused.get())
}
