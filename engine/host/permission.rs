//! What the run's profile lets host capabilities do beyond reading: write tools
//! (`capabilities.authoring`), write files (`capabilities.vfsWrite`), send requests
//! (`capabilities.http`) and start commands (`capabilities.shell`). The linker asks
//! [`allows`] before every call of a class that acts; a call that reads its target from
//! its arguments judges it then ([`tool_files`], [`authoring`] of one toolbox). A refusal is a
//! [`HostError::denied`], so the envelope's kind is `denied` and its message names the
//! profile and the setting. Whatever the profile, no write may make a toolbox folder
//! named like a configured MCP server's toolbox ([`server_folder`]).

use mlua::Lua;

use crate::policy::Capabilities;
use crate::sandbox::{Effect, HostError, Writes};

use super::refusal::{denied_tool, denied_toolbox};
use super::state::with_state;

/// The linker's policy (see `sandbox/linker.rs`): what the run's profile says of `call`,
/// of class `effect`, before it runs. Writing files needs `capabilities.vfsWrite`, writing
/// tools `capabilities.authoring`, a request some host in `capabilities.http`, a command
/// some command in `capabilities.shell`; which host, command, file or tool is the call's
/// own to judge, once it has read its arguments.
pub(crate) fn allows(lua: &Lua, effect: Effect, call: &str) -> mlua::Result<()> {
    match effect {
        Effect::Write(Writes::Files) => file_writes(lua, call),
        Effect::Write(Writes::Tools) => authoring(lua, call, None),
        Effect::Network => granted(lua, call, "http", "hosts", "may reach", |c| &c.http),
        Effect::Process => granted(lua, call, "shell", "commands", "may start", |c| &c.shell),
        Effect::Write(Writes::Cache)
        | Effect::Upstream
        | Effect::Checker
        | Effect::Read
        | Effect::None => Ok(()),
    }
}

/// Refuses `call` when the profile's list `capabilities.<setting>` of `what` is empty.
fn granted(
    lua: &Lua,
    call: &str,
    setting: &str,
    what: &str,
    does: &str,
    list: fn(&Capabilities) -> &Vec<String>,
) -> mlua::Result<()> {
    let (empty, profile) = with_state(lua, |s| {
        (
            list(&s.registry.capabilities()).is_empty(),
            s.registry.rules().profile.clone(),
        )
    })?;
    if !empty {
        return Ok(());
    }
    Err(HostError::denied(
        format!("{call} is denied: profile '{profile}' grants no {what} (capabilities.{setting} is empty)"),
        format!("the operator lists the {what} a profile {does} in its capabilities.{setting} in .codemode/policy.json"),
    )
    .into_lua())
}

/// Refuses `call` (`tools.create`, ...) unless the profile allows authoring, and refuses
/// writing `target` (`box` or `box.tool`) when the profile denies that toolbox or tool.
pub(crate) fn authoring(lua: &Lua, call: &str, target: Option<&str>) -> mlua::Result<()> {
    let (allowed, profile, index) = with_state(lua, |s| {
        (
            s.registry.capabilities().authoring,
            s.registry.rules().profile.clone(),
            s.index.clone(),
        )
    })?;
    if !allowed {
        return Err(HostError::denied(
            format!("{call} is denied: profile '{profile}' does not allow authoring (capabilities.authoring is false)"),
            "this run may call the tools its profile allows, but not create, delete or install tools",
        )
        .into_lua());
    }
    let refusal = match target.map(|t| (t, t.split_once('.'))) {
        Some((identity, Some(_))) => index.denial(identity).map(|d| denied_tool(identity, &d)),
        Some((toolbox, None)) => index
            .toolbox_denial(toolbox)
            .map(|d| denied_toolbox(toolbox, &d)),
        None => None,
    };
    match refusal {
        Some(error) => Err(error.into_lua()),
        None => Ok(()),
    }
}

/// Refuses `call` (`vfs.write`, `vfs.remove`) unless the profile allows file writes.
fn file_writes(lua: &Lua, call: &str) -> mlua::Result<()> {
    let (allowed, profile) = with_state(lua, |s| {
        (
            s.registry.capabilities().vfs_write,
            s.registry.rules().profile.clone(),
        )
    })?;
    if allowed {
        return Ok(());
    }
    Err(HostError::denied(
        format!("{call} is denied: profile '{profile}' does not allow file writes (capabilities.vfsWrite is false)"),
        "vfs.read, vfs.list and vfs.exists still work; return what you would have written instead",
    )
    .into_lua())
}

/// Refuses `call` (`vfs.write`, `vfs.remove`, which the profile allows: see [`allows`]) of
/// the world-relative `path` when the profile does not allow authoring and the path is
/// in a toolbox folder (or a folder holding one): writing tool files is authoring too.
pub(crate) fn tool_files(lua: &Lua, call: &str, path: &str) -> mlua::Result<()> {
    let (authoring, profile, registry, index) = with_state(lua, |s| {
        (
            s.registry.capabilities().authoring,
            s.registry.rules().profile.clone(),
            s.registry.clone(),
            s.index.clone(),
        )
    })?;
    if authoring {
        return Ok(());
    }
    let removes = call == "vfs.remove";
    // The path as written and where it leads (a symlink inside the world may lead into a
    // toolbox); a path the vfs refuses is left for the vfs to explain.
    let real = registry
        .vfs()
        .resolve(path)
        .ok()
        .and_then(|full| registry.vfs().relative(&full));
    let touches_tools = [Some(path.to_string()), real]
        .into_iter()
        .flatten()
        .any(|rel| {
            let names: Vec<&str> = rel
                .split('/')
                .filter(|n| !n.is_empty() && *n != ".")
                .collect();
            let inside = names.iter().any(|n| n.ends_with(".toolbox"));
            // Removing a folder (a package) that holds toolboxes removes their tools.
            let under = format!("{}/", names.join("/"));
            let holds = removes
                && index
                    .folders
                    .keys()
                    .any(|(root, at)| *root == 0 && (names.is_empty() || at.starts_with(&under)));
            inside || holds
        });
    if touches_tools {
        return Err(HostError::denied(
            format!("{call} of '{}' is denied: files of toolboxes are authoring, which profile '{profile}' does not allow (capabilities.authoring is false)", crate::vfs::shorten(path)),
            "write outside toolbox folders, e.g. 'data/notes.txt'",
        )
        .into_lua());
    }
    Ok(())
}

/// Why a folder `<name>.toolbox` may not be made: `name` is the toolbox of the configured
/// MCP server `server`, which answers for it (a folder of that name is left out of the
/// index), so a script cannot stand in for a server every profile may call.
pub(crate) fn server_name_taken(name: &str, server: &str) -> String {
    format!(
        "'{name}' is the toolbox of the MCP server '{server}' (the world's .codemode/mcp.json): \
         tools.{name}.<tool> calls that server, and a toolbox folder of the same name would be \
         left out; pick another toolbox name"
    )
}

/// The refusal of a write at any of `paths` (world-relative: as written, and where it
/// leads) that would make or change a folder `<name>.toolbox` whose name is a configured
/// MCP server's toolbox name; `None` when no server's name is on the way.
pub(crate) fn server_folder(lua: &Lua, paths: &[&str]) -> mlua::Result<Option<String>> {
    with_state(lua, |s| {
        paths.iter().find_map(|rel| {
            rel.split('/')
                .filter_map(|n| n.strip_suffix(".toolbox"))
                .find_map(|name| {
                    s.index
                        .reserved_by(name)
                        .map(|server| server_name_taken(name, server))
                })
        })
    })
}
