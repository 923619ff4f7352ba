//! The stdio transport: one JSON-RPC message per line each way (MCP's stdio transport),
//! answering every frame it cannot read.
//!
//! rmcp's own line transport drops a line that is not JSON (or not UTF-8) without a word,
//! and drops a last message that has no newline before EOF. This one answers each frame
//! that is not a message with a JSON-RPC error whose `id` is `null`: `-32700` "Parse
//! error: ..." for bytes that are not UTF-8 JSON (or a line over [`MAX_FRAME_BYTES`]),
//! `-32600` "Invalid Request: ..." for JSON that is not a message; then it reads on. A
//! last frame without its newline is read as a frame when stdin ends.
//!
//! Reads are cancel-safe (rmcp polls `receive` inside a `select!`): a partial line stays
//! in the transport and the next call goes on with it. All writes go through one task, in
//! order, a whole frame at a time, so a reply is never cut into by another.

use std::io;
use std::time::Duration;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::MAX_SCRIPT_BYTES;

/// The longest frame read: room for a script at the size cap plus JSON escaping (as for
/// HTTP bodies), so an oversized script gets tool_exec's own message.
pub(crate) const MAX_FRAME_BYTES: usize = 4 * MAX_SCRIPT_BYTES;

/// JSON-RPC: the bytes are not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: JSON, but not a message.
const INVALID_REQUEST: i64 = -32600;

/// How long closing waits for queued frames to reach a client that stopped reading.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// A whole frame to write, and where to say whether it was written.
type Outgoing = (Vec<u8>, oneshot::Sender<io::Result<()>>);

/// The server side of MCP over a byte stream pair (stdin and stdout).
pub(crate) struct StdioTransport<R> {
    read: BufReader<R>,
    /// The frame being read; kept across cancelled reads.
    line: Vec<u8>,
    /// Skipping the rest of an over-long line.
    discarding: bool,
    /// The input has ended.
    eof: bool,
    max_frame: usize,
    out: Option<mpsc::UnboundedSender<Outgoing>>,
    writer: Option<JoinHandle<()>>,
    /// The last error reply, until it is written: reading waits for it, so bad input
    /// cannot queue replies faster than the client reads them.
    pending_reply: Option<oneshot::Receiver<io::Result<()>>>,
}

impl<R: AsyncRead + Unpin> StdioTransport<R> {
    /// Reads frames from `read` and writes them to `write` (call inside a tokio runtime:
    /// it starts the writing task).
    pub(crate) fn new<W>(read: R, write: W) -> StdioTransport<R>
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (out, frames) = mpsc::unbounded_channel();
        StdioTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            eof: false,
            max_frame: MAX_FRAME_BYTES,
            out: Some(out),
            writer: Some(tokio::spawn(write_frames(write, frames))),
            pending_reply: None,
        }
    }

    /// With a different cap on one frame.
    #[cfg(test)]
    pub(crate) fn with_max_frame(mut self, bytes: usize) -> Self {
        self.max_frame = bytes;
        self
    }

    /// Queues `frame` (a whole line) for writing; the receiver says when it was written.
    fn queue(&self, frame: Vec<u8>) -> io::Result<oneshot::Receiver<io::Result<()>>> {
        let out = self.out.as_ref().ok_or_else(closed)?;
        let (done, written) = oneshot::channel();
        out.send((frame, done)).map_err(|_| closed())?;
        Ok(written)
    }

    /// Reads the next frame into `self.line`, without ever holding more than
    /// `max_frame` bytes of it.
    async fn read_frame(&mut self) -> Frame {
        if self.eof {
            return Frame::End;
        }
        loop {
            let available = match self.read.fill_buf().await {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Frame::Failed(e),
            };
            if available.is_empty() {
                self.eof = true;
                // A last frame with no newline is still a frame.
                return if self.line.is_empty() || self.discarding {
                    Frame::End
                } else {
                    Frame::Line
                };
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let frame = if self.discarding {
                self.discarding = newline.is_none();
                None
            } else if self.line.len() + take > self.max_frame + 1 {
                // (+ 1: the newline does not count.)
                self.line.clear();
                self.discarding = newline.is_none();
                Some(Frame::TooLong)
            } else {
                self.line.extend_from_slice(&available[..take]);
                newline.map(|_| Frame::Line)
            };
            self.read.consume(take);
            if let Some(frame) = frame {
                return frame;
            }
        }
    }
}

/// What [`StdioTransport::read_frame`] found.
enum Frame {
    /// A frame is in `line` (with its newline, if it had one).
    Line,
    /// A frame longer than the cap, dropped.
    TooLong,
    /// The input ended.
    End,
    Failed(io::Error),
}

