//! The `vfs` capability: files of the world, for scripts (as the global `vfs`) and for
//! the prelude. Paths are relative to the world; see [`crate::vfs`] for what is refused.
//!
//! Declared for editors in `vfs.d.luau` beside this file.
//!
//! A write or removal inside a toolbox is read into the index at once, for the registry
//! and for the running script, so a script sees its own edits.

use std::path::PathBuf;
use std::sync::Arc;

use mlua::{Lua, LuaSerdeExt, Table, Value};

use crate::registry::Registry;
use crate::runtime::{reset_run_caches, with_state, HostError};
use crate::vfs::VfsError;

/// The registry of the running script; errors outside a run.
pub fn registry(lua: &Lua) -> mlua::Result<Arc<Registry>> {
    with_state(lua, |s| s.registry.clone())?.ok_or_else(|| {
        HostError::new("no world is bound to this run; file access needs one").into_lua()
    })
}

/// Reads the change at `path` into the registry and the run's snapshot.
pub fn refresh(lua: &Lua, path: PathBuf) -> mlua::Result<()> {
    let index = with_state(lua, |s| {
        s.refresh(&[path]);
        s.index.clone()
    })?;
    reset_run_caches(lua, &index)
}

/// A path argument: a string, or a clear error naming the call.
pub fn path_arg(value: &Value, call: &str) -> mlua::Result<String> {
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

/// What one run may write (through `vfs.write` and `tools.create`), in bytes; every file costs at least a
/// block, so a run cannot flood the disk with files either.
pub const MAX_RUN_WRITE_BYTES: usize = 64 * 1024 * 1024;
const MIN_WRITE_COST: usize = 64 * 1024;

/// Counts a write against the run's budget; refuses it when the budget is spent.
pub fn charge_write(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    let spent = with_state(lua, |s| {
        s.written = s.written.saturating_add(bytes.max(MIN_WRITE_COST));
        s.written
    })?;
    if spent > MAX_RUN_WRITE_BYTES {
        return Err(HostError::hinted(
            format!("this run has written its limit of {} MiB through vfs.write", MAX_RUN_WRITE_BYTES >> 20),
            "write less per run (each write counts at least 64 KiB, so at most 1,024 files), or split the work over several runs",
        )
        .into_lua());
    }
    Ok(())
}

/// A [`VfsError`] as a Luau error.
pub fn vfs_error(e: VfsError) -> mlua::Error {
    HostError::new(e.to_string()).into_lua()
}

/// Builds the read-only `vfs` table.
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(
        "read",
        lua.create_function(|lua, path: Value| {
            let path = path_arg(&path, "vfs.read")?;
            let bytes = registry(lua)?.vfs().read(&path).map_err(vfs_error)?;
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
            charge_write(lua, text.as_bytes().len())?;
            let full = registry(lua)?
                .vfs()
                .write(&path, &text.as_bytes())
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
