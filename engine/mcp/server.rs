//! The MCP handler: `tool_exec`, `search_tools` and (with `--expose-tools`) one tool per
//! registered tool, all run on the shared [`Pool`].

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Map, Value};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::describe;
use super::exposed::{exposed_entries, exposed_tools, exposed_upstream, mcp_name};
use super::gate::agent_of;
use super::profiles::{MakeServed, Profiles, Served};
use crate::assets::json_kind;
use crate::audit::Agent as AuditAgent;
use crate::auth::Agent;
use crate::registry::Registry;
use crate::runtime::{
    refused, Args, Call, Envelope, ErrorKind, Output, Pool, PoolError, RunRequest, Runtime, Surface,
};
use crate::sandbox::StopCheck;
use crate::search::{Given, SearchRequest};

/// Name of the code-mode tool.
pub(crate) const TOOL_EXEC: &str = "tool_exec";
/// Name of the search tool.
pub(crate) const SEARCH_TOOLS: &str = "search_tools";
/// Scripts longer than this are refused before they reach the compiler, whose work
/// cannot be interrupted by the deadline.
pub(crate) const MAX_SCRIPT_BYTES: usize = 4 * 1024 * 1024;

/// What the server offers besides the two code-mode tools.
#[derive(Debug, Clone, Default)]
pub(crate) struct ServeOptions {
    /// Expose every registered tool as its own MCP tool.
    pub expose_tools: bool,
}

struct Shared {
    /// The pool of each profile, the server's own first.
    profiles: Profiles,
    options: ServeOptions,
    /// Generation of the exposed tool set (only with `expose_tools`).
    changes: Option<watch::Receiver<u64>>,
}

/// The MCP server. Cheap to clone: every session (stdio, or one per HTTP client) shares
/// the pools and the registries.
#[derive(Clone)]
pub(crate) struct CodemodeServer {
    shared: Arc<Shared>,
}

impl CodemodeServer {
    /// A server whose own pool (for requests without an [`Agent`]: stdio, `--no-auth`)
    /// serves profile `own_profile`, and which runs an agent's requests on a pool of the
    /// agent's profile, made by `make` the first time (see [`Served`]).
    pub(crate) fn per_profile(
        pool: Arc<Pool>,
        registry: Arc<Registry>,
        options: ServeOptions,
        own_profile: String,
        make: Option<MakeServed>,
    ) -> Self {
        let changes = Some(super::watch::watch_tool_set(
            registry.clone(),
            options.expose_tools,
        ));
        let own = Served {
            pool,
            registry,
            _keep: None,
        };
        CodemodeServer {
            shared: Arc::new(Shared {
                profiles: Profiles::new(own_profile, own, make),
                options,
                changes,
            }),
        }
    }

    /// The pool of the caller's profile, or why the caller cannot run (its profile is not
    /// in the policy file).
    async fn served(&self, agent: Option<&Agent>) -> Result<Arc<Served>, String> {
        self.shared.profiles.of(agent).await
    }

    /// Runs `source` for `agent` (its profile's pool; the server's own without one). A
    /// request cancelled (or whose client went away) before a VM is free leaves the
    /// script unrun; one cancelled while it runs stops it early.
    pub(crate) async fn exec(
        &self,
        agent: Option<&Agent>,
        source: String,
        ct: CancellationToken,
    ) -> Envelope {
        let served = match self.served(agent).await {
            Ok(served) => served,
            Err(why) => return refused(ErrorKind::Denied, &why),
        };
        if source.len() > MAX_SCRIPT_BYTES {
            return refused(
                ErrorKind::Limit,
                &format!(
                    "the script is {} bytes; tool_exec takes at most {MAX_SCRIPT_BYTES} bytes. Send a shorter script: put data in files (vfs) or in tools, not in the source",
                    source.len()
                ),
            );
        }
        let run = self.on_pool(&served, agent, ct, move |runtime, stop| {
            runtime.run(RunRequest::new(&source).stop_if(stop))
        });
        run.await
            .unwrap_or_else(|refused| refused)
            .name_limits(serve_flag)
    }

