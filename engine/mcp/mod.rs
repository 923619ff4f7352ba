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
//! behind `origin::refuse_foreign_origins` (DNS-rebinding protection: `Host` and
//! `Origin` must be loopback unless allowed).

mod describe;
mod exposed;
mod listener;
mod origin;
mod schema;
mod server;
mod stdio;
mod watch;

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServiceExt;

pub use exposed::mcp_name;
pub use origin::{Origin, OriginPolicy};
pub use schema::{input_schema, json_schema, VARARG_PROPERTY};
pub use server::{CodemodeServer, ServeOptions, MAX_SCRIPT_BYTES, SEARCH_TOOLS, TOOL_EXEC};
pub use stdio::{StdioTransport, MAX_FRAME_BYTES};

/// Why the server stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The stdio session could not start.
    #[error("cannot start the MCP session on stdio: {0}")]
    Stdio(String),
    /// The address is not on this machine's loopback and remote access was not allowed.
    #[error("refusing to listen on {0}: it is not a loopback address, and anyone who reaches it can run scripts. Use 127.0.0.1:PORT, or pass --allow-remote if you mean it")]
    NotLoopback(SocketAddr),
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
pub async fn serve_stdio(server: CodemodeServer) -> Result<(), ServeError> {
    let (stdin, stdout) = rmcp::transport::stdio_pipes();
    let running = server
        .serve(StdioTransport::new(stdin, stdout))
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    let reason = running.waiting().await;
    tracing::info!("stdio session ended: {reason:?}");
    Ok(())
}

/// Serves streamable HTTP at `http://ADDR/mcp` until the process is stopped. Loopback
/// only unless `allow_remote` (which also lets any `Host` header through). A request with
/// an `Origin` header is refused (403) unless that origin is loopback or in
/// `allowed_origins`. `ready` is called with the bound address (useful with port 0).
pub async fn serve_http(
    server: CodemodeServer,
    addr: SocketAddr,
    allow_remote: bool,
    allowed_origins: Vec<Origin>,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    if !addr.ip().is_loopback() && !allow_remote {
        return Err(ServeError::NotLoopback(addr));
    }
    let http = |source| ServeError::Http { addr, source };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(http)?;
    let bound = listener.local_addr().map_err(http)?;
    let origins = Arc::new(OriginPolicy::new(allowed_origins));
    // Origins are checked twice: first by our layer, whose 403 says which origin was
    // refused and how to allow it, then by rmcp's own check, kept on with the same list.
    // The body cap (the same as a stdio line's) leaves room for a script at the size cap
    // plus JSON escaping, so an oversized script gets tool_exec's own message, not a 413.
    let mut config = StreamableHttpServerConfig::default()
        .with_max_request_body_bytes(MAX_FRAME_BYTES)
        .with_allowed_origins(origins.rmcp_allowlist())
        .enforce_origin_validation();
    if allow_remote {
        config = config.disable_allowed_hosts();
    }
    let service: StreamableHttpService<CodemodeServer, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.clone()), Default::default(), config);
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(session_closed_is_ok))
        .layer(axum::middleware::from_fn_with_state(
            origins,
            origin::refuse_foreign_origins,
        ));
    ready(bound);
    listener::serve(listener, router).await.map_err(http)
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
