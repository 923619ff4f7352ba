//! Which browser origins may call the HTTP server.
//!
//! A web page the user opens can make their browser POST to `http://127.0.0.1:PORT/mcp`
//! (and, by DNS rebinding, read the answer). Browsers mark such requests with an `Origin`
//! header, so the MCP streamable-HTTP transport requires servers to check it: requests
//! whose `Origin` is a loopback origin (`http(s)://localhost`, `127.0.0.1`, `[::1]`, any
//! port) or one allowed with `--allow-origin` go through; every other request carrying an
//! `Origin` gets a 403 saying how to allow it. Requests without one (MCP SDKs, curl) are
//! not from a browser page and go through.

use std::fmt;
use std::net::Ipv6Addr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, ORIGIN, X_CONTENT_TYPE_OPTIONS};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// An `http` or `https` origin: scheme, host and port (the scheme's default when omitted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    /// `http` or `https`.
    scheme: &'static str,
    /// Lower case; an IPv6 address in brackets, in its shortest form.
    host: String,
    port: u16,
}

impl Origin {
    /// Parses an `Origin` header value: `scheme://host[:port]` with scheme `http` or
    /// `https`, nothing after the authority. `None` for anything else (`null`, other
    /// schemes, paths, user info).
    pub(crate) fn parse(text: &str) -> Option<Origin> {
        let (scheme, rest) = text.split_once("://")?;
        let (scheme, default_port) = match scheme.to_ascii_lowercase().as_str() {
            "http" => ("http", 80),
            "https" => ("https", 443),
            _ => return None,
        };
        let (host, port) = if let Some(bracketed) = rest.strip_prefix('[') {
            let (address, after) = bracketed.split_once(']')?;
            let address: Ipv6Addr = address.parse().ok()?;
            (format!("[{address}]"), after)
        } else {
            let end = rest.find(':').unwrap_or(rest.len());
            let host = &rest[..end];
            let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
            if host.is_empty() || !host.chars().all(name_char) {
                return None;
            }
            (host.to_ascii_lowercase(), &rest[end..])
        };
        let port = match port.strip_prefix(':') {
            None if port.is_empty() => default_port,
            None => return None,
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                digits.parse().ok()?
            }
            Some(_) => return None,
        };
        Some(Origin { scheme, host, port })
    }

    /// Parses an `--allow-origin` value: an origin as [`Origin::parse`] takes it, also
    /// with one trailing `/` (as copied from an address bar). The error says what is wanted.
    pub(crate) fn parse_allowed(text: &str) -> Result<Origin, String> {
        let trimmed = text.strip_suffix('/').unwrap_or(text);
        Origin::parse(trimmed).ok_or_else(|| {
            format!(
                "'{text}' is not an origin; use scheme://host[:port] with scheme http or https and no path, e.g. https://app.example.com or http://localhost:5173"
            )
        })
    }

    /// `http(s)://localhost`, `127.0.0.1` or `[::1]`, any port.
    pub(crate) fn is_loopback(&self) -> bool {
        matches!(self.host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
    }

    /// The entry for rmcp's own origin allowlist, with the port spelt out (rmcp reads an
    /// entry without a port as "any port").
    fn rmcp_entry(&self) -> String {
        format!("{}://{}:{}", self.scheme, self.host, self.port)
    }
}

/// As a browser writes it: the port only when it is not the scheme's default.
impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let default = match self.scheme {
            "https" => 443,
            _ => 80,
        };
        write!(f, "{}://{}", self.scheme, self.host)?;
        if self.port != default {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

/// The origins the server accepts: the loopback ones, and those allowed by name.
#[derive(Debug, Clone, Default)]
pub(crate) struct OriginPolicy {
    allowed: Vec<Origin>,
}

impl OriginPolicy {
    /// Loopback origins plus exactly `allowed` (same scheme, host and port).
    pub(crate) fn new(allowed: impl IntoIterator<Item = Origin>) -> OriginPolicy {
        OriginPolicy {
            allowed: allowed.into_iter().collect(),
        }
    }

    /// `Ok` if a request carrying `Origin: value` may go through; otherwise the body of
    /// the 403: which origin was refused and how to allow it.
    pub(crate) fn check(&self, value: &HeaderValue) -> Result<(), String> {
        let Ok(text) = value.to_str() else {
            return Err("Forbidden: the request's Origin header is not readable text; this server accepts browser requests only from loopback origins (http://localhost:PORT, http://127.0.0.1:PORT, http://[::1]:PORT) and those allowed with --allow-origin\n".into());
        };
        let origin = Origin::parse(text);
        if let Some(origin) = &origin {
            if origin.is_loopback() || self.allowed.contains(origin) {
                return Ok(());
            }
        }
        let shown = shorten(text);
        let how = match origin {
            Some(origin) => format!(
                "to allow it, start the server with --allow-origin {origin}"
            ),
            None => "only http:// and https:// origins can be allowed (--allow-origin scheme://host[:port])".into(),
        };
        Err(format!(
            "Forbidden: requests from origin '{shown}' are refused, so that web pages cannot drive this server (DNS rebinding); only loopback origins (http://localhost:PORT, http://127.0.0.1:PORT, http://[::1]:PORT) and those allowed with --allow-origin are accepted; {how}\n"
        ))
    }

    /// The same policy for rmcp's own Origin check, which stays on behind ours.
    pub(crate) fn rmcp_allowlist(&self) -> Vec<String> {
        let loopback = ["http", "https"]
            .into_iter()
            .flat_map(|scheme| {
                ["localhost", "127.0.0.1", "[::1]"]
                    .into_iter()
                    .map(move |host| format!("{scheme}://{host}:*"))
            })
            .collect::<Vec<_>>();
        loopback
            .into_iter()
            .chain(self.allowed.iter().map(Origin::rmcp_entry))
            .collect()
    }
}

/// At most 200 characters of an untrusted header, for a message.
fn shorten(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Axum middleware: answers 403 to a request carrying an `Origin` the policy refuses
/// (every `Origin` header it carries is checked); passes every other request on.
pub(crate) async fn refuse_foreign_origins(
    State(policy): State<Arc<OriginPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    for value in request.headers().get_all(ORIGIN) {
        if let Err(message) = policy.check(value) {
            tracing::warn!(origin = ?value, "refused an HTTP request from a foreign origin");
            return (
                StatusCode::FORBIDDEN,
                [
                    (CONTENT_TYPE, "text/plain; charset=utf-8"),
                    (X_CONTENT_TYPE_OPTIONS, "nosniff"),
                ],
                message,
            )
                .into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/origin.rs"]
mod tests;
