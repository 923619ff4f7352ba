//! What the run's profile lets host capabilities do beyond reading: write tools
//! (`capabilities.authoring`) and write files (`capabilities.vfsWrite`). A refusal is a
//! [`HostError::denied`], so the envelope's kind is `denied` and its message names the
//! profile and the setting. Whatever the profile, no write may make a toolbox folder
//! named like a configured MCP server's toolbox ([`server_folder`]).

use mlua::Lua;

use crate::sandbox::HostError;

use super::asset::{denied_tool, denied_toolbox};
use super::state::with_state;

/// Lets `call`, which reaches outside the run (a write, a request, a command, an upstream
/// call, the checker), go ahead once the run's type check allows it: a run may start
/// before its verdict (see `sandbox/gate.rs`), and nothing it does may leave it before.
/// A refused run goes no further (its caller shows the refusal instead).
pub(crate) fn effect(call: &str) -> mlua::Result<()> {
    if crate::sandbox::gate::pass() {
        return Ok(());
    }
    Err(HostError::new(format!(
        "{call} did not run: the script's type check found a certain mistake"
    ))
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

/// Refuses `call` (`vfs.write`, `vfs.remove`) of the world-relative `path` unless the
/// profile allows file writes, and, when it does not allow authoring, a path in a toolbox
/// folder (or a folder holding one): writing tool files is authoring too.
pub(crate) fn file_write(lua: &Lua, call: &str, path: &str) -> mlua::Result<()> {
    let (caps, profile, registry, index) = with_state(lua, |s| {
        (
            s.registry.capabilities().clone(),
            s.registry.rules().profile.clone(),
            s.registry.clone(),
            s.index.clone(),
        )
    })?;
    if !caps.vfs_write {
        return Err(HostError::denied(
            format!("{call} is denied: profile '{profile}' does not allow file writes (capabilities.vfsWrite is false)"),
            "vfs.read, vfs.list and vfs.exists still work; return what you would have written instead",
        )
        .into_lua());
    }
    if caps.authoring {
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
