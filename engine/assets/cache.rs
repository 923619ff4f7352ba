//! The asset cache: what each tool folder held, as the last process read it, in
//! `<world>/.codemode/cache/assets/tools`. A new process trusts an entry while the folder
//! and the files it read keep their size and time (see [`Stamp`]), so on an unchanged
//! world nothing is read, parsed or compiled again; an entry whose files changed is read
//! again, and one whose files were modified just before they were read is confirmed by
//! content (and then reuses the parse, if the content is the same).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::model::{Blob, ToolEntry};
use super::root::Root;
use super::stamp::{Folder, Seen, Stamp};
use super::tool::{load_tool, ToolLocation};
use crate::cache::{Reader, Writer};

const KIND: &[u8; 4] = b"CMAT";
/// Bumped when the layout or the meaning of an entry changes.
const SCHEMA: u32 = 2;
const FILE: &str = "tools";

/// One tool folder as cached.
#[derive(Debug)]
pub(crate) struct CachedTool {
    pub(crate) stamp: Stamp,
    pub(crate) verdict: Result<(), String>,
    pub(crate) body: Blob,
}

/// The cached entries of one world, by root identity and folder path.
#[derive(Debug, Default)]
pub(crate) struct AssetCache {
    path: Option<PathBuf>,
    /// By root identity, then tool folder path.
    tools: HashMap<String, HashMap<String, CachedTool>>,
}

/// How a root is named in the cache: its directory, or `<bundled>`.
pub(crate) fn root_key(root: &Root) -> String {
    match root.dir() {
        Some(d) => d.display().to_string(),
        None => "<bundled>".to_string(),
    }
}

impl AssetCache {
    /// The cache of the world of `roots` (the first root), empty when there is none or it
    /// cannot be read; `None` when the world cannot hold one.
    pub(crate) fn open(roots: &[Root]) -> Option<AssetCache> {
        let world = roots.first()?.dir()?;
        let path = crate::cache::dir(world, "assets")?.join(FILE);
        let tools = crate::cache::read(&path, KIND, SCHEMA)
            .and_then(|body| {
                let (data, start) = body.into_parts();
                decode(Arc::new(data), start)
            })
            .unwrap_or_default();
        Some(AssetCache {
            path: Some(path),
            tools,
        })
    }

    /// How many entries belong to the roots named `keys`.
    pub(crate) fn count_for(&self, keys: &[String]) -> usize {
        keys.iter()
            .filter_map(|k| self.tools.get(k))
            .map(HashMap::len)
            .sum()
    }

    /// The entries of one root.
    pub(crate) fn root(&self, root: &str) -> Option<&HashMap<String, CachedTool>> {
        self.tools.get(root)
    }

    /// Writes every entry of `entries` (reading, parsing and compiling those that were not
    /// yet, in parallel on the indexing threads). A failure is logged: the cache only saves
    /// work.
    pub(crate) fn save(&self, roots: &[Root], entries: &[&Arc<ToolEntry>]) {
        let Some(path) = &self.path else { return };
        let keys: Vec<String> = roots.iter().map(root_key).collect();
        let bodies: Vec<(Blob, Result<(), String>)> =
            super::parse_pool().install(|| entries.par_iter().map(|e| e.cache_body()).collect());
        // Entries of roots this process does not have (another process's `--library`)
        // are kept, so processes with different roots do not undo each other's work.
        let others: Vec<(&String, &String, &CachedTool)> = self
            .tools
            .iter()
            .filter(|(root, _)| !keys.contains(root))
            .flat_map(|(root, tools)| tools.iter().map(move |(rel, c)| (root, rel, c)))
            .collect();
        let mut w = crate::cache::header(KIND, SCHEMA);
        w.u32((entries.len() + others.len()) as u32);
        let mut put =
            |root: &str, rel: &str, stamp: &Stamp, verdict: &Result<(), String>, body: &[u8]| {
                w.str(root);
                w.str(rel);
                encode_stamp(&mut w, stamp);
                match verdict {
                    Ok(()) => w.u8(0),
                    Err(reason) => {
                        w.u8(1);
                        w.str(reason);
                    }
                }
                w.bytes(body);
            };
        for (entry, (body, verdict)) in entries.iter().zip(&bodies) {
            put(
                &keys[entry.folder.0],
                &entry.rel,
                &entry.stamp,
                verdict,
                body.bytes(),
            );
        }
        for (root, rel, c) in others {
            put(root, rel, &c.stamp, &c.verdict, c.body.bytes());
        }
        if let Err(e) = crate::cache::write(path, w) {
            tracing::debug!("index cache {} not written: {e}", path.display());
        }
    }
}

fn encode_stamp(w: &mut Writer, stamp: &Stamp) {
    encode_seen(w, stamp.dir);
    w.u32(stamp.files.len() as u32);
    for (name, seen) in &stamp.files {
        w.str(name);
        encode_seen(w, Some(*seen));
    }
    w.u64(stamp.hash);
    w.u8(u8::from(stamp.settled));
}

fn encode_seen(w: &mut Writer, seen: Option<Seen>) {
    match seen {
        None => w.u8(0),
        Some(s) => {
            w.u8(1);
            w.u64(s.size);
            w.u64(s.mtime as u64);
        }
    }
}

type Roots = HashMap<String, HashMap<String, CachedTool>>;

fn decode(file: Arc<Vec<u8>>, start: usize) -> Option<Roots> {
    let mut r = Reader::new(&file);
    r.raw(start)?;
    let count = r.u32()? as usize;
    let mut tools: Roots = HashMap::new();
    for _ in 0..count {
        let root = r.str()?;
        let rel = r.str()?.to_string();
        let stamp = decode_stamp(&mut r)?;
        let verdict = match r.u8()? {
            0 => Ok(()),
            _ => Err(r.str()?.to_string()),
        };
        let len = r.u32()? as usize;
        let start = r.at();
        r.raw(len)?;
        let body = Blob::slice(&file, start..start + len);
        if !tools.contains_key(root) {
            // The count is the file's word: bounded by what the file can hold.
            let cap = count.min(file.len() / 16);
            tools.insert(root.to_string(), HashMap::with_capacity(cap));
        }
        tools.get_mut(root).expect("just added").insert(
            rel,
            CachedTool {
                stamp,
                verdict,
                body,
            },
        );
    }
    r.done().then_some(tools)
}

fn decode_stamp(r: &mut Reader) -> Option<Stamp> {
    let dir = decode_seen(r)?;
    let n = r.u32()? as usize;
    let mut files = Vec::with_capacity(n.min(8));
    for _ in 0..n {
        let name = r.str()?.to_string();
        files.push((name, decode_seen(r)??));
    }
    Some(Stamp {
        dir,
        files,
        hash: r.u64()?,
        settled: r.u8()? == 1,
    })
}

fn decode_seen(r: &mut Reader) -> Option<Option<Seen>> {
    Some(match r.u8()? {
        0 => None,
        _ => Some(Seen {
            size: r.u64()?,
            mtime: r.u64()? as i64,
        }),
    })
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
                    at.dir_name.trim_end_matches(".tool").to_string(),
                    at.toolbox.to_string(),
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