    /// Runs `work` on the pool for a request that `ct` cancels. A request cancelled (or
    /// whose client went away) before a VM is free runs nothing; one cancelled while it
    /// runs is stopped through the stop check `work` hands to its run. A run that did
    /// not happen is its error envelope. Every run of a request goes through here, with
    /// the agent it runs for (`None` over stdio and with `--no-auth`).
    async fn on_pool<R, F>(
        &self,
        served: &Served,
        agent: Option<&Agent>,
        ct: CancellationToken,
        work: F,
    ) -> Result<R, Envelope>
    where
        F: FnOnce(&mut Runtime, Option<StopCheck>) -> R + Send + 'static,
        R: Send + 'static,
    {
        // A running script holds its thread, so a cancellation reaches it through the
        // interrupt; one still waiting for a VM is simply dropped.
        let stop: StopCheck = {
            let ct = ct.clone();
            Arc::new(move || ct.is_cancelled())
        };
        let audited = agent.map_or_else(AuditAgent::local, |a| AuditAgent::named(a.name.as_str()));
        tokio::select! {
            biased;
            _ = ct.cancelled() => Err(refused(
                ErrorKind::Runtime,
                "the script was dropped before it ran (the request was cancelled)",
            )),
            run = served.pool.run_with(Some(stop), move |runtime, stop| {
                // The audit names whoever the request authenticated as; a pooled VM
                // keeps the last agent set, so each run sets its own.
                runtime.set_agent(audited);
                work(runtime, stop)
            }) => run.map_err(|e| {
                let mut envelope = e.envelope();
                if let (PoolError::Busy(_), Some(error)) = (&e, &mut envelope.error) {
                    error.message.push_str(" (codemode serve --workers)");
                }
                envelope
            }),
        }
    }

    fn tool_list(&self, served: &Served) -> Vec<Tool> {
        let limits = served.pool.limits();
        if self.shared.options.expose_tools {
            // A policy edit the watcher has not read in yet still decides which tools
            // are exposed (a read of the policy file, so only when tools are exposed).
            served.registry.refresh_policy();
        }
        let index = served.registry.snapshot();
        let upstream = served.registry.upstream_views(&index);
        let mut tools = vec![
            Tool::new(
                TOOL_EXEC,
                describe::tool_exec(limits, &describe::toolboxes(&index, &upstream)),
                Arc::new(describe::tool_exec_schema()),
            )
            .with_raw_output_schema(Arc::new(describe::envelope_schema())),
            Tool::new(
                SEARCH_TOOLS,
                describe::SEARCH_TOOLS,
                Arc::new(describe::search_tools_schema()),
            )
            .with_raw_output_schema(Arc::new(describe::search_result_schema())),
        ];
        if self.shared.options.expose_tools {
            tools.extend(exposed_tools(&index, &upstream).into_values());
        }
        tools
    }

