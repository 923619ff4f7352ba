//! `codemode serve`: the MCP server on stdio, or on streamable HTTP with `--http ADDR`.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use std::time::Duration;

use crate::auth::{Agents, JwksSource, JwtConfig, JwtVerifier};
use crate::mcp::{
    self, Authentication, CodemodeServer, HttpLimits, HttpOptions, MakeServed, Origin,
    ServeOptions, Served,
};
use crate::runtime::Pool;
use anyhow::Context;

use super::globals::Globals;

/// Scripts that may wait for a worker; more are refused with a "busy" error.
const MAX_QUEUED: usize = 1024;
/// Each worker holds a thread and a VM; past this a typo would exhaust the machine.
const MAX_WORKERS: usize = 256;

/// The `serve` flags.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ServeArgs {
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

    /// Let any caller in without a token, with the server's --profile (loopback only).
    /// Without it, every request needs an agent's token (codemode agent add) or a JWT
    #[arg(long, requires = "http")]
    no_auth: bool,

    /// Also accept OAuth access tokens (JWTs) signed by a key of this JWKS (file or URL)
    #[arg(long, value_name = "FILE|URL", requires_all = ["http", "issuer", "audience"])]
    jwks: Option<String>,

    /// The issuer (iss) a JWT must name
    #[arg(long, value_name = "I", requires = "jwks")]
    issuer: Option<String>,

    /// The audience (aud) a JWT must name: this server's resource URL, usually
    #[arg(long, value_name = "A", requires = "jwks")]
    audience: Option<String>,

    /// The JWT claim that names the profile of .codemode/policy.json the caller's runs get
    #[arg(
        long,
        value_name = "CLAIM",
        default_value = "codemode_profile",
        requires = "jwks"
    )]
    profile_claim: String,

    /// Sessions held at once; past this the session idle the longest is closed
    #[arg(long, value_name = "N", default_value_t = 512, requires = "http",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_sessions: u64,

    /// Time a client has to send a request's headers, then its body; also how long an
    /// idle connection is kept
    #[arg(long, value_name = "MS", default_value_t = 10_000, requires = "http",
          value_parser = clap::value_parser!(u64).range(100..=600_000))]
    http_timeout_ms: u64,
}

/// Builds the pool and serves until the client (stdio) or the process (HTTP) ends.
pub(crate) fn serve(cli: &Globals, args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let registry = cli.registry()?;
    cli.open_audit(&registry, "serve");
    // Reading a large world frees hundreds of megabytes that this long-lived process
    // would otherwise hold (a one-shot command exits instead).
    crate::cache::release_freed_memory();
    let _watcher = cli.keep_current(&registry);
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
        crate::runtime::warm_up(checking, registry.clone());
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
        let own_profile = cli.profile.clone().unwrap_or_else(|| "default".into());
        let make = per_profile(cli, workers);
        let server = CodemodeServer::per_profile(pool, registry, options, own_profile, Some(make));
        match args.http {
            None => {
                tracing::info!("serving MCP on stdio with {workers} workers");
                mcp::serve_stdio(server).await.map_err(anyhow::Error::from)
            }
            Some(addr) => {
                let options = HttpOptions {
                    addr,
                    allow_remote: args.allow_remote,
                    allowed_origins: args.allow_origin.clone(),
                    authentication: authentication(cli, args).await?,
                    limits: HttpLimits {
                        request_timeout: Duration::from_millis(args.http_timeout_ms),
                        max_sessions: args.max_sessions as usize,
                        ..HttpLimits::default()
                    },
                };
                mcp::serve_http(server, options, |bound| {
                    // stderr, so a launcher can read the port when ADDR ends in :0.
                    eprintln!("codemode: serving MCP at http://{bound}/mcp with {workers} workers");
                })
                .await
                .map_err(anyhow::Error::from)
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
fn serve_limits(cli: &Globals) -> crate::sandbox::Limits {
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

/// Who may call the HTTP server: nobody is asked with `--no-auth`; otherwise the world's
/// agents, and JWTs when `--jwks` is given.
async fn authentication(cli: &Globals, args: &ServeArgs) -> anyhow::Result<Authentication> {
    if args.no_auth {
        if args.jwks.is_some() {
            anyhow::bail!("--no-auth and --jwks contradict each other: pick one");
        }
        return Ok(Authentication::Off);
    }
    let world = cli.world_dir()?;
    let agents = Agents::new(&world);
    if let Err(why) = agents.count() {
        anyhow::bail!("{why}");
    }
    let jwt = match &args.jwks {
        None => None,
        Some(jwks) => {
            let config = JwtConfig {
                jwks: JwksSource::parse(jwks),
                issuer: args.issuer.clone().unwrap_or_default(),
                audience: args.audience.clone().unwrap_or_default(),
                profile_claim: args.profile_claim.clone(),
            };
            let verifier = Arc::new(JwtVerifier::new(config).await?);
            if matches!(verifier.config().jwks, JwksSource::Url(_)) {
                let refreshed = verifier.clone();
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(JWKS_REFRESH).await;
                        if let Err(e) = refreshed.refresh().await {
                            tracing::warn!("{e}; the keys fetched before stay in use");
                        }
                    }
                });
            }
            Some(verifier)
        }
    };
    if agents.count().unwrap_or(0) == 0 && jwt.is_none() {
        eprintln!(
            "codemode: no agent can call this server yet: add one with codemode agent add NAME --profile P (or pass --no-auth on loopback)"
        );
    }
    Ok(Authentication::Tokens {
        agents: Arc::new(agents),
        jwt,
    })
}

/// How often a JWKS fetched from a URL is fetched again (keys rotate).
const JWKS_REFRESH: Duration = Duration::from_secs(300);

/// Makes the pool of a profile an agent names: a registry of the world serving that
/// profile (and following the policy file, and the world's files), with as many workers
/// as the server's own pool.
fn per_profile(cli: &Globals, workers: usize) -> MakeServed {
    let cli = cli.clone();
    Arc::new(move |profile: &str| {
        let registry = cli
            .registry_of(super::globals::Use::Searching, Some(profile))
            .map_err(|e| format!("{e:#}"))?;
        cli.open_audit(&registry, "serve");
        let watcher = cli.keep_current(&registry);
        let pool = Pool::new(registry.clone(), serve_limits(&cli), workers, MAX_QUEUED)
            .map_err(|e| format!("cannot start its script workers: {e}"))?;
        pool.set_checking(cli.checking());
        Ok(Served {
            pool: Arc::new(pool),
            registry,
            _keep: watcher.map(|w| Box::new(w) as Box<dyn std::any::Any + Send + Sync>),
        })
    })
}
