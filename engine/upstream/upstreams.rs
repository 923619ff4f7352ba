//! [`Upstreams`]: the configured servers, their connections, the runtime their requests
//! run on, and the catalogue cache.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{mpsc, Mutex, Semaphore};

use super::about::ServerAbout;
use super::cache::Cache;
use super::catalogue::{Catalogue, Listing, ServerView};
use super::client::{CallEnd, Connection};
use super::config::{Configs, ServerConfig, Transport};
use super::error::UpstreamError;
use super::pending::{PendingCall, Phase, Slot};
use super::process;

/// Called with a server's toolbox name after its cached catalogue changed (a sync, or
/// the server's `notifications/tools/list_changed`).
pub(crate) type CatalogueListener = Arc<dyn Fn(&str) + Send + Sync>;

/// How [`Upstreams`] runs servers.
#[derive(Clone)]
pub(crate) struct UpstreamOptions {
    /// Calls sent to one server at once; the rest wait their turn (their wait counts
    /// against their deadline). Default 4.
    pub max_in_flight: usize,
    /// How long a server may take to start and finish the MCP handshake. Default 30 s.
    pub start_timeout: Duration,
    /// How long a sync waits for `tools/list` once the server is up. Default 60 s.
    pub list_timeout: Duration,
    /// Told when a catalogue in the cache changed.
    pub on_catalogue_change: Option<CatalogueListener>,
}

impl Default for UpstreamOptions {
    fn default() -> Self {
        Self {
            max_in_flight: 4,
            start_timeout: Duration::from_secs(30),
            list_timeout: Duration::from_secs(60),
            on_catalogue_change: None,
        }
    }
}

impl std::fmt::Debug for UpstreamOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpstreamOptions")
            .field("max_in_flight", &self.max_in_flight)
            .field("start_timeout", &self.start_timeout)
            .field("list_timeout", &self.list_timeout)
            .field("on_catalogue_change", &self.on_catalogue_change.is_some())
            .finish()
    }
}

/// What a sync did for one server.
#[derive(Debug)]
pub(crate) struct SyncReport {
    /// The server's toolbox name.
    pub server: String,
    /// The catalogue now in the cache, or why there is no new one.
    pub result: Result<Catalogue, UpstreamError>,
}

struct Server {
    config: ServerConfig,
    connection: Mutex<Option<Arc<Connection>>>,
    in_flight: Arc<Semaphore>,
    /// Held while the server's tools are fetched, so a fetch at start-up and a script's
    /// fetch of the same server make one `tools/list`, not two.
    fetching: Mutex<()>,
    /// When the last fetch failed; cleared by one that succeeds.
    failed_at: std::sync::Mutex<Option<std::time::Instant>>,
    /// The last failed start and when: within [`START_BACKOFF`] of it, a call or a fetch
    /// gets the same error instead of starting the server again.
    failed_start: std::sync::Mutex<Option<(std::time::Instant, UpstreamError)>>,
}

/// How long a server that failed to start is not started again. A script that calls a
/// broken server in a loop (or many clients of `serve` at once) would otherwise start a
/// process per call, a thousand a second.
const START_BACKOFF: Duration = Duration::from_secs(3);

impl Server {
    fn new(config: ServerConfig, options: &UpstreamOptions) -> Arc<Self> {
        Arc::new(Server {
            config,
            connection: Mutex::new(None),
            in_flight: Arc::new(Semaphore::new(options.max_in_flight.max(1))),
            fetching: Mutex::new(()),
            failed_at: std::sync::Mutex::new(None),
            failed_start: std::sync::Mutex::new(None),
        })
    }
}

struct Shared {
    world: PathBuf,
    owner: u64,
    options: UpstreamOptions,
    cache: Cache,
    /// Swapped whole by [`Upstreams::reconfigure`]; a call holds its server's `Arc` to
    /// its end, so a server removed under it finishes what it was doing.
    servers: RwLock<BTreeMap<String, Arc<Server>>>,
    list_changed: mpsc::UnboundedSender<String>,
    /// Bounds the fetches [`Upstreams::fetch_missing`] runs at once.
    background: Arc<Semaphore>,
}

