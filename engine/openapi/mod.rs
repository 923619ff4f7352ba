//! HTTP APIs with an OpenAPI description as toolboxes: `tools.github.pulls_list{...}`.
//!
//! An API is one more kind of upstream server (`crate::upstream`), so everything that
//! serves an MCP server's tools serves its operations too: listings, `tools.get`, search,
//! `codemode types`, docs, policy rules, limits, the result cache, `tools.parallel` and
//! the audit log. What differs is where the tools come from and how a call is made:
//!
//! - [`config`] reads `<world>/.codemode/apis.json` (the description's file, the base
//!   URL, the methods allowed) with a problem per API that cannot be used;
//! - [`copy`] fetches a description given by URL into the cache, when the operator runs
//!   `codemode api sync` (never while a script runs);
//! - `spec` reads the description (JSON or YAML), checks it as OpenAPI 3.0 or 3.1 with
//!   the `openapiv3` and `oas3` crates, and refuses Swagger 2.0 with the way to convert it;
//! - `operation` makes each operation a tool in the shape of an MCP `tools/list` item
//!   ([`describe`]), its schemas made self-contained by `schema`, with the plan a call
//!   follows; the upstream catalogue cache keeps them under `.codemode/cache/mcp/`, keyed
//!   by the description's size and time, so a large description is parsed once;
//! - `request` makes a call's table into a request, sent by [`call`] through
//!   `crate::net` (the address guard, redirects re-checked, the body capped, the
//!   credentials of `.codemode/http.json` attached by host outside the script), and
//!   `response` decodes the answer, a status other than 2xx failing with the API's own
//!   error body, secrets masked.
//!
//! The script never sees a credential: it names the operation and its arguments, and the
//! host attaches the headers `.codemode/http.json` gives the API's host, to that host only.

pub(crate) mod config;
pub(crate) mod copy;
mod failure;
mod operation;
mod request;
mod response;
mod schema;
mod spec;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

pub(crate) use config::{spec_urls, Api, APIS_FILE};
pub(crate) use operation::Described;

/// The largest answer body read from an API (what a script takes in from one MCP call).
const MAX_BODY: usize = 16 << 20;

/// How long one request may take at most; a script's deadline (or a tool's own
/// `limits.timeoutMs`) ends it sooner, through `stop`.
const MAX_TIME: Duration = Duration::from_secs(600);

/// The operations of `api`'s description as tools (see `operation`).
pub(crate) fn describe(api: &Api) -> Result<Described, String> {
    let (document, version) = spec::read(&api.spec)?;
    Ok(operation::tools(
        &document,
        version,
        &api.methods,
        api.response.as_deref(),
    ))
}

/// Makes the request `plan` (a tool's `x-codemode-request`) describes from `args`, sends
/// it to `api` with the world's credentials for its host, and decodes the answer. `stop`
/// is asked while it waits (the script's deadline, a cancelled call). `label` names the
/// call in errors (`github.pulls_list`). Every error is masked.
pub(crate) fn call(
    api: &Api,
    world: &Path,
    label: &str,
    plan: &Value,
    args: &Map<String, Value>,
    stop: &dyn Fn() -> bool,
) -> Result<Value, String> {
    let made = request::make(plan, args).map_err(|why| format!("{label}: {why}"))?;
    let credentials = crate::net::Credentials::load(world)
        .map_err(|e| crate::secrets::mask(&e.to_string()).into_owned())?;
    let base = url::Url::parse(&api.base_url).map_err(|e| format!("{label}: {e}"))?;
    // The API's own host only (a redirect elsewhere is refused); named exactly, so a
    // loopback or private address the operator wrote is reached.
    let host = match (base.host_str(), base.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        (None, _) => return Err(format!("{label}: the base URL {base} has no host")),
    };
    let allow = crate::net::Allow::new(std::slice::from_ref(&host));
    let mut headers = made.headers;
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("accept"))
    {
        headers.push(("Accept".into(), "application/json".into()));
    }
    // Some APIs (GitHub's) refuse a request that does not say who makes it.
    headers.push((
        "User-Agent".into(),
        concat!("codemode/", env!("CARGO_PKG_VERSION")).into(),
    ));
    let method = made.method.clone();
    let request = crate::net::Request {
        method: made.method,
        url: format!("{}{}", api.base_url, made.target),
        headers,
        body: made.body,
        timeout: MAX_TIME,
        max_body: MAX_BODY,
    };
    let path = plan.get("path").and_then(Value::as_str).unwrap_or("");
    let call = format!("{label} ({method} {path})");
    let api_name = label.split_once('.').map_or(label, |(api, _)| api);
    let response = crate::net::fetch(request, &allow, &credentials, stop)
        .map_err(|e| failure::explain(e, &call, api_name, &host))?;
    let body = response::decode(&call, &response)?;
    match plan.get("answer") {
        Some(answer) => Ok(response::whole(&response, answer, body)),
        None => Ok(body),
    }
}
