//! The `asset` capability: read the asset index of the current run.

/// The Luau declarations of this capability (`asset.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("asset.d.luau");

use std::sync::Arc;

use mlua::{Lua, Value};
use serde::Serialize;

use crate::assets::{Origin, ToolEntry, ToolMeta};
use crate::sandbox::{find_host_error, Capability, Effect, HostError};

use super::convert::to_lua;
use super::instance::load_tool;
use super::refusal::{missing_toolbox, shown};
use super::state::with_state;

/// A tool as the prelude sees it: its metadata plus whether it can be called.
#[derive(Serialize)]
struct ToolRow<'a> {
    #[serde(flatten)]
    meta: &'a ToolMeta,
    registered: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    from: Origin,
    #[serde(skip_serializing_if = "Option::is_none")]
    readme: Option<&'a str>,
}

fn row(entry: &ToolEntry, with_readme: bool) -> ToolRow<'_> {
    ToolRow {
        meta: entry.meta(),
        registered: entry.is_registered(),
        reason: entry.reason().map(str::to_string),
        from: entry.origin,
        readme: if with_readme { entry.readme() } else { None },
    }
}

/// A tool as tier 1 of `tools.list` shows it.
#[derive(Serialize)]
struct NameRow<'a> {
    identity: &'a str,
    name: &'a str,
    toolbox: &'a str,
    registered: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

fn name_row(entry: &ToolEntry) -> NameRow<'_> {
    NameRow {
        identity: &entry.identity,
        name: entry.name(),
        toolbox: entry.toolbox(),
        registered: entry.is_registered(),
        reason: entry.reason(),
    }
}

/// The `asset` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("asset")
        .function("toolboxes", Effect::Read, |lua, ()| {
            let index = with_state(lua, |s| s.index.clone())?;
            to_lua(lua, &index.toolboxes())
        })
        .function(
            "tools",
            Effect::Read,
            |lua, (toolbox, tier): (Option<String>, Option<u8>)| {
                let index = with_state(lua, |s| s.index.clone())?;
                let entries: Vec<&Arc<ToolEntry>> = match &toolbox {
                    Some(b) => index.tools_in(b).collect(),
                    None => index.tools.values().collect(),
                };
                // Listing reports `registered`, which compiles each tool once; do it in parallel.
                crate::assets::prepare(&entries);
                // Tier 1 needs names only: full rows of 100,000 tools would not fit a run's memory.
                if tier == Some(1) {
                    let rows: Vec<NameRow> = entries.iter().map(|e| name_row(e)).collect();
                    return to_lua(lua, &rows);
                }
                let rows: Vec<ToolRow> = entries.iter().map(|e| row(e, false)).collect();
                to_lua(lua, &rows)
            },
        )
        .function("get", Effect::Read, |lua, identity: String| {
            let index = with_state(lua, |s| s.index.clone())?;
            let Some(entry) = index.tool(&identity) else {
                return Ok(Value::Nil);
            };
            let mut found = row(entry, true);
            if let Err(reason) = loads(lua, entry)? {
                found.registered = false;
                found.reason = Some(reason);
            }
            to_lua(lua, &found)
        })
        .function("checkToolbox", Effect::Read, |lua, name: String| {
            let (index, registry) = with_state(lua, |s| (s.index.clone(), s.registry.clone()))?;
            if index.has_toolbox(&name) {
                return Ok(true);
            }
            if index.toolbox_denial(&name).is_none()
                && (index.hides_toolbox(&name) || registry.hides_server(&index, &name))
            {
                // Every tool of it is denied one by one: the call of one says which rule.
                return Ok(true);
            }
            if let Some(problem) = registry.unusable_server(&index, &name) {
                return Err(HostError::hinted(
                    format!("no toolbox named '{}'", shown(&name)),
                    format!(
                        "an MCP server of that name is configured but cannot be used: {problem}"
                    ),
                )
                .into_lua());
            }
            let missing = missing_toolbox(&index, &registry.upstream_views(&index), &name);
            Err(match registry.unread_servers() {
                Some(problem) => missing.and_hint(format!(
                    "the operator's server list has a problem, so a server added there may be missing until it is fixed: {problem}"
                )),
                None => missing,
            }
            .into_lua())
        })
        .function(
            "callable",
            Effect::Read,
            |lua, (toolbox, tool): (String, String)| {
                let index = with_state(lua, |s| s.index.clone())?;
                let identity = format!("{toolbox}.{tool}");
                match index.tool(&identity) {
                    Some(entry) if loads(lua, entry)?.is_ok() => Ok(Some(identity)),
                    _ => Ok(None),
                }
            },
        )
        .function("surface", Effect::Read, |lua, ()| {
            let authoring = with_state(lua, |s| s.registry.capabilities().authoring)?;
            let functions = crate::types::surface_functions()
                .iter()
                .filter(|f| authoring || !AUTHORING.contains(&f.name.as_str()));
            to_lua(lua, &functions.collect::<Vec<_>>())
        })
        .function(
            "load",
            Effect::Read,
            |lua, (toolbox, tool): (String, String)| {
                // The function, and what checks a direct call of it (see `bind::checker`).
                // Its cache and output cap, when it has either, for the prelude to apply.
                let mut function = match load_tool(lua, &toolbox, &tool) {
                    Ok(function) => function,
                    Err(e) => {
                        // A call the profile refuses has no function to wrap: its line is here.
                        if find_host_error(&e).is_some_and(|h| h.denied) {
                            super::audit::denied(lua, &format!("{toolbox}.{tool}"))?;
                        }
                        return Err(e);
                    }
                };
                let index = with_state(lua, |s| s.index.clone())?;
                let (check, spec, policy) = match index.tool(&format!("{toolbox}.{tool}")) {
                    Some(entry) => {
                        let meta = entry.meta();
                        if let Some(ms) = meta.limits.and_then(|l| l.timeout_ms) {
                            function = budgeted(lua, function, entry, ms)?;
                        }
                        let policy = match super::results::policy(lua, &entry.identity)? {
                            Some(policy) => super::results::policy_row(lua, &policy)?,
                            None => Value::Nil,
                        };
                        let (check, spec) = super::bind::checker(lua, entry)?;
                        (check, spec, policy)
                    }
                    None => (None, None, Value::Nil),
                };
                Ok((function, check, spec, policy))
            },
        )
        .function(
            "firstSentence",
            Effect::None,
            |lua, text: mlua::LuaString| {
                let text = text.to_str()?;
                lua.create_string(crate::assets::first_sentence(&text))
            },
        )
        // What loading a tool hands out: the check of a direct call's arguments
        // (`bind::checker`), the error of a call past its own time limit ([`budgeted`]),
        // and the `require` of its environment (`instance.rs`; `render.load` too).
        .hands_out("checker", Effect::None)
        .hands_out("timeout", Effect::None)
        .hands_out("require", Effect::Read)
}

