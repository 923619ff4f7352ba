//! The `upstream` capability: the world's MCP servers as toolboxes, for the prelude.
//!
//! Listing reads each server's cached `tools/list` answer and never starts a server; a
//! call starts its server if needed and waits for the answer within the run's deadline
//! (the request is cancelled past it). Arguments go out as JSON (bounded like a returned
//! value); an answer is bounded by [`MAX_ANSWER_BYTES`] and the run's memory limit, not by
//! the output cap (what the script returns is).

/// The Luau declarations of this capability (`upstream.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("upstream.d.luau");

use std::sync::Arc;
use std::time::{Duration, Instant};

use mlua::{Lua, LuaSerdeExt, Value};
use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::bind::{check_slots, Schema, Style};
use crate::sandbox::{
    blocking, check_deadline, deadline_remaining, find_host_error, reach, stop_asked, to_json,
    with_run, Capability, Effect, HostError,
};
use crate::upstream::{ServerView, UpstreamError, UpstreamTool, Upstreams};

use super::convert::to_lua;
use super::refusal::denied_tool;
use super::state::{registry, with_state};
use super::tool_policy::Policy;

/// The largest answer, as JSON, a script takes in from one call: what codemode reads of
/// one message from a stdio server.
const MAX_ANSWER_BYTES: usize = 16 << 20;

/// How long a search over every server leaves out one whose fetch failed, rather than
/// start it again (a call or listing of that server tries again at once).
const RETRY_AFTER: Duration = Duration::from_secs(30);

/// The longest a search waits for the servers it fetches (see [`fetched`]).
const SEARCH_WAIT: Duration = Duration::from_secs(5);

/// A tool of an upstream server as the prelude lists it (the same fields as a folder tool).
#[derive(Serialize)]
struct ToolRow {
    name: String,
    toolbox: String,
    identity: String,
    description: String,
    signature: String,
    args: Vec<ArgRow>,
    returns: Option<ReturnsRow>,
    examples: Vec<String>,
    tags: Vec<String>,
    registered: bool,
    from: String,
    #[serde(rename = "hasRender")]
    has_render: bool,
}

#[derive(Serialize)]
struct ArgRow {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    description: String,
    optional: bool,
}

#[derive(Serialize)]
struct ReturnsRow {
    #[serde(rename = "type")]
    ty: String,
    description: String,
}

/// One row of `tools.toolboxes()` for a server.
#[derive(Serialize)]
struct BoxRow {
    toolbox: String,
    purpose: String,
    #[serde(rename = "toolCount")]
    tool_count: usize,
    kind: &'static str,
    from: String,
    /// False until the server's tools are fetched.
    fetched: bool,
}

fn row(server: &str, tool: &UpstreamTool) -> ToolRow {
    let types = tool.types();
    ToolRow {
        name: tool.name.clone(),
        toolbox: server.to_string(),
        identity: format!("{server}.{}", tool.name),
        description: tool.description.clone(),
        signature: tool.signature_of(&types),
        args: types
            .args
            .iter()
            .map(|a| ArgRow {
                name: a.name.clone(),
                ty: a.luau_type.clone(),
                description: a.description.clone().unwrap_or_default(),
                optional: a.optional,
            })
            .collect(),
        returns: Some(ReturnsRow {
            ty: types.returns.clone(),
            description: types.returns_description.clone().unwrap_or_default(),
        }),
        examples: Vec::new(),
        tags: Vec::new(),
        registered: true,
        from: format!("mcp:{server}"),
        has_render: false,
    }
}

/// The servers a run sees: configured, and not shadowed by a toolbox folder of that name.
fn visible(lua: &Lua) -> mlua::Result<Option<(Arc<Upstreams>, Vec<ServerView>)>> {
    let registry = registry(lua)?;
    let Some(upstreams) = registry.upstreams() else {
        return Ok(None);
    };
    let index = with_state(lua, |s| s.index.clone())?;
    Ok(Some((upstreams, registry.upstream_views(&index))))
}

