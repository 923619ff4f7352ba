//! Atomic writes: a file or a whole folder is built under a hidden temporary name beside
//! its target, flushed to disk, then renamed into place. A crash leaves at worst a hidden
//! temporary entry, which the asset index never reads (it skips names starting with `.`).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Prefix of every temporary entry the engine creates.
pub const TEMP_PREFIX: &str = ".codemode-tmp-";

/// A hidden name beside `name`, unique in this process and across processes (pid).
pub fn temp_name(name: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{TEMP_PREFIX}{}-{n}-{name}", std::process::id())
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, rename.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(temp_name(&name));
    let written = write_new(&temp, bytes).and_then(|()| fs::rename(&temp, path));
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written?;
    sync_dir(dir);
    Ok(())
}

/// Creates a new file (never an existing one) and flushes it to disk.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Builds a folder holding `files` (relative path, contents) under a temporary name inside
/// `parent`, then renames it to `parent/name`. The rename fails when `name` already exists,
/// so of two writers racing for the same name exactly one succeeds.
pub fn publish_dir(parent: &Path, name: &str, files: &[(String, Vec<u8>)]) -> io::Result<PathBuf> {
    let target = parent.join(name);
    if target.symlink_metadata().is_ok() {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists"));
    }
    let temp = parent.join(temp_name(name));
    let built = build_dir(&temp, files).and_then(|()| rename_new(&temp, &target));
    if let Err(e) = built {
        let _ = fs::remove_dir_all(&temp);
        return Err(e);
    }
    sync_dir(parent);
    Ok(target)
}

fn build_dir(temp: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    fs::create_dir(temp)?;
    for (rel, bytes) in files {
        let path = temp.join(rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        write_new(&path, bytes)?;
    }
    sync_dir(temp);
    Ok(())
}

/// Renames a folder to a name that must not exist. A non-empty folder in the way makes
/// the rename fail (POSIX and Windows); an empty folder created by someone else in the
/// instant between the check and the rename holds nothing and may be replaced.
fn rename_new(from: &Path, to: &Path) -> io::Result<()> {
    if to.symlink_metadata().is_ok() {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists"));
    }
    fs::rename(from, to).map_err(|e| match e.kind() {
        io::ErrorKind::DirectoryNotEmpty | io::ErrorKind::AlreadyExists => {
            io::Error::new(io::ErrorKind::AlreadyExists, "exists")
        }
        _ => e,
    })
}

/// Removes a file or a folder so that it disappears at once: a folder is first renamed
/// to a hidden temporary name, then deleted.
pub fn remove(path: &Path) -> io::Result<()> {
    let meta = path.symlink_metadata()?;
    if !meta.is_dir() {
        return fs::remove_file(path);
    }
    let parent = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let doomed = parent.join(temp_name(&format!("deleted-{name}")));
    fs::rename(path, &doomed)?;
    sync_dir(parent);
    fs::remove_dir_all(&doomed)
}

/// Flushes a folder's entries (best effort: not every platform can open a folder).
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
