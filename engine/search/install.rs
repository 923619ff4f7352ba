//! `tools.install(box)`: copy a library toolbox into the world so it can be changed.
//!
//! The copy is atomic: files go to a hidden temporary folder beside the target, which
//! is renamed into place only when every file is written. A world that already holds
//! the toolbox is never touched.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::assets::{AssetIndex, Origin, RootSource};
use crate::vfs::refuse_hidden;

/// A toolbox bigger than this is refused (bounded work in a host function).
const MAX_FILES: usize = 2_000;
/// Total bytes copied at most.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Why a toolbox could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// No toolbox of that name anywhere.
    #[error("no toolbox named '{0}' in the library")]
    Unknown(String),
    /// The world already holds one.
    #[error("the world already holds toolbox '{name}' at {path}")]
    Exists {
        /// The toolbox.
        name: String,
        /// Where the world holds it.
        path: String,
    },
    /// Too big to copy in one call.
    #[error("toolbox '{0}' is too big to install (over {MAX_FILES} files or {MAX_BYTES} bytes)")]
    TooBig(String),
    /// A file could not be read or written.
    #[error("installing toolbox '{name}' failed: {source}")]
    Io {
        /// The toolbox.
        name: String,
        /// The failure.
        source: std::io::Error,
    },
}

/// Copies library toolbox `name` into the world root; returns the new folder.
pub fn install_toolbox(index: &AssetIndex, name: &str) -> Result<PathBuf, InstallError> {
    let world = index
        .roots
        .first()
        .and_then(|r| r.dir())
        .ok_or_else(|| InstallError::Unknown(name.into()))?;
    if let Some(held) = index
        .folders
        .values()
        .find(|f| f.name == name && f.origin == Origin::World)
    {
        return Err(InstallError::Exists {
            name: name.into(),
            path: index.roots[held.root].display(&held.path),
        });
    }
    let folder = index
        .folders
        .values()
        .filter(|f| f.name == name && f.origin == Origin::Library)
        .min_by_key(|f| (f.root, f.path.clone()))
        .ok_or_else(|| InstallError::Unknown(name.into()))?;
    let target = world.join(format!("{name}.toolbox"));
    if target.exists() {
        return Err(InstallError::Exists {
            name: name.into(),
            path: target.display().to_string(),
        });
    }
    let files = library_files(&index.roots[folder.root].source, &folder.path, name)?;
    let io = |source| InstallError::Io {
        name: name.into(),
        source,
    };
    let temp = world.join(format!(".{name}.toolbox.installing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    let written = write_all(&temp, &files).and_then(|_| {
        if target.exists() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "the toolbox appeared while copying",
            ));
        }
        std::fs::rename(&temp, &target)
    });
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&temp);
        return Err(io(e));
    }
    Ok(target)
}

fn write_all(temp: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    std::fs::create_dir_all(temp)?;
    for (rel, bytes) in files {
        let path = temp.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
    }
    Ok(())
}

/// Every regular file of a library toolbox folder, as (path inside the folder, bytes).
/// Symlinks are skipped: a library may not smuggle files from elsewhere into the world.
fn library_files(
    source: &RootSource,
    rel: &str,
    name: &str,
) -> Result<Vec<(String, Vec<u8>)>, InstallError> {
    let mut files = Vec::new();
    let mut bytes = 0u64;
    let mut push = |path: String, data: Vec<u8>| {
        // Hidden files (a library's `.git`, editor settings) are not copied into the world,
        // where scripts could not see them and git or an editor might act on them.
        if refuse_hidden(&format!("{name}.toolbox/{path}")).is_err() {
            return Ok(());
        }
        bytes += data.len() as u64;
        files.push((path, data));
        if files.len() > MAX_FILES || bytes > MAX_BYTES {
            return Err(InstallError::TooBig(name.into()));
        }
        Ok(())
    };
    match source {
        RootSource::Disk(root) => {
            let base = root.join(rel);
            for entry in WalkDir::new(&base).follow_links(false) {
                let entry = entry.map_err(|e| InstallError::Io {
                    name: name.into(),
                    source: e.into(),
                })?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let inner = entry.path().strip_prefix(&base).unwrap_or(entry.path());
                let data = std::fs::read(entry.path()).map_err(|source| InstallError::Io {
                    name: name.into(),
                    source,
                })?;
                push(inner.to_string_lossy().replace('\\', "/"), data)?;
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