/// The visible servers, after fetching the tools of `wanted` (one server's toolbox name,
/// or every server when `None`) where they are not in the cache yet: a script that calls,
/// gets, lists or searches a server's tools never needs a person to sync it first.
///
/// One server is waited for within the run's deadline, and a fetch that fails is an
/// error naming the server, how it was started and its stderr tail. Every server (a
/// search) is fetched side by side and waited for at most [`SEARCH_WAIT`]: one that is
/// slow, hung or broken is left out of this search (its fetch goes on), not allowed to
/// hold every search up; one whose fetch failed lately is not waited for at all. A fetch
/// already running (`serve` fetches every missing server as it starts) is waited for
/// like a new one: an agent's first search comes a second after the start.
pub(crate) fn fetched(
    lua: &Lua,
    wanted: Option<&str>,
) -> mlua::Result<Option<(Arc<Upstreams>, Vec<ServerView>)>> {
    let Some((upstreams, views)) = visible(lua)? else {
        return Ok(None);
    };
    // A one-shot listing or search starts no server, but reads an API's description.
    let on_use = registry(lua)?.fetches_on_use();
    let missing: Vec<&ServerView> = views
        .iter()
        .filter(|v| v.catalogue.is_none())
        .filter(|v| on_use || v.description)
        .filter(|v| match wanted {
            Some(name) => name == v.name,
            None => !upstreams.failed_lately(&v.name, RETRY_AFTER),
        })
        .collect();
    if missing.is_empty() {
        return Ok(Some((upstreams, views)));
    }
    reach(
        lua,
        Effect::Upstream,
        "starting an MCP server to fetch its tools",
    )?;
    let run_until = until(lua)?;
    let Some(server) = wanted else {
        let mut pending: Vec<_> = missing
            .iter()
            .map(|v| upstreams.start_fetch(&v.name))
            .collect();
        let until = run_until.min(Instant::now() + SEARCH_WAIT);
        while !pending.is_empty() {
            match blocking(|| crate::upstream::wait_any(&mut pending, until, &stop_asked)) {
                Ok(Some(done)) => {
                    if let Some(Err(e)) = pending.swap_remove(done).try_take() {
                        tracing::warn!("fetching tools for a search: {e}");
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    // Past the run's own deadline the run stops; past the search's wait,
                    // the search goes on without those servers.
                    check_deadline()?;
                    tracing::info!("a search went on without the tools of: {e}");
                    break;
                }
            }
        }
        return visible(lua);
    };
    let pending = upstreams.start_fetch(server);
    match blocking(|| pending.wait(run_until, &stop_asked)) {
        Ok(_) => visible(lua),
        Err(UpstreamError::Timeout { call } | UpstreamError::Stopped { call }) => {
            Err(waited_past_deadline(lua, format!("fetching tools ({call})")))
        }
        Err(e) => Err(HostError::hinted(
            format!("fetching the tools of tools.{server}: {e}"),
            if missing[0].description {
                format!(
                    "fix the API's entry '{}' in .codemode/apis.json, or its description; the next use reads it again",
                    missing[0].original
                )
            } else {
                format!(
                "fix the server's entry '{}' in .codemode/mcp.json (an edit is read at once while codemode serves); the next use fetches again",
                missing[0].original
            )
            },
        )
        .into_lua()),
    }
}

/// The view of `server` among the visible ones.
fn view<'a>(views: &'a [ServerView], server: &str) -> Option<&'a ServerView> {
    views.iter().find(|v| v.name == server)
}

