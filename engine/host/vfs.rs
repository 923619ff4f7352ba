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

use mlua::{Lua, LuaSerdeExt, Value};

use crate::sandbox::{Capability, Effect, HostError, Limits, Writes};
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

/// The fewest inodes a write leaves on the world's disk (or 1% of them, if more).
const MIN_FREE_INODES: u64 = 1000;

/// Counts a write against the run's budget ([`Limits::max_write_bytes`]); refuses it when
/// the budget is spent, or when it would leave the disk holding the world with less than
/// [`Limits::min_free_disk_bytes`] free.
///
/// [`Limits::max_write_bytes`]: crate::sandbox::Limits::max_write_bytes
/// [`Limits::min_free_disk_bytes`]: crate::sandbox::Limits::min_free_disk_bytes
pub(crate) fn charge_write(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    let (spent, budget, floor, world) = with_state(lua, |s| {
        s.written = s.written.saturating_add(bytes.max(Limits::MIN_WRITE_COST));
        (
            s.written,
            s.run.limits.max_write_bytes,
            s.run.limits.min_free_disk_bytes,
            s.registry.world().to_path_buf(),
        )
    })?;
    // A disk whose free space cannot be read is written as before.
    if let Ok(stat) = rustix::fs::statvfs(&world) {
        let disk = Disk {
            free_bytes: stat.f_bavail.saturating_mul(stat.f_frsize),
            inodes: stat.f_files,
            free_inodes: stat.f_favail,
        };
        if let Some(refusal) = disk.refusal(bytes as u64, floor) {
            return Err(refusal.into_lua());
        }
    }
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

/// What the disk holding the world has left.
struct Disk {
    free_bytes: u64,
    /// Files and folders the disk can hold in all (0 on filesystems that do not count).
    inodes: u64,
    free_inodes: u64,
}

impl Disk {
    /// Why a write of `bytes` is refused, when it would leave less than `floor` bytes free,
    /// or fewer inodes than 1% of them (at least [`MIN_FREE_INODES`]): files and folders
    /// use inodes, which can run out while bytes are left.
    fn refusal(&self, bytes: u64, floor: u64) -> Option<HostError> {
        let inode_floor = (self.inodes / 100).max(MIN_FREE_INODES);
        if self.inodes > 0 && self.free_inodes < inode_floor {
            return Some(HostError::hinted(
                format!(
                    "the disk holding the world can hold only {} more files and folders; scripts may not write once fewer than {inode_floor} remain",
                    self.free_inodes
                ),
                "delete files and folders earlier runs wrote (or free space on that disk), then run again",
            ));
        }
        (self.free_bytes.saturating_sub(bytes) < floor).then(|| {
            HostError::hinted(
                format!(
                    "the disk holding the world has {} MiB free; scripts may not write once less than {} MiB would remain",
                    self.free_bytes >> 20,
                    floor >> 20
                ),
                "free space on that disk (or delete what earlier runs wrote), then run again",
            )
        })
    }
}

/// A [`VfsError`] as a Luau error.
pub(crate) fn vfs_error(e: VfsError) -> mlua::Error {
    HostError::new(e.to_string()).into_lua()
}

/// True when `rel` is inside (or is) the folder of a tool the run's profile denies, or of
/// a toolbox it hides, as written or where a symlink on it leads: `vfs` then reads it as
/// missing, so a denied tool is absent from the files as from every listing. (The
/// profile limits what a script may call; a Luau tool runs with the script's own
/// capabilities, so its source is not a secret, but a listing that showed it would
/// contradict the others.)
pub(crate) fn hidden_by_profile(lua: &Lua, rel: &str) -> mlua::Result<bool> {
    let (index, registry) = with_state(lua, |s| (s.index.clone(), s.registry.clone()))?;
    if !index.is_restricted() {
        return Ok(false);
    }
    if names_hidden(&index, rel) {
        return Ok(true);
    }
    let real = registry
        .vfs()
        .resolve(rel)
        .ok()
        .and_then(|full| registry.vfs().relative(&full));
    Ok(real.is_some_and(|real| names_hidden(&index, &real)))
}

/// True when the names of `rel` pass through a hidden toolbox or a denied tool's folder.
fn names_hidden(index: &crate::assets::AssetIndex, rel: &str) -> bool {
    let names = plain_names(rel);
    names.iter().enumerate().any(|(at, name)| {
        let Some(toolbox) = name.strip_suffix(".toolbox") else {
            return false;
        };
        if index.hides_toolbox(toolbox) {
            return true;
        }
        names
            .get(at + 1)
            .and_then(|next| next.strip_suffix(".tool"))
            .is_some_and(|tool| index.denial(&format!("{toolbox}.{tool}")).is_some())
    })
}

/// The names of `rel` as the filesystem resolves them: `.` and empty names are no names
/// (`a/./b` and `a//b` are `a/b`; `..` is refused by `vfs` itself).
fn plain_names(rel: &str) -> Vec<&str> {
    rel.split('/')
        .filter(|n| !n.is_empty() && *n != ".")
        .collect()
}

/// Refuses (kind `denied`) a write or removal that would change the folder of a tool the
/// profile denies, or (`removes`) remove a folder holding one: a profile that may not
/// see a tool may not rewrite what another profile runs.
fn refuse_denied_change(lua: &Lua, call: &str, rel: &str, removes: bool) -> mlua::Result<()> {
    // Only a removal can take a denied folder with it; the walk over the world's tools
    // is left to that (rarer) call.
    let holds = || {
        let target = plain_names(rel).join("/");
        with_state(lua, |s| {
            s.index
                .denied_world_folders()
                .iter()
                .any(|folder| target.is_empty() || folder.starts_with(&format!("{target}/")))
        })
    };
    if hidden_by_profile(lua, rel)? || (removes && holds()?) {
        let profile = with_state(lua, |s| s.registry.rules().profile.clone())?;
        return Err(HostError::denied(
            format!("{call}('{rel}') is refused: it would change a tool the profile '{profile}' denies"),
            "write and remove elsewhere; .codemode/policy.json decides which tools a profile may see",
        )
        .into_lua());
    }
    Ok(())
}

/// Refuses a write that would make (or change) a toolbox folder named like a configured
/// MCP server's toolbox, however the path is spelt or wherever a symlink on it leads.
fn refuse_server_folder(lua: &Lua, rel: &str) -> mlua::Result<()> {
    let registry = registry(lua)?;
    let real = registry
        .vfs()
        .resolve(rel)
        .ok()
        .and_then(|full| registry.vfs().relative(&full))
        .unwrap_or_default();
    match super::permission::server_folder(lua, &[rel, &real])? {
        Some(why) => Err(HostError::hinted(
            format!(
                "vfs.write('{}') is refused: {why}",
                crate::vfs::shorten(rel)
            ),
            "tools.toolboxes() lists the names in use",
        )
        .into_lua()),
        None => Ok(()),
    }
}

fn missing(path: &str) -> mlua::Error {
    vfs_error(VfsError::io(
        path,
        std::io::Error::from(std::io::ErrorKind::NotFound),
    ))
}

/// The `vfs` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("vfs")
        .function("read", Effect::Read, |lua, path: Value| {
            let path = path_arg(&path, "vfs.read")?;
            if hidden_by_profile(lua, &path)? {
                return Err(missing(&path));
            }
            let max = with_state(lua, |s| s.run.limits.max_file_bytes)?;
            let bytes = registry(lua)?.vfs().read(&path, max).map_err(vfs_error)?;
            lua.create_string(bytes)
        })
        .function(
            "write",
            Effect::Write(Writes::Files),
            |lua, (path, text): (Value, Value)| {
                let path = path_arg(&path, "vfs.write")?;
                let Value::String(text) = text else {
                    return Err(HostError::new(format!(
                        "vfs.write('{path}', text) needs the text as a string, got a {}",
                        text.type_name()
                    ))
                    .into_lua());
                };
                super::permission::tool_files(lua, "vfs.write", &path)?;
                refuse_server_folder(lua, &path)?;
                refuse_denied_change(lua, "vfs.write", &path, false)?;
                charge_write(lua, text.as_bytes().len())?;
                let max = with_state(lua, |s| s.run.limits.max_file_bytes)?;
                let full = registry(lua)?
                    .vfs()
                    .write(&path, &text.as_bytes(), max)
                    .map_err(vfs_error)?;
                refresh(lua, full)
            },
        )
        .function("list", Effect::Read, |lua, path: Value| {
            let path = path_arg(&path, "vfs.list")?;
            if hidden_by_profile(lua, &path)? {
                return Err(missing(&path));
            }
            let mut entries = registry(lua)?.vfs().list(&path).map_err(vfs_error)?;
            let mut kept = Vec::with_capacity(entries.len());
            for entry in entries.drain(..) {
                let inner = format!("{}/{}", path.trim_end_matches('/'), entry.name);
                if !hidden_by_profile(lua, inner.trim_start_matches('/'))? {
                    kept.push(entry);
                }
            }
            lua.to_value(&kept)
        })
        .function(
            "remove",
            Effect::Write(Writes::Files),
            |lua, path: Value| {
                let path = path_arg(&path, "vfs.remove")?;
                super::permission::tool_files(lua, "vfs.remove", &path)?;
                refuse_denied_change(lua, "vfs.remove", &path, true)?;
                let full = registry(lua)?.vfs().remove(&path).map_err(vfs_error)?;
                refresh(lua, full)
            },
        )
        .function("exists", Effect::Read, |lua, path: Value| {
            let path = path_arg(&path, "vfs.exists")?;
            if hidden_by_profile(lua, &path)? {
                return Ok(false);
            }
            registry(lua)?.vfs().exists(&path).map_err(vfs_error)
        })
}

#[cfg(test)]
#[path = "../../tests/unit/host/vfs.rs"]
mod tests;
