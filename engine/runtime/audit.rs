//! The run line of the audit log: the one place every run's line is written, once its
//! envelope is final (the call lines of the run, gathered by the host's state, go with
//! it; see `crate::audit`).

use std::io::Write;
use std::time::Duration;

use super::{Envelope, ErrorKind, Runtime};
use crate::audit::Trail;

impl Runtime {
    /// The trail of a run that begins now, when the registry keeps a log.
    pub(crate) fn new_trail(&self) -> Option<Trail> {
        let log = self.registry.audit()?;
        Some(Trail::new(
            log.clone(),
            self.agent.clone(),
            &self.registry.rules().profile,
        ))
    }

    /// Writes the run line of `envelope`, after the call lines of its run.
    pub(crate) fn record_run(&mut self, envelope: &Envelope) {
        let Some(trail) = self.trail.take().or_else(|| self.new_trail()) else {
            return;
        };
        let outcome = envelope.error.as_ref().map_or("ok", |e| kind_name(e.kind));
        let elapsed = Duration::from_secs_f64(envelope.elapsed_ms.max(0.0) / 1e3);
        trail.finish(outcome, elapsed, returned_bytes(envelope));
    }
}

/// The kind as the envelope writes it.
pub(crate) fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Syntax => "syntax",
        ErrorKind::Runtime => "runtime",
        ErrorKind::Timeout => "timeout",
        ErrorKind::Memory => "memory",
        ErrorKind::Output => "output",
        ErrorKind::Limit => "limit",
        ErrorKind::Input => "input",
        ErrorKind::Denied => "denied",
        ErrorKind::Type => "type",
    }
}

/// What the run gave back: its printed text and its value as JSON, counted, not copied.
fn returned_bytes(envelope: &Envelope) -> u64 {
    let mut counted = Counter(envelope.stdout.len() as u64);
    if let Some(value) = &envelope.value {
        let _ = serde_json::to_writer(&mut counted, value);
    }
    counted.0
}

struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
#[path = "../../tests/unit/runtime/audit.rs"]
mod tests;