/// The `upstream` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("upstream")
        .function("toolboxes", Effect::Read, |lua, ()| {
            let Some((_, views)) = visible(lua)? else {
                return to_lua(lua, &Vec::<BoxRow>::new());
            };
            let rows: Vec<BoxRow> = views
                .iter()
                .map(|v| BoxRow {
                    toolbox: v.name.clone(),
                    purpose: v.purpose(),
                    tool_count: v.tools().len(),
                    kind: "toolbox",
                    from: v.from(),
                    fetched: v.catalogue.is_some(),
                })
                .collect();
            to_lua(lua, &rows)
        })
        .function("has", Effect::Read, |lua, name: String| {
            Ok(visible(lua)?.is_some_and(|(_, views)| view(&views, &name).is_some()))
        })
        .function("tools", Effect::Read, |lua, only: Option<String>| {
            // A listing of one server's tools fetches them; a listing of every toolbox
            // starts nothing (it says which are not fetched yet).
            let views = match &only {
                Some(server) => fetched(lua, Some(server))?,
                None => visible(lua)?,
            };
            let Some((_, views)) = views else {
                return to_lua(lua, &Vec::<ToolRow>::new());
            };
            let rows: Vec<ToolRow> = views
                .iter()
                .filter(|v| only.as_ref().is_none_or(|o| *o == v.name))
                .flat_map(|v| v.tools().iter().map(|tool| row(&v.name, tool)))
                .collect();
            to_lua(lua, &rows)
        })
        .reaching(Effect::Upstream)
        .function("get", Effect::Read, |lua, identity: String| {
            let Some((server, tool)) = identity.split_once('.') else {
                return Ok(Value::Nil);
            };
            let Some((_, views)) = fetched(lua, Some(server))? else {
                return Ok(Value::Nil);
            };
            match view(&views, server).and_then(|v| v.tools().iter().find(|t| t.name == tool)) {
                Some(found) => to_lua(lua, &row(server, found)),
                None => Ok(Value::Nil),
            }
        })
        .reaching(Effect::Upstream)
        .function(
            "start",
            Effect::Upstream,
            |lua, (server, tool, args): (String, String, Value)| {
                start_pending(lua, &server, &tool, args)
            },
        )
        .called("an MCP tool call")
        .function("waitAny", Effect::Upstream, |lua, ()| wait_pending(lua))
        .function(
            "call",
            Effect::Upstream,
            |lua, (server, tool, args, given): (String, String, Value, Option<usize>)| {
                if let Some(given) = given.filter(|&n| n > 1) {
                    return Err(given_more(lua, &server, &tool, given));
                }
                call(lua, &server, &tool, args)
            },
        )
        .called("an MCP tool call")
}

/// The limits and cache `mcp.json` gives `server`'s tool `tool` (its toolbox names), and
/// what identifies the tool's current definition; `None` when there is no such tool.
pub(crate) fn policy(lua: &Lua, server: &str, tool: &str) -> mlua::Result<Option<Policy>> {
    let Some((upstreams, views)) = fetched(lua, Some(server))? else {
        return Ok(None);
    };
    let Some(found) = view(&views, server).and_then(|v| v.tools().iter().find(|t| t.name == tool))
    else {
        return Ok(None);
    };
    let Some(config) = upstreams.server(server) else {
        return Ok(None);
    };
    let (limits, mut cache) =
        config
            .settings
            .of(&found.original, &found.name, found.annotations.as_ref());
    // An operation of an HTTP API that may change something is never answered from the
    // cache, whatever its entry says.
    let method = found.request.as_ref().and_then(|r| r.get("method"));
    if method.is_some_and(|m| m != "GET" && m != "HEAD") {
        cache = None;
    }
    // The server's whole configuration too (its command, arguments, environment, headers,
    // secrets included, only hashed): another account's results are not this one's.
    let stamp = serde_json::to_string(&(
        crate::upstream::cache::key(&config),
        &found.original,
        &found.description,
        &found.input_schema,
    ))
    .unwrap_or_default();
    Ok(Some(Policy {
        limits,
        cache,
        stamp,
    }))
}

/// Calls `server`'s tool `tool` with the argument table `args` and waits within the run's
/// deadline, and within the tool's own `limits.timeoutMs` when its configuration gives one
/// (past it the request is cancelled and the call fails with `timeout`).
pub(crate) fn call(lua: &Lua, server: &str, tool: &str, args: Value) -> mlua::Result<Value> {
    let own = policy(lua, server, tool)?.and_then(|p| p.limits.timeout_ms);
    let (pending, signature) = start(lua, server, tool, args)?;
    let run_until = until(lua)?;
    let own_until = own.map(|ms| Instant::now() + Duration::from_millis(ms));
    let wait_until = own_until.map_or(run_until, |at| at.min(run_until));
    let outcome = blocking(|| pending.wait(wait_until, &stop_asked));
    if let (Some(ms), Some(at), Err(UpstreamError::Timeout { .. })) = (own, own_until, &outcome) {
        if at < run_until {
            check_deadline()?;
            let file = registry(lua)?
                .upstreams()
                .and_then(|u| u.server(server).map(|c| c.file.display().to_string()))
                .unwrap_or_else(|| ".codemode/mcp.json".into());
            return Err(HostError::timeout(
                format!("tools.{server}.{tool} did not answer within its own limit of {ms} ms; the call was cancelled"),
                format!("the limit is limits.timeoutMs of server '{server}' (or of this tool under \"tools\") in {file}; raise it there, or ask the tool for less"),
            )
            .into_lua());
        }
    }
    finish(lua, server, tool, &signature, outcome)
}

