//! One store per world for the whole process, opened on first use, and the rule that a
//! store which cannot be used means "no cache", never a failed call.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::store::{Entry, NewEntry, Store, StoreError, DEFAULT_CAP_BYTES, FILE};
use crate::cache::Place;

enum Slot {
    /// Not opened yet.
    Closed,
    Open(Store),
    /// Could not be used; the process goes on uncached.
    Broken,
}

/// The result cache of one world, shared by every run of the process.
pub(crate) struct Shared {
    path: PathBuf,
    slot: Mutex<Slot>,
    warned: AtomicBool,
}

impl Shared {
    /// The store of `world` (`<world>/.codemode/results.db`), the same one for every
    /// caller in this process.
    pub(crate) fn for_world(world: &Path) -> Arc<Shared> {
        static ALL: OnceLock<Mutex<HashMap<PathBuf, Arc<Shared>>>> = OnceLock::new();
        let path = world.join(".codemode").join(FILE);
        let mut all = ALL
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        all.entry(path.clone())
            .or_insert_with(|| {
                Arc::new(Shared {
                    path,
                    slot: Mutex::new(Slot::Closed),
                    warned: AtomicBool::new(false),
                })
            })
            .clone()
    }

    /// Runs `f` on the open store; `None` (after one warning per process) when the store
    /// cannot be used. A corrupt or unwritable store is not tried again in this process;
    /// a locked one is, on the next call.
    fn with<R>(&self, f: impl FnOnce(&mut Store) -> Result<R, StoreError>) -> Option<R> {
        let mut slot = self.slot.lock().unwrap_or_else(|p| p.into_inner());
        if matches!(*slot, Slot::Closed) {
            match own_files(&self.path).and_then(|()| Store::open(&self.path, DEFAULT_CAP_BYTES)) {
                Ok(store) => *slot = Slot::Open(store),
                Err(e) => {
                    self.warn(&e);
                    if !e.is_transient() {
                        *slot = Slot::Broken;
                    }
                    return None;
                }
            }
        }
        let Slot::Open(store) = &mut *slot else {
            return None;
        };
        match f(store) {
            Ok(r) => Some(r),
            Err(e) => {
                self.warn(&e);
                if !e.is_transient() {
                    *slot = Slot::Broken;
                }
                None
            }
        }
    }

    fn warn(&self, e: &StoreError) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!("result cache not used: {e}; tools run uncached meanwhile");
        }
    }

    /// The unexpired row of `key` in `scope`, if the store holds one.
    pub(crate) fn get(&self, key: &str, scope: &str, now_ms: i64) -> Option<Entry> {
        self.with(|s| s.get(key, scope, now_ms)).flatten()
    }

    /// Stores a result; false when it was not kept (too large, or no usable store).
    pub(crate) fn put(&self, new: &NewEntry) -> bool {
        self.with(|s| s.put(new)).unwrap_or(false)
    }

    /// See [`Store::search`]; empty when there is no usable store.
    pub(crate) fn search(
        &self,
        query: &str,
        scope: &str,
        limit: usize,
        max_bytes: usize,
        now_ms: i64,
    ) -> Vec<Entry> {
        self.with(|s| s.search(query, scope, limit, max_bytes, now_ms))
            .unwrap_or_default()
    }
}

/// Refuses a store whose folder or files are not the world's own (`path` is
/// `<world>/.codemode/results.db`): a world (a cloned repository) may ship
/// `.codemode` or the database, its journal or its WAL as a symbolic link to anywhere, or as
/// a FIFO that would hang the open, and results are written only inside the world.
fn own_files(path: &Path) -> Result<(), StoreError> {
    match foreign_files(path)?.first() {
        None => Ok(()),
        Some(file) => Err(StoreError::Io {
            path: path.to_path_buf(),
            reason: format!(
                "{} is not a plain file (a symbolic link, a FIFO or a device); remove it (`codemode cache clear` does) and the result cache is made again inside the world",
                file.display()
            ),
        }),
    }
}

/// The files of the store at `path` (`<world>/.codemode/results.db`: the database, its
/// WAL, shared memory and journal) that exist and are not plain files: symbolic links,
/// FIFOs, devices. An error when `.codemode` itself is not a real folder of the world, so
/// nothing under it may be opened or removed.
pub(crate) fn foreign_files(path: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let refused = |reason: String| StoreError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let settings = path.parent().ok_or_else(|| refused("no folder".into()))?;
    if let (Some(world), Some(name)) = (settings.parent(), settings.file_name()) {
        // Looked at, not made: a command that only reads or clears leaves no folder.
        match crate::cache::look(world, &name.to_string_lossy()) {
            Place::Folder(_) => {}
            Place::Missing => return Ok(Vec::new()),
            Place::NotAFolder(at) => {
                return Err(refused(crate::cache::not_a_folder(&at).to_string()))
            }
        }
    }
    Ok(["", "-wal", "-shm", "-journal"]
        .into_iter()
        .map(|suffix| {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        })
        .filter(|file| !crate::cache::plain_or_missing(file))
        .collect())
}
