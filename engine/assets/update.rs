//! Incremental updates: a new snapshot from an old one and a list of changed paths.
//!
//! Only what the paths touch is read again: a tool folder, a toolbox folder's own files,
//! the list of tools in a toolbox, or (when a folder outside any toolbox changed) the list
//! of toolboxes of one root. Every other tool keeps its `Arc<ToolEntry>`, so readers can
//! tell "unchanged" by pointer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::folder::load_folder;
use super::model::{load_tool, ToolLocation};
use super::root::{MAX_DEPTH, SKIPPED_DIRS};
use super::{AssetIndex, FolderKey, ToolEntry, ToolKey};

/// What a batch of changed paths asks to read again.
#[derive(Debug, Default)]
struct Plan {
    /// Roots whose list of toolbox folders must be walked again.
    roots: BTreeSet<usize>,
    /// Toolbox folders whose own files (README, .metadata, modules) changed.
    folders: BTreeSet<FolderKey>,
    /// Toolbox folders whose list of tool folders may have changed.
    listings: BTreeSet<FolderKey>,
    /// Tool folders to read again (or drop when gone).
    tools: BTreeSet<ToolKey>,
}

impl Plan {
    fn is_empty(&self) -> bool {
        self.roots.is_empty()
            && self.folders.is_empty()
            && self.listings.is_empty()
            && self.tools.is_empty()
    }
}

impl AssetIndex {
    /// A new snapshot with the changes at `paths` (absolute paths on disk) read in.
    /// Paths outside every root, or in places the index never reads, are ignored.
    pub(crate) fn apply(&self, paths: &[PathBuf]) -> AssetIndex {
        let mut plan = self.plan(paths);
        let mut next = self.clone();
        if plan.is_empty() {
            return next;
        }
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for root in plan.roots.clone() {
            next.rescan_root(root, &mut plan, &mut touched);
        }
        for key in plan.folders.clone() {
            next.refresh_folder(&key, &mut plan, &mut touched);
        }
        for key in plan.listings.clone() {
            next.relist(&key, &mut plan);
        }
        next.reload_tools(&plan.tools, &mut touched);
        for identity in touched {
            next.resolve(&identity);
        }
        next.settle();
        next
    }

    /// True when some of `paths` is a place the index reads (so [`AssetIndex::apply`]
    /// would change something).
    pub(crate) fn touches(&self, paths: &[PathBuf]) -> bool {
        !self.plan(paths).is_empty()
    }

    /// Sorts each changed path into the plan.
    fn plan(&self, paths: &[PathBuf]) -> Plan {
        let mut plan = Plan::default();
        for path in paths {
            for (index, root) in self.roots.iter().enumerate() {
                let Some(dir) = root.dir() else { continue };
                if let Ok(rel) = path.strip_prefix(dir) {
                    classify(&mut plan, index, path, rel);
                }
            }
        }
        // A file written into a toolbox folder the index has not seen yet (a script's
        // first `vfs.write` into `new.toolbox/t.tool/`) brings the folder in too.
        let new_folders: Vec<FolderKey> = plan
            .tools
            .iter()
            .map(|(folder, _)| folder.clone())
            .filter(|folder| !self.folders.contains_key(folder))
            .collect();
        for folder in new_folders {
            plan.folders.insert(folder.clone());
            plan.listings.insert(folder);
        }
        plan
    }

    /// Walks a root's toolbox folders again: drops the ones gone, plans the new ones.
    fn rescan_root(&mut self, root: usize, plan: &mut Plan, touched: &mut BTreeSet<String>) {
        let found = self.roots[root].toolbox_dirs();
        self.linked.retain(|(r, _)| *r != root);
        self.linked
            .extend(found.links.into_iter().map(|rel| (root, rel)));
        self.unlisted.retain(|(r, _, _)| *r != root);
        self.unlisted.extend(
            found
                .unlisted
                .into_iter()
                .map(|(rel, why)| (root, rel, why)),
        );
        let now: BTreeSet<String> = found.dirs.into_iter().collect();
        let before: Vec<FolderKey> = self
            .folders
            .keys()
            .filter(|k| k.0 == root)
            .cloned()
            .collect();
        for key in before {
            if !now.contains(&*key.1) {
                self.drop_folder(&key, touched);
            }
        }
        for rel in now {
            let key: FolderKey = (root, rel.into());
            if !self.folders.contains_key(&key) {
                plan.folders.insert(key);
            }
        }
    }

    /// Reads a toolbox folder's own files again, or drops it when it is gone.
    fn refresh_folder(&mut self, key: &FolderKey, plan: &mut Plan, touched: &mut BTreeSet<String>) {
        let root = &self.roots[key.0];
        let exists = root
            .dir()
            .is_some_and(|d| d.join(&*key.1).symlink_metadata().is_ok_and(|m| m.is_dir()));
        if !exists {
            self.drop_folder(key, touched);
            return;
        }
        let folder = load_folder(key.0, root, &key.1, &root.toolbox_entries(&key.1).others);
        if self.add_folder(key.clone(), Arc::new(folder)) {
            plan.listings.insert(key.clone());
        }
    }

