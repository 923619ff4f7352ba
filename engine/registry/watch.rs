//! Live reload: a file watcher over the world and the library directories that feeds
//! changed paths, debounced, into [`Registry::apply_changes`].
//!
//! Readers never see a half-updated index: each batch builds a new snapshot and swaps it
//! in whole. A running script keeps the snapshot it started with.

use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::Registry;

/// How long the watcher waits for the file events of one edit to stop arriving.
pub const QUIET: Duration = Duration::from_millis(20);

/// The longest a batch is held back while events keep arriving.
pub const MAX_DELAY: Duration = Duration::from_millis(100);

/// The watcher could not start.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
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
pub struct Watcher {
    watcher: Option<RecommendedWatcher>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").finish_non_exhaustive()
    }
}

impl Watcher {
    /// Watches every root on disk of `registry` recursively.
    pub fn start(registry: &Arc<Registry>) -> Result<Watcher, WatchError> {
        let (tx, rx) = channel::<notify::Result<Event>>();
        let mut watcher = notify::recommended_watcher(tx).map_err(|source| WatchError::Watch {
            path: registry.world().to_path_buf(),
            source,
        })?;
        for root in registry.roots().iter().filter_map(|r| r.dir()) {
            watcher
                .watch(root, RecursiveMode::Recursive)
                .map_err(|source| WatchError::Watch {
                    path: root.to_path_buf(),
                    source,
                })?;
        }
        let weak = Arc::downgrade(registry);
        let thread = std::thread::Builder::new()
            .name("codemode-watch".into())
            .spawn(move || run(weak, rx))?;
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

/// Collects events until they stop for [`QUIET`] (at most [`MAX_DELAY`]), then applies them.
fn run(registry: Weak<Registry>, rx: Receiver<notify::Result<Event>>) {
    while let Ok(first) = rx.recv() {
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
    }
}
