//! Reading the last lines back, newest last, for `codemode audit`.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::{Line, FILE, KEEP};

/// Why the log could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TailError {
    /// A file of the log exists but could not be read.
    #[error("cannot read the audit log {path}: {reason}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: std::io::Error,
    },
}

/// The last lines of the log.
#[derive(Debug, Default)]
pub(crate) struct Tail {
    /// The lines, oldest first, each as written and as read.
    pub lines: Vec<(String, Line<'static>)>,
    /// Lines that are not a log line (a file edited by hand, a line cut by a full disk).
    pub unreadable: usize,
}

/// The last `n` lines of `world`'s log (through its rotated files as far as needed)
/// that `keep` accepts, oldest first. A world without a log has none.
pub(crate) fn tail(
    world: &Path,
    n: usize,
    keep: impl Fn(&Line) -> bool,
) -> Result<Tail, TailError> {
    let dir = world.join(".codemode");
    let mut tail = Tail::default();
    let files =
        std::iter::once(dir.join(FILE)).chain((1..=KEEP).map(|k| dir.join(format!("{FILE}.{k}"))));
    'files: for path in files {
        let Some(text) = read(&path)? else {
            continue;
        };
        for raw in text.lines().rev().filter(|l| !l.trim().is_empty()) {
            if tail.lines.len() >= n {
                break 'files;
            }
            match serde_json::from_str::<Line<'static>>(raw) {
                Ok(line) if keep(&line) => tail.lines.push((raw.to_string(), line)),
                Ok(_) => {}
                Err(_) => tail.unreadable += 1,
            }
        }
    }
    tail.lines.reverse();
    Ok(tail)
}

/// The file's text (`None` when it does not exist), never through a link.
fn read(path: &Path) -> Result<Option<String>, TailError> {
    let unreadable = |reason| TailError::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let mut file = match file {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(unreadable)?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}
