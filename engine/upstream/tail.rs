//! The last words of a server: what it wrote to stderr, kept (the last few KiB) so an
//! error about a failed start or a crash can show them, and logged line by line at debug
//! level. Secrets are masked before anything is shown or logged.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::AsyncReadExt;

use super::secret::Redactor;

/// Bytes shown in an error.
const SHOWN: usize = 2 * 1024;
/// Bytes kept: more than shown, so a secret cut at the start of the shown part is still
/// whole when masking runs.
const KEPT: usize = 4 * 1024;

/// The end of a server's stderr.
#[derive(Debug)]
pub(crate) struct Tail {
    bytes: Mutex<VecDeque<u8>>,
    redactor: Redactor,
}

impl Tail {
    pub(crate) fn new(redactor: Redactor) -> Arc<Self> {
        Arc::new(Self {
            bytes: Mutex::new(VecDeque::with_capacity(KEPT)),
            redactor,
        })
    }

    fn push(&self, chunk: &[u8]) {
        let mut bytes = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        bytes.extend(chunk);
        let excess = bytes.len().saturating_sub(KEPT);
        bytes.drain(..excess);
    }

    /// The last ~2 KiB as text, secrets masked, starting at a line when one starts
    /// near the cut.
    pub(crate) fn text(&self) -> String {
        let bytes: Vec<u8> = {
            let bytes = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
            bytes.iter().copied().collect()
        };
        let masked = self.redactor.redact(&String::from_utf8_lossy(&bytes));
        if masked.len() <= SHOWN {
            return masked;
        }
        let mut start = masked.len() - SHOWN;
        while !masked.is_char_boundary(start) {
            start += 1;
        }
        let cut = &masked[start..];
        match cut.find('\n') {
            Some(nl) if nl < 200 => cut[nl + 1..].to_string(),
            _ => format!("…{cut}"),
        }
    }

    /// Reads `stderr` to its end into the tail, logging each line at debug level.
    pub(crate) async fn collect(
        self: Arc<Self>,
        server: String,
        mut stderr: impl tokio::io::AsyncRead + Unpin,
    ) {
        let mut chunk = [0u8; 4096];
        let mut line = Vec::new();
        loop {
            match stderr.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    self.push(&chunk[..n]);
                    for &b in &chunk[..n] {
                        if b == b'\n' {
                            self.log(&server, &line);
                            line.clear();
                        } else if line.len() < 1024 {
                            line.push(b);
                        }
                    }
                }
            }
        }
        if !line.is_empty() {
            self.log(&server, &line);
        }
    }

    fn log(&self, server: &str, line: &[u8]) {
        if tracing::enabled!(tracing::Level::DEBUG) {
            let text = self.redactor.redact(&String::from_utf8_lossy(line));
            tracing::debug!(target: "codemode::upstream::stderr", "{server}: {text}");
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/tail.rs"]
mod tests;
