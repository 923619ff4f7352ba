//! What can go wrong with an upstream call or a sync, typed so a caller can say which
//! call, which server and what to do.

use std::time::Duration;

/// Why an upstream call (or a sync) did not return a value.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum UpstreamError {
    /// No configured server has this toolbox name.
    #[error(
        "no MCP server named '{0}' is configured; add it under mcpServers in .codemode/mcp.json"
    )]
    UnknownServer(String),
    /// The deadline came while the call was still waiting (queued, starting or running).
    /// The upstream request was cancelled.
    #[error("deadline reached while waiting for {call}; the upstream request was cancelled")]
    Timeout {
        /// Which call(s) were waiting, each as `server.tool (how far it got)`: queued,
        /// its server still starting, or sent and unanswered (comma-separated when several).
        call: String,
    },
    /// The caller's stop check said stop; the upstream request was cancelled.
    #[error("stopped while waiting for {call}; the upstream request was cancelled")]
    Stopped {
        /// Which call(s) were waiting, as for `Timeout`.
        call: String,
    },
    /// The server could not be started or did not finish the MCP handshake.
    #[error("MCP server '{server}' failed to start: {reason}{}", tail_text(stderr))]
    StartFailed {
        /// The server's toolbox name.
        server: String,
        /// What failed, with the fix where there is one.
        reason: String,
        /// The last ~2 KiB the server wrote to stderr (secrets masked).
        stderr: String,
    },
    /// The server's process ended (or its connection dropped) while the call was running.
    /// The next call starts it (or connects) again.
    #[error(
        "MCP server '{server}' {how} while {call} was running; the next call starts or reconnects it{}",
        tail_text(stderr)
    )]
    Crashed {
        /// The server's toolbox name.
        server: String,
        /// The call that was running, as `server.tool`.
        call: String,
        /// How it ended ("exited with status 3", "was killed by signal 9", "closed the connection").
        how: String,
        /// The last ~2 KiB the server wrote to stderr (secrets masked).
        stderr: String,
    },
    /// The server broke the protocol: wrote something that is not JSON-RPC on stdout, sent
    /// a reply of the wrong shape, or answered with a JSON-RPC error.
    #[error("MCP server '{server}' broke the protocol: {detail}")]
    Protocol {
        /// The server's toolbox name.
        server: String,
        /// What it sent, cut and with secrets masked.
        detail: String,
    },
    /// The server refused the call with a JSON-RPC error (unknown tool, invalid
    /// arguments, an internal error of the server).
    #[error("MCP server refused {call}: {message} (JSON-RPC error {code})")]
    Rejected {
        /// The call, as `server.tool`.
        call: String,
        /// The JSON-RPC error code.
        code: i32,
        /// The server's message, cut and with secrets masked.
        message: String,
    },
    /// The server answered with one message larger than codemode reads (16 MiB); the
    /// message was dropped unread and the call failed at once.
    #[error("{call} answered with more than {} MiB in one message, the most codemode reads; ask the tool for less (a page, a filter, a smaller range)", max_bytes / (1024 * 1024))]
    TooLarge {
        /// The call, as `server.tool`.
        call: String,
        /// The cap, in bytes.
        max_bytes: usize,
    },
    /// The tool ran and reported an error (`isError`).
    #[error("{call} failed: {message}")]
    Tool {
        /// The call, as `server.tool`.
        call: String,
        /// The server's message (text content), cut and with secrets masked.
        message: String,
    },
    /// An HTTP API's description could not be read, or a call of one of its operations
    /// failed (a status other than 2xx, with the API's error body; a refused or failed
    /// request). Secrets are masked.
    #[error("{message}")]
    Api {
        /// The call (`api.operation`), or the API's name for its description.
        call: String,
        /// What went wrong, naming the call and the fix.
        message: String,
    },
    /// The catalogue cache could not be written.
    #[error(
        "cannot write the catalogue cache in {dir}: {message}; check that the folder is writable"
    )]
    Cache {
        /// The cache folder.
        dir: String,
        /// What failed.
        message: String,
    },
    /// The engine's own runtime could not be created or has shut down.
    #[error("upstream runtime unavailable: {0}")]
    Runtime(String),
}

fn tail_text(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("\n--- its stderr (last lines) ---\n{}", stderr.trim_end())
    }
}

impl UpstreamError {
    /// The error of a start that failed moments ago, given again instead of starting the
    /// server once more: says when it will be tried again.
    pub(crate) fn not_retried_for(self, left: Duration) -> Self {
        match self {
            Self::StartFailed {
                server,
                reason,
                stderr,
            } => Self::StartFailed {
                server,
                reason: format!(
                    "{reason} (a moment ago: it is not started again for {})",
                    human(left)
                ),
                stderr,
            },
            other => other,
        }
    }
}

/// Most bytes of upstream text (tool messages, protocol details) kept in an error.
pub(crate) const MAX_MESSAGE_BYTES: usize = 4 * 1024;

/// Cuts `text` to at most `max` bytes on a character boundary, saying how much was cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &text[..end], text.len() - end)
}

/// A duration as people read it in an error ("1.5 s", "250 ms").
pub(crate) fn human(d: Duration) -> String {
    if d.as_millis() >= 1000 {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        format!("{} ms", d.as_millis())
    }
}