/// `function` held to the tool's own `limits.timeoutMs` inside the run's deadline: past
/// it the call fails with a `timeout` the caller may catch, naming the tool and its limit.
fn budgeted(
    lua: &Lua,
    function: mlua::Function,
    entry: &ToolEntry,
    ms: u64,
) -> mlua::Result<mlua::Function> {
    let identity = entry.identity.clone();
    let path = entry.path();
    let on_timeout = crate::sandbox::hand_out(
        lua,
        "asset",
        "timeout",
        move |_, ()| -> mlua::Result<()> {
            Err(HostError::timeout(
            format!("tools.{identity} ran past its own time limit of {ms} ms and was stopped"),
            format!("the limit is limits.timeoutMs in {path}/.metadata; give the tool less work, or raise the limit there"),
        )
        .into_lua())
        },
    )?;
    crate::sandbox::budget(
        lua,
        function,
        std::time::Duration::from_millis(ms),
        on_timeout,
    )
}

/// Whether the tool's function really registers in this run. The files say only that a tool
/// *may* be callable (what `return make()` returns is known by running it), so the tool is
/// loaded once in the run's sandbox, under its limits, and kept for the run's calls. An error
/// while loading is the reason it is not callable; running out of memory stops the run.
fn loads(lua: &Lua, entry: &ToolEntry) -> mlua::Result<Result<(), String>> {
    if let Some(reason) = entry.reason() {
        return Ok(Err(reason.to_string()));
    }
    match load_tool(lua, entry.toolbox(), entry.name()) {
        Ok(_) => Ok(Ok(())),
        Err(e @ mlua::Error::MemoryError(_)) => Err(e),
        Err(e) => Ok(Err(match find_host_error(&e) {
            Some(host) => host.message.clone(),
            None => {
                let text = e.to_string();
                let first = text.lines().next().unwrap_or_default();
                format!("init.luau failed while loading: {}", shown(first))
            }
        })),
    }
}

/// The functions of `tools` that write tools, which `capabilities.authoring` covers.
pub(crate) const AUTHORING: [&str; 4] = ["createToolbox", "create", "delete", "install"];
