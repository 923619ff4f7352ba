//! `codemode serve`: an MCP server (official `rmcp` SDK) over stdio or streamable HTTP.
//!
//! Tools: `tool_exec {script}` runs a Luau script and returns the result envelope;
//! `search_tools {query, ...}` finds tools; with `--expose-tools`, each registered tool is
//! also its own MCP tool. Scripts run on a [`crate::runtime::Pool`] of sandboxed VMs, so
//! calls run side by side and a script stuck at its deadline holds only its own worker.
//! stdout carries protocol messages only; logs go to stderr.
//!
//! Transports: on stdio, [`stdio::StdioTransport`] (one message per line, and a JSON-RPC
//! error for every frame that is not one); over HTTP, rmcp's streamable-HTTP service
//! behind, from the outside in: `origin::refuse_foreign_origins` (DNS-rebinding
//! protection: `Host` and `Origin` must be loopback unless allowed), `gate::authenticate`
//! (a bearer token names the agent and its profile; `profiles.rs` gives each profile its
//! pool), the request deadline and the per-address rate of new sessions (`limits.rs`),
//! and a bound on sessions (`sessions.rs`). The accept loop (`listener.rs`) caps
//! connections, per address too.

mod describe;
mod exposed;
mod gate;
mod limits;
mod listener;
mod origin;
mod profiles;
mod schema;
mod server;
mod sessions;
mod stdio;
mod watch;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{from_fn_with_state, Next};
use axum::response::Response;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServiceExt;

use sessions::BoundedSessions;

pub(crate) use gate::Authentication;
pub(crate) use limits::HttpLimits;
pub(crate) use origin::{Origin, OriginPolicy};
pub(crate) use profiles::{MakeServed, Served};
#[cfg(test)]
pub(crate) use schema::{input_schema, json_schema, VARARG_PROPERTY};
pub(crate) use server::{CodemodeServer, ServeOptions, MAX_SCRIPT_BYTES};
pub(crate) use stdio::{StdioTransport, MAX_FRAME_BYTES};

/// Why the server stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    /// The stdio session could not start.
    #[error("cannot start the MCP session on stdio: {0}")]
    Stdio(String),
    /// The address is not on this machine's loopback and remote access was not allowed.
    #[error("refusing to listen on {0}: it is not a loopback address, and anyone who reaches it can run scripts. Use 127.0.0.1:PORT, or pass --allow-remote if you mean it")]
    NotLoopback(SocketAddr),
    /// `--no-auth` on an address other machines reach.
    #[error("refusing to serve {0} without authentication: --no-auth is only for loopback addresses (127.0.0.1, [::1]). Give each agent a token instead (codemode agent add NAME --profile P)")]
    NoAuthRemote(SocketAddr),
    /// Binding or serving the HTTP port failed.
    #[error(
        "cannot serve HTTP on {addr}: {source}; pick a free port (e.g. --http 127.0.0.1:8765)"
    )]
    Http {
        /// The address asked for.
        addr: SocketAddr,
        /// What failed.
        source: std::io::Error,
    },
}

/// Serves one MCP session on stdin/stdout until the client closes stdin. Every frame
/// that is not a message gets a JSON-RPC error; a last one without a newline is read.
pub(crate) async fn serve_stdio(server: CodemodeServer) -> Result<(), ServeError> {
    let (stdin, stdout) = rmcp::transport::stdio_pipes();
    let running = server
        .serve(StdioTransport::new(stdin, stdout))
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    let reason = running.waiting().await;
    tracing::info!("stdio session ended: {reason:?}");
    Ok(())
}

/// How the HTTP server listens and whom it lets in.
#[derive(Debug, Clone)]
pub(crate) struct HttpOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Listen on a non-loopback address (and let any `Host` header through).
    pub allow_remote: bool,
    /// Browser origins accepted besides loopback ones.
    pub allowed_origins: Vec<Origin>,
    /// Who may call.
    pub authentication: Authentication,
    /// Deadlines, and what one client may hold.
    pub limits: HttpLimits,
}

