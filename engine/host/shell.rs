//! The `shell` capability: `shell.run` for scripts, over [`crate::shell`]. Built into a VM
//! only when the registry's capabilities grant some command (scripts then see the global
//! `shell`; otherwise it is nil and undeclared).
//!
//! The working folder is opened through `vfs` (so `..`, hidden folders and symlinks out
//! of the world are refused as for files), the time limit is the command's `timeoutMs` or
//! what is left of the run's deadline, whichever is first, and each of stdout and stderr
//! is capped at the run's output cap. The command runs inside the kernel's walls
//! ([`crate::shell::Confinement`]): what a grant allows is decided there, not by looking
//! at arguments; a kernel that cannot keep them refuses commands unless the profile says
//! `shellUnconfined`.

/// The Luau declarations of this capability, for `codemode types` (only when granted).
pub(crate) const DECLARATIONS: &str = include_str!("shell.d.luau");

use mlua::{Lua, Table, Value};

use crate::sandbox::{check_deadline, stop_asked, Capability, Effect, HostError};
use crate::shell::{admit, resolve, run, support, Confinement, Reach, Spec, WorldRules};
use crate::vfs::VfsError;

use super::http::{time_left, timeout_field};
use super::state::{registry, with_state};

/// Most arguments one command gets.
const MAX_ARGS: usize = 4096;

fn invalid(message: impl Into<String>) -> mlua::Error {
    HostError::new(message).into_lua()
}

fn text(t: &Table, name: &str) -> mlua::Result<Option<mlua::LuaString>> {
    match t.raw_get::<Value>(name)? {
        Value::Nil => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(invalid(format!(
            "shell.run: `{name}` must be a string, got a {}",
            other.type_name()
        ))),
    }
}

/// What of the world a command gets less of: nothing at all of a toolbox the profile
/// hides or of a tool it denies (every other toolbox folder `shell` finds on disk itself,
/// and makes read only), nothing to write when the profile turns `vfsWrite` off, no
/// folder to make when it turns `authoring` off or hides anything. Every writer of the
/// world keeps the same rules.
fn world_rules(lua: &Lua, writes: bool, folders: bool) -> mlua::Result<WorldRules> {
    with_state(lua, |s| {
        let index = &s.index;
        let hidden = index
            .folders
            .values()
            .filter(|f| f.origin == crate::assets::Origin::World && index.hides_toolbox(&f.name))
            .map(|f| f.path.clone());
        let carved = hidden
            .chain(index.denied_world_folders())
            .map(|rel| (rel, Reach::None))
            .collect();
        WorldRules {
            writes,
            // A profile that may not see every tool gets commands that make no folder: a
            // new folder could be a toolbox that adds a denied tool or shadows one.
            folders: folders && !index.is_restricted(),
            never_walked: &crate::assets::SKIPPED_DIRS,
            carved,
        }
    })
}

