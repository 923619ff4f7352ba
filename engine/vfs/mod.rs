//! The virtual filesystem: reading and writing files of the world, and nothing else.
//!
//! Paths are relative to the world, with `/` between names. `..`, absolute paths, NUL,
//! backslashes and symlinks that lead out of the world are refused; library folders
//! inside the world are read-only. Every operation is bounded (file size, entries
//! listed or removed), because a host call cannot be interrupted by the run's deadline.
//! Writes are atomic (see [`atomic`]).

pub mod atomic;
mod error;
mod path;

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use error::VfsError;
pub use path::{check_entry_name, components, refuse_hidden, MAX_COMPONENTS, MAX_PATH_BYTES};

/// Largest file `read` returns and `write` accepts.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Most entries `list` returns, and most entries `remove` deletes in one call.
pub const MAX_ENTRIES: usize = 10_000;

/// One row of [`Vfs::list`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DirEntry {
    /// The entry's name.
    pub name: String,
    /// `file`, `dir` or `symlink`.
    pub kind: &'static str,
}

/// A filesystem confined to one world directory.
#[derive(Debug, Clone)]
pub struct Vfs {
    world: PathBuf,
    read_only: Vec<PathBuf>,
}

impl Vfs {
    /// A filesystem over `world` (canonical), where the folders in `read_only`
    /// (canonical library folders that happen to lie inside the world) cannot be changed.
    pub fn new(world: PathBuf, read_only: Vec<PathBuf>) -> Vfs {
        Vfs { world, read_only }
    }

    /// The world directory.
    pub fn world(&self) -> &Path {
        &self.world
    }

    /// The path on disk of a world-relative path, checked (see the module docs).
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, VfsError> {
        path::resolve(&self.world, rel)
    }

    /// Like [`Vfs::resolve`], and refuses the world itself and read-only folders.
    pub fn resolve_writable(&self, rel: &str) -> Result<PathBuf, VfsError> {
        let full = self.resolve(rel)?;
        if full == self.world {
            return Err(VfsError::WrongKind {
                path: rel.to_string(),
                why: "is the world itself; name a file or folder inside it".into(),
            });
        }
        let real = real_path(&full);
        if self.read_only.iter().any(|lib| real.starts_with(lib)) {
            return Err(VfsError::ReadOnly {
                path: path::shorten(rel),
            });
        }
        Ok(full)
    }

    /// The text of a file (at most [`MAX_FILE_BYTES`]).
    pub fn read(&self, rel: &str) -> Result<Vec<u8>, VfsError> {
        let full = self.resolve(rel)?;
        let meta = fs::metadata(&full).map_err(|e| VfsError::io(rel, e))?;
        if meta.is_dir() {
            return Err(VfsError::WrongKind {
                path: rel.to_string(),
                why: format!("is a folder; vfs.list('{rel}') lists it"),
            });
        }
        if meta.len() > MAX_FILE_BYTES as u64 {
            return Err(too_large(rel, "the file", "read a smaller file"));
        }
        fs::read(&full).map_err(|e| VfsError::io(rel, e))
    }

