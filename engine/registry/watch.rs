//! Live reload: a file watcher over the world and the library directories that feeds
//! changed paths, debounced, into [`Registry::apply_changes`].
//!
//! Readers never see a half-updated index: each batch builds a new snapshot and swaps it
//! in whole. A running script keeps the snapshot it started with.
//!
//! On Linux a watch covers one folder, and a recursive watch of a world would add one per
//! folder of it, found by visiting every file (seconds, and tens of megabytes, at 100,000
//! tools). There the watcher watches only the folders the index reads
//! ([`crate::assets::read_folders`]), found without visiting a file, and adds the folders
//! that appear (before the batch that brings them is read, so nothing written into them
//! in between is missed). Elsewhere the operating system watches a tree as a whole.
//!
//! The world's `.codemode/` is watched too (the folder itself, not its cache): an edit of
//! the policy file is read in by [`Registry::refresh_policy`], so a serving process
//! applies a revoked grant without a restart, and an edit of `mcp.json` or `apis.json` by
//! [`Registry::refresh_upstreams`], so an added server or API is there for the next script.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::Registry;

/// How long the watcher waits for the file events of one edit to stop arriving.
pub(crate) const QUIET: Duration = Duration::from_millis(20);

/// The longest a batch is held back while events keep arriving.
pub(crate) const MAX_DELAY: Duration = Duration::from_millis(100);

/// The watcher could not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WatchError {
    /// The operating system refused a watch (often: too many watched folders).
    #[error("cannot watch {path} for changes: {source}; edits will show only after a restart (on Linux, raise fs.inotify.max_user_watches)")]
    Watch {
        /// The directory that could not be watched.
        path: PathBuf,
        /// The error from the watcher.
        source: notify::Error,
    },
    /// The background thread could not start.
    #[error("cannot start the file watcher thread: {0}")]
    Thread(#[from] std::io::Error),
}

/// A running file watcher. Dropping it stops watching.
pub(crate) struct Watcher {
    watcher: Option<Arc<Mutex<RecommendedWatcher>>>,
    thread: Option<JoinHandle<()>>,
}

/// Whether a root is watched folder by folder (see the module's comment).
const BY_FOLDER: bool = cfg!(target_os = "linux");

/// Watches what a root needs below `from`: on Linux each folder the index reads there,
/// elsewhere (`from` being the root) the whole tree.
fn watch_below(
    watcher: &mut RecommendedWatcher,
    root: &Path,
    from: &Path,
) -> Result<usize, WatchError> {
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WatchError::Watch { path, source }
    };
    if !BY_FOLDER {
        watcher
            .watch(from, RecursiveMode::Recursive)
            .map_err(failed(from))?;
        return Ok(1);
    }
    let mut watched: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    loop {
        // A folder made after its parent was listed but before the parent was watched
        // raised no event: list again until nothing new shows. (At start the index was
        // read before any watch, so the first listing is the one that counts.)
        let folders: Vec<PathBuf> = crate::assets::read_folders(root, from)
            .into_iter()
            .filter(|f| !watched.contains(f))
            .collect();
        for folder in &folders {
            match watcher.watch(folder, RecursiveMode::NonRecursive) {
                Ok(()) => {}
                // Gone since it was listed: its removal is an event of its parent.
                Err(e) if matches!(e.kind, notify::ErrorKind::PathNotFound) => {}
                Err(e) => return Err(failed(folder)(e)),
            }
        }
        if folders.is_empty() || from == root {
            return Ok(watched.len() + folders.len());
        }
        watched.extend(folders);
    }
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").finish_non_exhaustive()
    }
}

impl Registry {
    /// Starts watching the world and the library directories: edits on disk are read in
    /// (debounced, incrementally) until the returned [`Watcher`] is dropped.
    pub(crate) fn watch(self: &Arc<Self>) -> Result<Watcher, WatchError> {
        Watcher::start(self)
    }
}

