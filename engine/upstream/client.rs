//! One live connection to one server (rmcp's client): a started stdio process or an HTTP
//! session. It knows how to call a tool, list tools, and say what went wrong in the
//! server's own terms (exit status, stderr tail, the garbage it printed).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
    CustomRequest, Implementation, ProtocolVersion, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::about::ServerAbout;
use super::catalogue::Listing;
use super::config::{ServerConfig, Transport};
use super::content;
use super::error::{cut, human, UpstreamError, MAX_MESSAGE_BYTES};
use super::http_client;
use super::process::{self, Group};
use super::secret::Redactor;
use super::stdout::{self, CheckedStdout, Garbage, MALFORMED, OVERSIZED};
use super::tail::Tail;

/// Most pages of `tools/list` read from one server.
const MAX_PAGES: usize = 10_000;

/// What codemode tells servers about itself, and what it hears from them.
pub(crate) struct Handler {
    server: String,
    list_changed: mpsc::UnboundedSender<String>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        // The handshake-era protocol: every server in use speaks it, and rmcp negotiates
        // down from it when a server is older.
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("codemode", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        tracing::info!("MCP server '{}' says its tools changed", self.server);
        let _ = self.list_changed.send(self.server.clone());
    }
}

/// How a stdio server's process is doing.
struct Process {
    /// Dropping the connection kills the group.
    group: Group,
    #[cfg(any(test, feature = "bench"))]
    pid: u32,
    tail: Arc<Tail>,
    /// How the process ended, once it has.
    exit: watch::Receiver<Option<String>>,
    /// Set when stderr has been read to its end.
    tail_done: watch::Receiver<bool>,
    garbage: Garbage,
}

/// A live connection.
pub(crate) struct Connection {
    server: String,
    service: RunningService<RoleClient, Handler>,
    process: Option<Process>,
    redactor: Redactor,
    /// Set when the connection failed under a call: the next call starts afresh.
    broken: AtomicBool,
}

/// Why a call ended without a result from the server.
pub(crate) enum CallEnd {
    /// The caller cancelled; `notifications/cancelled` was sent.
    Cancelled,
    /// It failed.
    Failed(UpstreamError),
}

