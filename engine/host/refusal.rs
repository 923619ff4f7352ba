//! The errors a script gets for a tool or toolbox it may not call or that is not there:
//! denied by the run's profile, or missing, with the nearest names it may use.

use crate::assets::{names, AssetIndex};
use crate::policy::Denial;
use crate::sandbox::HostError;
use crate::upstream::ServerView;

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
pub(crate) fn some_of(names: &[&str]) -> String {
    match names.len().checked_sub(HINT_NAMES) {
        Some(more) if more > 0 => format!("{}, … and {more} more", names[..HINT_NAMES].join(", ")),
        _ => names.join(", "),
    }
}

/// A name as an error message shows it: cut, so that a script cannot make the host hold
/// megabytes per error it keeps.
pub(crate) fn shown(name: &str) -> String {
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
#[path = "../../tests/unit/host/refusal.rs"]
mod tests;