impl Watcher {
    /// Watches every root on disk of `registry` recursively.
    pub(crate) fn start(registry: &Arc<Registry>) -> Result<Watcher, WatchError> {
        let (tx, rx) = channel::<notify::Result<Event>>();
        let mut watcher = notify::recommended_watcher(tx).map_err(|source| WatchError::Watch {
            path: registry.world().to_path_buf(),
            source,
        })?;
        let started = Instant::now();
        let mut watches = 0;
        for root in registry.roots().iter().filter_map(|r| r.dir()) {
            watches += watch_below(&mut watcher, root, root)?;
        }
        watch_settings(&mut watcher, registry);
        tracing::debug!(
            watches,
            ms = started.elapsed().as_secs_f64() * 1e3,
            "watching for changes"
        );
        let watcher = Arc::new(Mutex::new(watcher));
        let weak = Arc::downgrade(registry);
        let adder = Arc::downgrade(&watcher);
        let thread = std::thread::Builder::new()
            .name("codemode-watch".into())
            .spawn(move || run(weak, adder, rx))?;
        Ok(Watcher {
            watcher: Some(watcher),
            thread: Some(thread),
        })
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        // Dropping the notify watcher closes the channel, which ends the thread.
        self.watcher.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What one batch of events asks for.
#[derive(Default)]
struct Batch {
    paths: Vec<PathBuf>,
    rescan: bool,
}

impl Batch {
    fn add(&mut self, event: notify::Result<Event>) {
        match event {
            // Reading files (the index itself does) is no change.
            Ok(event) if event.kind.is_access() => {}
            Ok(event) => {
                self.rescan |= event.need_rescan();
                self.paths.extend(event.paths);
            }
            Err(e) => {
                tracing::warn!("file watcher: {e}; reading the whole index again");
                self.rescan = true;
            }
        }
    }
}

/// Watches the folders among `paths` that appeared since they were listed (a new tool,
/// toolbox or package folder, or one renamed), with what the index reads below them.
fn watch_new(watcher: &Weak<Mutex<RecommendedWatcher>>, registry: &Registry, paths: &[PathBuf]) {
    if !BY_FOLDER {
        return;
    }
    let Some(watcher) = watcher.upgrade() else {
        return;
    };
    let mut watcher = watcher.lock().unwrap_or_else(|e| e.into_inner());
    for path in paths.iter().filter(|p| p.is_dir()) {
        for root in registry.roots().iter().filter_map(|r| r.dir()) {
            if path.starts_with(root) {
                if let Err(e) = watch_below(&mut watcher, root, path) {
                    tracing::warn!("{e}");
                }
            }
        }
    }
}

/// How often a quiet watcher looks whether a root folder was replaced.
const ROOT_CHECK: Duration = Duration::from_secs(1);

/// Which folder a path names now (device and inode), `None` when there is none. A watch
/// follows the folder, not its path: a world moved away (`mv world world.old`) and made
/// again, or removed, raises nothing the index would read.
fn folder_id(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        Some((0, u64::from(path.is_dir())))
    }
}

/// The roots on disk of `registry`, each with the folder its path names now.
fn root_ids(registry: &Registry) -> Vec<(PathBuf, Option<(u64, u64)>)> {
    registry
        .roots()
        .iter()
        .filter_map(|r| r.dir())
        .map(|d| (d.to_path_buf(), folder_id(d)))
        .collect()
}

/// Watches the world's `.codemode/` folder (when there is one) for policy edits; a
/// refused watch only means edits there show at the next run instead.
fn watch_settings(watcher: &mut RecommendedWatcher, registry: &Registry) {
    let settings = registry.world().join(".codemode");
    if BY_FOLDER && settings.is_dir() {
        if let Err(e) = watcher.watch(&settings, RecursiveMode::NonRecursive) {
            tracing::debug!("cannot watch {}: {e}", settings.display());
        }
    }
}

/// Which of the world's settings files the batch may have changed (or made the folder
/// that holds them, which is then watched): `(policy, mcp)`.
fn touched_settings(
    watcher: &Weak<Mutex<RecommendedWatcher>>,
    registry: &Registry,
    batch: &Batch,
) -> (bool, bool) {
    let settings = registry.world().join(".codemode");
    let policy = registry.world().join(crate::policy::POLICY_FILE);
    let mcp = registry
        .world()
        .join(crate::upstream::config::DEFAULT_CONFIG);
    if batch.paths.contains(&settings) {
        if let Some(watcher) = watcher.upgrade() {
            watch_settings(
                &mut watcher.lock().unwrap_or_else(|e| e.into_inner()),
                registry,
            );
        }
    }
    // The HTTP APIs of `apis.json` are upstream servers too (`crate::openapi`).
    let apis = registry.world().join(crate::upstream::config::APIS_FILE);
    let touched =
        |file: &Path| batch.rescan || batch.paths.iter().any(|p| *p == settings || p == file);
    (touched(&policy), touched(&mcp) || touched(&apis))
}

/// Collects events until they stop for [`QUIET`] (at most [`MAX_DELAY`]), then applies them.
fn run(
    registry: Weak<Registry>,
    watcher: Weak<Mutex<RecommendedWatcher>>,
    rx: Receiver<notify::Result<Event>>,
) {
    let mut roots = match registry.upgrade() {
        Some(registry) => root_ids(&registry),
        None => return,
    };
    loop {
        let first = match rx.recv_timeout(ROOT_CHECK) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => {
                let Some(registry) = registry.upgrade() else {
                    return;
                };
                follow_replaced_roots(&registry, &watcher, &mut roots);
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let mut batch = Batch::default();
        batch.add(first);
        let started = Instant::now();
        loop {
            let left = MAX_DELAY.saturating_sub(started.elapsed());
            match rx.recv_timeout(QUIET.min(left)) {
                Ok(event) => batch.add(event),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if left.is_zero() {
                break;
            }
        }
        let Some(registry) = registry.upgrade() else {
            return;
        };
        batch.paths.sort();
        batch.paths.dedup();
        // Before the batch is read: what is written into a new folder from now on raises
        // events of its own, and what was written before is read with the batch.
        if batch.rescan {
            // Events were lost: folders that appeared meanwhile are not watched yet.
            let roots: Vec<PathBuf> = registry
                .roots()
                .iter()
                .filter_map(|r| r.dir().map(Path::to_path_buf))
                .collect();
            watch_new(&watcher, &registry, &roots);
        } else {
            watch_new(&watcher, &registry, &batch.paths);
        }
        let (policy, mcp) = touched_settings(&watcher, &registry, &batch);
        if policy {
            registry.refresh_policy();
        }
        if mcp {
            registry.refresh_upstreams();
        }
        if batch.rescan {
            registry.reload();
        } else {
            registry.apply_changes(&batch.paths);
        }
        tracing::debug!(
            paths = batch.paths.len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "index updated from file events"
        );
        follow_replaced_roots(&registry, &watcher, &mut roots);
    }
}

/// When a root's path names another folder than it did (or none), watches what it names
/// now and reads the whole index again.
fn follow_replaced_roots(
    registry: &Registry,
    watcher: &Weak<Mutex<RecommendedWatcher>>,
    roots: &mut Vec<(PathBuf, Option<(u64, u64)>)>,
) {
    let now = root_ids(registry);
    if now == *roots {
        return;
    }
    tracing::debug!("a root folder was replaced or removed; reading the whole index again");
    let dirs: Vec<PathBuf> = now.iter().map(|(d, _)| d.clone()).collect();
    watch_new(watcher, registry, &dirs);
    if let Some(watcher) = watcher.upgrade() {
        watch_settings(
            &mut watcher.lock().unwrap_or_else(|e| e.into_inner()),
            registry,
        );
    }
    registry.refresh_policy();
    registry.reload();
    *roots = now;
}
