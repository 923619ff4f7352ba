//! The asset index: every toolbox and tool found under the world and the libraries.
//!
//! The index is an immutable snapshot. A run holds the snapshot it started with;
//! a reload builds a new one and swaps it in whole.

mod cache;
mod callsig;
mod compile;
mod compiler;
mod docstring;
mod folder;
mod metadata;
mod model;
pub mod names;
mod parse;
mod root;
mod signature;
mod stamp;
mod tool;
mod update;

use std::sync::Arc;

use imbl::OrdMap;
use rayon::prelude::*;
use serde::Serialize;

pub use callsig::call_signature;
pub use compile::{compile, compiler, MAX_SOURCE_BYTES};
pub use docstring::Docstring;
pub use metadata::{
    parse_cache, parse_limits, readme_purpose, CachePolicy, Metadata, ToolLimits, MAX_TAGS,
    MAX_TAG_CHARS,
};
pub use model::{
    Arg, BoxKind, Bytecode, Flag, Module, Origin, Registration, Returns, ToolEntry, ToolMeta,
    ToolboxFolder,
};
pub use parse::{with_luau, with_luau_within, ParseError, MAX_DEPTH};
pub use root::{FileSet, Root, RootSource};
pub use signature::{read_signature, Returned};

use cache::AssetCache;
use folder::load_folder;
use tool::ToolLocation;

/// Stack for the threads that parse tools: `full_moon` recurses deeply (a debug build
/// spends up to 256 KiB a level, so [`MAX_DEPTH`] levels need about 50 MiB), and a
/// stack overflow aborts the whole process. Only the pages a parse touches are used.
const PARSE_STACK_BYTES: usize = 256 << 20;

/// Up to this many tools are indexed on the calling thread (see [`AssetIndex::build`]).
const SERIAL_TOOLS: usize = 64;

/// The thread pool that reads tools, with stacks big enough for the parser.
pub(crate) fn parse_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .stack_size(PARSE_STACK_BYTES)
            .thread_name(|i| format!("codemode-index-{i}"))
            .build()
            .expect("cannot start the indexing threads")
    })
}

/// Reads and compiles `entries` (each once) on the indexing threads, in parallel.
///
/// Parallel work over tools must run inside [`parse_pool`]: a worker of another rayon pool
/// that reads a tool would `install` into this pool and, while it waits, steal more of
/// its own jobs onto the same stack, a recursion that grows with the number of tools and
/// overflowed the stack from about 2,000 tools.
pub(crate) fn prepare(entries: &[&Arc<ToolEntry>]) {
    parse_pool().install(|| {
        entries.par_iter().for_each(|e| {
            e.is_registered();
        })
    });
}

/// Identifies a toolbox folder: the index of its root and its path below that root.
pub(crate) type FolderKey = (usize, String);

/// Identifies a tool folder: its toolbox folder and its own folder name (`slugify.tool`).
pub(crate) type ToolKey = (FolderKey, String);

/// One row of `tools.toolboxes()`: toolboxes of the same name are merged.
#[derive(Debug, Clone, Serialize)]
pub struct ToolboxSummary {
    /// The toolbox name.
    pub toolbox: String,
    /// What it is for.
    pub purpose: String,
    /// How many tools it holds (registered or not).
    #[serde(rename = "toolCount")]
    pub tool_count: usize,
    /// Toolbox or workflow.
    pub kind: BoxKind,
    /// Where the folder that speaks for the toolbox was found.
    pub from: Origin,
    /// True when that folder is the world's and a library holds a toolbox of the same
    /// name: the world's tools replace the library's of the same name, the library's
    /// other tools still show through.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shadows: bool,
}