    async fn tool_exec(
        &self,
        agent: Option<&Agent>,
        args: &Map<String, Value>,
        ct: CancellationToken,
    ) -> CallToolResult {
        let script = match args.get("script") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return usage_error(format!(
                    "tool_exec: \"script\" must be a string of Luau source, got {}; send {{\"script\": \"return 1 + 1\"}}",
                    json_kind(other)
                ))
            }
            None => {
                return usage_error(
                    "tool_exec needs a \"script\" argument with Luau source, e.g. {\"script\": \"return tools.toolboxes().stdout\"}".into(),
                )
            }
        };
        envelope_result(&self.exec(agent, script, ct).await)
    }

    async fn search_tools(
        &self,
        served: &Served,
        agent: Option<&Agent>,
        args: &Map<String, Value>,
        ct: CancellationToken,
    ) -> CallToolResult {
        let request = match search_request(args) {
            Ok(r) => r,
            Err(message) => return usage_error(message),
        };
        let surface = Surface::new(
            "search",
            vec![
                Value::String(request.query.clone()),
                Value::Object(request.options()),
            ],
        );
        let run = self.on_pool(served, agent, ct, move |runtime, stop| {
            runtime.run_surface(&surface, stop)
        });
        let envelope = run.await.unwrap_or_else(|refused| refused);
        if let Some(error) = &envelope.error {
            // No line number: the search runs no script of the caller's.
            let hint = error
                .hint
                .as_deref()
                .map_or(String::new(), |h| format!(" ({h})"));
            return usage_error(format!("search_tools: {}{hint}", error.message));
        }
        let value = envelope.value.unwrap_or(Value::Null);
        let (text, lean) = search_answer(&value);
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        result.structured_content = Some(lean);
        result
    }

    async fn exposed_call(
        &self,
        served: &Served,
        agent: Option<&Agent>,
        name: &str,
        args: &Map<String, Value>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, ErrorData> {
        let index = served.registry.snapshot();
        let entries = exposed_entries(&index);
        let upstream = served.registry.upstream_views(&index);
        let identity = match entries.get(name) {
            Some(entry) => Some(entry.meta().identity.clone()),
            None => exposed_upstream(&upstream, &entries)
                .get(name)
                .map(|(server, tool)| format!("{server}.{}", tool.name)),
        }
        // A tool the profile denies is not listed; called by its name anyway, the call
        // is refused as denied (naming the rule) rather than unknown.
        .or_else(|| {
            let (toolbox, tool) = name.split_once("__")?;
            let identity = format!("{toolbox}.{tool}");
            index.denial(&identity).map(|_| identity)
        });
        let Some(identity) = identity else {
            // A tool that exists but cannot be called now (broken on disk, not `ready`)
            // says why, rather than being just "unknown".
            let broken = index.tools.values().find(|e| {
                let meta = e.meta();
                mcp_name(&meta.toolbox, &meta.name) == name
            });
            if let Some(reason) = broken.and_then(|e| e.reason()) {
                return Ok(usage_error(format!(
                    "{name} cannot be called now: {reason}. Once fixed it is back in tools/list (`codemode check` names every broken tool)"
                )));
            }
            return Err(unknown_tool(name, self.shared.options.expose_tools));
        };
        // Bound by the one binder against the snapshot the call runs on (an upstream
        // tool's arguments go to its server, which checks them).
        let call = Call::new(identity, Args::Named(args.clone()));
        let run = self.on_pool(served, agent, ct, move |runtime, stop| {
            runtime.run_call(call, Output::Capture, stop)
        });
        Ok(match run.await {
            Ok(Ok(called)) => envelope_result(&called.envelope.name_limits(serve_flag)),
            Ok(Err(refusal)) => usage_error(refusal.message),
            Err(refused) => envelope_result(&refused),
        })
    }

    /// Sends `notifications/tools/list_changed` to a session started with `initialize`,
    /// until the session ends.
    fn notify_legacy(&self, peer: rmcp::Peer<RoleServer>) {
        let Some(changes) = self.shared.changes.clone() else {
            return;
        };
        tokio::spawn(async move {
            let mut changes = Changes::new(changes);
            while changes.next().await {
                if peer.notify_tool_list_changed().await.is_err() {
                    return;
                }
            }
        });
    }
}

impl ServerHandler for CodemodeServer {
    fn get_info(&self) -> ServerConfig {
        // tool_exec's description names the toolboxes: it changes with them.
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
            .with_instructions(describe::INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let agent = agent_of(&context.extensions);
        let served = self
            .served(agent.as_ref())
            .await
            .map_err(|why| ErrorData::invalid_request(why, None))?;
        Ok(ListToolsResult {
            tools: self.tool_list(&served),
            ..Default::default()
        })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tool_list(self.shared.profiles.own())
            .into_iter()
            .find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let ct = context.ct.clone();
        let agent = agent_of(&context.extensions);
        let agent = agent.as_ref();
        let served = match self.served(agent).await {
            Ok(served) => served,
            Err(why) => return Ok(envelope_result(&refused(ErrorKind::Denied, &why)).into()),
        };
        let result = match request.name.as_ref() {
            TOOL_EXEC => self.tool_exec(agent, &args, ct).await,
            SEARCH_TOOLS => self.search_tools(&served, agent, &args, ct).await,
            name if self.shared.options.expose_tools => {
                self.exposed_call(&served, agent, name, &args, ct).await?
            }
            name => return Err(unknown_tool(name, false)),
        };
        Ok(result.into())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(bad_method(&request.method, request.params.as_ref()))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.notify_legacy(context.peer.clone());
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let wants = requested.tools_list_changed == Some(true);
        (self.shared.options.expose_tools && wants)
            .then(|| SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let Some(changes) = self.shared.changes.clone() else {
            context.cancelled().await;
            return Ok(());
        };
        let mut changes = Changes::new(changes);
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                changed = changes.next() => {
                    if !changed || context.sink().notify_tool_list_changed().await.is_err() {
                        context.cancelled().await;
                        return Ok(());
                    }
                }
            }
        }
    }
}