/// What [`Upstreams::reconfigure`] did, by toolbox name.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Reconfigured {
    /// Servers that were not configured before.
    pub added: Vec<String>,
    /// Servers whose entry changed: stopped, and started again by their next use.
    pub changed: Vec<String>,
    /// Servers no longer configured: stopped.
    pub removed: Vec<String>,
}

impl Reconfigured {
    /// True when no server was added, changed or removed.
    pub(crate) fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

/// Fetches started at once by [`Upstreams::fetch_missing`]: a world of many servers
/// starts a few at a time rather than every process together.
const BACKGROUND_FETCHES: usize = 4;

/// The configured upstream MCP servers of one world.
///
/// Nothing starts until a call or a sync needs a server; a started server stays up for
/// the next calls, and one that died is started again by the next call. Dropping this
/// value ends every process it started (and the runtime its requests run on); so do the
/// process's normal exit and SIGTERM/SIGINT/SIGHUP (see [`super::kill_all`]).
pub(crate) struct Upstreams {
    shared: Arc<Shared>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl std::fmt::Debug for Upstreams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstreams")
            .field("world", &self.shared.world)
            .field("servers", &self.shared.servers().keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Upstreams {
    /// The servers of `configs` (see [`super::load`]) for the world at `world`. Starts
    /// no server; creates the runtime (two worker threads) that requests run on.
    pub(crate) fn new(
        world: &Path,
        configs: &Configs,
        options: UpstreamOptions,
    ) -> Result<Self, UpstreamError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("codemode-upstream")
            .on_thread_start(process::block_sigpipe)
            .enable_all()
            .build()
            .map_err(|e| UpstreamError::Runtime(format!("cannot start its runtime: {e}")))?;
        let (list_changed, changes) = mpsc::unbounded_channel();
        let servers = configs
            .servers
            .iter()
            .map(|config| (config.name.clone(), Server::new(config.clone(), &options)))
            .collect();
        let shared = Arc::new(Shared {
            world: world.to_path_buf(),
            owner: process::next_owner(),
            cache: Cache::new(world),
            options,
            servers: RwLock::new(servers),
            list_changed,
            background: Arc::new(Semaphore::new(BACKGROUND_FETCHES)),
        });
        runtime.spawn(refresh_on_change(Arc::downgrade(&shared), changes));
        Ok(Self {
            shared,
            runtime: Some(runtime),
        })
    }

    /// The configured servers, by toolbox name.
    pub(crate) fn servers(&self) -> Vec<ServerConfig> {
        self.shared
            .servers()
            .values()
            .map(|s| s.config.clone())
            .collect()
    }

    /// The server with this toolbox name.
    pub(crate) fn server(&self, name: &str) -> Option<ServerConfig> {
        self.shared.server(name).map(|s| s.config.clone())
    }

    /// `server`'s tools as last synced, from the cache. Never starts the server; `None`
    /// when it was never synced with its current configuration (or is not configured).
    #[cfg(test)]
    pub(crate) fn catalogue(&self, server: &str) -> Option<Arc<Catalogue>> {
        let server = self.shared.server(server)?;
        self.shared.cache.read(&server.config)
    }

    /// Every configured server with its cached catalogue, by toolbox name. Starts nothing.
    pub(crate) fn views(&self) -> Vec<ServerView> {
        self.shared
            .servers()
            .values()
            .map(|s| ServerView {
                name: s.config.name.clone(),
                original: s.config.original_name.clone(),
                catalogue: self.shared.cache.read(&s.config),
                description: matches!(s.config.transport, Transport::OpenApi(_)),
            })
            .collect()
    }

    /// Starts `server` (or every server) if needed, fetches every page of `tools/list`
    /// and stores it in the cache. Blocks until each server answered or failed; servers
    /// are synced side by side. The servers stay up for calls.
    pub(crate) fn sync(&self, server: Option<&str>) -> Vec<SyncReport> {
        let names: Vec<String> = match server {
            Some(name) if self.shared.server(name).is_none() => {
                return vec![SyncReport {
                    server: name.to_string(),
                    result: Err(UpstreamError::UnknownServer(name.to_string())),
                }]
            }
            Some(name) => vec![name.to_string()],
            None => self.shared.servers().keys().cloned().collect(),
        };
        let Some(runtime) = &self.runtime else {
            return Vec::new();
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let shared = self.shared.clone();
        runtime.spawn(async move {
            let jobs = names.into_iter().map(|name| {
                let shared = shared.clone();
                async move {
                    let result = shared.fetch(&name, false).await;
                    SyncReport {
                        server: name,
                        result,
                    }
                }
            });
            let _ = tx.send(futures::future::join_all(jobs).await);
        });
        rx.recv().unwrap_or_default()
    }

    /// Starts a call of `tool` (its original name on the server) on `server` (its
    /// toolbox name) with `arguments`, and returns at once; the request runs on this
    /// value's runtime, after the calls ahead of it if the server has
    /// [`UpstreamOptions::max_in_flight`] running. Wait with [`PendingCall::wait`] or
    /// [`super::wait_any`].
    #[cfg(any(test, feature = "bench"))]
    pub(crate) fn start_call(
        &self,
        server: &str,
        tool: &str,
        arguments: serde_json::Map<String, Value>,
    ) -> PendingCall {
        self.start_call_as(server, tool, &format!("{server}.{tool}"), arguments)
    }

    /// As [`Upstreams::start_call`], the call named `label` in the errors about it (a
    /// script's `toolbox.tool`, where the server's own names differ).
    pub(crate) fn start_call_as(
        &self,
        server: &str,
        tool: &str,
        label: &str,
        arguments: serde_json::Map<String, Value>,
    ) -> PendingCall {
        let label = label.to_string();
        if self.shared.server(server).is_none() {
            return PendingCall::failed(label, UpstreamError::UnknownServer(server.to_string()));
        }
        let Some(runtime) = &self.runtime else {
            return PendingCall::failed(label, UpstreamError::Runtime("shut down".into()));
        };
        let (call, slot, cancel) = PendingCall::new(label.clone());
        let shared = self.shared.clone();
        let server = server.to_string();
        let tool = tool.to_string();
        runtime.spawn(async move {
            let result = shared
                .call(&server, &tool, &label, arguments, &cancel, &slot)
                .await;
            if let Some(result) = result {
                slot.finish(result);
            }
        });
        call
    }

    /// Starts fetching `server`'s tools unless its catalogue is in the cache already (or
    /// a fetch of it is running, which this one then waits for), and returns at once. The
    /// pending value is the number of tools, or why there are none; waiting on it under a
    /// deadline gives up waiting, not the fetch, which goes on for the next use.
    pub(crate) fn start_fetch(&self, server: &str) -> PendingCall {
        // `server.method`, as a call is labelled: errors name the server from it.
        let label = format!("{server}.tools/list");
        if self.shared.server(server).is_none() {
            return PendingCall::failed(label, UpstreamError::UnknownServer(server.to_string()));
        }
        let Some(runtime) = &self.runtime else {
            return PendingCall::failed(label, UpstreamError::Runtime("shut down".into()));
        };
        let (call, slot, _cancel) = PendingCall::new(label);
        slot.set_phase(Phase::Connecting);
        let shared = self.shared.clone();
        let server = server.to_string();
        runtime.spawn(async move {
            let result = shared.fetch(&server, true).await;
            slot.finish(result.map(|c| Value::from(c.tools.len())));
        });
        call
    }

    /// Fetches, in the background, the tools of every server whose catalogue is not in
    /// the cache (never fetched, or fetched for another configuration), a few servers at
    /// a time, each within its start and list limits. Returns at once; each catalogue is
    /// announced as it lands (see [`UpstreamOptions::on_catalogue_change`]) and a failure
    /// is logged with the server's stderr tail.
    pub(crate) fn fetch_missing(&self) {
        let Some(runtime) = &self.runtime else {
            return;
        };
        for (name, server) in self.shared.servers().iter() {
            if self.shared.cache.read(&server.config).is_some() {
                continue;
            }
            let shared = self.shared.clone();
            let name = name.clone();
            runtime.spawn(async move {
                let Ok(_turn) = shared.background.clone().acquire_owned().await else {
                    return;
                };
                match shared.fetch(&name, true).await {
                    Ok(c) => tracing::info!("MCP server '{name}': fetched {} tools", c.tools.len()),
                    Err(e) => tracing::warn!("fetching the tools of tools.{name}: {e}"),
                }
            });
        }
    }

    /// True when fetching `server`'s tools failed within `within` (and none succeeded
    /// since): a search over every server does not start a broken one again each time.
    pub(crate) fn failed_lately(&self, server: &str, within: Duration) -> bool {
        self.shared.server(server).is_some_and(|s| {
            s.failed_at
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some_and(|at| at.elapsed() < within)
        })
    }

    /// Serves `configs` from now on: a server whose entry is unchanged keeps its
    /// connection; a changed one is stopped and starts again (as configured now) on its
    /// next use; a removed one is stopped; an added one starts on its first use. A call
    /// running on a stopped server finishes first.
    pub(crate) fn reconfigure(&self, configs: &Configs) -> Reconfigured {
        let mut done = Reconfigured::default();
        let mut stopped = Vec::new();
        {
            let mut servers = self
                .shared
                .servers
                .write()
                .unwrap_or_else(|e| e.into_inner());
            let mut next = BTreeMap::new();
            for config in &configs.servers {
                match servers.remove(&config.name) {
                    Some(kept) if kept.config == *config => {
                        next.insert(config.name.clone(), kept);
                    }
                    Some(old) => {
                        done.changed.push(config.name.clone());
                        stopped.push(old);
                        let server = Server::new(config.clone(), &self.shared.options);
                        next.insert(config.name.clone(), server);
                    }
                    None => {
                        done.added.push(config.name.clone());
                        let server = Server::new(config.clone(), &self.shared.options);
                        next.insert(config.name.clone(), server);
                    }
                }
            }
            for (name, old) in std::mem::take(&mut *servers) {
                done.removed.push(name);
                stopped.push(old);
            }
            *servers = next;
        }
        if let Some(runtime) = &self.runtime {
            for old in stopped {
                runtime.spawn(async move {
                    // Dropping the connection ends its process group (or HTTP session).
                    old.connection.lock().await.take();
                });
            }
        }
        done
    }

    /// The process id of `server` while it runs (stdio servers), for monitoring.
    #[cfg(any(test, feature = "bench"))]
    pub(crate) fn process_id(&self, server: &str) -> Option<u32> {
        let server = self.shared.server(server)?;
        let connection = server.connection.try_lock().ok()?;
        connection.as_ref().filter(|c| c.is_alive())?.pid()
    }
}

impl Drop for Upstreams {
    fn drop(&mut self) {
        // Kill first, so nothing depends on the runtime's tasks being dropped in time.
        process::kill_owned_by(self.shared.owner);
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Shared {
    /// The servers as configured now.
    fn servers(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Arc<Server>>> {
        self.servers.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The server with this toolbox name, as configured now.
    fn server(&self, name: &str) -> Option<Arc<Server>> {
        self.servers().get(name).cloned()
    }

    /// The server's live connection, starting it if there is none (or it died).
    async fn connect(&self, server: &Server) -> Result<Arc<Connection>, UpstreamError> {
        let mut connection = server.connection.lock().await;
        if let Some(live) = connection.as_ref() {
            if live.is_alive() {
                return Ok(live.clone());
            }
            tracing::info!(
                "MCP server '{}' is down; starting it again",
                server.config.name
            );
        }
        // Dropping the old connection kills what is left of its process group.
        *connection = None;
        if let Some((at, error)) = server
            .failed_start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            if at.elapsed() < START_BACKOFF {
                return Err(error.clone().not_retried_for(START_BACKOFF - at.elapsed()));
            }
        }
        let started = Connection::start(
            &server.config,
            &self.world,
            self.owner,
            self.list_changed.clone(),
            self.options.start_timeout,
        )
        .await;
        *server
            .failed_start
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = started
            .as_ref()
            .err()
            .map(|e| (std::time::Instant::now(), e.clone()));
        let started = Arc::new(started?);
        *connection = Some(started.clone());
        Ok(started)
    }

    /// Runs one call; `None` when the caller cancelled (its slot is already filled).
    async fn call(
        &self,
        server: &str,
        tool: &str,
        label: &str,
        arguments: serde_json::Map<String, Value>,
        cancel: &tokio_util::sync::CancellationToken,
        slot: &Slot,
    ) -> Option<Result<Value, UpstreamError>> {
        let server = self.server(server)?;
        // Queued or starting: nothing was sent yet, so a cancel just stops waiting (a
        // start cut short kills its process).
        let ready = async {
            let permit = server
                .in_flight
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| UpstreamError::Runtime("shut down".into()))?;
            slot.set_phase(Phase::Connecting);
            let connection = self.connect(&server).await?;
            Ok::<_, UpstreamError>((permit, connection))
        };
        if let Transport::OpenApi(api) = &server.config.transport {
            let ready = server.in_flight.clone().acquire_owned();
            let _permit = tokio::select! {
                permit = ready => permit.ok()?,
                _ = cancel.cancelled() => return None,
            };
            slot.set_phase(Phase::Sent);
            return self
                .call_api(&server, api, tool, label, arguments, cancel)
                .await;
        }
        let (_permit, connection) = tokio::select! {
            ready = ready => match ready {
                Ok(ready) => ready,
                Err(error) => return Some(Err(error)),
            },
            _ = cancel.cancelled() => return None,
        };
        // In flight: the connection sends `notifications/cancelled` if the caller gives up.
        slot.set_phase(Phase::Sent);
        match connection
            .call(label, tool, arguments, cancel, || slot.reason())
            .await
        {
            Ok(value) => Some(Ok(value)),
            Err(CallEnd::Failed(error)) => Some(Err(error)),
            Err(CallEnd::Cancelled) => None,
        }
    }

    /// Calls the operation `tool` of the HTTP API `api` (see `crate::openapi`): its plan
    /// is read from the cached catalogue, the request runs on a blocking thread that asks
    /// `cancel` while it waits. `None` when the caller cancelled.
    async fn call_api(
        &self,
        server: &Server,
        api: &crate::openapi::Api,
        tool: &str,
        label: &str,
        arguments: serde_json::Map<String, Value>,
        cancel: &tokio_util::sync::CancellationToken,
    ) -> Option<Result<Value, UpstreamError>> {
        let failed = |message: String| {
            Some(Err(UpstreamError::Api {
                call: label.to_string(),
                message,
            }))
        };
        let Some(catalogue) = self.cache.read(&server.config) else {
            return failed(format!(
                "{label}: the operations of API '{}' are not read yet; run codemode mcp sync {}",
                server.config.original_name, server.config.name
            ));
        };
        let Some(plan) = catalogue
            .tools
            .iter()
            .find(|t| t.original == tool)
            .and_then(|t| t.request.clone())
        else {
            return failed(format!(
                "{label}: no such operation in the API's description"
            ));
        };
        let (api, world, label_owned) = (api.clone(), self.world.clone(), label.to_string());
        let stop = cancel.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            crate::openapi::call(&api, &world, &label_owned, &plan, &arguments, &|| {
                stop.is_cancelled()
            })
        })
        .await;
        if cancel.is_cancelled() {
            return None;
        }
        match outcome {
            Ok(Ok(value)) => Some(Ok(value)),
            Ok(Err(message)) => failed(message),
            Err(e) => failed(format!("{label}: the request's thread failed ({e})")),
        }
    }

    /// Fetches `name`'s tools into the cache; with `only_missing`, returns the cached
    /// catalogue instead when there is one (a fetch that ran meanwhile included).
    async fn fetch(&self, name: &str, only_missing: bool) -> Result<Catalogue, UpstreamError> {
        let server = self
            .server(name)
            .ok_or_else(|| UpstreamError::UnknownServer(name.to_string()))?;
        let _fetching = server.fetching.lock().await;
        if only_missing {
            if let Some(cached) = self.cache.read(&server.config) {
                return Ok((*cached).clone());
            }
        }
        let fetched = async {
            if let Transport::OpenApi(api) = &server.config.transport {
                return self.describe(&server, api).await;
            }
            let connection = self.connect(&server).await?;
            let tools = tokio::time::timeout(self.options.list_timeout, connection.list_tools())
                .await
                .map_err(|_| UpstreamError::Timeout {
                    call: format!("{name}: tools/list"),
                })??;
            self.store(&server, &tools)
        }
        .await;
        *server.failed_at.lock().unwrap_or_else(|e| e.into_inner()) =
            fetched.is_err().then(std::time::Instant::now);
        fetched
    }

    /// Reads an API's description into the cache, on a blocking thread (a large one
    /// takes a while, once).
    async fn describe(
        &self,
        server: &Server,
        api: &crate::openapi::Api,
    ) -> Result<Catalogue, UpstreamError> {
        let api = api.clone();
        let failed = |message: String| UpstreamError::Api {
            call: server.config.name.clone(),
            message: format!(
                "API '{}' in {}: {message}",
                server.config.original_name,
                server.config.file.display()
            ),
        };
        let described = tokio::task::spawn_blocking(move || crate::openapi::describe(&api))
            .await
            .map_err(|e| failed(e.to_string()))?
            .map_err(failed)?;
        if !described.left_out.is_empty() {
            tracing::info!(
                "API '{}': {} operations left out (their methods are not in \"methods\")",
                server.config.name,
                described.left_out.len()
            );
        }
        let listing = Listing {
            about: ServerAbout::from_json(Some(&described.about)),
            tools: described.tools,
        };
        self.store(server, &listing)
    }

    fn store(&self, server: &Server, tools: &Listing) -> Result<Catalogue, UpstreamError> {
        let catalogue =
            self.cache
                .write(&server.config, tools)
                .map_err(|e| UpstreamError::Cache {
                    dir: self.cache.dir().display().to_string(),
                    message: e.to_string(),
                })?;
        if let Some(listener) = &self.options.on_catalogue_change {
            listener(&server.config.name);
        }
        Ok(catalogue)
    }
}

/// Re-fetches a server's tools when it says they changed, and updates the cache.
async fn refresh_on_change(shared: Weak<Shared>, mut changes: mpsc::UnboundedReceiver<String>) {
    while let Some(name) = changes.recv().await {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let Some(server) = shared.server(&name) else {
            continue;
        };
        let live = server.connection.lock().await.clone();
        let Some(connection) = live.filter(|c| c.is_alive()) else {
            continue;
        };
        match tokio::time::timeout(shared.options.list_timeout, connection.list_tools()).await {
            Ok(Ok(tools)) => match shared.store(&server, &tools) {
                Ok(c) => tracing::info!(
                    "MCP server '{name}': {} tools after list_changed",
                    c.tools.len()
                ),
                Err(e) => tracing::warn!("{e}"),
            },
            Ok(Err(e)) => tracing::warn!("MCP server '{name}': cannot refresh its tools: {e}"),
            Err(_) => {
                tracing::warn!("MCP server '{name}': tools/list timed out after list_changed")
            }
        }
    }
}