fn start(lua: &Lua, t: Table) -> mlua::Result<Table> {
    let registry = registry(lua)?;
    let (max_file, max_output, memory, file_size) = with_state(lua, |s| {
        let limits = &s.run.limits;
        (
            limits.max_file_bytes,
            limits.max_output_bytes,
            limits.memory_bytes as u64,
            limits.max_write_bytes as u64,
        )
    })?;
    let cmd = text(&t, "cmd")?
        .ok_or_else(|| invalid("shell.run needs `cmd`, the name of an allowed command"))?
        .to_str()?
        .to_string();
    let granted = registry.capabilities();
    let program = resolve(&cmd, &granted.shell).map_err(|e| match &e {
        // A command the profile does not list is the profile's word: `denied`.
        crate::shell::ShellError::Refused { fix, .. } => {
            HostError::denied(e.to_string(), fix.clone()).into_lua()
        }
        _ => invalid(e.to_string()),
    })?;
    admit(support(), granted.shell_unconfined, &cmd).map_err(|e| {
        HostError::denied(
            e.to_string(),
            "the operator decides: a kernel with Landlock, or \"shellUnconfined\": true in the profile's capabilities".to_string(),
        )
        .into_lua()
    })?;
    let confinement = Confinement {
        world: registry.world().to_path_buf(),
        rules: world_rules(lua, granted.vfs_write, granted.authoring)?,
        network: granted.shell_network,
    };
    let mut args = Vec::new();
    match t.raw_get::<Value>("args")? {
        Value::Nil => {}
        Value::Table(list) => {
            for (i, arg) in list.sequence_values::<Value>().enumerate() {
                match arg? {
                    Value::String(s) if !s.as_bytes().contains(&0) => {
                        args.push(s.to_str()?.to_string())
                    }
                    Value::Integer(n) => args.push(n.to_string()),
                    Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
                        args.push((n as i64).to_string())
                    }
                    other => {
                        return Err(invalid(format!(
                            "shell.run: args[{}] must be a string without NUL (or a whole number), got a {}",
                            i + 1,
                            other.type_name()
                        )))
                    }
                }
                if args.len() > MAX_ARGS {
                    return Err(invalid(format!("shell.run: at most {MAX_ARGS} arguments")));
                }
            }
        }
        other => {
            return Err(invalid(format!(
                "shell.run: `args` must be a list of strings, got a {}",
                other.type_name()
            )))
        }
    }
    let cwd = match text(&t, "cwd")? {
        Some(c) => c.to_str()?.to_string(),
        None => String::new(),
    };
    // The folder of a tool the profile denies is missing for the run, as `vfs` reads it.
    if super::vfs::hidden_by_profile(lua, &cwd)? {
        let e = VfsError::io(&cwd, std::io::Error::from(std::io::ErrorKind::NotFound));
        return Err(invalid(format!("shell.run: the working folder {e}")));
    }
    let folder = registry
        .vfs()
        .open_dir(&cwd)
        .map_err(|e| invalid(format!("shell.run: the working folder {e}")))?;
    let stdin = text(&t, "stdin")?.map(|s| s.as_bytes().to_vec());
    if stdin.as_ref().is_some_and(|s| s.len() > max_file) {
        return Err(invalid(format!(
            "shell.run: stdin is larger than the file limit of {max_file} bytes; write it to a file and pass its path"
        )));
    }
    let timeout = time_left(lua, timeout_field(&t, "shell.run")?)?;
    let outcome = run(
        Spec {
            cmd,
            program,
            args,
            stdin,
            cwd: folder,
            home: registry.world().to_path_buf(),
            timeout,
            max_output,
            memory,
            file_size,
            confinement,
        },
        &stop_asked,
    );
    let finished = match outcome {
        Ok(finished) => finished,
        Err(e) => {
            check_deadline()?;
            return Err(invalid(e.to_string()));
        }
    };
    let out = lua.create_table()?;
    out.raw_set("code", finished.code)?;
    out.raw_set("stdout", lua.create_string(&finished.stdout)?)?;
    out.raw_set("stderr", lua.create_string(&finished.stderr)?)?;
    let cut: Vec<&str> = [
        ("stdout", finished.stdout_cut),
        ("stderr", finished.stderr_cut),
    ]
    .into_iter()
    .filter_map(|(name, cut)| cut.then_some(name))
    .collect();
    out.raw_set("truncated", !cut.is_empty())?;
    if !cut.is_empty() {
        out.raw_set(
            "note",
            format!(
                "{} cut at {max_output} bytes (the output cap); have the command write less, or to a file of the world",
                cut.join(" and ")
            ),
        )?;
    }
    Ok(out)
}

/// The `shell` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("shell").function(
        "run",
        Effect::Process,
        |lua, request: Value| match request {
            Value::Table(t) => start(lua, t),
            other => Err(invalid(format!(
                "shell.run takes one table {{ cmd, args?, cwd?, stdin?, timeoutMs? }}, got a {}",
                other.type_name()
            ))),
        },
    )
}