    /// Compares a toolbox's tool folders on disk with the index; plans the new ones,
    /// drops the ones gone.
    fn relist(&mut self, key: &FolderKey, plan: &mut Plan) {
        if !self.folders.contains_key(key) {
            return;
        }
        let on_disk: BTreeSet<String> = self.roots[key.0]
            .toolbox_entries(&key.1)
            .tools
            .into_iter()
            .collect();
        for dir in &on_disk {
            let tool_key = (key.clone(), dir.clone());
            if !self.located.contains_key(&tool_key) {
                plan.tools.insert(tool_key);
            }
        }
        for (tool_key, _) in self.tools_at(key) {
            if !on_disk.contains(&tool_key.1) {
                plan.tools.insert(tool_key);
            }
        }
    }

    /// Reads the planned tool folders (in parallel) and swaps them in; drops the gone ones.
    fn reload_tools(&mut self, keys: &BTreeSet<ToolKey>, touched: &mut BTreeSet<String>) {
        let loaded: Vec<(ToolKey, Option<ToolEntry>)> = super::parse_pool().install(|| {
            keys.par_iter()
                .map(|key| (key.clone(), self.read_tool(key)))
                .collect()
        });
        for (key, entry) in loaded {
            let old = match entry {
                Some(entry) => {
                    touched.insert(entry.identity.clone());
                    Arc::make_mut(&mut self.located).insert(key, Arc::new(entry))
                }
                None => Arc::make_mut(&mut self.located).remove(&key),
            };
            if let Some(old) = old {
                touched.insert(old.identity.clone());
            }
        }
    }

    /// Reads one tool folder, or `None` when it or its toolbox is gone.
    fn read_tool(&self, key: &ToolKey) -> Option<ToolEntry> {
        let folder = self.folders.get(&key.0)?;
        let root = &self.roots[key.0 .0];
        let dir = root.dir()?.join(&*key.0 .1).join(&key.1);
        if !dir.symlink_metadata().is_ok_and(|m| m.is_dir()) {
            return None;
        }
        Some(load_tool(&ToolLocation {
            roots: &self.roots,
            root,
            folder: &key.0,
            toolbox: &folder.name,
            dir_name: &key.1,
        }))
    }

    /// Removes a toolbox folder and every tool in it.
    fn drop_folder(&mut self, key: &FolderKey, touched: &mut BTreeSet<String>) {
        self.remove_folder(key);
        for (tool_key, entry) in self.tools_at(key) {
            touched.insert(entry.identity.clone());
            Arc::make_mut(&mut self.located).remove(&tool_key);
        }
    }

    /// The tools located in one toolbox folder.
    fn tools_at(&self, key: &FolderKey) -> Vec<(ToolKey, Arc<ToolEntry>)> {
        let start: ToolKey = (key.clone(), String::new());
        self.located
            .range(start..)
            .take_while(|((k, _), _)| k == key)
            .map(|(k, e)| (k.clone(), e.clone()))
            .collect()
    }

    /// Decides again which folder speaks for one identity (the world shadows libraries).
    fn resolve(&mut self, identity: &str) {
        Arc::make_mut(&mut self.tools).remove(identity);
        self.duplicates.remove(identity);
        let Some((toolbox, name)) = identity.split_once('.') else {
            return;
        };
        let dir = format!("{name}.tool");
        let candidates: Vec<Arc<ToolEntry>> = self
            .by_name
            .get(toolbox)
            .into_iter()
            .flatten()
            .filter_map(|key| self.located.get(&(key.clone(), dir.clone())).cloned())
            .filter(|e| e.identity == identity)
            .collect();
        for entry in candidates {
            self.insert(entry);
        }
    }
}

/// Sorts one path (relative to root `index`) into the plan.
fn classify(plan: &mut Plan, index: usize, full: &Path, rel: &Path) {
    let names: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    // A marker added or removed changes which folders the walk enters.
    if names
        .last()
        .is_some_and(|n| n == super::root::IGNORE_MARKER)
    {
        plan.roots.insert(index);
        return;
    }
    let Some(at) = names.iter().position(|n| n.ends_with(".toolbox")) else {
        // Outside every toolbox: only folders matter (a package folder added, renamed
        // or removed may hold toolboxes). Files there are not assets.
        let hidden = names
            .iter()
            .any(|n| n.starts_with('.') || SKIPPED_DIRS.contains(&n.as_str()));
        if !hidden && !full.is_file() {
            plan.roots.insert(index);
        }
        return;
    };
    let outside_walk = names[..=at]
        .iter()
        .any(|n| n.starts_with('.') || SKIPPED_DIRS.contains(&n.as_str()) || n.ends_with(".tool"));
    if outside_walk || at >= MAX_DEPTH {
        return;
    }
    let key: FolderKey = (index, names[..=at].join("/").into());
    let Some(next) = names.get(at + 1) else {
        // The toolbox folder itself: added, removed, renamed, or its entries changed.
        plan.roots.insert(index);
        plan.folders.insert(key.clone());
        plan.listings.insert(key);
        return;
    };
    if next.ends_with(".tool") && !next.starts_with('.') {
        plan.tools.insert((key, next.clone()));
    } else if next == "README.md" || next == ".metadata" || next.ends_with(".module") {
        plan.folders.insert(key);
    }
}
