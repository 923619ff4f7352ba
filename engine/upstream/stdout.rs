//! A server's stdout, checked line by line. MCP's stdio transport carries one JSON-RPC
//! message per line and nothing else; rmcp skips a line it cannot read as a message, so a
//! server that prints a banner or garbage, or answers with a response rmcp cannot parse,
//! would leave its calls waiting until their deadline. This reader holds each line until
//! it is whole and reads it as rmcp will: a message goes on; a response that does not
//! parse (but has its request's id) is replaced by an error answer for that request,
//! marked [`MALFORMED`], so the call fails at once with the parser's reason; anything else
//! (a line that does not start like JSON, JSON that is no message) records a sample and
//! fails the read: the connection closes at once and every waiting call gets a protocol
//! error quoting what the server wrote.
//!
//! rmcp also drops, without a word to the caller, a message longer than
//! [`MAX_MESSAGE_BYTES`]. So this reader follows each line's top-level `"id"` as it
//! streams by (in constant memory, wherever in the object the server put it), and when a
//! line passes the cap it drops it and answers that request itself with a JSON-RPC error
//! marked [`OVERSIZED`]: the call fails at once, the connection stays up.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use rmcp::service::RxJsonRpcMessage;
use rmcp::RoleClient;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, ReadBuf};

/// Longest sample of a bad line kept for the error.
const SAMPLE: usize = 200;

/// The longest message read, newline included: rmcp's own cap on one line.
pub(crate) const MAX_MESSAGE_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// The `data.codemode` of the error this reader answers an oversized message with.
pub(crate) const OVERSIZED: &str = "oversized";

/// The `data.codemode` of the error this reader answers a response rmcp cannot read
/// with; its message says why.
pub(crate) const MALFORMED: &str = "malformed";

/// Where the first bad line is recorded.
pub(crate) type Garbage = Arc<Mutex<Option<String>>>;

/// Wraps a server's stdout.
pub(crate) struct CheckedStdout<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    /// At the start of a line (only whitespace seen on it so far).
    line_start: bool,
    failed: bool,
    garbage: Garbage,
    /// Bytes of the current line so far, newline excluded.
    line_len: usize,
    /// The current line, held until it is whole and checked.
    line: Vec<u8>,
    /// The current line's top-level `"id"`, as it streams by.
    id: IdScan,
    /// Set while the rest of an oversized line is dropped.
    oversized: Option<Oversized>,
    /// The cap; [`MAX_MESSAGE_BYTES`] but for tests.
    max: usize,
}

/// An oversized line being dropped.
struct Oversized {
    /// Whether its request was already answered.
    answered: bool,
}

impl<R> CheckedStdout<R> {
    pub(crate) fn new(inner: R, garbage: Garbage) -> Self {
        Self::with_cap(inner, garbage, MAX_MESSAGE_BYTES)
    }

    fn with_cap(inner: R, garbage: Garbage, max: usize) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            pos: 0,
            line_start: true,
            failed: false,
            garbage,
            line_len: 0,
            line: Vec::new(),
            id: IdScan::default(),
            oversized: None,
            max,
        }
    }

    /// Takes fresh bytes: each whole line that is a message goes into `buf` (what the
    /// transport will read). At the first line that is no message it records a sample
    /// in `garbage` and returns false.
    fn take(&mut self, fresh: &[u8]) -> bool {
        for (i, &b) in fresh.iter().enumerate() {
            if let Some(over) = &mut self.oversized {
                if b == b'\n' {
                    if !over.answered {
                        self.answer(
                            OVERSIZED,
                            &format!(
                                "the answer is larger than {} bytes, the most one message may be",
                                self.max
                            ),
                        );
                    }
                    self.oversized = None;
                    self.end_line();
                } else {
                    self.id.feed(b);
                }
                continue;
            }
            if b == b'\n' {
                if self.finish_line().is_err() {
                    return false;
                }
                continue;
            }
            if self.line_start && !b.is_ascii_whitespace() {
                if b == b'{' || b == b'[' {
                    self.line_start = false;
                } else {
                    // Not JSON: no need to wait for the line's end.
                    let line = &fresh[i..];
                    let end = line.iter().position(|&b| b == b'\n').unwrap_or(line.len());
                    let end = floor_boundary(line, end.min(SAMPLE));
                    let sample = String::from_utf8_lossy(&line[..end]).into_owned();
                    *self.garbage.lock().unwrap_or_else(|e| e.into_inner()) = Some(sample);
                    return false;
                }
            }
            self.id.feed(b);
            self.line.push(b);
            self.line_len += 1;
            if self.line_len + 1 > self.max {
                // Dropped unread: the transport never sees it.
                self.line = Vec::new();
                tracing::warn!(
                    "an MCP server sent a message over {} bytes; answering its request with an error",
                    self.max
                );
                let answered = self.id.id().is_some();
                if answered {
                    self.answer(
                        OVERSIZED,
                        &format!(
                            "the answer is larger than {} bytes, the most one message may be",
                            self.max
                        ),
                    );
                }
                self.oversized = Some(Oversized { answered });
            }
        }
        true
    }

    /// A whole line has been read: passes it on if it is a message the transport can
    /// read. rmcp drops a line it cannot read as a message, so a response that does not
    /// parse (a result and an error both, a lone surrogate, nesting deeper than the
    /// parser goes, trailing bytes) is answered here with an error for its request, and
    /// a line that is no message at all fails the stream (`Err`). A request or
    /// notification of the server's own goes on as it is: rmcp answers or skips it.
    fn finish_line(&mut self) -> Result<(), ()> {
        let line = std::mem::take(&mut self.line);
        let trimmed = line.strip_suffix(b"\r").unwrap_or(&line);
        if trimmed.iter().all(u8::is_ascii_whitespace) {
            self.end_line();
            return Ok(());
        }
        let problem = match serde_json::from_slice::<RxJsonRpcMessage<RoleClient>>(trimmed) {
            Ok(_) => None,
            Err(_) if self.id.method => None,
            Err(e) => Some(e.to_string()),
        };
        let Some(problem) = problem else {
            self.buf.extend_from_slice(&line);
            self.buf.push(b'\n');
            self.end_line();
            return Ok(());
        };
        let end = floor_boundary(trimmed, SAMPLE);
        let sample = String::from_utf8_lossy(&trimmed[..end]).into_owned();
        if self.id.id().is_some() {
            tracing::warn!("an MCP server answered with a message that is not JSON-RPC: {problem}");
            self.answer(
                MALFORMED,
                &format!("the answer is not a JSON-RPC response ({problem}): {sample:?}"),
            );
            self.end_line();
            return Ok(());
        }
        *self.garbage.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(format!("{sample} (not a JSON-RPC message: {problem})"));
        Err(())
    }

    fn end_line(&mut self) {
        self.line_start = true;
        self.line_len = 0;
        self.line.clear();
        self.id = IdScan::default();
    }

    /// Queues an error answer for the current line's request, marked `mark` in
    /// `data.codemode`; a line with no id (a notification) needs none.
    fn answer(&mut self, mark: &str, message: &str) {
        let Some(id) = self.id.id() else {
            tracing::warn!("dropped an MCP message that has no id: {message}");
            return;
        };
        let answer = json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32603,
                "message": message,
                "data": { "codemode": mark },
            }
        });
        self.buf.extend_from_slice(answer.to_string().as_bytes());
        self.buf.push(b'\n');
    }
}