impl Connection {
    /// Starts (stdio) or connects to (HTTP) `config`'s server and completes the MCP
    /// handshake within `timeout`.
    pub(crate) async fn start(
        config: &ServerConfig,
        world: &Path,
        owner: u64,
        list_changed: mpsc::UnboundedSender<String>,
        timeout: Duration,
    ) -> Result<Self, UpstreamError> {
        let handler = Handler {
            server: config.name.clone(),
            list_changed,
        };
        let redactor = config.redactor();
        // The command as the file writes it (a `${NAME}` not replaced), so whoever reads
        // the error knows what was run without seeing a secret.
        let started_as = match &config.transport {
            Transport::Stdio { .. } if !config.written.is_empty() => {
                format!(" (started as `{}`)", config.written.join(" "))
            }
            _ => String::new(),
        };
        let failed = |reason: String, stderr: String| UpstreamError::StartFailed {
            server: config.name.clone(),
            reason: cut(
                &redactor.redact(&format!("{reason}{started_as}")),
                MAX_MESSAGE_BYTES,
            ),
            stderr,
        };
        match &config.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                // Checked again at every start, not only when the file was read: the
                // server starts later (on first use, or again after a crash), and by then a
                // folder its arguments name may have become a link into `.codemode/`.
                if let Some(reach) = super::guard::world_reach(config, world) {
                    return Err(failed(
                        format!(
                            "it is not started: {}",
                            super::guard::refusal(&reach, world)
                        ),
                        String::new(),
                    ));
                }
                let dir = cwd.as_deref().unwrap_or(world);
                let in_world = dir.starts_with(world)
                    || dir
                        .canonicalize()
                        .is_ok_and(|d| world.canonicalize().is_ok_and(|w| d.starts_with(w)));
                let spawned = process::spawn(command, args, env, dir, in_world, owner).map_err(|e| {
                    let why = match e.kind() {
                        std::io::ErrorKind::NotFound if !dir.is_dir() => format!(
                            "its working directory {} does not exist; fix \"cwd\" in {}",
                            dir.display(),
                            config.file.display()
                        ),
                        std::io::ErrorKind::NotFound => format!(
                            "cannot run '{command}': no such program; install it or fix \"command\" in {} (PATH is codemode's own)",
                            config.file.display()
                        ),
                        std::io::ErrorKind::PermissionDenied => format!(
                            "cannot run '{command}': permission denied; make it executable or fix \"command\" in {}",
                            config.file.display()
                        ),
                        _ => format!("cannot run '{command}': {e}"),
                    };
                    failed(why, String::new())
                })?;
                let pid = spawned.child.id().unwrap_or(0);
                tracing::info!("started MCP server '{}' (pid {pid})", config.name);
                let tail = Tail::new(redactor.clone());
                let (tail_tx, tail_done) = watch::channel(false);
                let collector = tail.clone();
                let name = config.name.clone();
                let stderr = spawned.stderr;
                tokio::spawn(async move {
                    collector.collect(name, stderr).await;
                    let _ = tail_tx.send(true);
                });
                let (exit_tx, exit) = watch::channel(None);
                let mut child = spawned.child;
                let name = config.name.clone();
                tokio::spawn(async move {
                    let how = match child.wait().await {
                        Ok(status) => describe_exit(status),
                        Err(e) => format!("could not be waited for ({e})"),
                    };
                    tracing::info!("MCP server '{name}' {how}");
                    let _ = exit_tx.send(Some(how));
                });
                let garbage = Garbage::default();
                let stdout = CheckedStdout::new(spawned.stdout, garbage.clone());
                let process = Process {
                    group: spawned.group,
                    #[cfg(any(test, feature = "bench"))]
                    pid,
                    tail,
                    exit,
                    tail_done,
                    garbage,
                };
                let started =
                    tokio::time::timeout(timeout, handler.serve((stdout, spawned.stdin))).await;
                let service = match started {
                    Ok(Ok(service)) => service,
                    Ok(Err(e)) => {
                        let why = process.explain(&e.to_string()).await;
                        process.group.kill();
                        return Err(failed(why, process.tail.text()));
                    }
                    Err(_) => {
                        process.group.kill();
                        settle(&process).await;
                        return Err(failed(
                            format!(
                                "it did not finish the MCP handshake within {}; is it an MCP server speaking on stdio?",
                                human(timeout)
                            ),
                            process.tail.text(),
                        ));
                    }
                };
                Ok(Self {
                    server: config.name.clone(),
                    service,
                    process: Some(process),
                    redactor,
                    broken: AtomicBool::new(false),
                })
            }
            // An API's calls are HTTP requests of their own (see `Upstreams`): never here.
            Transport::OpenApi(_) => Err(failed(
                "it is an HTTP API, which is called without an MCP connection".into(),
                String::new(),
            )),
            Transport::Http { url, headers, .. } => {
                let mut custom = HashMap::new();
                for (name, value) in headers {
                    let header = http::HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                        failed(
                            format!(
                                "\"{name}\" is not a valid HTTP header name; fix \"headers\" in {}",
                                config.file.display()
                            ),
                            String::new(),
                        )
                    })?;
                    let value = http::HeaderValue::from_str(value.expose()).map_err(|_| {
                        failed(format!("the value of header \"{name}\" is not a valid HTTP header value; fix it in {}", config.file.display()), String::new())
                    })?;
                    custom.insert(header, value);
                }
                let client = http_client::client(url).map_err(|why| failed(why, String::new()))?;
                let transport = StreamableHttpClientTransport::with_client(
                    client,
                    StreamableHttpClientTransportConfig::with_uri(url.as_str())
                        .custom_headers(custom),
                );
                let service = match tokio::time::timeout(timeout, handler.serve(transport)).await {
                    Ok(Ok(service)) => service,
                    Ok(Err(e)) => {
                        let why = http_client::tls_failure(&e, url).unwrap_or_else(|| {
                            format!(
                                "cannot connect to {url}: {}",
                                transport_reason(&e.to_string())
                            )
                        });
                        return Err(failed(why, String::new()));
                    }
                    Err(_) => {
                        return Err(failed(
                            format!(
                                "{url} did not finish the MCP handshake within {}",
                                human(timeout)
                            ),
                            String::new(),
                        ))
                    }
                };
                tracing::info!(
                    "connected to MCP server '{}' at {}",
                    config.name,
                    redactor.redact(url)
                );
                Ok(Self {
                    server: config.name.clone(),
                    service,
                    process: None,
                    redactor,
                    broken: AtomicBool::new(false),
                })
            }
        }
    }

    /// True while calls can go through: the session is open and the process (if any)
    /// runs and has written nothing but messages.
    pub(crate) fn is_alive(&self) -> bool {
        if self.broken.load(Ordering::SeqCst)
            || self.service.is_closed()
            || self.service.peer().is_transport_closed()
        {
            return false;
        }
        match &self.process {
            Some(p) => {
                p.exit.borrow().is_none()
                    && p.garbage
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .is_none()
            }
            None => true,
        }
    }

    /// The server's process id (stdio servers).
    #[cfg(any(test, feature = "bench"))]
    pub(crate) fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.pid)
    }

    /// Calls `tool` (its name on the server) with `arguments`. When `cancel` fires first,
    /// sends `notifications/cancelled` with `reason()` and returns [`CallEnd::Cancelled`].
    pub(crate) async fn call(
        &self,
        label: &str,
        tool: &str,
        arguments: serde_json::Map<String, Value>,
        cancel: &CancellationToken,
        reason: impl Fn() -> String,
    ) -> Result<Value, CallEnd> {
        let mut params = CallToolRequestParams::new(tool.to_string());
        params.arguments = Some(arguments);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let mut handle = match self
            .service
            .peer()
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
        {
            Ok(handle) => handle,
            Err(e) => return Err(CallEnd::Failed(self.failure(label, e).await)),
        };
        tokio::select! {
            response = &mut handle.rx => match response {
                Ok(Ok(ServerResult::CallToolResult(result))) => {
                    let raw = serde_json::to_value(&result).map_err(|e| CallEnd::Failed(self.protocol(format!("cannot read its result: {e}"))))?;
                    content::convert(label, &raw, &self.redactor).map_err(CallEnd::Failed)
                }
                Ok(Ok(other)) => Err(CallEnd::Failed(self.protocol(format!(
                    "it answered {label} with something other than a tool result: {}",
                    cut(&serde_json::to_string(&other).unwrap_or_default(), 300)
                )))),
                Ok(Err(e)) => Err(CallEnd::Failed(self.failure(label, e).await)),
                Err(_) => Err(CallEnd::Failed(self.failure(label, ServiceError::TransportClosed).await)),
            },
            _ = cancel.cancelled() => {
                let _ = handle.cancel(Some(reason())).await;
                Err(CallEnd::Cancelled)
            }
        }
    }

    /// What the server said about itself in its `initialize` answer (nothing when the
    /// handshake's answer is not at hand).
    pub(crate) fn about(&self) -> ServerAbout {
        let Some(info) = self.service.peer_info() else {
            return ServerAbout::default();
        };
        // Read as the server sent it (`serverInfo`, `instructions`), whatever rmcp's
        // types make optional.
        let Ok(raw) = serde_json::to_value(&*info) else {
            return ServerAbout::default();
        };
        let mut about = raw
            .get("serverInfo")
            .cloned()
            .unwrap_or_else(|| serde_json::json!({}));
        if let (Some(fields), Some(instructions)) = (about.as_object_mut(), raw.get("instructions"))
        {
            fields.insert("instructions".into(), instructions.clone());
        }
        ServerAbout::from_json(Some(&about))
    }

    /// What the server said at `initialize` ([`Connection::about`]) and every page of
    /// `tools/list`, as raw JSON. Asked for as a plain request, so one tool that rmcp's
    /// typed list would refuse (no `inputSchema`, a field of the wrong type) leaves the
    /// others standing: [`super::Catalogue::from_raw`] reads each on its own.
    pub(crate) async fn list_tools(&self) -> Result<Listing, UpstreamError> {
        let label = format!("{}: tools/list", self.server);
        let mut tools = Vec::new();
        let mut cursors = std::collections::HashSet::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.as_ref().map(|c| serde_json::json!({ "cursor": c }));
            let request = ClientRequest::CustomRequest(CustomRequest::new("tools/list", params));
            let page = match self.service.peer().send_request(request).await {
                Ok(result) => serde_json::to_value(&result)
                    .map_err(|e| self.protocol(format!("cannot read its tools: {e}")))?,
                Err(e) => return Err(self.failure(&label, e).await),
            };
            match page.get("tools") {
                Some(Value::Array(page)) => tools.extend(page.iter().cloned()),
                _ => {
                    return Err(self.protocol(format!(
                        "its tools/list answer has no \"tools\" array: {}",
                        cut(&page.to_string(), 300)
                    )))
                }
            }
            cursor = match page.get("nextCursor") {
                Some(Value::String(next)) if !next.is_empty() => Some(next.clone()),
                _ => {
                    return Ok(Listing {
                        about: self.about(),
                        tools,
                    })
                }
            };
            // A server that hands out a cursor it gave before would be listed forever.
            if !cursors.insert(cursor.clone()) || cursors.len() > MAX_PAGES {
                return Err(self.protocol(format!(
                    "its tools/list pages never end (cursor {:?} again, or more than {MAX_PAGES} pages)",
                    cursor.unwrap_or_default()
                )));
            }
        }
    }

    fn protocol(&self, detail: String) -> UpstreamError {
        UpstreamError::Protocol {
            server: self.server.clone(),
            detail: cut(&self.redactor.redact(&detail), MAX_MESSAGE_BYTES),
        }
    }

    /// Turns an rmcp error into one that says what happened to the server.
    async fn failure(&self, label: &str, error: ServiceError) -> UpstreamError {
        match error {
            ServiceError::McpError(data)
                if data
                    .data
                    .as_ref()
                    .and_then(|d| d.get("codemode"))
                    .is_some_and(|c| c == OVERSIZED) =>
            {
                UpstreamError::TooLarge {
                    call: label.to_string(),
                    max_bytes: stdout::MAX_MESSAGE_BYTES,
                }
            }
            ServiceError::McpError(data)
                if data
                    .data
                    .as_ref()
                    .and_then(|d| d.get("codemode"))
                    .is_some_and(|c| c == MALFORMED) =>
            {
                self.protocol(format!("{label}: {}", data.message))
            }
            ServiceError::McpError(data) => UpstreamError::Rejected {
                call: label.to_string(),
                code: data.code.0,
                message: cut(&self.redactor.redact(&data.message), MAX_MESSAGE_BYTES),
            },
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                self.broken.store(true, Ordering::SeqCst);
                let detail = error.to_string();
                let unsent = matches!(error, ServiceError::TransportSend(_));
                match &self.process {
                    Some(process) => {
                        settle(process).await;
                        if let Some(sample) = process.garbage_sample() {
                            return self.protocol(format!(
                                "it wrote {sample:?} on stdout while {label} was waiting; stdout must carry only MCP messages (logs belong on stderr)"
                            ));
                        }
                        let how = process.exit.borrow().clone().unwrap_or_else(|| {
                            if unsent {
                                "stopped reading its stdin".to_string()
                            } else {
                                "closed its stdout".to_string()
                            }
                        });
                        UpstreamError::Crashed {
                            server: self.server.clone(),
                            call: label.to_string(),
                            how,
                            stderr: process.tail.text(),
                        }
                    }
                    None => UpstreamError::Crashed {
                        server: self.server.clone(),
                        call: label.to_string(),
                        how: format!(
                            "dropped the connection ({})",
                            self.redactor.redact(transport_reason(&detail))
                        ),
                        stderr: String::new(),
                    },
                }
            }
            other => self.protocol(other.to_string()),
        }
    }
}

