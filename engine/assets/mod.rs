//! The asset index: every toolbox and tool found under the world and the libraries.
//!
//! The index is an immutable snapshot. A run holds the snapshot it started with;
//! a reload builds a new one and swaps it in whole.

mod cache;
mod callsig;
mod codec;
mod compile;
mod compiler;
mod docstring;
mod file;
mod folder;
mod meta;
mod metadata;
mod model;
pub(crate) mod names;
mod parse;
mod root;
mod signature;
mod stamp;
pub(crate) use stamp::Seen;
mod tool;
mod update;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use imbl::OrdMap;
use rayon::prelude::*;
use serde::Serialize;

pub(crate) use compile::nul_problem;
#[cfg(test)]
pub(crate) use compile::PRECOMPILED;
pub(crate) use compile::{compile, compiler};
pub(crate) use docstring::{first_sentence, printable};
pub(crate) use file::{open_within, BOM};
pub(crate) use meta::{Arg, Flag, Origin, Returns, ToolMeta};
pub(crate) use metadata::{
    description_problem, json_kind, parse_cache, parse_limits, readme_purpose, CachePolicy,
    Metadata, ToolLimits, MAX_TAGS, MAX_TAG_CHARS,
};
pub(crate) use model::{
    BoxKind, Bytecode, FolderKey, Registration, ToolEntry, ToolKey, ToolMap, ToolboxFolder,
};
pub(crate) use parse::{parse_pool, with_luau, with_luau_within, ParseError};
pub(crate) use root::{read_folders, Root, RootSource, SKIPPED_DIRS};

use crate::policy::{Denial, ToolRules};

use cache::AssetCache;
#[cfg(test)]
pub(crate) use docstring::Docstring;
use folder::load_folder;
use model::ToolLocation;
#[cfg(test)]
pub(crate) use signature::read_signature;

/// Up to this many tools are indexed on the calling thread (see [`AssetIndex::build`]).
const SERIAL_TOOLS: usize = 64;

/// Up to this many toolbox folders are opened on the calling thread (the bundled library
/// holds nine).
const SERIAL_TOOLBOXES: usize = 16;

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

/// One toolbox folder being read by [`AssetIndex::build`]: its tool folders, the folder
/// open (their files are looked at relative to it) and what the cache holds of it.
struct Group<'a> {
    key: FolderKey,
    toolbox: String,
    tools: Vec<String>,
    open: Option<stamp::Folder>,
    cached: Option<&'a cache::CachedFolder>,
}

/// One row of `tools.toolboxes()`: toolboxes of the same name are merged.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ToolboxSummary {
    /// The toolbox name.
    pub toolbox: String,
    /// What it is for.
    pub purpose: String,
    /// How many tools it holds (registered or not).
    #[serde(rename = "toolCount")]
    pub(crate) tool_count: usize,
    /// Toolbox or workflow.
    pub(crate) kind: BoxKind,
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
pub(crate) struct AssetIndex {
    /// The roots, world first, then libraries in precedence order.
    pub(crate) roots: Arc<Vec<Root>>,
    /// Every toolbox folder, by key.
    pub folders: OrdMap<FolderKey, Arc<ToolboxFolder>>,
    /// Every tool by identity; the world shadows the library. Shared by the snapshots
    /// that have the same tools, copied when one changes (see [`ToolMap`]).
    pub tools: ToolMap<String>,
    /// Problems that are not one tool's: duplicate identities, bad toolbox folders.
    pub problems: Vec<String>,
    /// Every tool folder read, shadowed or not, by location: what incremental updates diff.
    located: ToolMap<ToolKey>,
    /// Identities defined twice in one root, with the message for `problems`.
    duplicates: OrdMap<String, String>,
    /// Symlinks named `*.toolbox` (root, relative path): not followed, reported.
    linked: Vec<(usize, String)>,
    /// Folders the walk for toolboxes could not list (root, relative path, why): reported.
    unlisted: Vec<(usize, String, String)>,
    /// The profile's tool rules, when they refuse something: tools they deny are left
    /// out of `tools` (see [`AssetIndex::restricted`]).
    rules: Option<Arc<ToolRules>>,
    /// Toolbox names whose folders hold only denied tools, or none while the rules deny
    /// the whole toolbox: every listing leaves them out.
    hidden: Arc<std::collections::BTreeSet<String>>,
    /// The folders of each toolbox name, in precedence order (root, then path): a lookup
    /// by name, which every call through `tools.<box>` makes, is not a walk over them all.
    by_name: OrdMap<String, Vec<FolderKey>>,
    /// The toolbox names configured MCP servers hold, each with the server's name as its
    /// file writes it: folders of these names are left out, so no folder (one a script
    /// wrote, say) answers for a server (see [`AssetIndex::reserving`]).
    reserved: Arc<BTreeMap<String, String>>,
    /// Folders given to local MCP servers (resolved), each with the server's name as its
    /// file writes it (see [`AssetIndex::serving`]).
    served: Arc<Vec<(PathBuf, String)>>,
    /// The toolbox folders inside those, with the folder and server that hold them: left
    /// out of `by_name` and of `tools`, named in `problems`.
    in_served: Arc<BTreeMap<FolderKey, (PathBuf, String)>>,
}

