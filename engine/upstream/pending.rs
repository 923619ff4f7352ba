//! Calls in flight, waited for by a plain thread. A script's VM runs on a thread of its
//! own and blocks while it waits; the request itself runs on the runtime the
//! [`super::Upstreams`] value owns. The waiting thread sleeps on a condition variable
//! that the finishing request signals, waking every few milliseconds to ask its stop
//! check, and gives up at its deadline, which cancels the upstream request.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::error::UpstreamError;

/// How often a waiting thread asks its stop check.
const STOP_POLL: Duration = Duration::from_millis(10);

/// Wakes one waiting thread.
#[derive(Default)]
struct Signal {
    fired: Mutex<bool>,
    cv: Condvar,
}

impl Signal {
    fn fire(&self) {
        *self.fired.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.cv.notify_all();
    }

    /// Sleeps until fired or `timeout`; clears the flag.
    fn sleep(&self, timeout: Duration) {
        let fired = self.fired.lock().unwrap_or_else(|e| e.into_inner());
        let (mut fired, _) = self
            .cv
            .wait_timeout_while(fired, timeout, |fired| !*fired)
            .unwrap_or_else(|e| e.into_inner());
        *fired = false;
    }
}

/// How far a call got, for the error that names it when its wait ends first.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    /// Waiting for one of the server's in-flight places.
    #[default]
    Queued,
    /// Waiting for the server to start (or the HTTP session to open) and finish the
    /// MCP handshake.
    Connecting,
    /// The request was sent; no answer has come.
    Sent,
}

impl Phase {
    /// What the call was doing, for an error about `label` (`server.tool`).
    fn describe(self, label: &str) -> String {
        let server = label.split_once('.').map_or(label, |(server, _)| server);
        match self {
            Phase::Queued => {
                format!("queued behind the other calls MCP server '{server}' was running")
            }
            Phase::Connecting => format!("MCP server '{server}' was still starting or connecting"),
            Phase::Sent => format!("sent to MCP server '{server}', which had not answered"),
        }
    }
}

#[derive(Default)]
struct SlotState {
    result: Option<Result<Value, UpstreamError>>,
    phase: Phase,
    waiters: Vec<Arc<Signal>>,
    /// Why the caller cancelled (sent to the server with `notifications/cancelled`).
    reason: Option<String>,
}

/// Where a request leaves its result.
#[derive(Default)]
pub(crate) struct Slot {
    state: Mutex<SlotState>,
}

impl Slot {
    fn lock(&self) -> std::sync::MutexGuard<'_, SlotState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores the result (the first one wins) and wakes the waiters.
    pub(crate) fn finish(&self, result: Result<Value, UpstreamError>) {
        let waiters = {
            let mut state = self.lock();
            if state.result.is_some() {
                return;
            }
            state.result = Some(result);
            std::mem::take(&mut state.waiters)
        };
        for waiter in waiters {
            waiter.fire();
        }
    }

    /// Records how far the call got.
    pub(crate) fn set_phase(&self, phase: Phase) {
        self.lock().phase = phase;
    }

    /// Why the caller cancelled, for the server.
    pub(crate) fn reason(&self) -> String {
        self.lock()
            .reason
            .clone()
            .unwrap_or_else(|| "cancelled by codemode".to_string())
    }
}

/// A call started with [`super::Upstreams::start_call`]. Dropping it unfinished cancels
/// the upstream request.
pub(crate) struct PendingCall {
    label: String,
    slot: Arc<Slot>,
    cancel: CancellationToken,
    taken: bool,
}

impl std::fmt::Debug for PendingCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingCall")
            .field("call", &self.label)
            .field("finished", &self.is_finished())
            .finish()
    }
}

impl PendingCall {
    pub(crate) fn new(label: String) -> (Self, Arc<Slot>, CancellationToken) {
        let slot = Arc::new(Slot::default());
        let cancel = CancellationToken::new();
        let call = Self {
            label,
            slot: slot.clone(),
            cancel: cancel.clone(),
            taken: false,
        };
        (call, slot, cancel)
    }

    /// A call that failed before it started (an unknown server).
    pub(crate) fn failed(label: String, error: UpstreamError) -> Self {
        let (call, slot, _) = Self::new(label);
        slot.finish(Err(error));
        call
    }