/// When the run's deadline passes.
fn until(lua: &Lua) -> mlua::Result<Instant> {
    let timeout = with_state(lua, |s| s.run.limits.timeout)?;
    Ok(Instant::now() + deadline_remaining().unwrap_or(timeout))
}

/// Checks a call and sends it; returns the pending call and the tool's signature.
fn start(
    lua: &Lua,
    server: &str,
    tool: &str,
    args: Value,
) -> mlua::Result<(crate::upstream::PendingCall, String)> {
    let identity = format!("{server}.{tool}");
    if let Some(denial) = with_state(lua, |s| s.index.denial(&identity))? {
        super::audit::denied(lua, &identity)?;
        return Err(denied_tool(&identity, &denial).into_lua());
    }
    let Some((upstreams, views)) = fetched(lua, Some(server))? else {
        return Err(HostError::new(format!("no MCP server named '{server}'")).into_lua());
    };
    let Some(known) = view(&views, server) else {
        return Err(HostError::new(format!("no MCP server named '{server}'")).into_lua());
    };
    let Some(found) = known.tools().iter().find(|t| t.name == tool) else {
        let names = known.tools().iter().map(|t| t.name.as_str());
        let near = crate::assets::names::nearest(tool, names);
        let api = known.description;
        let mut hint = match (&known.catalogue, near.first()) {
            (Some(_), Some(best)) => format!(
                "did you mean tools.{server}.{best}? tools.list('{server}', 2) lists its tools"
            ),
            (Some(c), None) => format!(
                "tools.list('{server}', 2) lists its tools ({} of them)",
                c.tools.len()
            ),
            (None, _) => format!("its tools are not fetched yet: run codemode mcp sync {server}"),
        };
        let message = if api {
            // The operations an entry leaves out are those of methods it does not list.
            hint.push_str("; an operation of a method the API's entry in .codemode/apis.json does not list under \"methods\" (GET and HEAD by default) is left out");
            format!("no operation named '{tool}' in the API '{server}'")
        } else {
            format!("no tool named '{tool}' on MCP server '{server}'")
        };
        return Err(HostError::hinted(message, hint).into_lua());
    };
    let signature = found.signature();
    // Checked as a folder tool's direct call is: a missing required property, a wrong
    // type or a misspelt option is refused here, before the server sees the call.
    let slot = (!args.is_nil()).then(|| args.clone());
    let schema = Schema::from_meta(&found.meta(server));
    let checked = match &args {
        Value::Nil | Value::Table(_) => check_slots(&schema, &[slot], Style::Call),
        _ => Ok(()),
    };
    if let Err(refusal) = checked {
        return Err(HostError::hinted(
            format!("tools.{}", refusal.message),
            format!("call it as tools.{server}.{signature}"),
        )
        .into_lua());
    }
    let limits = with_state(lua, |s| s.run.limits.clone())?;
    let arguments = match &args {
        Value::Nil => Map::new(),
        Value::Table(_) => {
            let (json, cut) = to_json(&args, limits.max_output_bytes, limits.max_value_depth);
            match json {
                Json::Object(map) if !cut => map,
                // An empty Luau table reads as an empty array.
                Json::Array(items) if items.is_empty() => Map::new(),
                _ if cut => {
                    return Err(HostError::new(format!(
                        "tools.{server}.{tool}: the arguments are larger than the output cap of {} bytes",
                        limits.max_output_bytes
                    ))
                    .into_lua())
                }
                _ => return Err(one_table(server, tool, &signature)),
            }
        }
        _ => return Err(one_table(server, tool, &signature)),
    };
    // Luau has one number type: a schema's `integer` is checked on the value sent.
    if let Some(at) = fraction_in_object(&found.input_schema, &arguments, "args") {
        return Err(HostError::hinted(
            format!("tools.{server}.{tool}: {at} must be a whole number (the tool's schema says integer)"),
            format!("round it first (math.floor); call it as tools.{server}.{signature}"),
        )
        .into_lua());
    }
    Ok((
        // Labelled as the script names it: a deadline's message quotes the label.
        upstreams.start_call_as(server, &found.original, &identity, arguments),
        signature,
    ))
}

