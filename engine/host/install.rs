//! The `install` capability: `install.toolbox(name)` copies a library toolbox into the
//! world so it can be changed.
//!
//! It is authoring: the copy is published like a tool folder (`Vfs::publish_dir`, whole or
//! not at all, never over an existing folder, through folder handles a symlink swap cannot
//! redirect) and counts against the run's write budget like `vfs.write`.

/// The Luau declarations of this capability (`install.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("install.d.luau");

use mlua::{Lua, Value};
use walkdir::WalkDir;

use crate::assets::{AssetIndex, Origin, RootSource};
use crate::sandbox::{Capability, Effect, HostError, Limits, Writes};
use crate::vfs::{refuse_hidden, VfsError};

use super::state::{registry, with_state};
use super::vfs::{charge_write, refresh};

/// Why a toolbox could not be installed.
#[derive(Debug, thiserror::Error)]
enum InstallError {
    #[error("no toolbox named '{0}' in the library")]
    Unknown(String),
    #[error("the world already holds toolbox '{name}' at {path}")]
    Exists { name: String, path: String },
    #[error("toolbox '{name}' is too big to install: over {budget} MiB (each file counts at least 64 KiB)")]
    TooBig { name: String, budget: usize },
    #[error("installing toolbox '{name}' failed: {why}")]
    Failed { name: String, why: String },
    #[error("{0}")]
    Server(String),
}

impl InstallError {
    /// What to do next.
    fn next(&self) -> &'static str {
        match self {
            InstallError::Exists { .. } => {
                "the world's copy is already the one tools use; edit it in place"
            }
            InstallError::Unknown(_) => {
                "tools.search(query) shows library toolboxes with their install call"
            }
            InstallError::TooBig { .. } => "copy the files you need with vfs.write instead",
            InstallError::Failed { .. } => "check the world directory is writable and has room",
            InstallError::Server(_) => {
                "the operator may rename the server in .codemode/mcp.json to free the name"
            }
        }
    }
}

/// The `install` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("install")
        .function(
            "toolbox",
            Effect::Write(Writes::Tools),
            |lua, name: Value| {
                let Value::String(name) = name else {
                    return Err(HostError::hinted(
                        "tools.install needs a toolbox name",
                        "tools.install('text') copies the library toolbox 'text' into the world",
                    )
                    .into_lua());
                };
                let name = name.to_string_lossy();
                // The linker asked whether the profile allows authoring; this toolbox is
                // judged here, once its name is read.
                super::permission::authoring(lua, "tools.install", Some(&name))?;
                let out = lua.create_table()?;
                match install(lua, &name) {
                    Ok(Ok(path)) => {
                        out.raw_set("ok", true)?;
                        out.raw_set("path", path)?;
                        out.raw_set("toolbox", name)?;
                    }
                    Ok(Err(e)) => {
                        out.raw_set("ok", false)?;
                        out.raw_set("error", format!("{e}; {}", e.next()))?;
                    }
                    Err(e) => return Err(e),
                }
                Ok(out)
            },
        )
        .called("tools.install")
}

/// Installs `name`; the outer error is the run's own (its write budget is spent).
fn install(lua: &Lua, name: &str) -> mlua::Result<Result<String, InstallError>> {
    let (index, limits) = with_state(lua, |s| (s.index.clone(), s.run.limits.clone()))?;
    if let Some(why) = super::permission::server_folder(lua, &[&format!("{name}.toolbox")])? {
        return Ok(Err(InstallError::Server(why)));
    }
    let folder = match library_folder(&index, name) {
        Ok(folder) => folder,
        Err(e) => return Ok(Err(e)),
    };
    let (source, rel) = folder;
    let files = match library_files(source, &rel, name, &limits) {
        Ok(files) => files,
        Err(e) => return Ok(Err(e)),
    };
    let cost: usize = files
        .iter()
        .map(|(_, bytes)| bytes.len().max(Limits::MIN_WRITE_COST))
        .sum();
    charge_write(lua, cost)?;
    let registry = registry(lua)?;
    let published = registry.vfs().publish_dir(
        "",
        &format!("{name}.toolbox"),
        &files,
        limits.max_file_bytes,
    );
    match published {
        Ok(full) => {
            // World-relative, as every authoring call and `vfs` give paths.
            let shown = registry
                .vfs()
                .relative(&full)
                .unwrap_or_else(|| format!("{name}.toolbox"));
            refresh(lua, full)?;
            Ok(Ok(shown))
        }
        // Paths in what a script reads are world-relative: where the engine runs is none
        // of its business.
        Err(VfsError::Exists { path }) => Ok(Err(InstallError::Exists {
            name: name.into(),
            path: registry
                .vfs()
                .relative(std::path::Path::new(&path))
                .unwrap_or_else(|| format!("{name}.toolbox")),
        })),
        Err(e) => Ok(Err(InstallError::Failed {
            name: name.into(),
            why: e
                .to_string()
                .replace(&format!("{}/", registry.world().display()), ""),
        })),
    }
}

