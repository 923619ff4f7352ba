//! The `asset` capability: read the asset index of the current run.

/// The Luau declarations of this capability (`asset.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("asset.d.luau");

use std::sync::Arc;

use mlua::{Lua, Value};
use serde::Serialize;

use crate::assets::{names, AssetIndex, Origin, ToolEntry, ToolMeta};
use crate::policy::Denial;
use crate::sandbox::{find_host_error, Capability, Effect, HostError};
use crate::upstream::ServerView;

use super::instance::load_tool;
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

/// `value` as a Luau value, leaving absent fields out (not `null`).
pub(crate) fn to_lua<T: Serialize>(lua: &Lua, value: &T) -> mlua::Result<Value> {
    let json = serde_json::to_value(value).map_err(mlua::Error::external)?;
    crate::sandbox::from_json(lua, &json)
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
            Err(missing_toolbox(&index, &registry.upstream_views(&index), &name).into_lua())
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

/// Where a refused script is pointed: what the profile allows is what the listings show.
const DENIED_HINT: &str = "the run's profile decides which tools it may see and call (the operator's .codemode/policy.json); tools.list() and tools.search() show the ones it allows";

/// The error for a call of a tool the profile denies.
pub(crate) fn denied_tool(identity: &str, denial: &Denial) -> HostError {
    HostError::denied(
        format!("tools.{} is denied: {denial}", shown(identity)),
        DENIED_HINT,
    )
}

/// The error for a toolbox every tool of which the profile denies.
pub(crate) fn denied_toolbox(name: &str, denial: &Denial) -> HostError {
    HostError::denied(
        format!("toolbox '{}' is denied: {denial}", shown(name)),
        DENIED_HINT,
    )
}

/// The error for `toolbox.tool` the run's index does not hold: denied when the profile
/// refuses it, else no such tool (or toolbox), naming the nearest the profile shows.
pub(crate) fn missing(index: &AssetIndex, toolbox: &str, tool: &str) -> HostError {
    let identity = format!("{toolbox}.{tool}");
    if let Some(denial) = index.denial(&identity) {
        return denied_tool(&identity, &denial);
    }
    if index.has_toolbox(toolbox) {
        missing_tool(index, toolbox, tool)
    } else {
        missing_toolbox(index, &[], toolbox)
    }
}

/// Names shown in a hint: enough to orient, never a flood in a world of thousands.
const HINT_NAMES: usize = 12;

/// The first few names, and how many more there are.
fn some_of(names: &[&str]) -> String {
    match names.len().checked_sub(HINT_NAMES) {
        Some(more) if more > 0 => format!("{}, … and {more} more", names[..HINT_NAMES].join(", ")),
        _ => names.join(", "),
    }
}

/// A name as an error message shows it: cut, so that a script cannot make the host hold
/// megabytes per error it keeps.
fn shown(name: &str) -> String {
    crate::vfs::shorten(name)
}

/// The error for a toolbox name neither the index nor the upstream servers (`upstream`,
/// the configured servers a script sees) hold, naming the nearest ones. A server's name as
/// written in mcp.json (`odd-server`) points to its toolbox name (`odd_server`).
pub(crate) fn missing_toolbox(
    index: &AssetIndex,
    upstream: &[ServerView],
    name: &str,
) -> HostError {
    if let Some(denial) = index.toolbox_denial(name) {
        return denied_toolbox(name, &denial);
    }
    if let Some(server) = upstream.iter().find(|v| v.original == name) {
        return HostError::hinted(
            format!("no toolbox named '{}'", shown(name)),
            format!(
                "MCP server '{}' is the toolbox tools.{} (server names become Luau names); tools.list('{}', 2) lists its tools",
                server.original, server.name, server.name
            ),
        );
    }
    let mut boxes = index.toolbox_names();
    boxes.extend(upstream.iter().map(|v| v.name.as_str()));
    boxes.sort_unstable();
    boxes.dedup();
    let near = names::nearest(name, boxes.iter().copied());
    let hint = match near.first() {
        Some(best) => format!(
            "did you mean tools.{best}? Toolboxes: {}. tools.toolboxes() lists them with their purpose",
            some_of(&boxes)
        ),
        None => format!(
            "no toolbox is close to '{}'. Toolboxes: {}. tools.toolboxes() lists them with their purpose",
            shown(name),
            some_of(&boxes)
        ),
    };
    HostError::hinted(format!("no toolbox named '{}'", shown(name)), hint)
}

/// The error for a tool name a toolbox does not hold, naming the nearest ones.
pub(crate) fn missing_tool(index: &AssetIndex, toolbox: &str, name: &str) -> HostError {
    let identity = format!("{toolbox}.{name}");
    if let Some(denial) = index.denial(&identity) {
        return denied_tool(&identity, &denial);
    }
    let tools: Vec<&str> = index.tools_in(toolbox).map(|e| e.name()).collect();
    let near = names::nearest(name, tools.iter().copied());
    let unlisted = index
        .folders_named(toolbox)
        .find_map(|f| f.unlisted.as_deref());
    let hint = match (near.first().copied(), unlisted) {
        // Its tools are unknown, not absent: saying it holds none would send the author to
        // create a tool that exists.
        (None, Some(why)) => format!("{why}; `codemode check` lists what could not be read"),
        (near, _) => missing_tool_hint(toolbox, near, &tools),
    };
    HostError::hinted(
        format!(
            "no tool named '{}' in toolbox '{}'",
            shown(name),
            shown(toolbox)
        ),
        hint,
    )
}

/// The hint for a tool `toolbox` does not hold: the nearest name, or what it holds.
fn missing_tool_hint(toolbox: &str, near: Option<&str>, tools: &[&str]) -> String {
    match near {
        Some(best) => format!(
            "did you mean tools.{toolbox}.{best}? tools.list('{toolbox}', 2) lists its tools"
        ),
        None if tools.is_empty() => format!(
            "'{toolbox}' holds no tools yet; tools.create({{ toolbox = '{toolbox}', name = ..., description = ..., code = ... }}) adds one"
        ),
        None => format!(
            "'{toolbox}' holds: {}. tools.list('{toolbox}', 2) lists them with descriptions",
            some_of(tools)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_of_a_toolbox_that_could_not_be_listed_is_not_said_to_be_missing_for_good() {
        let why = "box.toolbox cannot be listed (Permission denied): give the user read access";
        let index = AssetIndex::with_unlisted_toolbox("box", why);
        let hint = missing_tool(&index, "box", "a").hint.unwrap();
        assert!(hint.starts_with(why), "{hint}");
        assert!(!hint.contains("holds no tools yet"), "{hint}");
    }
}
