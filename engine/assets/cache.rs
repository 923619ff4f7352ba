//! The asset cache: what each tool folder held, as the last process read it, in
//! `<world>/.codemode/cache/assets/tools`. A new process trusts an entry while the folder
//! and the files it read keep their size and time (see [`Stamp`]), so on an unchanged
//! world nothing is read, parsed or compiled again; an entry whose files changed is read
//! again, and one whose files were modified just before they were read is confirmed by
//! content (and then reuses the parse, if the content is the same). Entries are grouped
//! by toolbox folder, with how the folder looked when it was listed (see [`Listing`]).

// One lookup per tool folder when a world opens: foldhash is several times faster than
// SipHash on short keys, and seeded per process.
use foldhash::HashMap;
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::model::{load_tool, ToolLocation};
use super::model::{Blob, ToolEntry};
use super::root::{BoxEntries, BoxFiles, Root};
use super::stamp::{Folder, Seen, Stamp};
use super::FolderKey;
use crate::cache::FileBytes;

const KIND: &[u8; 4] = b"CMAT";
/// Bumped when the layout or the meaning of an entry changes.
const SCHEMA: u32 = 9;
const FILE: &str = "tools";

/// One tool folder as cached.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CachedTool {
    pub(crate) stamp: Stamp,
    pub(crate) verdict: Result<(), String>,
    /// The encoded reading (`super::codec`): a range of the cache file when read.
    #[serde(serialize_with = "blob_bytes", deserialize_with = "blob_in_file")]
    pub(crate) body: Blob,
}

/// One toolbox folder as cached: how the folder looked when its tool folders were listed,
/// and those tool folders.
#[derive(Debug)]
pub(crate) struct CachedFolder {
    /// The folder's size and time before it was listed (see [`Listing`]).
    pub(crate) listing: Listing,
    /// Its modules, `.metadata` and README as that listing found them.
    pub(crate) others: BoxFiles,
    /// By tool folder name (`slugify.tool`), sorted.
    tools: Vec<(String, CachedTool)>,
}

/// How a toolbox folder looked just before its tool folders were listed. A folder's time
/// changes whenever an entry is added, removed or renamed in it, so while it stays the
/// same (and was not modified within the racy window before it was looked at) the list
/// of tool folders is the one cached, and the folder need not be listed again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) struct Listing {
    pub(crate) seen: Option<Seen>,
    pub(crate) settled: bool,
}

impl CachedFolder {
    /// Looks tool folders up by name in ascending order, each in one step past the last
    /// (a binary search per tool was 4% of a fresh process on a large world).
    pub(crate) fn in_order(&self) -> InOrder<'_> {
        InOrder {
            tools: &self.tools,
            at: 0,
        }
    }

    /// The cached tool folder `dir_name`.
    pub(crate) fn tool(&self, dir_name: &str) -> Option<&CachedTool> {
        let at = self
            .tools
            .binary_search_by(|(name, _)| name.as_str().cmp(dir_name))
            .ok()?;
        Some(&self.tools[at].1)
    }

    /// What the folder held, when it still looks as it did when it was listed (`now`,
    /// taken before this call).
    pub(crate) fn entries_if_unchanged(&self, now: &Listing) -> Option<BoxEntries> {
        let trusted = self.listing.settled && now.seen.is_some() && self.listing.seen == now.seen;
        trusted.then(|| BoxEntries {
            tools: self.tools.iter().map(|(n, _)| n.clone()).collect(),
            others: self.others.clone(),
        })
    }
}

/// A lookup of a folder's cached tools for names asked in ascending order.
pub(crate) struct InOrder<'a> {
    tools: &'a [(String, CachedTool)],
    at: usize,
}

impl<'a> InOrder<'a> {
    /// The cached tool folder `dir_name`, no smaller than the name asked before.
    pub(crate) fn find(&mut self, dir_name: &str) -> Option<&'a CachedTool> {
        while self
            .tools
            .get(self.at)
            .is_some_and(|(name, _)| name.as_str() < dir_name)
        {
            self.at += 1;
        }
        match self.tools.get(self.at) {
            Some((name, tool)) if name == dir_name => Some(tool),
            _ => None,
        }
    }
}

/// The cached folders of one world, by root identity and toolbox folder path.
#[derive(Debug, Default)]
pub(crate) struct AssetCache {
    /// The world's folder.
    world: PathBuf,
    path: PathBuf,
    /// By root identity, then toolbox folder path.
    roots: Roots,
}

type Roots = HashMap<String, HashMap<String, CachedFolder>>;