/// The library folder that speaks for toolbox `name`, unless the world holds one.
fn library_folder<'a>(
    index: &'a AssetIndex,
    name: &str,
) -> Result<(&'a RootSource, String), InstallError> {
    if let Some(held) = index
        .folders_named(name)
        .find(|f| f.origin == Origin::World)
    {
        // The world's own folder, world-relative as every path a script reads.
        return Err(InstallError::Exists {
            name: name.into(),
            path: held.path.clone(),
        });
    }
    let folder = index
        .folders_named(name)
        .find(|f| f.origin == Origin::Library)
        .ok_or_else(|| InstallError::Unknown(name.into()))?;
    Ok((&index.roots[folder.root].source, folder.path.clone()))
}

/// Every regular file of a library toolbox folder, as (path inside the folder, bytes),
/// within the run's write budget. Symlinks are skipped (a library may not smuggle files
/// from elsewhere into the world), and so are hidden files (a library's `.git`, editor
/// settings), which scripts could not see and git or an editor might act on.
fn library_files(
    source: &RootSource,
    rel: &str,
    name: &str,
    limits: &Limits,
) -> Result<Vec<(String, Vec<u8>)>, InstallError> {
    let mut files = Vec::new();
    let mut cost = 0usize;
    let mut push = |path: String, data: Vec<u8>| {
        if refuse_hidden(&format!("{name}.toolbox/{path}")).is_err() {
            return Ok(());
        }
        cost += data.len().max(Limits::MIN_WRITE_COST);
        if cost > limits.max_write_bytes {
            return Err(InstallError::TooBig {
                name: name.into(),
                budget: limits.max_write_bytes >> 20,
            });
        }
        files.push((path, data));
        Ok(())
    };
    let failed = |why: String| InstallError::Failed {
        name: name.into(),
        why,
    };
    match source {
        RootSource::Disk(root) => {
            let base = root.join(rel);
            for entry in WalkDir::new(&base).follow_links(false) {
                let entry = entry.map_err(|e| failed(e.to_string()))?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let inner = entry.path().strip_prefix(&base).unwrap_or(entry.path());
                let inner = inner.to_string_lossy().replace('\\', "/");
                if refuse_hidden(&format!("{name}.toolbox/{inner}")).is_err() {
                    continue;
                }
                // Opened, then asked where it is: a folder swapped for a symlink since the
                // walk saw it cannot bring a file from elsewhere into the world.
                let mut data = Vec::new();
                crate::assets::open_within(root, &format!("{rel}/{inner}"))
                    .and_then(|mut f| std::io::Read::read_to_end(&mut f, &mut data))
                    .map_err(|e| failed(format!("{inner}: {e}")))?;
                push(inner, data)?;
            }
        }
        RootSource::Bundled(dir) => {
            let Some(dir) = dir.get_dir(rel) else {
                return Err(InstallError::Unknown(name.into()));
            };
            let mut stack = vec![dir];
            while let Some(d) = stack.pop() {
                for f in d.files() {
                    let inner = f.path().strip_prefix(rel).unwrap_or(f.path());
                    push(
                        inner.to_string_lossy().replace('\\', "/"),
                        f.contents().to_vec(),
                    )?;
                }
                stack.extend(d.dirs());
            }
        }
    }
    Ok(files)
}
