//! A server's stdout, checked line by line. MCP's stdio transport carries one JSON-RPC
//! message per line and nothing else; rmcp skips a line that does not parse, so a server
//! that prints a banner or garbage would leave its calls waiting until their deadline.
//! This reader passes through every line that starts like JSON and, at the first line
//! that does not, records a sample and fails the read: the connection closes at once and
//! every waiting call gets a protocol error quoting what the server wrote.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// Longest sample of a bad line kept for the error.
const SAMPLE: usize = 200;

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
}

impl<R> CheckedStdout<R> {
    pub(crate) fn new(inner: R, garbage: Garbage) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            pos: 0,
            line_start: true,
            failed: false,
            garbage,
        }
    }

    /// Scans fresh bytes; returns where the first bad line starts, if one does.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                self.line_start = true;
            } else if self.line_start && !b.is_ascii_whitespace() {
                if b == b'{' || b == b'[' {
                    self.line_start = false;
                } else {
                    return Some(i);
                }
            }
        }
        None
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
            let bad = this.scan(fresh);
            this.buf.clear();
            this.pos = 0;
            match bad {
                None => this.buf.extend_from_slice(fresh),
                Some(at) => {
                    let line = &fresh[at..];
                    let end = line
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap_or(line.len())
                        .min(SAMPLE);
                    let sample = String::from_utf8_lossy(&line[..end]).into_owned();
                    *this.garbage.lock().unwrap_or_else(|e| e.into_inner()) = Some(sample);
                    this.failed = true;
                    this.buf.extend_from_slice(&fresh[..at]);
                }
            }
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

    #[tokio::test]
    async fn clean_stream_reads_whole() {
        let input: &[u8] = b"{\"a\":1}\n{\"b\":2}";
        let mut reader = CheckedStdout::new(input, Garbage::default());
        let mut out = Vec::new();
        reader.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, input);
    }
}
