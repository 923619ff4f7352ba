//! `codemode serve`: the MCP server on stdio, or on streamable HTTP with `--http ADDR`.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use codemode::mcp::{self, CodemodeServer, Origin, ServeOptions};
use codemode::Pool;

use super::Cli;

/// Scripts that may wait for a worker; more are refused with a "busy" error.
const MAX_QUEUED: usize = 1024;
/// Each worker holds a thread and a VM; past this a typo would exhaust the machine.
const MAX_WORKERS: usize = 256;

/// The `serve` flags.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio (e.g. 127.0.0.1:8765)
    #[arg(long, value_name = "ADDR", value_parser = http_address)]
    http: Option<SocketAddr>,

    /// Scripts that run at once, each on its own VM [default: the number of cores]
    #[arg(long, value_name = "N")]
    workers: Option<usize>,

    /// Also expose every registered tool as its own MCP tool (for clients without code mode)
    #[arg(long)]
    expose_tools: bool,

    /// Allow --http on a non-loopback address (anyone who reaches it can run scripts)
    #[arg(long, requires = "http")]
    allow_remote: bool,

    /// Also accept browser requests from this origin, exactly (scheme, host and port; e.g.
    /// https://app.example.com). Requests carrying any other Origin header, except loopback
    /// ones (http://localhost:PORT, 127.0.0.1, [::1]), get 403. Repeatable
    #[arg(long, value_name = "ORIGIN", requires = "http", value_parser = allowed_origin)]
    allow_origin: Vec<Origin>,
}

/// Builds the pool and serves until the client (stdio) or the process (HTTP) ends.
pub fn serve(cli: &Cli, args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let registry = cli.registry()?;
    cli.open_audit(&registry, "serve");
    // Reading a large world frees hundreds of megabytes that this long-lived process
    // would otherwise hold (a one-shot command exits instead).
    codemode::cache::release_freed_memory();
    let _watcher = cli.watch(&registry);
    let workers = args.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    if !(1..=MAX_WORKERS).contains(&workers) {
        anyhow::bail!("--workers must be from 1 to {MAX_WORKERS} (each worker is a sandboxed VM running one script at a time); got {workers}");
    }
    let pool = Arc::new(
        Pool::new(registry.clone(), serve_limits(cli), workers, MAX_QUEUED)
            .context("cannot start the script workers")?,
    );
    let checking = cli.checking();
    pool.set_checking(checking.clone());
    if let Some(checking) = checking {
        super::repl::report_edits(checking.clone(), &registry);
        codemode::runtime::warm_up(checking, registry.clone());
    }
    let options = ServeOptions {
        expose_tools: args.expose_tools,
    };
    // One thread more than VMs: scripts run on the async threads themselves (no hand-off
    // to wait for), and even with every VM stuck in a script one thread still serves I/O.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers + 1)
        // Scripts run on these threads: give them the main thread's stack, so Luau's own
        // recursion limits (parser, C calls) are reached before the stack's end.
        .thread_stack_size(8 << 20)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let server = CodemodeServer::new(pool, registry, options);
        match args.http {
            None => {
                tracing::info!("serving MCP on stdio with {workers} workers");
                mcp::serve_stdio(server).await
            }
            Some(addr) => {
                let origins = args.allow_origin.clone();
                mcp::serve_http(server, addr, args.allow_remote, origins, |bound| {
                    // stderr, so a launcher can read the port when ADDR ends in :0.
                    eprintln!("codemode: serving MCP at http://{bound}/mcp with {workers} workers");
                })
                .await
            }
        }
    })?;
    // Workers stuck in a script must not hold the process after the session ends.
    runtime.shutdown_background();
    Ok(ExitCode::SUCCESS)
}

/// Default cap on a reply's value and on its printed output, each. The envelope goes out
/// twice (structured and as text), and MCP clients cap one message (the Python SDK at
/// 1 MiB over HTTP); an agent's context has no room for more anyway.
const SERVE_OUTPUT_BYTES: usize = 128 * 1024;

/// The limits of the CLI, with the server's own default output cap.
fn serve_limits(cli: &Cli) -> codemode::Limits {
    let mut limits = cli.limits();
    if cli.max_output_bytes.is_none() {
        limits.max_output_bytes = SERVE_OUTPUT_BYTES;
    }
    limits
}

/// `IP:PORT`, or `localhost:PORT` (the loopback address).
fn http_address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let port = text
        .strip_prefix("localhost:")
        .and_then(|p| p.parse::<u16>().ok());
    match port {
        Some(port) => Ok(SocketAddr::from(([127, 0, 0, 1], port))),
        None => Err(format!(
            "'{text}' is not an address to listen on; use IP:PORT, e.g. 127.0.0.1:8765 (or localhost:8765)"
        )),
    }
}

/// An `--allow-origin` value: `scheme://host[:port]`.
fn allowed_origin(text: &str) -> Result<Origin, String> {
    Origin::parse_allowed(text)
}
