//! Discovery: keyword and semantic search over every tool, toolbox and workflow.
//!
//! [`SearchService`] keeps a tantivy index in RAM and a vector per asset from the
//! bundled static model. It follows the asset index lazily and incrementally: each
//! search names the snapshot it runs on, and when that is not the one last indexed,
//! only the assets that changed are re-indexed (one long-lived writer; the reader is
//! reloaded right after commit, so a change is searchable at once).

mod document;
mod embed;
mod keyword;
mod rank;
mod request;
mod surface;
mod wordpiece;
pub mod words;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::assets::AssetIndex;
use crate::upstream::ServerView;

pub use document::{AssetDoc, AssetType, Role};
pub use embed::StaticModel;
pub use keyword::Tuning;
pub use rank::{Matched, Row};
pub use request::{
    BadRequest, Given, Mode, SearchRequest, DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_BYTES,
};

use keyword::KeywordIndex;

/// What a search found.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResult {
    /// The best `limit` rows.
    pub rows: Vec<Row>,
    /// How many assets matched in all.
    pub total: usize,
    /// The mode that ranked them.
    pub mode: Mode,
}

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// `toolbox` names no toolbox.
    #[error("no toolbox named '{0}'")]
    UnknownToolbox(String),
    /// The index failed (a bug: report it).
    #[error("the search index failed: {0}; this is a bug, please report it")]
    Index(#[from] tantivy::TantivyError),
}

/// The indexed state: the tantivy index, the docs and vectors, and the snapshot they follow.
struct State {
    keyword: KeywordIndex,
    docs: BTreeMap<String, AssetDoc>,
    vectors: HashMap<String, Vec<f32>>,
    snapshot: Option<Arc<AssetIndex>>,
    /// What the upstream docs were built from (see [`upstream_key`]).
    upstream: String,
}

/// Search over an asset index, kept in sync lazily and incrementally.
pub struct SearchService {
    state: Mutex<Option<State>>,
    tuning: Tuning,
    fusion: rank::Fusion,
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
    /// An empty service; the index is built on the first search.
    pub fn new() -> SearchService {
        SearchService::with_tuning(Tuning::default(), rank::Fusion::default())
    }

    /// A service with other weights (for the evaluation).
    pub fn with_tuning(tuning: Tuning, fusion: rank::Fusion) -> SearchService {
        SearchService {
            state: Mutex::new(None),
            tuning,
            fusion,
        }
    }

    /// Brings the index up to `index`; returns how many assets were re-indexed and removed.
    pub fn sync(&self, index: &Arc<AssetIndex>) -> Result<(usize, usize), SearchError> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.sync_locked(&mut guard, index, &[])
    }

    fn sync_locked(
        &self,
        guard: &mut Option<State>,
        index: &Arc<AssetIndex>,
        upstream: &[ServerView],
    ) -> Result<(usize, usize), SearchError> {
        if guard.is_none() {
            *guard = Some(State {
                keyword: KeywordIndex::new(self.tuning.clone())?,
                docs: BTreeMap::new(),
                vectors: HashMap::new(),
                snapshot: None,
                upstream: String::new(),
            });
        }
        let state = guard.as_mut().expect("just set");
        let key = upstream_key(upstream);
        if state
            .snapshot
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(s, index))
            && state.upstream == key
        {
            return Ok((0, 0));
        }
        let upstream_docs = upstream
            .iter()
            .flat_map(AssetDoc::upstream)
            .chain(surface::surface_docs())
            .collect();
        let changes = document::diff(state.snapshot.as_ref(), &state.docs, index, upstream_docs);
        let counts = (changes.upserts.len(), changes.deletes.len());
        if counts != (0, 0) {
            let model = StaticModel::bundled();
            for key in &changes.deletes {
                state.keyword.delete(key);
                state.docs.remove(key);
                state.vectors.remove(key);
            }
            for doc in changes.upserts {
                state.keyword.upsert(&doc)?;
                match model.embed(&doc.meaning_text()) {
                    Some(v) => state.vectors.insert(doc.key.clone(), v),
                    None => state.vectors.remove(&doc.key),
                };
                state.docs.insert(doc.key.clone(), doc);
            }
            state.keyword.commit()?;
            tracing::debug!(
                upserts = counts.0,
                deletes = counts.1,
                "search index updated"
            );
        }
        state.snapshot = Some(index.clone());
        state.upstream = key;
        Ok(counts)
    }

    /// Runs one search over `index` (syncing first when it is a new snapshot).
    pub fn search(
        &self,
        index: &Arc<AssetIndex>,
        request: &SearchRequest,
    ) -> Result<SearchResult, SearchError> {
        self.search_with(index, &[], request)
    }

    /// Runs one search over `index` and the cached catalogues of the `upstream` servers
    /// (their tools rank with the others, `from = "mcp:<server>"`); no server is started.
    pub fn search_with(
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
        self.sync_locked(&mut guard, index, upstream)?;
        let state = guard.as_ref().expect("synced");
        let ctx = rank::Context {
            keyword: &state.keyword,
            docs: &state.docs,
            vectors: &state.vectors,
            fusion: &self.fusion,
            tuning: &self.tuning,
        };
        ctx.search(request)
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

pub use rank::Fusion;