/// The longest prefix of `bytes` of at most `max` bytes that does not cut a UTF-8
/// character.
fn floor_boundary(bytes: &[u8], max: usize) -> usize {
    let mut end = bytes.len().min(max);
    while end > 0 && end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    end
}

impl<R: AsyncRead + Unpin> AsyncRead for CheckedStdout<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.pos < this.buf.len() {
                let n = out.remaining().min(this.buf.len() - this.pos);
                out.put_slice(&this.buf[this.pos..this.pos + n]);
                this.pos += n;
                return Poll::Ready(Ok(()));
            }
            if this.failed {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the server wrote something that is not JSON-RPC on stdout",
                )));
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {}
            }
            let fresh = read.filled();
            if fresh.is_empty() {
                return Poll::Ready(Ok(()));
            }
            this.buf.clear();
            this.pos = 0;
            this.failed = !this.take(fresh);
        }
    }
}

/// Finds the top-level `"id"` member of one JSON response as its bytes stream by, keeping
/// only the id's own few bytes: nested values and strings are skipped by depth. A message
/// with a top-level `"method"` is the server's request or notification: no id is given.
#[derive(Default)]
struct IdScan {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1: what the next token is.
    expect: Expect,
    /// The key being read at depth 1 (only the first few bytes matter).
    key: Vec<u8>,
    /// The raw text of the `id` value, while and after it is read.
    raw: Vec<u8>,
    /// Set once the id's value is complete.
    done: bool,
    /// A top-level `"method"` key: a request or notification from the server, whose id
    /// is the server's own and is never answered here.
    method: bool,
}

#[derive(Default, PartialEq)]
enum Expect {
    #[default]
    Key,
    /// Reading a key string.
    InKey,
    /// After a key, before `:`.
    Colon,
    /// Reading a value: the id's when true.
    Value(bool),
}

/// Longest id read; a longer one is not an id codemode sent.
const MAX_ID: usize = 64;

impl IdScan {
    fn feed(&mut self, b: u8) {
        let top = self.depth == 1;
        if self.in_string {
            if top && self.expect == Expect::InKey {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    self.expect = Expect::Colon;
                    self.method |= self.key == b"method";
                    return;
                }
                if self.key.len() <= 6 {
                    self.key.push(b);
                }
                return;
            }
            self.capture(b);
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if top && self.expect == Expect::Key {
                    self.expect = Expect::InKey;
                    self.key.clear();
                } else {
                    self.capture(b);
                }
            }
            b'{' | b'[' => {
                self.capture(b);
                self.depth += 1;
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.finish_value();
                } else {
                    self.capture(b);
                }
            }
            b':' if top && self.expect == Expect::Colon => {
                self.expect = Expect::Value(self.key == b"id");
            }
            b',' if top => {
                self.finish_value();
                self.expect = Expect::Key;
            }
            _ if b.is_ascii_whitespace() => {}
            _ => self.capture(b),
        }
    }

    fn capture(&mut self, b: u8) {
        if self.expect == Expect::Value(true) && !self.done && self.depth >= 1 {
            if self.raw.len() < MAX_ID {
                self.raw.push(b);
            } else {
                self.raw.clear();
                self.done = true;
            }
        }
    }

    fn finish_value(&mut self) {
        if self.expect == Expect::Value(true) && !self.raw.is_empty() {
            self.done = true;
        }
    }

    /// The id, once its value is complete: a number or a string.
    fn id(&self) -> Option<Value> {
        if !self.done || self.method {
            return None;
        }
        match serde_json::from_slice::<Value>(&self.raw).ok()? {
            id @ (Value::Number(_) | Value::String(_)) => Some(id),
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/stdout.rs"]
mod tests;
