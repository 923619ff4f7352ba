//! Discovery: keyword and semantic search over every tool, toolbox and workflow.
//!
//! [`SearchService`] keeps a tantivy index and an int8 vector per asset from the bundled
//! static models. For a world it persists both under `.codemode/cache/search/`
//! (`store.rs`), so a new process on an unchanged world re-indexes nothing. It follows the
//! asset index lazily and incrementally: each search names the snapshot it runs on, and
//! when that is not the one last indexed, only the assets whose stamps changed are
//! re-indexed (the reader is reloaded right after commit, so a change is searchable at
//! once).

mod bpe;
mod changes;
mod document;
mod embed;
mod keyword;
mod meaning;
mod parts;
mod rank;
mod relevance;
mod request;
mod store;
mod surface;
mod table;
mod wordpiece;
pub(crate) mod words;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::assets::AssetIndex;
use crate::upstream::ServerView;

pub(crate) use document::AssetType;
pub(crate) use embed::StaticModel;
pub(crate) use keyword::Tuning;
pub(crate) use meaning::{Bundled, Meaning};
pub(crate) use rank::SearchResult;
pub(crate) use request::{BadRequest, Given, Mode, SearchError, SearchRequest, MAX_LIMIT};

use keyword::KeywordIndex;
#[cfg(feature = "bench")]
pub(crate) use meaning::join_vectors;
#[cfg(feature = "bench")]
pub(crate) use rank::Fusion;
use store::Store;
use table::Table;
#[cfg(feature = "bench")]
pub(crate) use table::VectorScan;

/// A change of more assets than this is followed by merging the keyword index into one
/// segment (see [`KeywordIndex::compact`]).
const COMPACT_AFTER: usize = 1000;

/// How many times one search may rebuild: on disk once, then in RAM.
const ATTEMPTS: usize = 3;

/// The indexed state: the tantivy index, the asset table, and the snapshot they follow.
struct State {
    keyword: KeywordIndex,
    table: Table,
    snapshot: Option<Arc<AssetIndex>>,
    /// What the upstream docs were built from (see [`upstream_key`]).
    upstream: String,
    /// The snapshot's toolbox names and the upstream servers', by lower-cased name:
    /// what a request may name as a service (built once per snapshot, not per query).
    services: rank::ServiceNames,
    /// The generation on disk this state is (`None`: in RAM for this process only).
    generation: Option<String>,
}

/// The search index on disk being read on another thread while a fresh process reads its
/// world: on a world of 100,000 tools, opening the index and reading the vector table was
/// a sixth of the first search, on one core while the other had nothing to do.
pub(crate) struct Preload {
    started: std::thread::JoinHandle<Preloaded>,
}

/// What a [`Preload`] found.
enum Preloaded {
    State(Box<State>),
    /// Another process held the index for the whole wait: the first search does not wait
    /// again (the two waits together would be twice [`store::LOCK_WAIT`]).
    Busy,
    Nothing,
}

impl Preload {
    /// Starts reading the index of `world`, when one was written there before.
    pub(crate) fn start(world: &Path) -> Option<Preload> {
        let store = Store::existing(world)?;
        // The tables' tokenizers take about 15 ms to read: the first search by meaning
        // needs them, and this thread's reading of the index need not wait for them.
        let _ = std::thread::Builder::new()
            .name("codemode-search-models".to_string())
            .spawn(|| {
                StaticModel::minilm();
                StaticModel::wordllama();
            });
        let started = std::thread::Builder::new()
            .name("codemode-search-preload".to_string())
            .spawn(move || {
                let Some(turn) = store.turn() else {
                    return Preloaded::Busy;
                };
                // A damaged index may panic in tantivy: the first search rebuilds it.
                let state = catch_unwind(AssertUnwindSafe(|| {
                    on_disk(&Tuning::default(), &store, &turn)
                }));
                match state {
                    // An index that must be rebuilt is left to the first search, which
                    // holds its turn for the whole rebuild.
                    Ok(Some(state))
                        if state.generation.as_deref().is_some_and(|g| !g.is_empty()) =>
                    {
                        Preloaded::State(Box::new(state))
                    }
                    _ => Preloaded::Nothing,
                }
            })
            .ok()?;
        Some(Preload { started })
    }

