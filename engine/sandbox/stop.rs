//! Why a run stopped early: recorded where the limit trips, read by the envelope.

use serde::Serialize;

/// A limit (or a caller) that stopped a run. The envelope's error kind and hint come
/// from this value; front ends name their own flag for it (see `Envelope::name_limits`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum StopCause {
    /// The wall-clock deadline passed.
    Deadline,
    /// The run's caller asked it to stop (a cancelled request).
    Cancelled,
    /// The VM's heap reached the memory limit.
    Memory,
    /// `print` passed the output cap.
    Output,
    /// The run created more coroutines than allowed.
    Coroutines,
    /// Recursion reached Luau's stack limit.
    Stack,
}

impl StopCause {
    /// What the reader can change to get past this limit, without naming any front
    /// end's flag (the front end adds it).
    pub(crate) fn remedy(self) -> &'static str {
        match self {
            StopCause::Deadline => {
                "do less per call (split the work over several scripts) or raise the deadline"
            }
            StopCause::Cancelled => {
                "nothing to fix in the script: send it again if its result is still wanted"
            }
            StopCause::Memory => {
                "build smaller values (stream or page through data) or raise the memory limit"
            }
            StopCause::Output => {
                "print less (return a summary value instead) or raise the output cap"
            }
            StopCause::Coroutines => "reuse coroutines instead of creating one per item",
            StopCause::Stack => "turn the recursion into a loop, or bound its depth",
        }
    }

    /// Reads the cause out of an error Luau raised by itself. Luau reports a full heap as
    /// its memory error (or, once a `pcall` caught it, as that error's text) and a deep
    /// recursion only as text; these are the only causes not recorded where they trip.
    pub(crate) fn from_luau_error(error: &mlua::Error) -> Option<StopCause> {
        if matches!(error, mlua::Error::MemoryError(_)) {
            return Some(StopCause::Memory);
        }
        let text = error.to_string();
        if text.contains("not enough memory") {
            Some(StopCause::Memory)
        } else if text.contains("stack overflow") {
            Some(StopCause::Stack)
        } else {
            None
        }
    }
}
