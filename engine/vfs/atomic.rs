//! Atomic writes: a file or a whole folder is built under a hidden temporary name beside
//! its target, flushed to disk, then renamed into place. A crash leaves at worst a hidden
//! temporary entry, which the asset index never reads (it skips names starting with `.`).
//!
//! Everything here acts through a handle on the folder that holds the target (see
//! `super::walk`): the temporary entry is created in that folder and renamed within it,
//! so what is published lands in the folder that was checked, even if its path is swapped
//! for a symlink meanwhile. That is why these writes are not `tempfile`'s (which names the
//! folder by path, as `crate::cache::replace` may for the engine's own files).

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use super::dir::{Dir, Kind};

/// Prefix of every temporary entry the engine creates.
pub(crate) const TEMP_PREFIX: &str = ".codemode-tmp-";

/// A hidden name beside `name`, unique in this process and across processes (pid).
pub(crate) fn temp_name(name: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{TEMP_PREFIX}{}-{n}-{name}", std::process::id())
}

fn temp_beside(name: &OsStr) -> OsString {
    OsString::from(temp_name(&name.to_string_lossy()))
}

/// Writes `bytes` to `name` in `dir` atomically: a temporary file beside it, fsync, rename.
/// Whatever was at `name` (a file, a symlink) is replaced, never followed.
pub(crate) fn write_file(dir: &Dir, name: &OsStr, bytes: &[u8]) -> io::Result<()> {
    let temp = temp_beside(name);
    let written = write_new(dir, &temp, bytes).and_then(|()| dir.rename(&temp, name));
    if written.is_err() {
        let _ = dir.remove_file(&temp);
    }
    written?;
    dir.sync();
    Ok(())
}

/// Creates the new file `name` in `dir` (never an existing one) and flushes it to disk.
pub(crate) fn write_new(dir: &Dir, name: &OsStr, bytes: &[u8]) -> io::Result<()> {
    let mut file = dir.create_new(name)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Builds a folder holding `files` (checked relative paths, contents) under a temporary
/// name inside `parent`, then renames it to `name` there. The rename fails when `name`
/// already exists, so of two writers racing for the same name exactly one succeeds.
pub(crate) fn publish_dir(
    parent: &Dir,
    name: &OsStr,
    files: &[(Vec<&str>, &[u8])],
) -> io::Result<()> {
    if parent.kind_of(name).is_ok() {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists"));
    }
    let temp = temp_beside(name);
    parent.mkdir(&temp)?;
    let built = parent
        .open_dir(&temp)
        .and_then(|dir| build_dir(&dir, files))
        .and_then(|()| parent.rename_new(&temp, name));
    if let Err(e) = built {
        let _ = remove_tree(parent, &temp);
        return Err(e);
    }
    parent.sync();
    Ok(())
}

fn build_dir(root: &Dir, files: &[(Vec<&str>, &[u8])]) -> io::Result<()> {
    for (names, bytes) in files {
        let Some((file, folders)) = names.split_last() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a file of the folder has an empty name",
            ));
        };
        let mut dir = root.try_clone()?;
        for folder in folders {
            let folder = OsStr::new(folder);
            match dir.mkdir(folder) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            dir = dir.open_dir(folder)?;
        }
        write_new(&dir, OsStr::new(file), bytes)?;
    }
    root.sync();
    Ok(())
}

/// Removes the folder `name` in `parent` so that it disappears at once: it is renamed to
/// a hidden temporary name, then its contents are deleted through `opened`, the handle
/// the caller checked them through. If `name` is no longer that folder (swapped since),
/// nothing is removed and the error is `Interrupted`. `keep(path)` says which entries
/// (paths below the folder, `/` between names) must not be deleted; a folder holding one
/// is left in place, and the removal ends with an error.
pub(crate) fn remove_dir(
    parent: &Dir,
    name: &OsStr,
    opened: &Dir,
    keep: &dyn Fn(&str) -> bool,
) -> io::Result<()> {
    let doomed = temp_beside(&OsString::from(format!(
        "deleted-{}",
        name.to_string_lossy()
    )));
    let identity = opened.identity()?;
    parent.rename_new(name, &doomed)?;
    if parent.identity_of(&doomed)? != identity {
        // Not the folder that was checked: put it back and touch nothing.
        let _ = parent.rename_new(&doomed, name);
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "it was replaced while being removed",
        ));
    }
    parent.sync();
    empty_tree(opened, "", 0, keep)?;
    parent.remove_dir(&doomed)
}

/// Deepest folder [`remove_dir`] and [`remove_tree`] descend into.
pub(crate) const MAX_DEPTH: usize = 128;

fn too_deep() -> io::Error {
    io::Error::other(format!("it is nested more than {MAX_DEPTH} folders deep"))
}

/// Deletes everything inside `dir` (whose path below the removed folder is `prefix`),
/// never following a symlink, except what `keep` names.
fn empty_tree(
    dir: &Dir,
    prefix: &str,
    depth: usize,
    keep: &dyn Fn(&str) -> bool,
) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    let entries: Vec<(OsString, Kind)> = dir.entries()?.collect::<io::Result<_>>()?;
    for (name, kind) in entries {
        let path = format!("{prefix}{}", name.to_string_lossy());
        if keep(&path) {
            continue;
        }
        if kind == Kind::Dir {
            match dir.open_dir(&name) {
                Ok(sub) => {
                    empty_tree(&sub, &format!("{path}/"), depth + 1, keep)?;
                    dir.remove_dir(&name)?;
                    continue;
                }
                // Swapped for a symlink or a file since the listing: remove that entry.
                Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            }
        }
        match dir.remove_file(&name) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Deletes the folder `name` in `parent` with everything in it (for the engine's own
/// temporary folders), never following a symlink.
pub(crate) fn remove_tree(parent: &Dir, name: &OsStr) -> io::Result<()> {
    let dir = parent.open_dir(name)?;
    empty_tree(&dir, "", 0, &|_| false)?;
    parent.remove_dir(name)
}