    /// What was read.
    fn finish(self) -> Preloaded {
        self.started.join().unwrap_or(Preloaded::Nothing)
    }
}

impl std::fmt::Debug for Preload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Preload").finish_non_exhaustive()
    }
}

/// Search over an asset index, kept in sync lazily and incrementally.
pub(crate) struct SearchService {
    state: Mutex<Option<State>>,
    /// Taken by the first sync (see [`Preload`]).
    preload: Mutex<Option<Preload>>,
    store: Option<Store>,
    /// Set when the index on disk failed even after a rebuild: this process goes on in RAM.
    disk_failed: AtomicBool,
    tuning: Tuning,
    fusion: rank::Fusion,
    /// The bundled static model, unless the evaluation gave another.
    meaning: Arc<dyn Meaning>,
}

impl std::fmt::Debug for SearchService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchService").finish_non_exhaustive()
    }
}

impl Default for SearchService {
    fn default() -> SearchService {
        SearchService::new()
    }
}

impl SearchService {
    /// An empty service in RAM; the index is built on the first search.
    pub(crate) fn new() -> SearchService {
        SearchService::with_tuning(Tuning::default(), rank::Fusion::default())
    }

    /// A service that keeps its index in the cache of `world`, which holds `tools` tools
    /// on disk (in RAM when the world is too small to want a cache, see
    /// [`crate::cache::wanted`], or cannot hold one).
    pub(crate) fn for_world(world: &Path, tools: usize) -> SearchService {
        SearchService {
            store: Store::open(world, tools),
            ..SearchService::new()
        }
    }

    /// The same service starting from what `preload` read (checked against the disk by the
    /// first search, as any state read earlier is).
    pub(crate) fn with_preload(self, preload: Option<Preload>) -> SearchService {
        match (&self.store, preload) {
            (Some(_), Some(preload)) => SearchService {
                preload: Mutex::new(Some(preload)),
                ..self
            },
            _ => self,
        }
    }

    /// A service with other weights (for the evaluation), in RAM.
    pub(crate) fn with_tuning(tuning: Tuning, fusion: rank::Fusion) -> SearchService {
        SearchService {
            state: Mutex::new(None),
            preload: Mutex::new(None),
            store: None,
            disk_failed: AtomicBool::new(false),
            tuning,
            fusion,
            meaning: Arc::new(Bundled::default()),
        }
    }

    /// The same service ranking by another meaning model (for the evaluation), in RAM:
    /// vectors cached on disk are the bundled model's.
    #[cfg(any(test, feature = "bench"))]
    pub(crate) fn with_meaning(self, meaning: Arc<dyn Meaning>) -> SearchService {
        SearchService {
            store: None,
            preload: Mutex::new(None),
            meaning,
            ..self
        }
    }

