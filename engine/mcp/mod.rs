//! `codemode serve`: an MCP server (official `rmcp` SDK) over stdio or streamable HTTP.
//!
//! Tools: `tool_exec {script}` runs a Luau script and returns the result envelope;
//! `search_tools {query, ...}` finds tools; with `--expose-tools`, each registered tool is
//! also its own MCP tool. Scripts run on a [`crate::runtime::Pool`] of sandboxed VMs, so
//! calls run side by side and a script stuck at its deadline holds only its own worker.
//! stdout carries protocol messages only; logs go to stderr.

mod describe;
mod exposed;
mod literal;
mod schema;
mod scripts;
mod server;
mod watch;

use std::net::SocketAddr;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServiceExt;

pub use exposed::mcp_name;
pub use literal::luau_literal;
pub use schema::{input_schema, luau_type};
pub use server::{CodemodeServer, ServeOptions, MAX_SCRIPT_BYTES, SEARCH_TOOLS, TOOL_EXEC};

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

/// Serves one MCP session on stdin/stdout until the client closes it.
pub async fn serve_stdio(server: CodemodeServer) -> Result<(), ServeError> {
    let running = server
        .serve(rmcp::transport::stdio_pipes())
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    let reason = running.waiting().await;
    tracing::info!("stdio session ended: {reason:?}");
    Ok(())
}

/// Serves streamable HTTP at `http://ADDR/mcp` until the process is stopped. Loopback
/// only unless `allow_remote`. `ready` is called with the bound address (useful with port 0).
pub async fn serve_http(
    server: CodemodeServer,
    addr: SocketAddr,
    allow_remote: bool,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    if !addr.ip().is_loopback() && !allow_remote {
        return Err(ServeError::NotLoopback(addr));
    }
    let http = |source| ServeError::Http { addr, source };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(http)?;
    let bound = listener.local_addr().map_err(http)?;
    // Room for a script at the size cap plus JSON escaping, so an oversized script gets
    // tool_exec's own message rather than a bare 413.
    let mut config =
        StreamableHttpServerConfig::default().with_max_request_body_bytes(4 * MAX_SCRIPT_BYTES);
    if allow_remote {
        config = config.disable_allowed_hosts();
    }
    let service: StreamableHttpService<CodemodeServer, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.clone()), Default::default(), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    ready(bound);
    axum::serve(listener, router).await.map_err(http)
}
