//! The virtual filesystem: reading and writing files of the world, and nothing else.
//!
//! Paths are relative to the world, with `/` between names. `..`, absolute paths, NUL,
//! backslashes and symlinks that lead out of the world are refused; library folders
//! inside the world are read-only. Every operation is bounded (file size, entries
//! listed or removed), because a host call cannot be interrupted by the run's deadline.
//! Writes are atomic (see [`atomic`]).
//!
//! Symlinks inside the world that lead to places inside it are followed. A path is
//! resolved from a handle on the world folder, one name at a time, and the operation acts
//! through the handle of the folder it checked (see `walk`), so another process swapping
//! a folder for a symlink mid-way cannot send a read, write or removal out of the world.

pub(crate) mod atomic;
mod dir;
mod error;
mod path;
pub(crate) use path::shorten;
mod walk;

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use serde::Serialize;

use dir::{Dir, Kind};
pub(crate) use error::VfsError;
pub(crate) use path::{check_entry_name, components, refuse_hidden};
use walk::{At, Last, Outcome, Walker};

/// Most entries `list` returns, and most entries `remove` deletes in one call.
pub(crate) const MAX_ENTRIES: usize = 10_000;

/// One row of [`Vfs::list`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct DirEntry {
    /// The entry's name.
    pub(crate) name: String,
    /// `file`, `dir` or `symlink`.
    pub(crate) kind: &'static str,
}

/// A filesystem confined to one world directory.
///
/// Every operation resolves its path from a handle on the world folder, one name at a
/// time, and acts through the handle of the folder it checked (see `walk`), so a folder
/// swapped for a symlink by another process mid-way cannot lead it out of the world.
#[derive(Debug, Clone)]
pub(crate) struct Vfs {
    world: PathBuf,
    read_only: Vec<PathBuf>,
}

impl Vfs {
    /// A filesystem over `world` (canonical), where the folders in `read_only`
    /// (canonical library folders that happen to lie inside the world) cannot be changed.
    pub(crate) fn new(world: PathBuf, read_only: Vec<PathBuf>) -> Vfs {
        Vfs { world, read_only }
    }

    /// Where a world-relative path leads on disk (symlinks followed), checked (see the
    /// module docs). For showing a path only: opening the result by path again would
    /// reopen the window a concurrent rename can use; the methods below act safely.
    pub(crate) fn resolve(&self, rel: &str) -> Result<PathBuf, VfsError> {
        self.lead(rel, None)
    }

    fn lead(&self, rel: &str, read_only: Option<&[PathBuf]>) -> Result<PathBuf, VfsError> {
        let names = checked_names(rel)?;
        let mut walker = Walker::new(&self.world, rel, read_only);
        let mut at = walker.start()?;
        let real = match walker.walk(&mut at, &names, Last::Follow(None), false)? {
            Outcome::Folder => at.real().to_vec(),
            Outcome::Entry { name, .. } => at.real_of(&name),
            Outcome::Missing { name, rest } => {
                let mut real = at.real_of(&name);
                real.extend(rest);
                real
            }
        };
        Ok(walker.path_of(&real))
    }

