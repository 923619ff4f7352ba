//! What changed between the index the table describes and the assets there are now: the
//! docs to (re)index and the keys to remove.

use std::hash::{DefaultHasher, Hasher};
use std::sync::Arc;

use rayon::prelude::*;

use super::document::AssetDoc;
use super::table::Table;
use crate::assets::{AssetIndex, ToolEntry};
use crate::upstream::ServerView;

/// What changed since the table was written: docs to (re)index with their stamps, and
/// keys to remove.
pub(crate) struct Changes {
    /// New or changed docs.
    pub(crate) upserts: Vec<(AssetDoc, u64)>,
    /// Keys no longer present.
    pub(crate) deletes: Vec<String>,
}

/// What a tool's doc is made from: its files (content hash) and where it was found. The
/// verdict follows from the content and the engine, which the cache's header names.
fn tool_stamp(entry: &ToolEntry) -> u64 {
    let mut h = DefaultHasher::new();
    h.write_u64(entry.stamp.hash);
    h.write_u8(entry.origin as u8);
    h.finish()
}

/// A toolbox's or an upstream tool's doc content, hashed.
fn doc_stamp(doc: &AssetDoc) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(doc.key.as_bytes());
    h.write_u8(doc.asset_type as u8);
    h.write(doc.from.as_bytes());
    h.write_u8(0xff);
    h.write(doc.description.as_bytes());
    h.write_u8(0xff);
    h.write(doc.signature.as_deref().unwrap_or("").as_bytes());
    h.write_u8(0xff);
    h.write(doc.context.as_bytes());
    h.write_u8(0xff);
    for (role, text) in &doc.fields {
        h.write_u8(*role as u8);
        h.write(text.as_bytes());
        h.write_u8(0xff);
    }
    h.finish()
}

/// Per tool: whether the table holds it, and its new stamp when that differs.
type Compared<'a> = (bool, Option<(&'a Arc<ToolEntry>, u64)>);

/// A tool compared with the stamp the table holds for it (`indexed`); one whose `Arc` is
/// the one `old` held is not looked at.
fn compare<'a>(
    old: Option<&Arc<AssetIndex>>,
    identity: &str,
    entry: &'a Arc<ToolEntry>,
    indexed: Option<u64>,
) -> Compared<'a> {
    let same = old
        .and_then(|o| o.tools.get(identity))
        .is_some_and(|prev| Arc::ptr_eq(prev, entry));
    if same && indexed.is_some() {
        return (true, None);
    }
    let stamp = tool_stamp(entry);
    (
        indexed.is_some(),
        (indexed != Some(stamp)).then_some((entry, stamp)),
    )
}

/// The identity of a table key `tool:<identity>`.
fn identity(key: &str) -> &str {
    key.strip_prefix("tool:").unwrap_or(key)
}

/// Diffs `new` and the `upstream` servers' docs against what `table` holds. Tools whose
/// `Arc` is the same as in `old` (the snapshot last indexed) are skipped without a look;
/// others are compared by stamp, and only changed ones are read (docs made in parallel on
/// the indexing threads). Upstream docs are small and always compared by stamp.
pub(crate) fn diff(
    old: Option<&Arc<AssetIndex>>,
    table: &Table,
    new: &AssetIndex,
    upstream: &[ServerView],
) -> Changes {
    let tools: Vec<(&String, &Arc<ToolEntry>)> = new.tools.iter().collect();
    // On the indexing threads: a fresh process on a world of 100,000 tools compares every
    // tool's stamp before its first search.
    let compared: Vec<Compared> = crate::assets::parse_pool().install(|| {
        match table.tools_in_order() {
            // Both in identity order: each run of tools is compared in one pass from where
            // its first would be.
            Some((keys, stamps)) => tools
                .par_chunks(4096)
                .flat_map_iter(|run| {
                    let mut at = keys.partition_point(|k| identity(k) < run[0].0.as_str());
                    run.iter().map(move |(name, entry)| {
                        while at < keys.len() && identity(&keys[at]) < name.as_str() {
                            at += 1;
                        }
                        let indexed = (at < keys.len() && identity(&keys[at]) == name.as_str())
                            .then(|| stamps[at]);
                        compare(old, name, entry, indexed)
                    })
                })
                .collect(),
            None => tools
                .par_iter()
                .map_init(String::new, |key, (identity, entry)| {
                    key.clear();
                    key.push_str("tool:");
                    key.push_str(identity);
                    compare(old, identity, entry, table.stamp(key))
                })
                .collect(),
        }
    });
    // How many of the table's keys the new assets hold: when that is all of them, nothing
    // is deleted, and the table need not be walked.
    let mut held = compared.iter().filter(|c| c.0).count();
    let changed: Vec<(&Arc<ToolEntry>, u64)> = compared.into_iter().filter_map(|c| c.1).collect();
    let mut upserts: Vec<(AssetDoc, u64)> = crate::assets::parse_pool().install(|| {
        changed
            .par_iter()
            .map(|(entry, stamp)| (AssetDoc::tool(entry), *stamp))
            .collect()
    });
    // The servers' tools and the functions of `tools` itself: few, so always compared.
    let upstream_docs: Vec<AssetDoc> = upstream
        .iter()
        .flat_map(AssetDoc::upstream)
        .chain(super::surface::surface_docs())
        .collect();
    let upstream_keys: std::collections::HashSet<&str> =
        upstream_docs.iter().map(|d| d.key.as_str()).collect();
    for doc in AssetDoc::toolboxes(new)
        .into_iter()
        .chain(upstream_docs.iter().cloned())
    {
        let stamp = doc_stamp(&doc);
        let indexed = table.stamp(&doc.key);
        held += usize::from(indexed.is_some());
        if indexed != Some(stamp) {
            upserts.push((doc, stamp));
        }
    }
    if held == table.len() {
        return Changes {
            upserts,
            deletes: Vec::new(),
        };
    }
    let deletes = table
        .keys()
        .filter(|(key, _)| match key.split_once(':') {
            _ if upstream_keys.contains(key) => false,
            Some(("tool", identity)) => !new.tools.contains_key(identity),
            Some(("toolbox", name)) => !new.has_toolbox(name),
            _ => true,
        })
        .map(|(key, _)| key.to_string())
        .collect();
    Changes { upserts, deletes }
}