/// A snapshot of every asset the engine can see.
#[derive(Debug, Clone, Default)]
pub struct AssetIndex {
    /// The roots, world first, then libraries in precedence order.
    pub roots: Arc<Vec<Root>>,
    /// Every toolbox folder, by key.
    pub folders: OrdMap<FolderKey, Arc<ToolboxFolder>>,
    /// Every tool by identity; the world shadows the library.
    pub tools: OrdMap<String, Arc<ToolEntry>>,
    /// Problems that are not one tool's: duplicate identities, bad toolbox folders.
    pub problems: Vec<String>,
    /// Every tool folder read, shadowed or not, by location: what incremental updates diff.
    located: OrdMap<ToolKey, Arc<ToolEntry>>,
    /// Identities defined twice in one root, with the message for `problems`.
    duplicates: OrdMap<String, String>,
}

impl AssetIndex {
    /// Walks every root and reads every toolbox and tool (tools in parallel). Tool folders
    /// that did not change since the world's index cache was written are taken from it;
    /// when anything changed, the cache is written again (reading, parsing and compiling
    /// the new tools first, so the next process does not).
    pub fn build(roots: Arc<Vec<Root>>) -> AssetIndex {
        let started = std::time::Instant::now();
        let cache = AssetCache::open(&roots);
        let opened = started.elapsed();
        let root_keys: Vec<String> = roots.iter().map(cache::root_key).collect();
        let mut folders = OrdMap::new();
        let mut groups = Vec::new();
        for (root_index, root) in roots.iter().enumerate() {
            for rel in root.toolbox_dirs() {
                let folder = load_folder(root_index, root, &rel);
                let key: FolderKey = (root_index, rel.clone());
                let tools = root.child_dirs(&rel, ".tool");
                groups.push((key.clone(), folder.name.clone(), tools));
                folders.insert(key, Arc::new(folder));
            }
        }
        let walked = started.elapsed();
        // By toolbox folder: its tools' files are looked at relative to it.
        let read_group = |(key, toolbox, dir_names): &(FolderKey, String, Vec<String>)| {
            let root = &roots[key.0];
            let cached = cache.as_ref().and_then(|c| c.root(&root_keys[key.0]));
            let folder = cached
                .and_then(|_| root.dir())
                .and_then(|d| stamp::Folder::open(&d.join(&key.1)));
            dir_names
                .iter()
                .map(|dir_name| {
                    let at = ToolLocation {
                        roots: &roots,
                        root,
                        folder: key,
                        toolbox,
                        dir_name,
                    };
                    let hit = cached.and_then(|c| c.get(&format!("{}/{dir_name}", key.1)));
                    let (entry, same) = cache::reuse(hit, &at, folder.as_ref());
                    ((key.clone(), dir_name.clone()), entry, same)
                })
                .collect::<Vec<_>>()
        };
        // A few tools (the bundled ones, a small world) are read faster than the indexing
        // threads start: a one-line script in a fresh process should not pay for them.
        let count: usize = groups.iter().map(|g| g.2.len()).sum();
        let entries: Vec<(ToolKey, ToolEntry, bool)> = if count <= SERIAL_TOOLS {
            groups.iter().flat_map(read_group).collect()
        } else {
            parse_pool().install(|| groups.par_iter().flat_map_iter(read_group).collect())
        };
        let read = started.elapsed();
        let reused = entries.iter().filter(|e| e.2).count();
        let mut index = AssetIndex {
            roots,
            folders,
            ..AssetIndex::default()
        };
        for (key, entry, _) in entries {
            index.located.insert(key, Arc::new(entry));
        }
        let all: Vec<Arc<ToolEntry>> = index.located.values().cloned().collect();
        for entry in all {
            index.insert(entry);
        }
        index.collect_problems();
        if let Some(cache) = cache {
            let present = cache.count_for(&root_keys);
            if reused != index.located.len() || present != reused {
                let located: Vec<&Arc<ToolEntry>> = index.located.values().collect();
                cache.save(&index.roots, &located);
            }
        }
        tracing::debug!(
            tools = index.located.len(),
            reused,
            cache_ms = opened.as_secs_f64() * 1e3,
            walk_ms = walked.as_secs_f64() * 1e3,
            read_ms = read.as_secs_f64() * 1e3,
            ms = started.elapsed().as_secs_f64() * 1e3,
            "asset index built"
        );
        index
    }