    /// The text of a file of at most `max_bytes` (the run's `Limits::max_file_bytes`).
    pub(crate) fn read(&self, rel: &str, max_bytes: usize) -> Result<Vec<u8>, VfsError> {
        let names = checked_names(rel)?;
        let mut walker = Walker::new(&self.world, rel, None);
        let mut at = walker.start()?;
        let flags = libc::O_RDONLY | libc::O_NONBLOCK;
        let file = match walker.walk(&mut at, &names, Last::Follow(Some(flags)), false)? {
            Outcome::Folder => {
                return Err(VfsError::WrongKind {
                    path: rel.to_string(),
                    why: format!("is a folder; vfs.list('{rel}') lists it"),
                })
            }
            Outcome::Entry {
                file: Some(file), ..
            } => file,
            Outcome::Entry { .. } => {
                return Err(VfsError::WrongKind {
                    path: rel.to_string(),
                    why: "is not a regular file (a device, pipe or socket); vfs reads files only"
                        .into(),
                })
            }
            Outcome::Missing { .. } => return Err(not_found(rel)),
        };
        let too_large = || file_too_large(rel, "the file", max_bytes, "read a smaller file");
        let size = file.metadata().map_err(|e| VfsError::io(rel, e))?.len();
        if size > max_bytes as u64 {
            return Err(too_large());
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.take(max_bytes as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| VfsError::io(rel, e))?;
        if bytes.len() > max_bytes {
            return Err(too_large());
        }
        Ok(bytes)
    }

    /// Writes a file atomically, creating missing parent folders. Returns the path on disk.
    /// A symlink at the path itself is replaced by the file (its target must still be a
    /// place in the world where a write would be allowed).
    /// `max_bytes` is the largest file allowed (the run's `Limits::max_file_bytes`).
    pub(crate) fn write(
        &self,
        rel: &str,
        bytes: &[u8],
        max_bytes: usize,
    ) -> Result<PathBuf, VfsError> {
        if bytes.len() > max_bytes {
            return Err(file_too_large(
                rel,
                "the text",
                max_bytes,
                "write less per file",
            ));
        }
        let names = checked_names(rel)?;
        if names.is_empty() {
            return Err(world_itself(rel));
        }
        path::check_new_path(rel)?;
        let mut walker = Walker::new(&self.world, rel, Some(&self.read_only));
        let mut at = walker.start()?;
        let name = match walker.walk(&mut at, &names, Last::Entry, true)? {
            Outcome::Missing { name, .. } => name,
            Outcome::Entry {
                kind: Kind::Dir, ..
            } => return Err(is_a_folder(rel)),
            Outcome::Entry {
                name,
                kind: Kind::Symlink,
                ..
            } => {
                if self.link_target(&at, &name, rel)?.is_none() {
                    return Err(is_a_folder(rel));
                }
                name
            }
            Outcome::Entry { name, .. } => name,
            Outcome::Folder => return Err(is_a_folder(rel)),
        };
        atomic::write_file(at.dir(), &name, bytes).map_err(|e| VfsError::io(rel, e))?;
        Ok(walker.path_of(&at.real_of(&name)))
    }

    /// Checks where the symlink `name` in `at`'s folder leads (inside the world, not
    /// hidden, writable); returns its real path, or `None` when it leads to a folder.
    fn link_target(
        &self,
        at: &At,
        name: &OsStr,
        rel: &str,
    ) -> Result<Option<Vec<OsString>>, VfsError> {
        let mut walker = Walker::new(&self.world, rel, Some(&self.read_only));
        let mut probe = at.try_clone().map_err(|e| VfsError::io(rel, e))?;
        Ok(
            match walker.walk(&mut probe, &[name], Last::Follow(None), false)? {
                Outcome::Folder => None,
                Outcome::Entry { name, .. } | Outcome::Missing { name, .. } => {
                    Some(probe.real_of(&name))
                }
            },
        )
    }

    /// The entries of a folder, sorted by name, without the engine's temporary entries.
    pub(crate) fn list(&self, rel: &str) -> Result<Vec<DirEntry>, VfsError> {
        let names = checked_names(rel)?;
        let mut walker = Walker::new(&self.world, rel, None);
        let mut at = walker.start()?;
        match walker.walk(&mut at, &names, Last::Follow(None), false)? {
            Outcome::Folder => {}
            Outcome::Entry { .. } => {
                return Err(VfsError::io(
                    rel,
                    std::io::Error::from_raw_os_error(libc::ENOTDIR),
                ))
            }
            Outcome::Missing { .. } => return Err(not_found(rel)),
        }
        let mut out = Vec::new();
        for entry in at.dir().entries().map_err(|e| VfsError::io(rel, e))? {
            let (name, kind) = entry.map_err(|e| VfsError::io(rel, e))?;
            let name = name.to_string_lossy().into_owned();
            // Hidden entries (`.git`, the engine's temporary files) are not for scripts,
            // which could not read them anyway; the engine's own (`.metadata`) are.
            let hidden = name.starts_with('.') && !path::engine_file(&format!("{rel}/{name}"));
            if hidden || name.starts_with(atomic::TEMP_PREFIX) {
                continue;
            }
            if out.len() == MAX_ENTRIES {
                return Err(too_large(rel, "the folder", "list a smaller folder"));
            }
            let kind = match kind {
                Kind::Symlink => "symlink",
                Kind::Dir => "dir",
                _ => "file",
            };
            out.push(DirEntry { name, kind });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Removes a file, or a folder with everything in it (at most `MAX_ENTRIES` entries).
    /// A symlink is removed itself, never what it points to. Returns the path on disk.
    pub(crate) fn remove(&self, rel: &str) -> Result<PathBuf, VfsError> {
        let names = checked_names(rel)?;
        if names.is_empty() {
            return Err(world_itself(rel));
        }
        let mut walker = Walker::new(&self.world, rel, Some(&self.read_only));
        let mut at = walker.start()?;
        let (name, kind) = match walker.walk(&mut at, &names, Last::Entry, false)? {
            Outcome::Entry { name, kind, .. } => (name, kind),
            Outcome::Missing { .. } => return Err(not_found(rel)),
            Outcome::Folder => return Err(world_itself(rel)),
        };
        let real = at.real_of(&name);
        let full = walker.path_of(&real);
        match kind {
            Kind::Dir => self.remove_dir(&walker, &at, &name, &real, rel)?,
            Kind::Symlink => {
                self.link_target(&at, &name, rel)?;
                at.dir()
                    .remove_file(&name)
                    .map_err(|e| VfsError::io(rel, e))?;
            }
            _ => at
                .dir()
                .remove_file(&name)
                .map_err(|e| VfsError::io(rel, e))?,
        }
        Ok(full)
    }

    fn remove_dir(
        &self,
        walker: &Walker,
        at: &At,
        name: &OsStr,
        real: &[OsString],
        rel: &str,
    ) -> Result<(), VfsError> {
        let dir = match at.dir().open_dir(name) {
            Ok(dir) => dir,
            Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {
                return Err(walker.changed())
            }
            Err(e) => return Err(VfsError::io(rel, e)),
        };
        let inside: Vec<_> = real.iter().map(|n| n.to_string_lossy()).collect();
        let inside = inside.join("/");
        let mut count = 0;
        scan(&dir, &inside, 0, false, &mut count, rel)?;
        // An entry that turned hidden after the scan is still not the script's to delete.
        let keep = |below: &str| protected(&format!("{inside}/{below}")).is_some();
        atomic::remove_dir(at.dir(), name, &dir, &keep).map_err(|e| match e.kind() {
            std::io::ErrorKind::Interrupted => walker.changed(),
            _ => VfsError::io(rel, e),
        })
    }

    /// An open handle on the folder at `rel` (the world itself for `""`), resolved like
    /// every other path here, so that a process can be started in it (`fchdir`) without a
    /// path that a concurrent symlink swap could redirect out of the world.
    pub(crate) fn open_dir(&self, rel: &str) -> Result<OwnedFd, VfsError> {
        let names = checked_names(rel)?;
        let mut walker = Walker::new(&self.world, rel, None);
        let mut at = walker.start()?;
        match walker.walk(&mut at, &names, Last::Follow(None), false)? {
            Outcome::Folder => Ok(at.dir().try_clone().map_err(|e| walker.io(e))?.into_fd()),
            Outcome::Entry { .. } => Err(VfsError::WrongKind {
                path: rel.to_string(),
                why: "is not a folder; name a folder of the world".into(),
            }),
            Outcome::Missing { .. } => Err(not_found(rel)),
        }
    }

    /// True when something exists at the path (a bad path is still an error).
    pub(crate) fn exists(&self, rel: &str) -> Result<bool, VfsError> {
        let names = checked_names(rel)?;
        let mut walker = Walker::new(&self.world, rel, None);
        let mut at = walker.start()?;
        match walker.walk(&mut at, &names, Last::Follow(None), false) {
            Ok(Outcome::Folder | Outcome::Entry { .. }) => Ok(true),
            Ok(Outcome::Missing { .. }) => Ok(false),
            // Something on the way is a file, not a folder.
            Err(VfsError::Io { source, .. }) if source.raw_os_error() == Some(libc::ENOTDIR) => {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Publishes a new folder `parent/name` holding `files`, atomically (see
    /// [`atomic`]); missing parent folders are created first. Returns its path on disk.
    /// No file may exceed `max_file_bytes` (the run's `Limits::max_file_bytes`).
    pub(crate) fn publish_dir(
        &self,
        parent: &str,
        name: &str,
        files: &[(String, Vec<u8>)],
        max_file_bytes: usize,
    ) -> Result<PathBuf, VfsError> {
        check_entry_name(name)?;
        let rel = if parent.is_empty() {
            name.to_string()
        } else {
            format!("{parent}/{name}")
        };
        let mut contents = Vec::with_capacity(files.len());
        for (file, bytes) in files {
            let names = components(file)?;
            if names.is_empty() {
                return Err(VfsError::BadPath {
                    path: path::shorten(file),
                    why: "it names no file".into(),
                });
            }
            if bytes.len() > max_file_bytes {
                return Err(file_too_large(
                    file,
                    "the text",
                    max_file_bytes,
                    "write less per file",
                ));
            }
            contents.push((names, bytes.as_slice()));
        }
        let names = checked_names(&rel)?;
        let mut walker = Walker::new(&self.world, &rel, Some(&self.read_only));
        let mut at = walker.start()?;
        let name = match walker.walk(&mut at, &names, Last::Entry, true)? {
            Outcome::Missing { name, .. } => name,
            _ => return Err(VfsError::Exists { path: rel.clone() }),
        };
        atomic::publish_dir(at.dir(), &name, &contents).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => VfsError::Exists { path: rel.clone() },
            _ => VfsError::io(&rel, e),
        })?;
        Ok(walker.path_of(&at.real_of(&name)))
    }

    /// The world-relative form of a path on disk inside the world.
    pub(crate) fn relative(&self, full: &Path) -> Option<String> {
        let rel = full.strip_prefix(&self.world).ok()?;
        Some(rel.to_string_lossy().replace('\\', "/"))
    }
}

/// The names of a world-relative path, after refusing hidden names in it.
fn checked_names(rel: &str) -> Result<Vec<&OsStr>, VfsError> {
    path::refuse_hidden(rel)?;
    Ok(components(rel)?.into_iter().map(OsStr::new).collect())
}

/// Counts the entries below a folder about to be removed (at most `MAX_ENTRIES`) and
/// refuses one that is hidden: a folder that holds hidden entries (a nested `.git`, an
/// `.env`) is not the script's to delete, any more than those entries are. `inside` is the
/// folder's real path below the world. Symlinks are not followed.
fn scan(
    dir: &Dir,
    inside: &str,
    depth: usize,
    in_temp: bool,
    count: &mut usize,
    rel: &str,
) -> Result<(), VfsError> {
    if depth >= atomic::MAX_DEPTH {
        return Err(VfsError::WrongKind {
            path: rel.to_string(),
            why: format!(
                "is nested more than {} folders deep; remove its deepest folders first, or delete it by hand",
                atomic::MAX_DEPTH
            ),
        });
    }
    for entry in dir.entries().map_err(|e| VfsError::io(rel, e))? {
        let (name, kind) = entry.map_err(|e| VfsError::io(rel, e))?;
        *count += 1;
        if *count > MAX_ENTRIES {
            return Err(too_large(
                rel,
                "the folder",
                "remove its subfolders one by one",
            ));
        }
        let path = format!("{inside}/{}", name.to_string_lossy());
        // The engine's own leftovers (a crashed write) may go, with all they hold.
        let temp = in_temp || name.to_string_lossy().starts_with(atomic::TEMP_PREFIX);
        if !temp {
            if let Some(hidden) = protected(&path) {
                return Err(VfsError::WrongKind {
                    path: rel.to_string(),
                    why: format!("holds the hidden '{hidden}', which scripts may not remove; delete the folder by hand if you mean it"),
                });
            }
        }
        if kind == Kind::Dir {
            match dir.open_dir(&name) {
                Ok(sub) => scan(&sub, &path, depth + 1, temp, count, rel)?,
                // Swapped for something else since the listing: it is not descended into.
                Err(e)
                    if matches!(
                        e.raw_os_error(),
                        Some(libc::ELOOP | libc::ENOTDIR | libc::ENOENT)
                    ) => {}
                Err(e) => return Err(VfsError::io(rel, e)),
            }
        }
    }
    Ok(())
}

/// The hidden name that makes the entry at `inside` (a real path below the world) not
/// the script's to remove, if any; the engine's temporary entries may go.
fn protected(inside: &str) -> Option<String> {
    match path::refuse_hidden(inside) {
        Err(VfsError::Hidden { name, .. }) if !name.starts_with(atomic::TEMP_PREFIX) => Some(name),
        _ => None,
    }
}

fn not_found(rel: &str) -> VfsError {
    VfsError::io(rel, std::io::Error::from(std::io::ErrorKind::NotFound))
}

fn world_itself(rel: &str) -> VfsError {
    VfsError::WrongKind {
        path: rel.to_string(),
        why: "is the world itself; name a file or folder inside it".into(),
    }
}

fn is_a_folder(rel: &str) -> VfsError {
    VfsError::WrongKind {
        path: rel.to_string(),
        why: "is a folder; write to a file inside it".into(),
    }
}

/// A file or text over `max_bytes`.
fn file_too_large(rel: &str, what: &str, max_bytes: usize, hint: &str) -> VfsError {
    let limit = if max_bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", max_bytes / (1024 * 1024))
    } else {
        format!("{max_bytes} bytes")
    };
    VfsError::TooLarge {
        path: path::shorten(rel),
        what: what.to_string(),
        limit,
        hint: hint.to_string(),
    }
}

fn too_large(rel: &str, what: &str, hint: &str) -> VfsError {
    VfsError::TooLarge {
        path: path::shorten(rel),
        what: what.to_string(),
        limit: format!("{MAX_ENTRIES} entries"),
        hint: hint.to_string(),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/vfs/mod.rs"]
mod tests;
