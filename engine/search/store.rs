//! The search index on disk, under `<world>/.codemode/cache/search/`: the tantivy index
//! (`index/`) and the asset table (`table`: stamps and int8 vectors), which name the same
//! generation (the tantivy commit's payload and the table's header). A pair that does not
//! agree (a process stopped between the two writes) is rebuilt from scratch.
//!
//! Processes take turns through an exclusive lock on `lock` (held while one reads or
//! updates the pair, never while it searches); one that cannot get it within
//! [`LOCK_WAIT`] indexes in RAM for its own life instead.

use std::fs::File;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::table::{Stored, Table};
use crate::cache::{Place, CACHE_DIR};

const KIND: &[u8; 4] = b"CMST";
/// Bumped when the table's layout or what the index holds changes.
const SCHEMA: u32 = 5;
/// How long a process waits for another to finish updating the index before it indexes
/// in RAM: well inside a run's default deadline (10 s), since the search that waits is
/// part of a run, and an index of 10,000 tools is built in RAM in about a second.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(2);

/// The largest `meta.json` or `.managed.json` of an index read: a real one of 100,000
/// tools is a few kilobytes.
const MAX_INDEX_JSON_BYTES: u64 = 16 << 20;

/// Where the index lives on disk.
#[derive(Debug, Clone)]
pub(crate) struct Store {
    dir: PathBuf,
}

/// Held while the on-disk pair is read or updated.
pub(crate) struct Turn {
    file: File,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

impl Store {
    /// The store of `world`, holding `tools` tools on disk, or `None` when the world does
    /// not want one (see [`crate::cache::wanted`]) or cannot hold one (read-only).
    pub(crate) fn open(world: &Path, tools: usize) -> Option<Store> {
        if !crate::cache::wanted(world, tools) {
            return None;
        }
        let dir = crate::cache::dir(world, "search")?;
        crate::cache::dir(world, "search/index")?;
        Some(Store { dir })
    }

    /// The store of `world` when an index was written there before (nothing is created).
    /// Only a store of the world's own: not through a link to another world's cache.
    pub(crate) fn existing(world: &Path) -> Option<Store> {
        let dir = Store::at(world)?;
        let index = crate::cache::look(world, &format!("{CACHE_DIR}/search/index"));
        let table = std::fs::symlink_metadata(dir.dir.join("table"));
        (matches!(index, Place::Folder(_)) && table.is_ok_and(|m| m.is_file())).then_some(dir)
    }

    /// The store of `world` when its folder is there, whatever it holds, and is the
    /// world's own (no folder on the way is a link).
    pub(crate) fn at(world: &Path) -> Option<Store> {
        match crate::cache::look(world, &format!("{CACHE_DIR}/search")) {
            Place::Folder(dir) => Some(Store { dir }),
            _ => None,
        }
    }

    /// Waits for this process's turn (at most [`LOCK_WAIT`]).
    pub(crate) fn turn(&self) -> Option<Turn> {
        self.turn_within(LOCK_WAIT)
    }

    /// Waits for this process's turn at most `wait` (zero: takes it only when free).
    pub(crate) fn turn_within(&self, wait: Duration) -> Option<Turn> {
        // Not through a link (its target may be outside the world) and not a FIFO (the
        // open would wait for a writer forever).
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(self.dir.join("lock"))
            .ok()
            .filter(|f| f.metadata().is_ok_and(|m| m.file_type().is_file()))?;
        let started = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Some(Turn { file }),
                Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => {
                    tracing::debug!("search index busy or unlockable ({e:?}); indexing in RAM");
                    return None;
                }
            }
        }
    }

    /// The tantivy index's folder.
    pub(crate) fn index_dir(&self) -> PathBuf {
        self.dir.join("index")
    }

    /// True when every entry of the tantivy index's folder is a plain file, and the JSON
    /// files tantivy reads whole are of a size a real index has: a world may ship a link,
    /// a FIFO (whose open waits forever) or a file of gigabytes there.
    pub(crate) fn index_is_plain(&self) -> bool {
        let Ok(entries) = std::fs::read_dir(self.index_dir()) else {
            return false;
        };
        entries.into_iter().all(|entry| {
            let Ok(entry) = entry else { return false };
            let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
                return false;
            };
            let json = entry.path().extension().is_some_and(|e| e == "json");
            meta.file_type().is_file() && (!json || meta.len() <= MAX_INDEX_JSON_BYTES)
        })
    }

    /// Removes the tantivy index (damaged, or of another schema).
    pub(crate) fn wipe_index(&self, _turn: &Turn) {
        let _ = std::fs::remove_dir_all(self.index_dir());
        let _ = std::fs::create_dir_all(self.index_dir());
    }

    /// Removes the index and the table, so the next read finds nothing and rebuilds;
    /// false when the index folder could not be emptied and made again.
    pub(crate) fn wipe(&self, turn: &Turn) -> bool {
        self.wipe_index(turn);
        let _ = std::fs::remove_file(self.dir.join("table"));
        std::fs::read_dir(self.index_dir()).is_ok_and(|mut d| d.next().is_none())
    }

    /// The table and its generation, when the file is whole and this engine's.
    pub(crate) fn read_table(&self, _turn: &Turn, dims: usize) -> Option<(String, Table)> {
        let body = crate::cache::read(&self.dir.join("table"), KIND, SCHEMA)?;
        let (generation, table): (&str, Stored) = body.value()?;
        Some((generation.to_string(), Table::from_stored(table, dims)?))
    }

    /// Writes the table with its generation.
    pub(crate) fn write_table(
        &self,
        _turn: &Turn,
        generation: &str,
        table: &Table,
    ) -> std::io::Result<()> {
        let file = (generation, table.stored());
        crate::cache::write(&self.dir.join("table"), KIND, SCHEMA, &file)
    }
}

/// A generation name no other commit has: time and process.
pub(crate) fn new_generation() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}-{:x}", std::process::id())
}
