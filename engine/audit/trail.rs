//! The lines of one run, gathered until it ends.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::line::{millis, now};
use super::{Agent, Kind, Line, Log};

/// A trail holding more than this writes it out before taking another line.
pub(crate) const FLUSH_BYTES: usize = 64 * 1024;

/// Runs started by this process, for the run ids.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// One run's lines: call lines as the calls end, the run line last, written to the log
/// in one append (or several, past [`FLUSH_BYTES`]).
pub(crate) struct Trail {
    log: Arc<Log>,
    agent: Agent,
    profile: String,
    run: String,
    calls: u64,
    buffer: Vec<u8>,
}

impl Trail {
    /// The trail of a new run for `agent` under `profile`, written to `log`.
    pub(crate) fn new(log: Arc<Log>, agent: Agent, profile: &str) -> Trail {
        let n = RUNS.fetch_add(1, Ordering::Relaxed) + 1;
        Trail {
            log,
            agent,
            profile: profile.to_string(),
            run: format!("{}-{n}", std::process::id()),
            calls: 0,
            buffer: Vec::new(),
        }
    }

    /// Records a call of the tool `identity` that ended with `outcome` (`ok` or an error
    /// kind) after `elapsed`, giving back about `bytes`; `cached` when the result cache
    /// answered it.
    pub(crate) fn call(
        &mut self,
        identity: &str,
        outcome: &str,
        elapsed: Duration,
        bytes: u64,
        cached: bool,
    ) {
        self.calls += 1;
        self.push(Kind::Call, identity, outcome, elapsed, bytes, cached, None);
        if self.buffer.len() > FLUSH_BYTES {
            self.log.append(&std::mem::take(&mut self.buffer));
        }
    }

    /// Ends the run: its line (`run:<front end>`, `outcome`, `elapsed`, `bytes`) goes
    /// after its calls, and everything not yet written is written.
    pub(crate) fn finish(mut self, outcome: &str, elapsed: Duration, bytes: u64) {
        let identity = format!("run:{}", self.log.front());
        let calls = Some(self.calls);
        self.push(Kind::Run, &identity, outcome, elapsed, bytes, false, calls);
        self.log.append(&std::mem::take(&mut self.buffer));
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: Kind,
        identity: &str,
        outcome: &str,
        elapsed: Duration,
        bytes: u64,
        cached: bool,
        calls: Option<u64>,
    ) {
        let line = Line {
            time: Cow::Owned(now()),
            agent: Cow::Borrowed(self.agent.name()),
            profile: Cow::Borrowed(&self.profile),
            kind,
            identity: Cow::Borrowed(identity),
            outcome: Cow::Borrowed(outcome),
            ms: millis(elapsed),
            bytes,
            cached,
            run: Cow::Borrowed(&self.run),
            calls,
        };
        // Serialising a struct of strings and numbers cannot fail; JSON escapes every
        // control character, so the line holds no newline but its last.
        if serde_json::to_writer(&mut self.buffer, &line).is_ok() {
            self.buffer.push(b'\n');
        }
    }
}

impl Drop for Trail {
    /// A run that never finished (the engine panicked) still leaves its calls' lines.
    fn drop(&mut self) {
        if !self.buffer.is_empty() {
            self.log.append(&std::mem::take(&mut self.buffer));
        }
    }
}