/// The value of a call that ended with `outcome`, or the error the script sees.
fn finish(
    lua: &Lua,
    server: &str,
    tool: &str,
    signature: &str,
    outcome: Result<Json, UpstreamError>,
) -> mlua::Result<Value> {
    let result = match outcome {
        Ok(result) => result,
        Err(UpstreamError::Timeout { call } | UpstreamError::Stopped { call }) => {
            // The deadline (or the caller) ended the wait: the run stops here. The error
            // names the call and how far it got, and the envelope of a run past its
            // deadline quotes it.
            return Err(waited_past_deadline(lua, format!("tools.{call}")));
        }
        Err(e) => {
            return Err(HostError::hinted(
                e.to_string(),
                format!("the call was tools.{server}.{signature}"),
            )
            .into_lua())
        }
    };
    // A script may take in more than it returns (read a large file, return its length):
    // an answer is held to the bound stdio servers get, not to the output cap, and the
    // run's memory limit counts the value it becomes.
    let bytes = serde_json::to_string(&result).map_or(0, |s| s.len());
    if bytes > MAX_ANSWER_BYTES {
        return Err(HostError::hinted(
            format!("tools.{server}.{tool} answered {bytes} bytes, more than a script takes in one answer ({MAX_ANSWER_BYTES})"),
            "ask the tool for less (a page, a filter)",
        )
        .into_lua());
    }
    // Nothing answered (an API's empty body) is `nil`, so `if result then` reads as it
    // should; a null inside a value stays the JSON null.
    if result.is_null() {
        return Ok(Value::Nil);
    }
    lua.to_value(&result)
}

/// `upstream.start(server, tool, args)`: sends a call without waiting; its id.
fn start_pending(lua: &Lua, server: &str, tool: &str, args: Value) -> mlua::Result<u64> {
    let own = policy(lua, server, tool)?.and_then(|p| p.limits.timeout_ms);
    let (pending, _) = start(lua, server, tool, args)?;
    let own = own.map(|ms| (Instant::now() + Duration::from_millis(ms), ms));
    with_state(lua, |s| {
        let id = s.next_call;
        s.next_call += 1;
        s.upstream_calls.0.push((id, own));
        s.upstream_calls.1.push(pending);
        id
    })
}

/// `upstream.waitAny()`: waits for one of the started calls; `(id, ok, value or message)`.
/// A call past its own `limits.timeoutMs` is cancelled and answers a timeout message, as
/// the same call outside `tools.parallel` would fail.
fn wait_pending(lua: &Lua) -> mlua::Result<(u64, bool, Value)> {
    let (mut ids, mut calls) = with_state(lua, |s| std::mem::take(&mut s.upstream_calls))?;
    let run_until = until(lua)?;
    let soonest = ids
        .iter()
        .zip(&calls)
        .filter(|(_, call)| !call.is_finished())
        .filter_map(|((_, own), _)| own.map(|(at, _)| at))
        .min();
    let wait_until = soonest.map_or(run_until, |at| at.min(run_until));
    let found = blocking(|| crate::upstream::wait_any(&mut calls, wait_until, &stop_asked));
    let index = match found {
        Ok(Some(index)) => index,
        Ok(None) => {
            return Err(HostError::new("tools.parallel: no call is waiting").into_lua());
        }
        Err(UpstreamError::Timeout { .. }) if wait_until < run_until => {
            // A call's own limit passed first: it is dropped (so cancelled) and answers.
            let now = Instant::now();
            let late = ids
                .iter()
                .position(|(_, own)| own.is_some_and(|(at, _)| at <= now))
                .unwrap_or(0);
            let (id, own) = ids.remove(late);
            let call = calls.remove(late);
            let label = call.label().to_string();
            drop(call);
            with_state(lua, |s| s.upstream_calls = (ids, calls))?;
            let ms = own.map_or(0, |(_, ms)| ms);
            let message = format!(
                "tools.{label} did not answer within its own limit of {ms} ms; the call was cancelled"
            );
            return Ok((id, false, Value::String(lua.create_string(message)?)));
        }
        Err(UpstreamError::Timeout { call } | UpstreamError::Stopped { call }) => {
            return Err(waited_past_deadline(lua, format!("tools.parallel: {call}")));
        }
        Err(e) => return Err(HostError::new(e.to_string()).into_lua()),
    };
    let (id, _) = ids.remove(index);
    let mut call = calls.remove(index);
    let label = call.label().to_string();
    with_state(lua, |s| s.upstream_calls = (ids, calls))?;
    let outcome = call.try_take().unwrap_or_else(|| {
        Err(UpstreamError::Runtime(
            "the call ended without a result".into(),
        ))
    });
    let (server, tool) = label.split_once('.').unwrap_or((label.as_str(), ""));
    match finish(lua, server, tool, "", outcome) {
        Ok(value) => Ok((id, true, value)),
        Err(e) => {
            check_deadline()?;
            let message = find_host_error(&e).map_or_else(|| e.to_string(), |h| h.message.clone());
            Ok((id, false, Value::String(lua.create_string(message)?)))
        }
    }
}