/// Serves streamable HTTP at `http://ADDR/mcp` until the process is stopped. Loopback
/// only unless `allow_remote`; without authentication only on loopback. A request with
/// an `Origin` header is refused (403) unless that origin is loopback or allowed; one
/// without a valid bearer token gets 401 (unless authentication is off). `ready` is
/// called with the bound address (useful with port 0).
pub(crate) async fn serve_http(
    server: CodemodeServer,
    options: HttpOptions,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let addr = options.addr;
    if !addr.ip().is_loopback() && !options.allow_remote {
        return Err(ServeError::NotLoopback(addr));
    }
    if !addr.ip().is_loopback() && matches!(options.authentication, Authentication::Off) {
        return Err(ServeError::NoAuthRemote(addr));
    }
    let http = |source| ServeError::Http { addr, source };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(http)?;
    let bound = listener.local_addr().map_err(http)?;
    let origins = Arc::new(OriginPolicy::new(options.allowed_origins));
    let limits = Arc::new(options.limits);
    let auth = Arc::new(options.authentication);
    // Origins are checked twice: first by our layer, whose 403 says which origin was
    // refused and how to allow it, then by rmcp's own check, kept on with the same list.
    // The body cap (the same as a stdio line's) leaves room for a script at the size cap
    // plus JSON escaping, so an oversized script gets tool_exec's own message, not a 413.
    let mut config = StreamableHttpServerConfig::default()
        .with_max_request_body_bytes(MAX_FRAME_BYTES)
        .with_allowed_origins(origins.rmcp_allowlist())
        .enforce_origin_validation();
    if options.allow_remote {
        config = config.disable_allowed_hosts();
    }
    let sessions = Arc::new(BoundedSessions::new(
        limits.max_sessions,
        limits.session_idle,
    ));
    let service: StreamableHttpService<CodemodeServer, BoundedSessions> =
        StreamableHttpService::new(move || Ok(server.clone()), sessions.clone(), config);
    let rate = Arc::new(limits::SessionRate::new(&limits));
    // Layers run from the last added to the first: origin, authentication, the body's
    // deadline, the rate of new sessions, then evicted sessions are told so, and a session
    // is used by the agent it was made for only.
    let mcp = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(from_fn_with_state(sessions.clone(), own_sessions))
        .layer(from_fn_with_state(sessions, evicted_session))
        .layer(from_fn_with_state(rate, limits::limit_new_sessions))
        .layer(from_fn_with_state(
            limits.clone(),
            limits::read_body_in_time,
        ))
        .layer(from_fn_with_state(auth.clone(), gate::authenticate));
    let metadata = axum::routing::get(gate::resource_metadata).with_state(auth);
    let router = axum::Router::new()
        .route(gate::METADATA_PATH, metadata.clone())
        .route(&format!("{}/mcp", gate::METADATA_PATH), metadata)
        .merge(mcp)
        .layer(axum::middleware::from_fn(session_closed_is_ok))
        .layer(from_fn_with_state(origins, origin::refuse_foreign_origins));
    ready(bound);
    listener::serve(listener, router, limits)
        .await
        .map_err(http)
}

/// A request of a session closed to make room for newer ones gets a 404 that says so
/// (rmcp's own says only "Session not found"); MCP clients start a new session on a 404.
async fn evicted_session(
    State(sessions): State<Arc<BoundedSessions>>,
    request: Request,
    next: Next,
) -> Response {
    let id = request
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok());
    if let Some(id) = id.filter(|id| sessions.was_evicted(id)) {
        return limits::refusal(
            StatusCode::NOT_FOUND,
            format!(
                "Not Found: session {id} was closed because the server holds too many sessions ({} at most; the one idle the longest is closed to make room). Send initialize again to start a new session\n",
                sessions.max()
            ),
        );
    }
    next.run(request).await
}

/// A session belongs to the agent whose `initialize` made it, with the profile it had: a
/// request of another agent naming it (its `Mcp-Session-Id`), or of the same JWT subject
/// with another profile, gets the 404 of a session that does not exist, so one caller can
/// neither read another's stream nor close its session. Without authentication
/// (`--no-auth`) there is one caller, and nothing to tell apart.
async fn own_sessions(
    State(sessions): State<Arc<BoundedSessions>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(agent) = request
        .extensions()
        .get::<crate::auth::Agent>()
        .map(|a| format!("{}\n{}", a.name, a.profile))
    else {
        return next.run(request).await;
    };
    let named = request
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if let Some(id) = &named {
        if sessions.owner(id).is_some_and(|owner| owner != agent) {
            return limits::refusal(
                StatusCode::NOT_FOUND,
                "Not Found: Session not found\n".to_string(),
            );
        }
    }
    let response = next.run(request).await;
    if named.is_none() {
        let made = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok());
        if let Some(id) = made {
            sessions.claim(id, &agent);
        }
    }
    response
}

/// rmcp answers a client's `DELETE` of its session with 202 Accepted, though the session
/// is closed by then; MCP clients expect 200 (the Python SDK logs "Session termination
/// failed: 202"), so a 202 to a `DELETE` goes out as 200.
async fn session_closed_is_ok(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::OK;
    }
    response
}