/// How long the tool list must stay unchanged before a client is told it changed: a script
/// creating 300 tools is one notification, not 300.
const CHANGES_SETTLE: std::time::Duration = std::time::Duration::from_millis(100);

/// The least time between two notifications to one client: on a loaded machine each of a
/// script's writes may take longer than [`CHANGES_SETTLE`], and the client would be told
/// once per tool.
const CHANGES_GAP: std::time::Duration = std::time::Duration::from_secs(1);

/// The changes of the tool list a client is told of, as they come.
struct Changes {
    changes: watch::Receiver<u64>,
    /// The earliest the next notification may be sent.
    next: tokio::time::Instant,
}

impl Changes {
    fn new(mut changes: watch::Receiver<u64>) -> Changes {
        changes.mark_unchanged();
        Changes {
            changes,
            next: tokio::time::Instant::now(),
        }
    }

    /// Waits for the tool list to change and then to stay unchanged for
    /// [`CHANGES_SETTLE`] (at most ten times that: a world that never stops changing is
    /// still reported), and at least [`CHANGES_GAP`] after the last notification; false
    /// when the registry is gone.
    async fn next(&mut self) -> bool {
        if self.changes.changed().await.is_err() {
            return false;
        }
        for _ in 0..10 {
            tokio::time::sleep(CHANGES_SETTLE).await;
            if !self.changes.has_changed().unwrap_or(false) {
                break;
            }
            self.changes.mark_unchanged();
        }
        tokio::time::sleep_until(self.next).await;
        // What changed while this waited is told by the notification about to be sent.
        self.changes.mark_unchanged();
        self.next = tokio::time::Instant::now() + CHANGES_GAP;
        true
    }
}

/// The setting that raises the limit a run hit: the server's operator sets it, not the
/// client, so the hint says whose it is.
fn serve_flag(cause: crate::sandbox::StopCause) -> Option<String> {
    use crate::sandbox::StopCause as S;
    let flag = match cause {
        S::Deadline => "--timeout-ms",
        S::Memory => "--memory-mb",
        S::Output => "--max-output-bytes",
        S::Cancelled | S::Coroutines | S::Stack => return None,
    };
    Some(format!(
        "the server's {flag}, set by whoever starts codemode serve"
    ))
}

/// The envelope as structured content and as text; `isError` when the script failed.
fn envelope_result(envelope: &Envelope) -> CallToolResult {
    let value = envelope.to_value();
    if envelope.ok {
        CallToolResult::structured(value)
    } else {
        CallToolResult::structured_error(value)
    }
}