    /// Brings the index up to `index`; returns how many assets were re-indexed and removed.
    #[cfg(feature = "bench")]
    pub(crate) fn sync(&self, index: &Arc<AssetIndex>) -> Result<(usize, usize), SearchError> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.recovering(&mut guard, |state| self.sync_locked(state, index, &[]))
    }

    /// The store in use: none in RAM, or once the one on disk failed after a rebuild.
    fn store(&self) -> Option<&Store> {
        self.store
            .as_ref()
            .filter(|_| !self.disk_failed.load(Ordering::Relaxed))
    }

    /// Runs `work` on the state. The index on disk is a file anyone can damage, and tantivy
    /// answers some damage with an error and some with a panic: either, from a state on
    /// disk, wipes the index and runs `work` again on one rebuilt from the assets; a
    /// second failure goes on in RAM for this process. A panic is caught before `state`
    /// is unlocked, so the mutex is not poisoned, and the dropped state lets go of its
    /// writer and files.
    fn recovering<T>(
        &self,
        state: &mut Option<State>,
        mut work: impl FnMut(&mut Option<State>) -> Result<T, SearchError>,
    ) -> Result<T, SearchError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| work(&mut *state)));
            let on_disk = self.store().is_some();
            let why = match outcome {
                Ok(Ok(done)) => return Ok(done),
                Ok(Err(SearchError::Index(e))) if on_disk && attempt < ATTEMPTS => e.to_string(),
                Ok(Err(e)) => return Err(e),
                Err(panic) if on_disk && attempt < ATTEMPTS => panic_message(&*panic),
                Err(panic) => return Err(SearchError::Panicked(panic_message(&*panic))),
            };
            *state = None;
            let wiped = attempt == 1
                && self.store().is_some_and(|store| match store.turn() {
                    Some(turn) => store.wipe(&turn),
                    None => false,
                });
            if wiped {
                tracing::warn!("the search index on disk was damaged ({why}); rebuilding it");
            } else {
                tracing::warn!("the search index on disk failed ({why}); indexing in RAM");
                self.disk_failed.store(true, Ordering::Relaxed);
            }
        }
    }

    /// A state in RAM, empty.
    fn in_ram(&self) -> Result<State, SearchError> {
        Ok(State {
            keyword: KeywordIndex::new(self.tuning.clone())?,
            table: Table::new(self.meaning.dims()),
            snapshot: None,
            upstream: String::new(),
            services: rank::ServiceNames::default(),
            generation: None,
        })
    }

    fn sync_locked(
        &self,
        guard: &mut Option<State>,
        index: &Arc<AssetIndex>,
        upstream: &[ServerView],
    ) -> Result<(usize, usize), SearchError> {
        let upstream_now = upstream_key(upstream);
        if guard.as_ref().is_some_and(|s| {
            s.snapshot.as_ref().is_some_and(|s| Arc::ptr_eq(s, index)) && s.upstream == upstream_now
        }) {
            return Ok((0, 0));
        }
        let mut wait = store::LOCK_WAIT;
        if guard.is_none() {
            let preload = self
                .preload
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            match preload.map(Preload::finish) {
                Some(Preloaded::State(state)) => *guard = Some(*state),
                Some(Preloaded::Busy) => wait = std::time::Duration::ZERO,
                _ => {}
            }
        }
        let turn = self.store().and_then(|s| s.turn_within(wait));
        let persisted = guard.as_ref().is_some_and(|s| s.generation.is_some());
        let stale = match (&turn, guard.as_ref()) {
            (_, None) => true,
            // Another process may have committed since (the commit's payload names its
            // generation): follow the disk, not memory.
            (Some(_), Some(state)) if persisted => state.keyword.payload() != state.generation,
            // Indexed on disk but the lock is not ours now: go on in RAM.
            (None, Some(_)) => persisted,
            _ => false,
        };
        if stale {
            let state = match (self.store(), &turn) {
                (Some(store), Some(turn)) => on_disk(&self.tuning, store, turn),
                _ => None,
            };
            *guard = Some(match state {
                Some(state) => state,
                None => self.in_ram()?,
            });
        }
        let state = guard.as_mut().expect("just set");
        let changes = changes::diff(state.snapshot.as_ref(), &state.table, index, upstream);
        let counts = (changes.upserts.len(), changes.deletes.len());
        let unwritten = state.generation.as_deref() == Some("");
        if counts != (0, 0) || unwritten {
            let model = &*self.meaning;
            for key in &changes.deletes {
                state.keyword.delete(key)?;
                state.table.remove(key);
            }
            let prepared: Vec<_> = crate::assets::parse_pool().install(|| {
                changes
                    .upserts
                    .par_iter()
                    .map(|(doc, _)| (state.keyword.document(doc), doc.meaning(model)))
                    .collect()
            });
            for ((doc, stamp), (tantivy_doc, vector)) in changes.upserts.iter().zip(prepared) {
                state.keyword.add(&doc.key, tantivy_doc)?;
                state
                    .table
                    .put(&doc.key, doc.asset_type, *stamp, vector.as_deref());
            }
            match (self.store(), &turn, &state.generation) {
                (Some(store), Some(turn), Some(_)) => {
                    let generation = store::new_generation();
                    state.keyword.commit(&generation)?;
                    if let Err(e) = store.write_table(turn, &generation, &state.table) {
                        tracing::debug!("search table not written: {e}");
                    }
                    state.generation = Some(generation);
                }
                _ => state.keyword.commit("")?,
            }
            // Only queries are faster for it: a merge that fails leaves the segments as
            // they were committed, all searchable.
            if counts.0 > COMPACT_AFTER {
                if let Err(e) = state.keyword.compact() {
                    tracing::debug!("the keyword index was not merged into one segment: {e}");
                }
            }
            tracing::debug!(
                upserts = counts.0,
                deletes = counts.1,
                assets = state.table.len(),
                on_disk = state.generation.is_some(),
                "search index updated"
            );
        }
        state.services = rank::ServiceNames::of(index, upstream);
        state.snapshot = Some(index.clone());
        state.upstream = upstream_now;
        if counts.0 > 1000 {
            crate::cache::release_freed_memory();
        }
        Ok(counts)
    }

    /// Runs one search over `index` (syncing first when it is a new snapshot).
    #[cfg(any(test, feature = "bench"))]
    pub(crate) fn search(
        &self,
        index: &Arc<AssetIndex>,
        request: &SearchRequest,
    ) -> Result<SearchResult, SearchError> {
        self.search_with(index, &[], request)
    }

    /// Runs one search over `index` and the cached catalogues of the `upstream` servers
    /// (their tools rank with the others, `from = "mcp:<server>"`); no server is started.
    pub(crate) fn search_with(
        &self,
        index: &Arc<AssetIndex>,
        upstream: &[ServerView],
        request: &SearchRequest,
    ) -> Result<SearchResult, SearchError> {
        if let Some(b) = &request.toolbox {
            if !index.has_toolbox(b) && !upstream.iter().any(|v| v.name == *b) {
                return Err(SearchError::UnknownToolbox(b.chars().take(80).collect()));
            }
        }
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.recovering(&mut guard, |state| {
            self.sync_locked(state, index, upstream)?;
            let state = state.as_ref().expect("synced");
            let ctx = rank::Context {
                keyword: &state.keyword,
                table: &state.table,
                index,
                upstream,
                services: &state.services,
                fusion: &self.fusion,
                tuning: &self.tuning,
                meaning: &*self.meaning,
            };
            ctx.search(request)
        })
    }
}