/// What a frame turned out to be.
enum Decoded {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// A blank line: nothing to answer.
    Blank,
    /// Not a message: this error reply (a whole line) answers it.
    Reply(Vec<u8>),
}

/// Reads one frame (a line, newline included or not).
fn decode(frame: &[u8]) -> Decoded {
    let frame = frame.strip_suffix(b"\n").unwrap_or(frame);
    let frame = frame.strip_suffix(b"\r").unwrap_or(frame);
    // RFC 8259 lets a parser ignore a byte order mark.
    let frame = frame.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(frame);
    if frame.iter().all(u8::is_ascii_whitespace) {
        return Decoded::Blank;
    }
    let text = match std::str::from_utf8(frame) {
        Ok(text) => text,
        Err(e) => {
            return Decoded::Reply(error_reply(
                Value::Null,
                PARSE_ERROR,
                &format!(
                    "Parse error: the message is not UTF-8 (byte {} of the line is not part of a UTF-8 character); send UTF-8 JSON, one message per line",
                    e.valid_up_to() + 1
                ),
            ))
        }
    };
    match serde_json::from_str::<RxJsonRpcMessage<RoleServer>>(text) {
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(e) if e.is_syntax() || e.is_eof() => Decoded::Reply(error_reply(
            Value::Null,
            PARSE_ERROR,
            &format!("Parse error: {e}; send one JSON-RPC message per line"),
        )),
        Err(e) => {
            // Well-formed JSON, not a message. Answer a request by its id when it has one.
            let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            let id = match (value.get("method"), value.get("id")) {
                (Some(_), Some(id)) if id.is_string() || id.is_number() => id.clone(),
                _ => Value::Null,
            };
            Decoded::Reply(error_reply(
                id,
                INVALID_REQUEST,
                &format!("Invalid Request: {e}"),
            ))
        }
    }
}

/// A JSON-RPC error response, as one line.
fn error_reply(id: Value, code: i64, message: &str) -> Vec<u8> {
    let mut line = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
        .to_string()
        .into_bytes();
    line.push(b'\n');
    line
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the MCP output stream is closed")
}

/// Writes each queued frame whole, in order, and says how it went. After a failed write
/// every later frame fails too (the client has gone).
async fn write_frames<W: AsyncWrite + Unpin>(
    mut write: W,
    mut frames: mpsc::UnboundedReceiver<Outgoing>,
) {
    let mut failed = None;
    while let Some((frame, done)) = frames.recv().await {
        let result = match failed {
            Some(kind) => Err(io::Error::new(kind, "the MCP output stream is closed")),
            None => {
                let written = async {
                    write.write_all(&frame).await?;
                    write.flush().await
                }
                .await;
                if let Err(e) = &written {
                    tracing::error!("cannot write to the MCP client: {e}");
                    failed = Some(e.kind());
                }
                written
            }
        };
        // Nobody may be waiting (an error reply from a reader that moved on).
        let _ = done.send(result);
    }
}

impl<R> Transport<RoleServer> for StdioTransport<R>
where
    R: AsyncRead + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = io::Result<()>> + Send + 'static {
        // Queued now, so frames go out in the order they are sent.
        let queued = serde_json::to_vec(&item)
            .map_err(io::Error::other)
            .and_then(|mut frame| {
                frame.push(b'\n');
                self.queue(frame)
            });
        async move { queued?.await.unwrap_or_else(|_| Err(closed())) }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(written) = self.pending_reply.as_mut() {
                let written = written.await;
                self.pending_reply = None;
                if !matches!(written, Ok(Ok(()))) {
                    return None;
                }
            }
            let decoded = match self.read_frame().await {
                Frame::Line => {
                    let decoded = decode(&self.line);
                    self.line.clear();
                    decoded
                }
                Frame::TooLong => Decoded::Reply(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    &format!(
                        "Parse error: a message longer than {} bytes was skipped unread; send at most that much per line",
                        self.max_frame
                    ),
                )),
                Frame::End => return None,
                Frame::Failed(e) => {
                    tracing::error!("cannot read from the MCP client: {e}");
                    return None;
                }
            };
            match decoded {
                Decoded::Message(message) => return Some(*message),
                Decoded::Blank => {}
                Decoded::Reply(reply) => {
                    tracing::debug!(
                        "answered an unreadable frame: {}",
                        String::from_utf8_lossy(&reply)
                    );
                    self.pending_reply = Some(self.queue(reply).ok()?);
                }
            }
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        // The writer ends once the frames queued before this are written.
        drop(self.out.take());
        if let Some(writer) = self.writer.take() {
            if tokio::time::timeout(CLOSE_WAIT, writer).await.is_err() {
                tracing::warn!("the MCP client stopped reading; unwritten replies are dropped");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/stdio.rs"]
mod tests;
