//! What the checker said about scripts, kept for the next run of the same script against
//! the same declarations: in memory for the runs of one process ([`Recent`]: a client of
//! `codemode serve` that sends the same script again, a retry), and under
//! `<world>/.codemode/cache/check/` for the next process ([`Replies`]): a headless job
//! (`codemode run job.luau` from cron or CI) runs one script again and again, and its
//! check would cost a fresh checker process each time (more than the run itself).
//!
//! An entry is the checker's diagnostics on one script against one text of declarations,
//! from one checker binary: its file is named by a hash of the checker and the script, and
//! holds a SHA-256 of the declarations, which must match the text the run would send (a
//! tool whose signature changed, a toolbox added or removed, another profile's grants:
//! another text, so the checker is asked again). The verdict is worked out from the
//! diagnostics each time, as from the checker's reply. A reply cut short by its timeout
//! is not kept.
//!
//! The folder is the world's own (`.codemode/` is hidden from scripts, the shell included),
//! so no script can write an entry; a damaged or foreign file fails its checksum and the
//! checker is asked. Entries are kept only in a world that has a `.codemode/` folder, so
//! a run in any other folder leaves nothing behind, and at most [`MAX_ENTRIES`] of them.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::{Checked, Declarations, Diagnostic, Kind};
use crate::cache::{self, Place};

/// The cache's folder, under the world's cache folder.
const FOLDER: &str = "check";

/// The kind and schema of an entry's file.
const KIND: &[u8; 4] = b"CHKR";
const SCHEMA: u32 = 4;

/// An entry: SHA-256 of the declarations, the checker's identity, SHA-256 of the script,
/// what the checker said, each diagnostic with its kind (which the envelope's form of a
/// diagnostic leaves out), and the name of what the declarations were built from, when
/// they had one (see [`Declarations::named`]).
type Entry<'a> = (
    [u8; 32],
    &'a str,
    [u8; 32],
    Vec<(Diagnostic, Kind)>,
    Option<&'a str>,
);

/// The most entries kept: past this the oldest are removed, down to three quarters.
pub(crate) const MAX_ENTRIES: usize = 256;

/// The largest entry kept (its diagnostics): a script that draws thousands of them is
/// checked again rather than stored.
const MAX_ENTRY_BYTES: usize = 256 * 1024;

/// How many scripts' replies a process keeps in memory, and the longest script kept.
pub(crate) const RECENT: usize = 32;
pub(crate) const MAX_RECENT_SOURCE: usize = 64 * 1024;

/// The replies to the last few scripts checked in this process, most recent last, each
/// with the mark of its declarations (see [`Declarations::mark`]: an entry does not hold
/// the text alive after its snapshot is gone).
#[derive(Default)]
pub(crate) struct Recent {
    entries: Mutex<VecDeque<RecentReply>>,
}

/// One reply [`Recent`] keeps: the mark of its declarations, the script, what was said.
type RecentReply = ((u64, usize), Arc<str>, Checked);

impl Recent {
    /// What the checker said about `source` against `declarations` lately.
    pub(crate) fn get(&self, declarations: &Declarations, source: &str) -> Option<Checked> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .iter()
            .rev()
            .find(|(d, s, _)| *d == declarations.mark() && &**s == source)
            .map(|(_, _, checked)| checked.clone())
    }

    /// Keeps what the checker said about `source` against `declarations` (not a reply
    /// cut short by its timeout, nor one about a long script).
    pub(crate) fn put(&self, declarations: &Declarations, source: &str, checked: &Checked) {
        if checked.timed_out || source.len() > MAX_RECENT_SOURCE {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let mark = declarations.mark();
        entries.retain(|(d, s, _)| !(*d == mark && &**s == source));
        if entries.len() >= RECENT {
            entries.pop_front();
        }
        entries.push_back((mark, Arc::from(source), checked.clone()));
    }
}

/// The entries of one world, for one checker binary.
#[derive(Debug, Clone)]
pub(crate) struct Replies {
    world: PathBuf,
    /// What tells this checker binary from another (see [`super::Checker::identity`]).
    checker: String,
}