impl Process {
    fn garbage_sample(&self) -> Option<String> {
        self.garbage
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Why the handshake failed, in the server's terms.
    async fn explain(&self, rmcp_error: &str) -> String {
        settle(self).await;
        if let Some(sample) = self.garbage_sample() {
            return format!(
                "it wrote {sample:?} on stdout, which must carry only MCP messages (logs belong on stderr)"
            );
        }
        match self.exit.borrow().clone() {
            Some(how) => format!("it {how} before finishing the MCP handshake"),
            None => format!("the MCP handshake failed: {rmcp_error}"),
        }
    }
}

/// Gives a process that is going away a moment to exit and flush its stderr, so the
/// error can say how it ended and show its last words.
async fn settle(process: &Process) {
    let mut exit = process.exit.clone();
    let mut tail = process.tail_done.clone();
    let _ = tokio::time::timeout(Duration::from_millis(500), async {
        let _ = exit.wait_for(Option::is_some).await;
        let _ = tail.wait_for(|done| *done).await;
    })
    .await;
}

/// rmcp's transport errors name the transport's Rust type before the reason
/// (`Transport [rmcp::...<reqwest::...>] error: Client error: ...`); keep the reason.
fn transport_reason(detail: &str) -> &str {
    detail
        .rsplit_once("] error: ")
        .map_or(detail, |(_, reason)| reason)
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        _ => "exited".to_string(),
    }
}