/// What the upstream docs depend on: each server's name and when its catalogue was
/// fetched. A sync or a `tools/list_changed` refresh changes it; nothing else does.
fn upstream_key(upstream: &[ServerView]) -> String {
    upstream
        .iter()
        .map(|v| {
            let fetched = v.catalogue.as_ref().map_or(0, |c| c.fetched_at_ms);
            format!("{}@{fetched}/{};", v.name, v.tools().len())
        })
        .collect()
}

/// What a caught panic said.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// The state on disk (empty and marked for a full build when missing, damaged or
/// written by another version), or `None` when it cannot be opened.
fn on_disk(tuning: &Tuning, store: &Store, turn: &store::Turn) -> Option<State> {
    let dims = Bundled::default().dims();
    let open = || KeywordIndex::open(tuning.clone(), Some(&store.index_dir()));
    if !store.index_is_plain() {
        tracing::debug!("search index cache holds what no index writes; rebuilt");
        store.wipe_index(turn);
    }
    let mut keyword = match open() {
        Ok(k) => k,
        Err(e) => {
            tracing::debug!("search index cache unreadable ({e}); rebuilt");
            store.wipe_index(turn);
            open().ok()?
        }
    };
    let payload = keyword.payload();
    match store.read_table(turn, dims) {
        Some((generation, table)) if payload.as_deref() == Some(generation.as_str()) => {
            Some(State {
                keyword,
                table,
                snapshot: None,
                upstream: String::new(),
                services: rank::ServiceNames::default(),
                generation: Some(generation),
            })
        }
        _ => {
            keyword.clear().ok()?;
            Some(State {
                keyword,
                table: Table::new(dims),
                snapshot: None,
                upstream: String::new(),
                services: rank::ServiceNames::default(),
                // Matches no commit: the next sync writes everything.
                generation: Some(String::new()),
            })
        }
    }
}

/// Removes the search index `world` keeps on disk (taking its turn, so no process is
/// halfway through writing it); true when there was one. The next search rebuilds it.
pub(crate) fn clear_cache(world: &Path) -> std::io::Result<bool> {
    let Some(store) = Store::at(world) else {
        return Ok(false);
    };
    let Some(turn) = store.turn() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::WouldBlock,
            "another process is updating the search index; try again when it is done",
        ));
    };
    if store.wipe(&turn) {
        Ok(true)
    } else {
        Err(std::io::Error::other(format!(
            "{} could not be emptied; remove that folder by hand",
            store.index_dir().display()
        )))
    }
}
