//! What one HTTP client may hold of the server: time to send a request, connections,
//! new sessions. Each limit is where the resource is taken: the accept loop counts
//! connections per address (`listener.rs`), the body is read whole within a deadline
//! here (tower-http's body timeout restarts at every frame, so a byte a second would
//! never trip it), and `initialize` requests (the ones that make a session) draw on a
//! per-address token bucket.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The HTTP server's limits.
#[derive(Debug, Clone)]
pub(crate) struct HttpLimits {
    /// Time a client has to send a request's headers, then its whole body; also how long
    /// an idle keep-alive connection is kept.
    pub request_timeout: Duration,
    /// Sessions held at once; past this the one idle the longest is closed.
    pub max_sessions: usize,
    /// A session without a request for this long is closed.
    pub session_idle: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections one client address may hold at once.
    pub connections_per_ip: usize,
    /// New sessions one client address may open in a burst ...
    pub new_sessions_burst: u32,
    /// ... and per second after it.
    pub new_sessions_per_second: u32,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            request_timeout: Duration::from_secs(10),
            max_sessions: 512,
            session_idle: Duration::from_secs(300),
            max_connections: 1024,
            connections_per_ip: 256,
            new_sessions_burst: 64,
            new_sessions_per_second: 8,
        }
    }
}

/// The client's address, put in each request's extensions by the accept loop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PeerIp(pub(crate) IpAddr);

/// A plain-text refusal.
pub(crate) fn refusal(status: StatusCode, message: String) -> Response {
    (
        status,
        [(CONTENT_TYPE, "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

/// Axum middleware: the request's body is read whole within the request timeout (rmcp
/// reads it whole anyway), or the request gets 408 and the connection is closed.
pub(crate) async fn read_body_in_time(
    State(limits): State<Arc<HttpLimits>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    // One byte past the cap lets rmcp give its own 413.
    let cap = super::MAX_FRAME_BYTES + 1;
    let read = tokio::time::timeout(limits.request_timeout, axum::body::to_bytes(body, cap));
    let bytes = match read.await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return refusal(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is larger than {} bytes\n",
                    super::MAX_FRAME_BYTES
                ),
            )
        }
        Err(_) => {
            let mut response = refusal(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s; send the whole request at once\n",
                    limits.request_timeout.as_secs_f64()
                ),
            );
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
            return response;
        }
    };
    let mut parts = parts;
    if parts.method == axum::http::Method::POST
        && !parts.headers.contains_key("mcp-session-id")
        && is_initialize(&bytes)
    {
        parts.extensions.insert(OpensSession);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Marks an `initialize` request outside a session: the one kind that makes a session
/// (a stateless request of the newest protocol makes none, and is not counted).
#[derive(Debug, Clone, Copy)]
struct OpensSession;

/// True when `body` is a JSON-RPC `initialize` request.
fn is_initialize(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Method<'a> {
        #[serde(borrow)]
        method: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_slice::<Method>(body)
        .ok()
        .and_then(|m| m.method)
        .is_some_and(|m| m == "initialize")
}

/// New sessions per client address: a token bucket each, forgotten once full again.
#[derive(Debug)]
pub(crate) struct SessionRate {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

/// Addresses remembered before full buckets are dropped.
const BUCKETS_KEPT: usize = 10_000;

impl SessionRate {
    pub(crate) fn new(limits: &HttpLimits) -> SessionRate {
        SessionRate {
            burst: f64::from(limits.new_sessions_burst.max(1)),
            per_second: f64::from(limits.new_sessions_per_second.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `ip`; `Err(seconds)` until the next one when there is none.
    fn take(&self, ip: IpAddr) -> Result<(), f64> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= BUCKETS_KEPT {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        *tokens =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err((1.0 - *tokens) / self.per_second)
        }
    }
}

/// Axum middleware: an `initialize` outside a session (which makes one) takes a token of
/// its address's bucket, or gets 429 with `Retry-After`.
pub(crate) async fn limit_new_sessions(
    State(rate): State<Arc<SessionRate>>,
    request: Request,
    next: Next,
) -> Response {
    let opens = request.extensions().get::<OpensSession>().is_some();
    if let (true, Some(PeerIp(ip))) = (opens, request.extensions().get::<PeerIp>().copied()) {
        if let Err(wait) = rate.take(ip) {
            let mut response = refusal(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many new sessions from {ip}: at most {} at once and {} a second; reuse your session (its Mcp-Session-Id), or retry in {:.1} s\n",
                    rate.burst, rate.per_second, wait
                ),
            );
            let seconds = wait.ceil().max(1.0) as u64;
            if let Ok(value) = seconds.to_string().parse() {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            return response;
        }
    }
    next.run(request).await
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/limits.rs"]
mod tests;