/// How a root is named in the cache: its directory, or `<bundled>`.
pub(crate) fn root_key(root: &Root) -> String {
    match root.dir() {
        Some(d) => d.display().to_string(),
        None => "<bundled>".to_string(),
    }
}

impl AssetCache {
    /// The cache of the world of `roots` (the first root), empty when there is none or it
    /// cannot be read; `None` when the world is not on disk. Nothing is created until
    /// [`AssetCache::save`].
    pub(crate) fn open(roots: &[Root]) -> Option<AssetCache> {
        let world = roots.first()?.dir()?;
        let path = crate::cache::path(world, "assets").join(FILE);
        let cached = crate::cache::read(&path, KIND, SCHEMA)
            .and_then(|body| {
                let (data, body) = body.into_parts();
                decode(Arc::new(data), body)
            })
            .unwrap_or_default();
        Some(AssetCache {
            world: world.to_path_buf(),
            path,
            roots: cached,
        })
    }

    /// How many tool entries belong to the roots named `keys`.
    pub(crate) fn count_for(&self, keys: &[String]) -> usize {
        keys.iter()
            .filter_map(|k| self.roots.get(k))
            .flat_map(HashMap::values)
            .map(|f| f.tools.len())
            .sum()
    }

    /// The cached toolbox folder `rel` of the root named `root`.
    pub(crate) fn folder(&self, root: &str, rel: &str) -> Option<&CachedFolder> {
        self.roots.get(root)?.get(rel)
    }

    /// Writes every entry of `entries` (in location order: root, toolbox folder, tool
    /// folder), with each toolbox folder's `listings` and other entries, reading, parsing and compiling the
    /// tools that were not yet (in parallel on the indexing threads), when the world wants
    /// a cache (see [`crate::cache::wanted`]). A failure is logged: the cache only saves
    /// work.
    pub(crate) fn save(
        &self,
        roots: &[Root],
        entries: &[&Arc<ToolEntry>],
        listings: &HashMap<FolderKey, (Listing, BoxFiles)>,
    ) {
        let on_disk = entries
            .iter()
            .filter(|e| roots[e.folder.0].dir().is_some())
            .count();
        if !crate::cache::wanted(&self.world, on_disk)
            || crate::cache::dir(&self.world, "assets").is_none()
        {
            return;
        }
        let keys: Vec<String> = roots.iter().map(root_key).collect();
        let bodies: Vec<(Blob, Result<(), String>)> =
            super::parse_pool().install(|| entries.par_iter().map(|e| e.cache_body()).collect());
        // Folders of roots this process does not have (another process's `--library`)
        // are kept, so processes with different roots do not undo each other's work.
        let others: Vec<(&String, &String, &CachedFolder)> = self
            .roots
            .iter()
            .filter(|(root, _)| !keys.contains(root))
            .flat_map(|(root, folders)| folders.iter().map(move |(rel, f)| (root, rel, f)))
            .collect();
        let mut groups: Vec<(&FolderKey, Vec<usize>)> = Vec::new();
        for (at, entry) in entries.iter().enumerate() {
            match groups.last_mut() {
                Some((key, members)) if **key == entry.folder => members.push(at),
                _ => groups.push((&entry.folder, vec![at])),
            }
        }
        // Folders without tools too: their listing is trusted like the others'.
        let with_tools: foldhash::HashSet<&FolderKey> = groups.iter().map(|(k, _)| *k).collect();
        let empty: Vec<(&FolderKey, &(Listing, BoxFiles))> = listings
            .iter()
            .filter(|(key, _)| !with_tools.contains(key))
            .collect();
        let mut folders: Vec<FolderRecord> =
            Vec::with_capacity(groups.len() + empty.len() + others.len());
        for (key, (listing, others)) in &empty {
            folders.push(FolderRecord {
                root: &keys[key.0],
                rel: &key.1,
                listing: *listing,
                others: Cow::Borrowed(others),
                tools: Cow::Borrowed(&[]),
            });
        }
        for (key, members) in &groups {
            let (listing, others) = listings.get(*key).cloned().unwrap_or_default();
            let tools: Vec<(String, CachedTool)> = members
                .iter()
                .map(|&at| {
                    let (body, verdict) = &bodies[at];
                    let dir_name = entries[at].rel.rsplit('/').next().unwrap_or_default();
                    let tool = CachedTool {
                        stamp: entries[at].stamp.clone(),
                        verdict: verdict.clone(),
                        body: body.clone(),
                    };
                    (dir_name.to_string(), tool)
                })
                .collect();
            folders.push(FolderRecord {
                root: &keys[key.0],
                rel: &key.1,
                listing,
                others: Cow::Owned(others),
                tools: Cow::Owned(tools),
            });
        }
        for (root, rel, folder) in others {
            folders.push(FolderRecord {
                root,
                rel,
                listing: folder.listing,
                others: Cow::Borrowed(&folder.others),
                tools: Cow::Borrowed(&folder.tools),
            });
        }
        if let Err(e) = crate::cache::write(&self.path, KIND, SCHEMA, &folders) {
            tracing::debug!("index cache {} not written: {e}", self.path.display());
        }
    }
}

