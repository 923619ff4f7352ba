//! Where lines go: the world's audit file, rotated by size, or stderr.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The log file's name, under `<world>/.codemode/`.
pub(crate) const FILE: &str = "audit.jsonl";

/// The size past which the file is rotated, unless the front end sets another.
pub(crate) const DEFAULT_MAX_BYTES: u64 = 10 << 20;

/// Rotated files kept beside the live one (`audit.jsonl.1` is the newest).
pub(crate) const KEEP: u32 = 5;

/// The lock file whose holder rotates: several processes may find the file full at once.
const LOCK: &str = "audit.lock";

/// An audit log: where its lines go and which front end writes them.
#[derive(Debug)]
pub(crate) struct Log {
    sink: Sink,
    front: String,
    /// Set once a write failed, so the failure is reported once, not per run.
    failed: AtomicBool,
}

#[derive(Debug)]
enum Sink {
    File {
        world: PathBuf,
        max_bytes: u64,
        /// The file as last opened, kept across runs: opening it anew each run was most
        /// of the log's cost. Opened again when it is no longer the file at its path
        /// (another process rotated it).
        open: Mutex<Option<std::fs::File>>,
    },
    Stderr,
}

impl Log {
    /// The log of `world`'s `.codemode/audit.jsonl`, rotated past `max_bytes`, written by
    /// the front end `front` (`exec`, `serve`, ...). The folder is made at the first
    /// write, only as a real folder of the world (never through a link it ships).
    pub(crate) fn file(world: &Path, front: &str, max_bytes: u64) -> Log {
        Log::with(
            Sink::File {
                world: world.to_path_buf(),
                max_bytes: max_bytes.max(1),
                open: Mutex::new(None),
            },
            front,
        )
    }

    /// A log written to stderr, line by line, by the front end `front`.
    pub(crate) fn stderr(front: &str) -> Log {
        Log::with(Sink::Stderr, front)
    }

    fn with(sink: Sink, front: &str) -> Log {
        Log {
            sink,
            front: front.to_string(),
            failed: AtomicBool::new(false),
        }
    }

    /// The front end whose runs this log records.
    pub(crate) fn front(&self) -> &str {
        &self.front
    }

    /// Appends whole lines in one write. A failure is reported on stderr (once) and the
    /// run goes on: the operator sees that the log is not being written.
    pub(crate) fn append(&self, lines: &[u8]) {
        if lines.is_empty() {
            return;
        }
        let written = match &self.sink {
            Sink::Stderr => std::io::stderr().lock().write_all(lines),
            Sink::File {
                world,
                max_bytes,
                open,
            } => {
                let mut open = open.lock().unwrap_or_else(|e| e.into_inner());
                append_rotating(world, *max_bytes, &mut open, lines)
            }
        };
        if let Err(e) = written {
            if !self.failed.swap(true, Ordering::Relaxed) {
                tracing::error!(
                    "the audit log cannot be written: {e}; runs go on unrecorded until it can"
                );
                eprintln!("codemode: the audit log cannot be written: {e}");
            }
        }
    }
}

/// Appends `lines` to `world/.codemode/audit.jsonl`, rotating it first when they would
/// take it past `max_bytes`. `open` holds the file between calls.
fn append_rotating(
    world: &Path,
    max_bytes: u64,
    open: &mut Option<std::fs::File>,
    lines: &[u8],
) -> std::io::Result<()> {
    let dir = world.join(".codemode");
    let path = dir.join(FILE);
    let held = open.take().and_then(|file| {
        let meta = file.metadata().ok()?;
        still_at(&path, &meta).then_some((file, meta.len()))
    });
    let (mut file, size) = match held {
        Some(held) => held,
        None => {
            let dir = crate::cache::inside(world, ".codemode")?;
            let file = open_append(&dir.join(FILE))?;
            let size = file.metadata()?.len();
            (file, size)
        }
    };
    if size > 0 && size + lines.len() as u64 > max_bytes {
        rotate(&dir, &path, &file)?;
        file = open_append(&path)?;
    }
    // One write: with O_APPEND it lands whole at the end, whoever else appends.
    file.write_all(lines)?;
    *open = Some(file);
    Ok(())
}

/// True when the file at `path` (not followed) is the one `opened` describes.
fn still_at(path: &Path, opened: &std::fs::Metadata) -> bool {
    std::fs::symlink_metadata(path)
        .is_ok_and(|now| now.ino() == opened.ino() && now.dev() == opened.dev())
}

/// Opens the log for appending, made owner-only when new; a link or a FIFO in its place
/// is refused (a world may ship one pointing anywhere).
fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    let file = std::fs::File::options()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => std::io::Error::other(format!(
                "{} is a symbolic link; the audit log is written only as a file of the world: remove the link",
                path.display()
            )),
            _ => e,
        })?;
    if !file.metadata()?.file_type().is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a plain file; remove it and the audit log is made again",
            path.display()
        )));
    }
    Ok(file)
}

/// Moves the full log aside (`audit.jsonl` to `.1`, `.1` to `.2`, ..., dropping the one
/// past [`KEEP`]) under the lock, unless another process did it meanwhile (the file at
/// `path` is no longer the one `file` opened).
fn rotate(dir: &Path, path: &Path, file: &std::fs::File) -> std::io::Result<()> {
    let lock = std::fs::File::options()
        .write(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir.join(LOCK))?;
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)?;
    if !still_at(path, &file.metadata()?) {
        return Ok(());
    }
    let numbered = |n: u32| dir.join(format!("{FILE}.{n}"));
    for n in (1..KEEP).rev() {
        match std::fs::rename(numbered(n), numbered(n + 1)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    std::fs::rename(path, numbered(1))
    // The lock is released when `lock` is closed.
}