    /// `server.tool`, as errors name the call.
    pub(crate) fn label(&self) -> &str {
        &self.label
    }

    /// True once the result is in (taken or not).
    pub(crate) fn is_finished(&self) -> bool {
        self.taken || self.slot.lock().result.is_some()
    }

    /// The result, if it is in and not taken yet. Never blocks.
    pub(crate) fn try_take(&mut self) -> Option<Result<Value, UpstreamError>> {
        if self.taken {
            return None;
        }
        let result = self.slot.lock().result.take();
        self.taken = result.is_some();
        result
    }

    /// Blocks until the result is in, `until` passes or `stop()` says stop. At the
    /// deadline or on stop the upstream request is cancelled (`notifications/cancelled`)
    /// and the error names this call.
    pub(crate) fn wait(
        self,
        until: Instant,
        stop: &dyn Fn() -> bool,
    ) -> Result<Value, UpstreamError> {
        let mut calls = [self];
        match wait_any(&mut calls, until, stop)? {
            Some(_) => calls[0]
                .try_take()
                .unwrap_or_else(|| Err(UpstreamError::Runtime("the result was taken".into()))),
            None => Err(UpstreamError::Runtime(
                "the result was already taken".into(),
            )),
        }
    }

    /// Cancels the upstream request (if it is still running) with `reason`, and fills
    /// the result with `error` unless one is already in.
    fn abandon(&self, reason: &str, error: UpstreamError) {
        {
            let mut state = self.slot.lock();
            if state.result.is_some() || self.taken {
                return;
            }
            state.reason = Some(reason.to_string());
        }
        self.cancel.cancel();
        self.slot.finish(Err(error));
    }
}

impl Drop for PendingCall {
    fn drop(&mut self) {
        if !self.is_finished() {
            self.slot
                .lock()
                .reason
                .get_or_insert_with(|| "the caller stopped waiting".to_string());
            self.cancel.cancel();
        }
    }
}

/// Waits until one of `calls` has a result that was not taken yet and returns its index
/// (take it with [`PendingCall::try_take`]; results that came in together are returned
/// in order by the next calls). `Ok(None)` when every result was already taken.
///
/// At `until`, or when `stop()` says stop, every unfinished call is cancelled upstream
/// and filled with the error, which is also returned, naming the calls that were still
/// waiting.
pub(crate) fn wait_any(
    calls: &mut [PendingCall],
    until: Instant,
    stop: &dyn Fn() -> bool,
) -> Result<Option<usize>, UpstreamError> {
    let signal = Arc::new(Signal::default());
    let ready = |calls: &[PendingCall]| -> Option<Option<usize>> {
        let mut any_left = false;
        for (i, call) in calls.iter().enumerate() {
            if call.taken {
                continue;
            }
            any_left = true;
            if call.slot.lock().result.is_some() {
                return Some(Some(i));
            }
        }
        (!any_left).then_some(None)
    };
    for call in calls.iter() {
        call.slot.lock().waiters.push(signal.clone());
    }
    let outcome = loop {
        if let Some(found) = ready(calls) {
            break Ok(found);
        }
        let waiting = || -> String {
            calls
                .iter()
                .filter(|c| !c.is_finished())
                .map(|c| {
                    let phase = c.slot.lock().phase;
                    format!("{} ({})", c.label, phase.describe(&c.label))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if stop() {
            let call = waiting();
            let error = UpstreamError::Stopped { call: call.clone() };
            for c in calls.iter() {
                c.abandon("the script was stopped", error.clone());
            }
            break Err(error);
        }
        let now = Instant::now();
        if now >= until {
            let call = waiting();
            let error = UpstreamError::Timeout { call: call.clone() };
            for c in calls.iter() {
                c.abandon("the caller's deadline was reached", error.clone());
            }
            break Err(error);
        }
        signal.sleep((until - now).min(STOP_POLL));
    };
    for call in calls.iter() {
        call.slot
            .lock()
            .waiters
            .retain(|w| !Arc::ptr_eq(w, &signal));
    }
    outcome
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/pending.rs"]
mod tests;
