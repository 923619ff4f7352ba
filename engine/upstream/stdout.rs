//! A server's stdout, checked line by line. MCP's stdio transport carries one JSON-RPC
//! message per line and nothing else; rmcp skips a line that does not parse, so a server
//! that prints a banner or garbage would leave its calls waiting until their deadline.
//! This reader passes through every line that starts like JSON and, at the first line
//! that does not, records a sample and fails the read: the connection closes at once and
//! every waiting call gets a protocol error quoting what the server wrote.
//!
//! rmcp also drops, without a word to the caller, a message longer than
//! [`MAX_MESSAGE_BYTES`]. So this reader follows each line's top-level `"id"` as it
//! streams by (in constant memory, wherever in the object the server put it), and when a
//! line passes the cap it stops passing it on and answers that request itself with a
//! JSON-RPC error marked [`OVERSIZED`]: the call fails at once, the connection stays up.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use serde_json::{json, Value};
use tokio::io::{AsyncRead, ReadBuf};

/// Longest sample of a bad line kept for the error.
const SAMPLE: usize = 200;

/// The longest message read, newline included: rmcp's own cap on one line.
pub(crate) const MAX_MESSAGE_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// The `data.codemode` of the error this reader answers an oversized message with.
pub(crate) const OVERSIZED: &str = "oversized";

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
            id: IdScan::default(),
            oversized: None,
            max,
        }
    }

    /// Takes fresh bytes into `buf` (what the transport will read); returns where the
    /// first bad line starts, if one does (`buf` then holds what came before it).
    fn take(&mut self, fresh: &[u8]) -> Option<usize> {
        let mut start = 0;
        for (i, &b) in fresh.iter().enumerate() {
            if let Some(over) = &mut self.oversized {
                if b == b'\n' {
                    if !over.answered {
                        self.answer_oversized();
                    }
                    self.oversized = None;
                    self.end_line();
                    start = i + 1;
                } else {
                    self.id.feed(b);
                }
                continue;
            }
            if b == b'\n' {
                self.end_line();
                continue;
            }
            if self.line_start && !b.is_ascii_whitespace() {
                if b == b'{' || b == b'[' {
                    self.line_start = false;
                } else {
                    self.buf.extend_from_slice(&fresh[start..i]);
                    return Some(i);
                }
            }
            self.id.feed(b);
            self.line_len += 1;
            if self.line_len + 1 > self.max {
                // The transport gets a line one byte over its cap, which it drops whole
                // without parsing it; the rest of the server's line never reaches it.
                self.buf.extend_from_slice(&fresh[start..=i]);
                self.buf.push(b'\n');
                start = i + 1;
                tracing::warn!(
                    "an MCP server sent a message over {} bytes; answering its request with an error",
                    self.max
                );
                let answered = self.id.id().is_some();
                if answered {
                    self.answer_oversized();
                }
                self.oversized = Some(Oversized { answered });
            }
        }
        if self.oversized.is_none() {
            self.buf.extend_from_slice(&fresh[start..]);
        }
        None
    }

    fn end_line(&mut self) {
        self.line_start = true;
        self.line_len = 0;
        self.id = IdScan::default();
    }

    /// Queues the error answer for the oversized line's request; a line with no id (a
    /// notification) needs none.
    fn answer_oversized(&mut self) {
        let Some(id) = self.id.id() else {
            tracing::warn!(
                "dropped an MCP message over {} bytes that has no id",
                self.max
            );
            return;
        };
        let answer = json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32603,
                "message": format!("the answer is larger than {} bytes, the most one message may be", self.max),
                "data": { "codemode": OVERSIZED, "maxBytes": self.max },
            }
        });
        self.buf.extend_from_slice(answer.to_string().as_bytes());
        self.buf.push(b'\n');
    }
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
            if let Some(at) = this.take(fresh) {
                let line = &fresh[at..];
                let end = line
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(line.len())
                    .min(SAMPLE);
                let sample = String::from_utf8_lossy(&line[..end]).into_owned();
                *this.garbage.lock().unwrap_or_else(|e| e.into_inner()) = Some(sample);
                this.failed = true;
            }
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
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn passes_messages_and_stops_at_garbage() {
        let input: &[u8] = b"{\"a\":1}\n  \n[1]\nServer ready on port 3\n{\"b\":2}\n";
        let garbage = Garbage::default();
        let mut reader = CheckedStdout::new(input, garbage.clone());
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(out, b"{\"a\":1}\n  \n[1]\n");
        assert_eq!(
            garbage.lock().unwrap().as_deref(),
            Some("Server ready on port 3")
        );
    }

    fn ids(text: &str) -> Option<Value> {
        let mut scan = IdScan::default();
        for b in text.bytes() {
            scan.feed(b);
        }
        scan.id()
    }

    #[test]
    fn finds_the_top_level_id_wherever_it_is() {
        assert_eq!(
            ids(r#"{"jsonrpc":"2.0","id":7,"result":{"id":9}}"#),
            Some(json!(7))
        );
        assert_eq!(
            ids(r#"{"result":{"id":9,"t":"\"id\":3, }"},"jsonrpc":"2.0","id":"a,b"}"#),
            Some(json!("a,b"))
        );
        assert_eq!(
            ids(r#"{ "id" : 12 , "x": [1, {"id": 2}]}"#),
            Some(json!(12))
        );
        assert_eq!(
            ids(r#"{"method":"notifications/x","params":{"id":1}}"#),
            None
        );
        assert_eq!(ids(r#"{"idx":1,"id":{"a":1}}"#), None);
        // Not complete yet while the value may go on.
        assert_eq!(ids(r#"{"result":1,"id":12"#), None);
    }

    #[tokio::test]
    async fn an_oversized_line_is_answered_with_an_error_and_dropped() {
        let big = "x".repeat(100);
        for line in [
            format!("{{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":\"{big}\"}}\n"),
            format!("{{\"result\":\"{big}\",\"jsonrpc\":\"2.0\",\"id\":3}}\n"),
        ] {
            let input = format!("{{\"a\":1}}\n{line}{{\"b\":2}}\n");
            let mut reader = CheckedStdout::with_cap(input.as_bytes(), Garbage::default(), 64);
            let mut out = Vec::new();
            reader.read_to_end(&mut out).await.unwrap();
            let out = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines[0], "{\"a\":1}");
            // One line over the cap, which the transport drops whole.
            assert_eq!(lines[1].len(), 64, "{out}");
            let answer: Value = serde_json::from_str(lines[2]).unwrap();
            assert_eq!(answer["id"], 3);
            assert_eq!(answer["error"]["data"]["codemode"], OVERSIZED);
            assert_eq!(lines[3], "{\"b\":2}");
            assert_eq!(lines.len(), 4, "{out}");
        }
    }

    #[tokio::test]
    async fn clean_stream_reads_whole() {
        let input: &[u8] = b"{\"a\":1}\n{\"b\":2}";
        let mut reader = CheckedStdout::new(input, Garbage::default());
        let mut out = Vec::new();
        reader.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, input);
    }
}
