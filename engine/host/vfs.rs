//! The `vfs` capability: files of the world, for scripts (as the global `vfs`) and for
//! the prelude. Paths are relative to the world; see [`crate::vfs`] for what is refused.
//!
//! Declared for scripts and editors in `vfs.d.luau` beside this file ([`DECLARATIONS`]).
//!
//! A write or removal inside a toolbox is read into the index at once, for the registry
//! and for the running script, so a script sees its own edits.

/// The Luau declarations of this capability, for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("vfs.d.luau");

use std::path::PathBuf;

use mlua::{Lua, LuaSerdeExt, Table, Value};

use crate::sandbox::{HostError, Limits};
use crate::vfs::VfsError;

use super::cache;
use super::state::{registry, with_state};

/// Reads the change at `path` into the registry and the run's snapshot.
pub(crate) fn refresh(lua: &Lua, path: PathBuf) -> mlua::Result<()> {
    cache::changed(lua, &[path])
}

/// A path argument: a string, or a clear error naming the call.
pub(crate) fn path_arg(value: &Value, call: &str) -> mlua::Result<String> {
    match value {
        Value::String(s) => Ok(s.to_str()?.to_string()),
        Value::Nil if call == "vfs.list" => Ok(String::new()),
        other => Err(HostError::new(format!(
            "{call} needs a path relative to the world (a string such as 'text.toolbox/README.md'), got a {}",
            other.type_name()
        ))
        .into_lua()),
    }
}

/// Counts a write against the run's budget ([`Limits::max_write_bytes`]); refuses it when
/// the budget is spent.
///
/// [`Limits::max_write_bytes`]: crate::sandbox::Limits::max_write_bytes
pub(crate) fn charge_write(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    let (spent, budget) = with_state(lua, |s| {
        s.written = s.written.saturating_add(bytes.max(Limits::MIN_WRITE_COST));
        (s.written, s.run.limits.max_write_bytes)
    })?;
    if spent > budget {
        let files = budget / Limits::MIN_WRITE_COST;
        return Err(HostError::hinted(
            format!("this run has written its limit of {} MiB through vfs.write", budget >> 20),
            format!("write less per run (each write counts at least 64 KiB, so at most {files} files), or split the work over several runs"),
        )
        .into_lua());
    }
    Ok(())
}

/// A [`VfsError`] as a Luau error.
pub(crate) fn vfs_error(e: VfsError) -> mlua::Error {
    HostError::new(e.to_string()).into_lua()
}

/// Builds the read-only `vfs` table.
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(
        "read",
        lua.create_function(|lua, path: Value| {
            let path = path_arg(&path, "vfs.read")?;
            let max = with_state(lua, |s| s.run.limits.max_file_bytes)?;
            let bytes = registry(lua)?.vfs().read(&path, max).map_err(vfs_error)?;
            lua.create_string(bytes)
        })?,
    )?;
    t.raw_set(
        "write",
        lua.create_function(|lua, (path, text): (Value, Value)| {
            let path = path_arg(&path, "vfs.write")?;
            let Value::String(text) = text else {
                return Err(HostError::new(format!(
                    "vfs.write('{path}', text) needs the text as a string, got a {}",
                    text.type_name()
                ))
                .into_lua());
            };
            super::permission::file_write(lua, "vfs.write", &path)?;
            charge_write(lua, text.as_bytes().len())?;
            let max = with_state(lua, |s| s.run.limits.max_file_bytes)?;
            let full = registry(lua)?
                .vfs()
                .write(&path, &text.as_bytes(), max)
                .map_err(vfs_error)?;
            refresh(lua, full)
        })?,
    )?;
    t.raw_set(
        "list",
        lua.create_function(|lua, path: Value| {
            let path = path_arg(&path, "vfs.list")?;
            let entries = registry(lua)?.vfs().list(&path).map_err(vfs_error)?;
            lua.to_value(&entries)
        })?,
    )?;
    t.raw_set(
        "remove",
        lua.create_function(|lua, path: Value| {
            let path = path_arg(&path, "vfs.remove")?;
            super::permission::file_write(lua, "vfs.remove", &path)?;
            let full = registry(lua)?.vfs().remove(&path).map_err(vfs_error)?;
            refresh(lua, full)
        })?,
    )?;
    t.raw_set(
        "exists",
        lua.create_function(|lua, path: Value| {
            let path = path_arg(&path, "vfs.exists")?;
            registry(lua)?.vfs().exists(&path).map_err(vfs_error)
        })?,
    )?;
    t.set_readonly(true);
    Ok(t)
}