    /// Writes a file atomically, creating missing parent folders. Returns the path on disk.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<PathBuf, VfsError> {
        if bytes.len() > MAX_FILE_BYTES {
            return Err(too_large(rel, "the text", "write less per file"));
        }
        let full = self.resolve_writable(rel)?;
        if full.is_dir() {
            return Err(VfsError::WrongKind {
                path: rel.to_string(),
                why: "is a folder; write to a file inside it".into(),
            });
        }
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).map_err(|e| VfsError::io(rel, e))?;
        }
        atomic::write_file(&full, bytes).map_err(|e| VfsError::io(rel, e))?;
        Ok(full)
    }

    /// The entries of a folder, sorted by name, without the engine's temporary entries.
    pub fn list(&self, rel: &str) -> Result<Vec<DirEntry>, VfsError> {
        let full = self.resolve(rel)?;
        let mut out = Vec::new();
        for entry in fs::read_dir(&full).map_err(|e| VfsError::io(rel, e))? {
            let entry = entry.map_err(|e| VfsError::io(rel, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            // Hidden entries (`.git`, the engine's temporary files) are not for scripts,
            // which could not read them anyway; the engine's own (`.metadata`) are.
            let hidden = name.starts_with('.') && !path::engine_file(&format!("{rel}/{name}"));
            if hidden || name.starts_with(atomic::TEMP_PREFIX) {
                continue;
            }
            if out.len() == MAX_ENTRIES {
                return Err(too_large(rel, "the folder", "list a smaller folder"));
            }
            let kind = match entry.file_type() {
                Ok(t) if t.is_symlink() => "symlink",
                Ok(t) if t.is_dir() => "dir",
                _ => "file",
            };
            out.push(DirEntry { name, kind });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Removes a file, or a folder with everything in it (at most [`MAX_ENTRIES`] entries).
    /// Returns the path on disk.
    pub fn remove(&self, rel: &str) -> Result<PathBuf, VfsError> {
        let full = self.resolve_writable(rel)?;
        let meta = full.symlink_metadata().map_err(|e| VfsError::io(rel, e))?;
        if meta.is_dir() {
            let entries: Vec<walkdir::DirEntry> = walkdir::WalkDir::new(&full)
                .into_iter()
                .take(MAX_ENTRIES + 2)
                .filter_map(Result::ok)
                .collect();
            if entries.len() > MAX_ENTRIES + 1 {
                return Err(too_large(
                    rel,
                    "the folder",
                    "remove its subfolders one by one",
                ));
            }
            // A folder that holds hidden entries (a nested `.git`, an `.env`) is not the
            // script's to delete, any more than those entries are.
            for entry in &entries {
                let inside = entry
                    .path()
                    .strip_prefix(&self.world)
                    .unwrap_or(entry.path());
                let inside = inside.to_string_lossy().replace('\\', "/");
                if let Err(e) = path::refuse_hidden(&inside) {
                    return Err(match e {
                        // The engine's own leftovers (a crashed write) may go.
                        VfsError::Hidden { name, .. } if name.starts_with(atomic::TEMP_PREFIX) => {
                            continue
                        }
                        VfsError::Hidden { name, .. } => VfsError::WrongKind {
                            path: rel.to_string(),
                            why: format!("holds the hidden '{name}', which scripts may not remove; delete the folder by hand if you mean it"),
                        },
                        other => other,
                    });
                }
            }
        }
        atomic::remove(&full).map_err(|e| VfsError::io(rel, e))?;
        Ok(full)
    }

    /// True when something exists at the path (a bad path is still an error).
    pub fn exists(&self, rel: &str) -> Result<bool, VfsError> {
        Ok(self.resolve(rel)?.symlink_metadata().is_ok())
    }

    /// Publishes a new folder `parent/name` holding `files`, atomically (see
    /// [`atomic::publish_dir`]); missing parent folders are created first.
    pub fn publish_dir(
        &self,
        parent: &str,
        name: &str,
        files: &[(String, Vec<u8>)],
    ) -> Result<PathBuf, VfsError> {
        check_entry_name(name)?;
        let rel = if parent.is_empty() {
            name.to_string()
        } else {
            format!("{parent}/{name}")
        };
        let target = self.resolve_writable(&rel)?;
        for (file, bytes) in files {
            components(file)?;
            if bytes.len() > MAX_FILE_BYTES {
                return Err(too_large(file, "the text", "write less per file"));
            }
        }
        let dir = target.parent().unwrap_or(&self.world).to_path_buf();
        fs::create_dir_all(&dir).map_err(|e| VfsError::io(parent, e))?;
        atomic::publish_dir(&dir, name, files).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => VfsError::Exists { path: rel.clone() },
            _ => VfsError::io(&rel, e),
        })
    }

    /// The world-relative form of a path on disk inside the world.
    pub fn relative(&self, full: &Path) -> Option<String> {
        let rel = full.strip_prefix(&self.world).ok()?;
        Some(rel.to_string_lossy().replace('\\', "/"))
    }
}

/// The canonical path of `full`, or of its deepest existing ancestor joined with the rest.
fn real_path(full: &Path) -> PathBuf {
    let mut existing = full;
    let mut rest = Vec::new();
    while existing.symlink_metadata().is_err() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut real = existing
        .canonicalize()
        .unwrap_or_else(|_| existing.to_path_buf());
    real.extend(rest.iter().rev());
    real
}

fn too_large(rel: &str, what: &str, hint: &str) -> VfsError {
    VfsError::TooLarge {
        path: path::shorten(rel),
        what: what.to_string(),
        limit: match what {
            "the folder" => format!("{MAX_ENTRIES} entries"),
            _ => format!("{} MiB", MAX_FILE_BYTES / (1024 * 1024)),
        },
        hint: hint.to_string(),
    }
}