/// One toolbox folder as the file stores it.
#[derive(Serialize, Deserialize)]
struct FolderRecord<'a> {
    /// The root's key (see [`root_key`]).
    root: &'a str,
    /// The toolbox folder's path in its root.
    rel: &'a str,
    listing: Listing,
    others: Cow<'a, BoxFiles>,
    /// By folder name, sorted.
    tools: Cow<'a, [(String, CachedTool)]>,
}

thread_local! {
    /// The cache file being decoded on this thread: bodies are kept as ranges of it.
    static DECODING: std::cell::RefCell<Option<Arc<FileBytes>>> = const {
        std::cell::RefCell::new(None)
    };
}

fn blob_bytes<S: serde::Serializer>(body: &Blob, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(body.bytes())
}

/// A body borrowed from the file [`decode`] reads, kept as its place in that file (serde
/// hands a value no context, so the file is the thread's while it is decoded).
fn blob_in_file<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Blob, D::Error> {
    let bytes = <&'de [u8]>::deserialize(deserializer)?;
    DECODING.with_borrow(|file| {
        let Some(file) = file else {
            return Ok(Blob::new(bytes.to_vec()));
        };
        let at = (bytes.as_ptr() as usize).wrapping_sub(file.as_ptr() as usize);
        match file.get(at..at.wrapping_add(bytes.len())) {
            Some(_) => Ok(Blob::slice(file, at..at + bytes.len())),
            None => Ok(Blob::new(bytes.to_vec())),
        }
    })
}

fn decode(file: Arc<FileBytes>, body: std::ops::Range<usize>) -> Option<Roots> {
    DECODING.set(Some(file.clone()));
    let folders: Option<Vec<FolderRecord>> = crate::cache::decode(&file[body]);
    DECODING.set(None);
    let mut roots: Roots = HashMap::default();
    for folder in folders? {
        let tools = folder.tools.into_owned();
        // Written sorted; a file that is not cannot be looked up by name.
        if !tools.is_sorted_by(|a, b| a.0 < b.0) {
            return None;
        }
        let cached = CachedFolder {
            listing: folder.listing,
            others: folder.others.into_owned(),
            tools,
        };
        match roots.get_mut(folder.root) {
            Some(folders) => {
                folders.insert(folder.rel.to_string(), cached);
            }
            None => {
                let folders = HashMap::from_iter([(folder.rel.to_string(), cached)]);
                roots.insert(folder.root.to_string(), folders);
            }
        }
    }
    Some(roots)
}

/// An entry for the tool folder at `at`, from the cache when its files did not change:
/// on disk by size and time (a settled entry) or by content; bundled by content. The flag
/// is true when the cached entry is still exactly right (nothing to write back).
pub(crate) fn reuse(
    cached: Option<&CachedTool>,
    at: &ToolLocation,
    folder: Option<&Folder>,
) -> (ToolEntry, bool) {
    let Some(cached) = cached else {
        return (load_tool(at), false);
    };
    let rel = format!("{}/{}", at.folder.1, at.dir_name);
    if cached.stamp.settled {
        if let Some(folder) = folder {
            if cached.stamp.unchanged_on_disk(folder, at.dir_name) {
                let entry = ToolEntry::from_cache(
                    at.dir_name.trim_end_matches(".tool"),
                    at.toolbox,
                    cached.body.clone(),
                    cached.verdict.clone(),
                    at.folder.clone(),
                    rel,
                    at.roots,
                    cached.stamp.clone(),
                );
                return (entry, true);
            }
        }
    }
    let fresh = load_tool(at);
    if fresh.stamp.hash != cached.stamp.hash {
        return (fresh, false);
    }
    // Same content: keep the parse; the stamp is the new one (maybe settled now).
    let same = fresh.stamp == cached.stamp;
    (
        fresh.adopt(cached.body.clone(), cached.verdict.clone()),
        same,
    )
}