/// The error of a wait the run's deadline (or its caller) ended, naming what was waited
/// for: `waiting` is the call(s) with how far each got. A wait the run's deadline ended is
/// also kept on the run (see [`crate::sandbox::Run::waited`]).
fn waited_past_deadline(lua: &Lua, waiting: String) -> mlua::Error {
    let hint =
        "the call was cancelled upstream; do less per script, or give the run a longer deadline";
    match check_deadline() {
        Err(_) => {
            let message = format!("{waiting} did not answer before the script's deadline");
            // Outside a run there is nothing to keep it on; the error still names it.
            let _ = with_run(lua, |run| {
                run.waited.get_or_insert_with(|| message.clone());
            });
            HostError::timeout(message, hint).into_lua()
        }
        Ok(()) => HostError::timeout(format!("{waiting} did not answer in time"), hint).into_lua(),
    }
}

/// Where `value` holds a number with a fraction that `schema` (a JSON Schema) types
/// `integer`, named as a script writes it (`args.limit`, `args.pages[2]`); `None` when
/// there is none. Follows `properties`, `additionalProperties` and `items`.
fn fraction_at(schema: &Json, value: &Json, at: &str) -> Option<String> {
    let integer = match schema.get("type") {
        Some(Json::String(t)) => t == "integer",
        // `["integer", "null"]`: an integer unless a number is allowed too.
        Some(Json::Array(types)) => {
            types.iter().any(|t| t == "integer") && !types.iter().any(|t| t == "number")
        }
        _ => false,
    };
    match value {
        Json::Number(n) if integer && n.as_f64().is_some_and(|f| f.fract() != 0.0) => {
            Some(at.to_string())
        }
        Json::Object(map) => fraction_in_object(schema, map, at),
        Json::Array(items) => {
            let sub = schema.get("items").filter(|i| i.is_object())?;
            items
                .iter()
                .enumerate()
                .find_map(|(i, v)| fraction_at(sub, v, &format!("{at}[{}]", i + 1)))
        }
        _ => None,
    }
}

/// [`fraction_at`] for the members of an object.
fn fraction_in_object(schema: &Json, map: &Map<String, Json>, at: &str) -> Option<String> {
    map.iter().find_map(|(key, v)| {
        let sub = schema
            .get("properties")
            .and_then(|p| p.get(key))
            .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))?;
        let member = match crate::upstream::names::is_identifier(key) {
            true => format!("{at}.{key}"),
            false => format!("{at}[{key:?}]"),
        };
        fraction_at(sub, v, &member)
    })
}

/// The error of a call given `given` values where an MCP tool takes one table.
fn given_more(lua: &Lua, server: &str, tool: &str, given: usize) -> mlua::Error {
    let signature = visible(lua)
        .ok()
        .flatten()
        .and_then(|(_, views)| {
            let found = view(&views, server)?
                .tools()
                .iter()
                .find(|t| t.name == tool)?;
            Some(found.signature())
        })
        .unwrap_or_else(|| format!("{tool}({{ ... }})"));
    HostError::hinted(
        format!(
            "tools.{server}.{tool} takes one table of named arguments; it was given {given} values"
        ),
        format!("put every argument in the one table: tools.{server}.{signature}"),
    )
    .into_lua()
}

fn one_table(server: &str, tool: &str, signature: &str) -> mlua::Error {
    HostError::hinted(
        format!("tools.{server}.{tool} takes one table of named arguments"),
        format!("call it as tools.{server}.{signature}"),
    )
    .into_lua()
}