impl AssetIndex {
    /// Walks every root and reads every toolbox and tool (tools in parallel). Tool folders
    /// that did not change since the world's index cache was written are taken from it;
    /// when anything changed, the cache is written again (reading, parsing and compiling
    /// the new tools first, so the next process does not).
    pub(crate) fn build(roots: Arc<Vec<Root>>) -> AssetIndex {
        let started = std::time::Instant::now();
        let cache = AssetCache::open(&roots);
        let opened = started.elapsed();
        let root_keys: Vec<String> = roots.iter().map(cache::root_key).collect();
        let mut keys: Vec<FolderKey> = Vec::new();
        let mut linked = Vec::new();
        let mut unlisted = Vec::new();
        for (i, found) in roots.iter().map(Root::toolbox_dirs).enumerate() {
            keys.extend(found.dirs.into_iter().map(|rel| (i, rel.into())));
            linked.extend(found.links.into_iter().map(|rel| (i, rel)));
            unlisted.extend(found.unlisted.into_iter().map(|(rel, why)| (i, rel, why)));
        }
        let walked = started.elapsed();
        // One pass per toolbox folder: its own files and its list of tool folders (the
        // cached list while the folder looks as it did when that was listed, else listed
        // again), then its tools, looked at relative to the open folder. The folder is
        // closed before the next is opened: holding every toolbox folder open until its
        // tools were read kept 2,000 descriptors open on a large world, and each time the
        // process's descriptor table grew the kernel made every thread wait for it.
        let read_box = |key: &FolderKey| {
            let root = &roots[key.0];
            let cached = cache
                .as_ref()
                .and_then(|c| c.folder(&root_keys[key.0], &key.1));
            let open = root
                .dir()
                .and_then(|d| stamp::Folder::open(&d.join(&*key.1)));
            let looked = std::time::SystemTime::now();
            let seen = open.as_ref().and_then(stamp::Folder::seen_self);
            let listing = cache::Listing {
                seen,
                settled: seen.is_some_and(|s| stamp::settled(s, looked)),
            };
            let entries = cached
                .and_then(|c| c.entries_if_unchanged(&listing))
                .unwrap_or_else(|| root.toolbox_entries(&key.1));
            // A folder that could not be listed is listed again by the next process.
            let listing = cache::Listing {
                settled: listing.settled && entries.others.unlisted.is_none(),
                ..listing
            };
            let folder = load_folder(key.0, root, &key.1, &entries.others);
            let group = Group {
                key: key.clone(),
                toolbox: folder.name.clone(),
                tools: entries.tools,
                open,
                cached,
            };
            let tools = read_tools(&roots, group);
            (Arc::new(folder), (listing, entries.others), cached, tools)
        };
        let boxes: Vec<_> = if keys.len() <= SERIAL_TOOLBOXES {
            keys.iter().map(read_box).collect()
        } else {
            parse_pool().install(|| keys.par_iter().map(read_box).collect())
        };
        let read = started.elapsed();
        let mut folders = Vec::with_capacity(boxes.len());
        let mut listings = foldhash::HashMap::default();
        let mut relisted = false;
        let mut entries: Vec<(ToolKey, Arc<ToolEntry>, bool)> = Vec::new();
        for (key, (folder, listing, cached, tools)) in keys.into_iter().zip(boxes) {
            relisted |= cached.is_none_or(|c| c.listing != listing.0 || c.others != listing.1);
            listings.insert(key.clone(), listing);
            folders.push((key, folder));
            entries.extend(tools);
        }
        let reused = entries.iter().filter(|e| e.2).count();
        let mut index = AssetIndex {
            roots,
            linked,
            unlisted,
            ..AssetIndex::default()
        };
        for (key, folder) in folders {
            index.add_folder(key, folder);
        }
        let mut located: Vec<(ToolKey, Arc<ToolEntry>)> = entries
            .into_iter()
            .map(|(key, entry, _)| (key, entry))
            .collect();
        // In location order (world first), as updates insert them, so the same tool wins.
        // A small index (the bundled library alone) is sorted and mapped on this thread:
        // rayon's global pool would start a thread a core, in every fresh process, for
        // work of a few microseconds.
        let small = located.len() <= SERIAL_TOOLS;
        if small {
            located.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        } else {
            located.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        let (tools, duplicates) = by_identity(&located);
        // Both maps are built from sorted runs in one pass each (inserting 100,000 entries
        // one by one was the longest single-threaded stretch of a fresh process); the
        // location map takes the keys as they are.
        let by_location = || located.into_iter().collect::<BTreeMap<_, _>>();
        let by_identity = || {
            tools
                .into_iter()
                .map(|e| (e.identity.clone(), e))
                .collect::<BTreeMap<_, _>>()
        };
        let (by_location, tools) = if small {
            (by_location(), by_identity())
        } else {
            rayon::join(by_location, by_identity)
        };
        index.located = Arc::new(by_location);
        index.tools = Arc::new(tools);
        index.duplicates = duplicates;
        index.settle();
        if let Some(cache) = cache {
            let present = cache.count_for(&root_keys);
            if reused != index.located.len() || present != reused || relisted {
                let located: Vec<&Arc<ToolEntry>> = index.located.values().collect();
                cache.save(&index.roots, &located, &listings);
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

    /// The same snapshot as a profile with `rules` sees it: the tools they deny are gone
    /// from every listing, lookup and hint, and so are toolboxes left with no tool. Updates
    /// of the new snapshot ([`AssetIndex::apply`]) keep the rules.
    pub(crate) fn restricted(&self, rules: Arc<ToolRules>) -> AssetIndex {
        if rules.is_open() && self.rules.is_none() {
            return self.clone();
        }
        let mut next = self.clone();
        next.rules = (!rules.is_open()).then_some(rules);
        next.refit();
        next
    }

    /// The same snapshot with the toolbox names of the configured MCP servers (toolbox
    /// name, server name as written) reserved: a folder of such a name is left out of
    /// every listing and lookup, and named in `problems`, so the server answers for its
    /// name. Updates of the new snapshot keep the names.
    pub(crate) fn reserving(&self, servers: BTreeMap<String, String>) -> AssetIndex {
        if servers.is_empty() && self.reserved.is_empty() {
            return self.clone();
        }
        let mut next = self.clone();
        next.reserved = Arc::new(servers);
        next.refit();
        next
    }

    /// The same snapshot with the world's folders that local MCP servers are given
    /// (resolved path, server name as written): a toolbox folder inside one is what a server
    /// wrote, not a tool, so it is left out of every listing and lookup and named in
    /// `problems`; otherwise a script allowed only a file server's tools could plant a
    /// tool that another profile's scripts call. Updates of the new snapshot keep them.
    pub(crate) fn serving(&self, folders: Vec<(PathBuf, String)>) -> AssetIndex {
        if folders.is_empty() && self.served.is_empty() {
            return self.clone();
        }
        let mut next = self.clone();
        next.served = Arc::new(folders);
        next.refit();
        next
    }

    /// The folder given to a server, and that server, holding the toolbox folder `key`.
    fn served_holding(&self, key: &FolderKey) -> Option<(PathBuf, String)> {
        if self.served.is_empty() {
            return None;
        }
        let dir = self.roots[key.0].dir()?.join(&*key.1);
        let real = dir.canonicalize().unwrap_or(dir);
        self.served
            .iter()
            .find(|(folder, _)| real.starts_with(folder))
            .cloned()
    }

    /// The server whose toolbox name `name` is, as its configuration file writes it.
    pub(crate) fn reserved_by(&self, name: &str) -> Option<&str> {
        self.reserved.get(name).map(String::as_str)
    }

    /// Places every folder and tool again under the current rules, reserved names and
    /// served folders.
    fn refit(&mut self) {
        let in_served: BTreeMap<FolderKey, (PathBuf, String)> = self
            .folders
            .keys()
            .filter_map(|key| Some((key.clone(), self.served_holding(key)?)))
            .collect();
        self.by_name = OrdMap::new();
        for (key, folder) in &self.folders {
            if !in_served.contains_key(key) {
                self.by_name
                    .entry(folder.name.clone())
                    .or_default()
                    .push(key.clone());
            }
        }
        self.in_served = Arc::new(in_served);
        self.tools = Arc::default();
        self.duplicates = OrdMap::new();
        let all: Vec<Arc<ToolEntry>> = self.located.values().cloned().collect();
        for entry in all {
            self.insert(entry);
        }
        self.settle();
    }

    /// Why the profile refuses the tool `identity`, if it does.
    pub(crate) fn denial(&self, identity: &str) -> Option<Denial> {
        self.rules.as_ref()?.denial(identity)
    }

    /// Why the profile refuses every tool of `toolbox`, if it does.
    pub(crate) fn toolbox_denial(&self, toolbox: &str) -> Option<Denial> {
        self.rules.as_ref()?.toolbox_denial(toolbox)
    }

    /// True when the profile's rules (or a server's reserved name) leave something out.
    pub(crate) fn is_restricted(&self) -> bool {
        self.rules.is_some() || !self.hidden.is_empty()
    }

    /// True when a toolbox folder of this name exists but the profile hides it.
    pub(crate) fn hides_toolbox(&self, name: &str) -> bool {
        self.hidden.contains(name)
    }

    /// The world-relative folders (`box.toolbox/name.tool`) of the world's tools the
    /// profile denies: what `vfs` may not change under a profile that cannot see them.
    pub(crate) fn denied_world_folders(&self) -> Vec<String> {
        if self.rules.is_none() {
            return Vec::new();
        }
        self.located
            .values()
            .filter(|e| e.origin == Origin::World && self.denial(&e.identity).is_some())
            .map(|e| e.rel.clone())
            .collect()
    }

    /// True when some toolbox folder has this name, hidden by the profile or not.
    pub(crate) fn has_folder(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Recomputes what depends on the whole snapshot: problems and hidden toolboxes.
    fn settle(&mut self) {
        let mut hidden: std::collections::BTreeSet<String> = match &self.rules {
            None => Default::default(),
            Some(rules) => {
                let with_tools: std::collections::HashSet<&str> =
                    self.located.values().map(|e| e.toolbox()).collect();
                self.folders
                    .values()
                    .map(|f| f.name.as_str())
                    .filter(|name| match with_tools.contains(name) {
                        true => self.tools_in(name).next().is_none(),
                        false => rules.toolbox_denial(name).is_some(),
                    })
                    .map(str::to_string)
                    .collect()
            }
        };
        hidden.extend(
            self.reserved
                .keys()
                .filter(|name| self.by_name.contains_key(*name))
                .cloned(),
        );
        self.hidden = Arc::new(hidden);
        self.collect_problems();
    }

    /// Adds or replaces a toolbox folder; true when it is new.
    fn add_folder(&mut self, key: FolderKey, folder: Arc<ToolboxFolder>) -> bool {
        if let Some(served) = self.served_holding(&key) {
            Arc::make_mut(&mut self.in_served).insert(key.clone(), served);
            return self.folders.insert(key, folder).is_none();
        }
        let keys = self.by_name.entry(folder.name.clone()).or_default();
        if let Err(at) = keys.binary_search(&key) {
            keys.insert(at, key.clone());
        }
        self.folders.insert(key, folder).is_none()
    }

    /// An index of one toolbox folder of the world, `name`, that could not be listed
    /// (`why`): what no test running as root can make on disk.
    #[cfg(test)]
    pub(crate) fn with_unlisted_toolbox(name: &str, why: &str) -> AssetIndex {
        let mut index = AssetIndex::default();
        let folder = ToolboxFolder {
            name: name.to_string(),
            root: 0,
            path: format!("{name}.toolbox"),
            origin: Origin::World,
            purpose: String::new(),
            tags: Vec::new(),
            kind: BoxKind::Toolbox,
            modules: Vec::new(),
            warnings: vec![why.to_string()],
            unlisted: Some(why.to_string()),
        };
        index.add_folder((0, folder.path.clone().into()), Arc::new(folder));
        index
    }

    /// Removes a toolbox folder (not its tools).
    fn remove_folder(&mut self, key: &FolderKey) {
        let Some(folder) = self.folders.remove(key) else {
            return;
        };
        if self.in_served.contains_key(key) {
            Arc::make_mut(&mut self.in_served).remove(key);
        }
        if let Some(keys) = self.by_name.get_mut(&folder.name) {
            keys.retain(|k| k != key);
            if keys.is_empty() {
                self.by_name.remove(&folder.name);
            }
        }
    }

    /// The folders of one toolbox name, in precedence order (world first).
    pub(crate) fn folders_named<'a>(
        &'a self,
        name: &str,
    ) -> impl Iterator<Item = &'a Arc<ToolboxFolder>> + 'a {
        self.by_name
            .get(name)
            .into_iter()
            .flatten()
            .filter_map(|key| self.folders.get(key))
    }

    /// Adds a tool unless one of higher precedence already holds its identity, or the
    /// profile denies it. Tools must arrive in location order (root, then folder path).
    fn insert(&mut self, entry: Arc<ToolEntry>) {
        if self.reserved.contains_key(entry.toolbox())
            || self.in_served.contains_key(&entry.folder)
            || self
                .rules
                .as_ref()
                .is_some_and(|r| !r.allows(&entry.identity))
        {
            return;
        }
        place(Arc::make_mut(&mut self.tools), &mut self.duplicates, entry);
    }

    /// Rebuilds `problems` from the duplicates and the folders' warnings.
    fn collect_problems(&mut self) {
        self.problems = self.duplicates.values().cloned().collect();
        self.problems.extend(self.linked.iter().map(|(root, rel)| {
            format!(
                "{}: {}",
                self.roots[*root].display(""),
                root::link_problem(rel)
            )
            .replace("/: ", ": ")
        }));
        self.problems
            .extend(self.unlisted.iter().map(|(root, rel, why)| {
                format!(
                    "{}: {}",
                    self.roots[*root].display(""),
                    root::unlisted_problem(rel, why)
                )
                .replace("/: ", ": ")
            }));
        for (_, folder) in self
            .folders
            .iter()
            .filter(|(key, f)| !self.hidden.contains(&f.name) && !self.in_served.contains_key(*key))
        {
            self.problems.extend(folder.warnings.iter().map(|w| {
                format!("{}: {w}", self.roots[folder.root].display("")).replace("/: ", ": ")
            }));
        }
        let mut taken = Vec::new();
        for (name, server) in self.reserved.iter() {
            for folder in self.folders_named(name) {
                let root = &self.roots[folder.root];
                // A bundled toolbox cannot be renamed: the configured name can.
                let fix = if root.dir().is_some() {
                    "rename or remove the folder, or rename the server or API"
                } else {
                    "rename the server in .codemode/mcp.json, or the API in .codemode/apis.json"
                };
                taken.push(format!(
                    "{}: this toolbox folder has the name of MCP server or API '{server}' (tools.{name}), \
                     which answers for that name: the folder's tools are left out; {fix}",
                    root.display(&folder.path)
                ));
            }
        }
        for (key, (served, server)) in self.in_served.iter() {
            let root = &self.roots[key.0];
            let inside = root
                .dir()
                .and_then(|d| served.strip_prefix(d.canonicalize().ok()?).ok())
                .map_or_else(
                    || served.display().to_string(),
                    |rel| rel.display().to_string(),
                );
            taken.push(format!(
                "{}: this toolbox folder is inside {inside}, the folder MCP server '{server}' is \
                 given: what a server writes there is not a tool (a script that may call the \
                 server could plant one), so its tools are left out; move the toolbox out of \
                 {inside}, or add \"allowWorldAccess\": true to the server's entry if every \
                 script may change the world's tools",
                root.display(&key.1)
            ));
        }
        self.problems.extend(taken);
    }

    /// How many tool folders the roots on disk hold (shadowed ones too).
    pub(crate) fn tools_on_disk(&self) -> usize {
        self.located
            .values()
            .filter(|e| self.roots[e.folder.0].dir().is_some())
            .count()
    }

    /// The tool with this identity (`box.name`), registered or not.
    pub(crate) fn tool(&self, identity: &str) -> Option<&Arc<ToolEntry>> {
        self.tools.get(identity)
    }

    /// Every tool of one toolbox, in name order.
    pub(crate) fn tools_in<'a>(
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

    /// True when some folder carries this toolbox name and the profile shows it.
    pub(crate) fn has_toolbox(&self, name: &str) -> bool {
        !self.hidden.contains(name) && self.by_name.contains_key(name)
    }

    /// The folder that speaks for a toolbox name: the one of highest precedence.
    pub(crate) fn toolbox(&self, name: &str) -> Option<&Arc<ToolboxFolder>> {
        if self.hidden.contains(name) {
            return None;
        }
        self.folders_named(name).next()
    }

    /// The folder a tool lives in.
    pub(crate) fn folder(&self, key: &FolderKey) -> Option<&Arc<ToolboxFolder>> {
        self.folders.get(key)
    }

    /// Toolbox names, sorted and unique.
    pub(crate) fn toolbox_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.by_name.keys().map(String::as_str).collect();
        if !self.hidden.is_empty() {
            names.retain(|n| !self.hidden.contains(*n));
        }
        names
    }

    /// One summary per toolbox name, sorted by name.
    pub(crate) fn toolboxes(&self) -> Vec<ToolboxSummary> {
        self.toolbox_names()
            .into_iter()
            .filter_map(|name| {
                let folder = self.toolbox(name)?;
                let same: Vec<&Arc<ToolboxFolder>> = self.folders_named(name).collect();
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

/// Every tool of one toolbox folder, each from the cache while its files look as they
/// did, else read. A few tools (the bundled ones, a small world) are read faster than the
/// indexing threads start: a one-line script in a fresh process should not pay for them.
fn read_tools(roots: &Arc<Vec<Root>>, group: Group) -> Vec<(ToolKey, Arc<ToolEntry>, bool)> {
    let Group {
        key,
        toolbox,
        tools,
        open,
        cached,
    } = group;
    let root = &roots[key.0];
    // Each name becomes the entry's key: no copy of 100,000 names.
    let read = |hit: Option<&cache::CachedTool>, dir_name: String| {
        let at = ToolLocation {
            roots,
            root,
            folder: &key,
            toolbox: &toolbox,
            dir_name: &dir_name,
        };
        let (entry, same) = cache::reuse(hit, &at, open.as_ref());
        // Boxed here, on the indexing threads: moving 100,000 entries into their `Arc`s
        // afterwards was a single-threaded stretch.
        ((key.clone(), dir_name), Arc::new(entry), same)
    };
    if tools.len() <= SERIAL_TOOLS {
        // Both lists are sorted by name.
        let mut in_order = cached.map(cache::CachedFolder::in_order);
        return tools
            .into_iter()
            .map(|dir_name| read(in_order.as_mut().and_then(|c| c.find(&dir_name)), dir_name))
            .collect();
    }
    parse_pool().install(|| {
        tools
            .into_par_iter()
            .map(|dir_name| read(cached.and_then(|c| c.tool(&dir_name)), dir_name))
            .collect()
    })
}

/// Puts `entry` under its identity in `tools` unless a tool of an earlier root holds it;
/// a second tool of the same root is recorded in `duplicates` instead.
fn place(
    tools: &mut BTreeMap<String, Arc<ToolEntry>>,
    duplicates: &mut OrdMap<String, String>,
    entry: Arc<ToolEntry>,
) {
    match tools.get(&entry.identity) {
        Some(existing) if existing.folder.0 < entry.folder.0 => {}
        Some(existing) if existing.folder.0 == entry.folder.0 => {
            duplicates.insert(entry.identity.clone(), defined_twice(existing, &entry));
        }
        _ => {
            tools.insert(entry.identity.clone(), entry);
        }
    }
}

/// The problem of a tool defined twice in one root: `used` wins.
fn defined_twice(used: &ToolEntry, ignored: &ToolEntry) -> String {
    format!(
        "{} is defined twice: {} is used and {} is ignored; rename or remove one",
        ignored.identity,
        used.path(),
        ignored.path()
    )
}

/// The tool each identity names among `located` (in location order), in identity order,
/// and a message for each identity defined twice in one root: what [`place`] makes of
/// them one at a time, in one sort.
fn by_identity(
    located: &[(ToolKey, Arc<ToolEntry>)],
) -> (Vec<Arc<ToolEntry>>, OrdMap<String, String>) {
    let mut order: Vec<usize> = (0..located.len()).collect();
    order.par_sort_by(|&a, &b| located[a].1.identity.cmp(&located[b].1.identity));
    let mut winners: Vec<Arc<ToolEntry>> = Vec::with_capacity(located.len());
    let mut duplicates = OrdMap::new();
    for at in order {
        let entry = &located[at].1;
        match winners.last() {
            Some(first) if first.identity == entry.identity => {
                if first.folder.0 == entry.folder.0 {
                    duplicates.insert(entry.identity.clone(), defined_twice(first, entry));
                }
            }
            _ => winners.push(entry.clone()),
        }
    }
    (winners, duplicates)
}