impl Replies {
    /// The entries of `world` for the checker `identity`, when the world has a
    /// `.codemode/` folder of its own.
    pub(crate) fn of(world: &Path, checker: String) -> Option<Replies> {
        matches!(cache::look(world, ".codemode"), Place::Folder(_)).then(|| Replies {
            world: world.to_path_buf(),
            checker,
        })
    }

    /// True when an entry for `source` exists (from some declarations): read before the
    /// world is, to start the checker only when the entry will not do.
    pub(crate) fn holds(&self, source: &str) -> bool {
        self.file(source)
            .is_some_and(|f| std::fs::symlink_metadata(f).is_ok_and(|m| m.is_file()))
    }

    /// What the checker said about `source` against `declarations`, when it was kept.
    pub(crate) fn get(&self, declarations: &Declarations, source: &str) -> Option<Checked> {
        self.get_if(source, |declared, _| declared == declarations.digest())
    }

    /// The same, for declarations known only by the name of what they are built from: a
    /// one-shot run of a script checked before need not build them to find its reply.
    pub(crate) fn get_named(&self, name: &str, source: &str) -> Option<Checked> {
        self.get_if(source, |_, named| named == Some(name))
    }

    /// The reply kept for `source`, when its declarations pass `same`.
    fn get_if(
        &self,
        source: &str,
        same: impl FnOnce([u8; 32], Option<&str>) -> bool,
    ) -> Option<Checked> {
        let body = cache::read(&self.file(source)?, KIND, SCHEMA)?;
        let (declared, checker, script, diagnostics, named): Entry = body.value()?;
        (same(declared, named) && checker == self.checker && script == digest(source.as_bytes()))
            .then(|| Checked {
                diagnostics: diagnostics
                    .into_iter()
                    .map(|(diagnostic, kind)| Diagnostic { kind, ..diagnostic })
                    .collect(),
                timed_out: false,
                limit: Duration::ZERO,
            })
    }

    /// Keeps what the checker said about `source` against `declarations` (not when its
    /// timeout cut the check short). A failure to write only costs the next run a check.
    pub(crate) fn put(&self, declarations: &Declarations, source: &str, checked: &Checked) {
        let bytes: usize = checked
            .diagnostics
            .iter()
            .map(|d| d.message.len() + 16)
            .sum();
        if checked.timed_out || bytes > MAX_ENTRY_BYTES {
            return;
        }
        let Some(file) = self.file(source) else {
            return;
        };
        let entry: Entry = (
            declarations.digest(),
            &self.checker,
            digest(source.as_bytes()),
            checked
                .diagnostics
                .iter()
                .map(|d| (d.clone(), d.kind.clone()))
                .collect(),
            declarations.name(),
        );
        let Some(dir) = cache::dir(&self.world, FOLDER) else {
            return;
        };
        if let Err(e) = cache::write_unsynced(&file, KIND, SCHEMA, &entry) {
            tracing::debug!("the check of this script is not kept: {e}");
            return;
        }
        prune(&dir, &file);
    }

    /// The file of the entry for `source`: named by a hash of the checker and the script.
    pub(crate) fn file(&self, source: &str) -> Option<PathBuf> {
        let mut hasher = Sha256::new();
        hasher.update(b"codemode-check-reply-v1\0");
        hasher.update(self.checker.as_bytes());
        hasher.update(b"\0");
        hasher.update(source.as_bytes());
        let name: String = hasher.finalize()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Some(cache::path(&self.world, FOLDER).join(name))
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Removes the oldest entries of `dir` when it holds more than [`MAX_ENTRIES`], down to
/// three quarters of that, so removals come in batches rather than one per run; never
/// `kept`, the one just written (file times are coarse: it may look as old as others).
fn prune(dir: &Path, kept: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // Counted from the listing alone: looking up each file's age cost a one-shot run more
    // than its check's reply, and is needed only past the cap.
    let files: Vec<std::fs::DirEntry> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()) && e.path() != kept)
        .collect();
    if files.len() < MAX_ENTRIES {
        return;
    }
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = files
        .into_iter()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort();
    let remove = files.len() + 1 - MAX_ENTRIES * 3 / 4;
    for (_, path) in files.into_iter().take(remove) {
        let _ = std::fs::remove_file(path);
    }
}