    /// Adds a tool unless one of higher precedence already holds its identity.
    /// Tools must arrive in location order (root, then folder path).
    fn insert(&mut self, entry: Arc<ToolEntry>) {
        match self.tools.get(&entry.identity) {
            Some(existing) if existing.folder.0 < entry.folder.0 => {}
            Some(existing) if existing.folder.0 == entry.folder.0 => {
                let message = format!(
                    "{} is defined twice: {} is used and {} is ignored; rename or remove one",
                    entry.identity,
                    existing.path(),
                    entry.path()
                );
                self.duplicates.insert(entry.identity.clone(), message);
            }
            _ => {
                self.tools.insert(entry.identity.clone(), entry);
            }
        }
    }

    /// Rebuilds `problems` from the duplicates and the folders' warnings.
    fn collect_problems(&mut self) {
        self.problems = self.duplicates.values().cloned().collect();
        for folder in self.folders.values() {
            self.problems.extend(folder.warnings.iter().map(|w| {
                format!("{}: {w}", self.roots[folder.root].display("")).replace("/: ", ": ")
            }));
        }
    }

    /// The tool with this identity (`box.name`), registered or not.
    pub fn tool(&self, identity: &str) -> Option<&Arc<ToolEntry>> {
        self.tools.get(identity)
    }

    /// Every tool of one toolbox, in name order.
    pub fn tools_in<'a>(
        &'a self,
        toolbox: &'a str,
    ) -> impl Iterator<Item = &'a Arc<ToolEntry>> + 'a {
        let start = format!("{toolbox}.");
        self.tools
            .range(start.clone()..)
            .take_while(move |(id, _)| id.starts_with(&start))
            .map(|(_, t)| t)
            .filter(move |t| t.toolbox() == toolbox)
    }

    /// True when some folder or tool carries this toolbox name.
    pub fn has_toolbox(&self, name: &str) -> bool {
        self.folders.values().any(|f| f.name == name)
    }

    /// The folder that speaks for a toolbox name: the one of highest precedence.
    pub fn toolbox(&self, name: &str) -> Option<&Arc<ToolboxFolder>> {
        self.folders
            .values()
            .filter(|f| f.name == name)
            .min_by_key(|f| (f.root, f.path.clone()))
    }

    /// The folder a tool lives in.
    pub fn folder(&self, key: &FolderKey) -> Option<&Arc<ToolboxFolder>> {
        self.folders.get(key)
    }

    /// Toolbox names, sorted and unique.
    pub fn toolbox_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.folders.values().map(|f| f.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// One summary per toolbox name, sorted by name.
    pub fn toolboxes(&self) -> Vec<ToolboxSummary> {
        self.toolbox_names()
            .into_iter()
            .filter_map(|name| {
                let folder = self.toolbox(name)?;
                let mut same: Vec<&Arc<ToolboxFolder>> =
                    self.folders.values().filter(|f| f.name == name).collect();
                same.sort_by_key(|f| (f.root, f.path.clone()));
                // A copy without a purpose of its own still says what the toolbox is for.
                let purpose = same
                    .iter()
                    .map(|f| f.purpose.as_str())
                    .find(|p| !p.is_empty())
                    .unwrap_or_default();
                Some(ToolboxSummary {
                    toolbox: name.to_string(),
                    purpose: purpose.to_string(),
                    tool_count: self.tools_in(name).count(),
                    kind: folder.kind,
                    from: folder.origin,
                    shadows: folder.origin == Origin::World
                        && same.iter().any(|f| f.origin == Origin::Library),
                })
            })
            .collect()
    }
}
