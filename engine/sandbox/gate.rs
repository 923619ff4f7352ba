//! A run that starts before its type check answers. The script's own computation goes on
//! while the checker works in its process; anything that reaches outside the run (a file
//! written or removed, a request, a command, an upstream call, a tool published) first
//! passes the gate, which waits for the verdict: the linker puts it before every host
//! function registered as acting outside the run (`linker.rs`). A refused run is stopped there, before
//! anything it did left it, and its caller shows the refusal instead of what it did.
//!
//! The interrupt asks for the verdict now and then as well, so a script that computes for
//! a while before its first effect reads the checker's reply as soon as it is there: the
//! checker is free for other scripts at once, and a refused script stops at once.

use super::handoff::blocking;
pub(crate) use super::running::Verdict;
use super::running::{clock, refuse, refused, running};

/// How often the interrupt asks, in nanoseconds: a poll of a pipe costs a system call, and
/// a check takes a fraction of a millisecond or more.
const ASK_EVERY: u64 = 100_000;

/// Makes the run about to start on this thread wait for `verdict` before its first effect.
/// The caller takes it back with [`take`] when the run ends.
pub(crate) fn set(verdict: Verdict) {
    drop(running(|r| r.verdict.replace(Some(verdict))));
    running(|r| r.ask_at.set(clock().saturating_add(ASK_EVERY)));
}

/// The verdict still not given when the run ended, for its caller to wait for.
pub(crate) fn take() -> Option<Verdict> {
    running(|r| r.ask_at.set(0));
    running(|r| r.verdict.take())
}

/// Whether the run may do what reaches outside it: waits for the verdict when it has not
/// come, and stops a refused run (every later call fails, as after the deadline). Only the
/// linker asks (`linker.rs`), for every host function of a class that acts.
pub(super) fn pass() -> bool {
    if refused() {
        return false;
    }
    let Some(mut verdict) = take() else {
        return true;
    };
    let go = blocking(|| verdict(true)).unwrap_or(true);
    if !go {
        refuse();
    }
    go
}

/// Asks for the verdict when it is time to (`now` in the deadline's clock), without
/// waiting; called from the interrupt.
pub(super) fn ask(now: u64) {
    let at = running(|r| r.ask_at.get());
    if at == 0 || now < at {
        return;
    }
    let Some(mut verdict) = running(|r| r.verdict.take()) else {
        running(|r| r.ask_at.set(0));
        return;
    };
    // Called from Luau's interrupt: a panic must not unwind through the VM's frames. One
    // in the verdict's own code lets the run go on (the checker is a help, never a gate
    // that breaks a run).
    let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verdict(false)));
    match asked.unwrap_or(Some(true)) {
        None => {
            drop(running(|r| r.verdict.replace(Some(verdict))));
            running(|r| r.ask_at.set(now.saturating_add(ASK_EVERY)));
        }
        Some(go) => {
            running(|r| r.ask_at.set(0));
            if !go {
                refuse();
            }
        }
    }
}