/// A call the client can fix: a tool result with `isError`, so a model reads the message.
fn usage_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// A request rmcp could not route: a known method with params of the wrong shape, or
/// a method this server does not have.
fn bad_method(method: &str, params: Option<&Value>) -> ErrorData {
    let shape = match method {
        "tools/call" => Some("{\"name\": \"tool_exec\", \"arguments\": {\"script\": \"...\"}}"),
        "tools/list" => Some("{} or {\"cursor\": \"...\"}"),
        "initialize" => Some("{\"protocolVersion\", \"capabilities\", \"clientInfo\"}"),
        _ => None,
    };
    match shape {
        Some(shape) => ErrorData::invalid_params(
            Cow::Owned(format!(
                "{method}: params must look like {shape}; got {}",
                params.map_or("none".to_string(), |p| truncate(&p.to_string(), 200))
            )),
            None,
        ),
        None => ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            Cow::Owned(format!(
                "unknown method \"{}\"; this server answers initialize, ping, tools/list and tools/call",
                truncate(method, 100)
            )),
            None,
        ),
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

fn unknown_tool(name: &str, exposing: bool) -> ErrorData {
    let name = truncate(name, 100);
    let more = if exposing {
        " or one of the exposed <box>__<name> tools listed by tools/list"
    } else {
        ""
    };
    ErrorData::invalid_params(
        Cow::Owned(format!(
            "unknown tool \"{name}\"; this server has {TOOL_EXEC} and {SEARCH_TOOLS}{more}"
        )),
        None,
    )
}

/// What a model reads of a search: per row what to call (identity and signature), in a
/// sentence what it does, and how relevant it is (`p`). Every answer lands in the agent's
/// context, so it carries only that (and where the tool comes from, or how to install its
/// toolbox); `tools.search` and `tools.get` in a script have the full rows for programs.
fn search_answer(value: &Value) -> (String, Value) {
    let total = value.get("total").cloned().unwrap_or(Value::from(0));
    let rows = value.get("value").and_then(Value::as_array);
    let mut lean = Vec::new();
    for row in rows.into_iter().flatten() {
        let field = |name: &str| row.get(name).and_then(Value::as_str);
        let mut out = Map::new();
        out.insert(
            "identity".into(),
            Value::from(field("identity").unwrap_or_default()),
        );
        out.insert(
            "kind".into(),
            Value::from(field("assetType").unwrap_or("tool")),
        );
        if let Some(signature) = field("signature") {
            out.insert("signature".into(), Value::from(signature));
        }
        let description = first_sentence(field("description").unwrap_or_default());
        out.insert("description".into(), Value::from(description));
        if let Some(p) = row.get("p").and_then(Value::as_f64) {
            out.insert("p".into(), json!((p * 1000.0).round() / 1000.0));
        }
        if let Some(from) = field("from").filter(|f| f.starts_with("mcp:")) {
            out.insert("from".into(), Value::from(from));
        }
        if let Some(install) = field("install") {
            out.insert("install".into(), Value::from(install));
        }
        if row.get("registered") == Some(&Value::Bool(false)) {
            out.insert("registered".into(), Value::Bool(false));
        }
        lean.push(Value::Object(out));
    }
    let empty = lean.is_empty();
    let mut answer = json!({ "value": lean, "total": total });
    if empty {
        let note = value
            .get("stdout")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .unwrap_or("no match");
        answer["note"] = Value::from(note.trim());
    }
    // As for tool_exec, the text is the structured content's JSON: a client that reads only
    // text content gets the same rows.
    (answer.to_string(), answer)
}

/// The first sentence of a description, at most 160 bytes: a search row says what a tool
/// is for; `tools.get` has the rest.
fn first_sentence(description: &str) -> String {
    let line = description.lines().next().unwrap_or_default().trim();
    let sentence = crate::assets::first_sentence(line).trim_end();
    if sentence.len() <= 160 {
        return sentence.to_string();
    }
    let mut end = 157;
    while !sentence.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &sentence[..end])
}

/// Rows `search_tools` returns for a query when no limit is given: they go straight into
/// the model's context, and search is tuned for the right tool in the first five. A listing
/// (an empty query) keeps the engine's default.
const SEARCH_TOOLS_LIMIT: usize = 5;

/// The arguments of `search_tools`, checked as `tools.search` and `codemode search` check
/// theirs: `query` and the options `mode`, `toolbox`, `limit` by their JSON names.
fn search_request(args: &Map<String, Value>) -> Result<SearchRequest, String> {
    // The input schema requires it: a call without one is a slip, not a listing.
    let Some(query) = args.get("query").map(Given::from_json) else {
        let missing = crate::search::BadRequest::Query("no query argument".into());
        return Err(format!("search_tools: {missing}"));
    };
    let options = args
        .iter()
        .filter(|(name, _)| name.as_str() != "query")
        .map(|(name, value)| (name.clone(), Given::from_json(value)));
    let mut request = SearchRequest::check(query, options)
        .map_err(|e| format!("search_tools: {}", e.message("")))?;
    if !args.contains_key("limit") && !request.query.trim().is_empty() {
        request.limit = SEARCH_TOOLS_LIMIT;
    }
    Ok(request)
}
