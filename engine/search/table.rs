//! What the search side keeps per asset besides the keyword index: the stamp of what was
//! indexed (to tell what changed) and the meaning vector, quantised to int8 with one scale
//! per row, in one flat array scanned by brute force.

// Keys are hashed per lookup for every asset on each sync: foldhash is several times
// faster than SipHash on short keys, and seeded per process.
use std::borrow::Cow;
use std::sync::Arc;

use foldhash::HashMap;
use serde::{Deserialize, Serialize};

use super::document::AssetType;

/// The asset table: one slot per indexed asset.
#[derive(Debug, Default)]
pub(crate) struct Table {
    dims: usize,
    // Shared by the two: a table of 100,000 keys is read at every process start.
    slots: HashMap<Arc<str>, usize>,
    keys: Vec<Arc<str>>,
    stamps: Vec<u64>,
    kinds: Vec<AssetType>,
    /// `dims` values per slot.
    vectors: Vec<i8>,
    /// Per slot: the cosine of two rows is `scale_a * scale_b * dot(a, b)`; 0 when the
    /// asset has no vector (no known token) or the slot is free.
    scales: Vec<f32>,
    free: Vec<usize>,
    /// True while slot `i` holds the `i`-th key in ascending order and no slot is free (a
    /// table as read from its file, written in key order): a sorted list of assets can then
    /// be compared with it in one pass (see [`Table::tools_in_order`]).
    sorted: bool,
}

/// A unit vector quantised to int8: `v[i] ≈ q[i] * scale`.
pub(crate) struct Quantised {
    pub(crate) values: Vec<i8>,
    pub(crate) scale: f32,
}

/// Quantises a unit vector (the largest component maps to ±127).
pub(crate) fn quantise(v: &[f32]) -> Quantised {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return Quantised {
            values: vec![0; v.len()],
            scale: 0.0,
        };
    }
    let scale = max / 127.0;
    Quantised {
        values: v.iter().map(|x| (x / scale).round() as i8).collect(),
        scale,
    }
}

/// The int8 dot product, in chunks the compiler turns into SIMD multiply-adds.
fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    let mut lanes = [0i32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..16 {
            lanes[i] += i32::from(x[i]) * i32::from(y[i]);
        }
    }
    let tail: i32 = ra
        .iter()
        .zip(rb)
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum();
    lanes.iter().sum::<i32>() + tail
}

/// The meaning-vector scan search runs, on its own: int8 rows with one scale each, scanned
/// by brute force. Public so a benchmark can hold it against an approximate index.
#[derive(Debug)]
#[cfg(feature = "bench")]
pub(crate) struct VectorScan(Table);

#[cfg(feature = "bench")]
impl VectorScan {
    /// An empty scan over vectors of `dims` values.
    pub(crate) fn new(dims: usize) -> VectorScan {
        VectorScan(Table::new(dims))
    }

    /// Adds (or replaces) the unit vector of `key`.
    pub(crate) fn put(&mut self, key: &str, vector: &[f32]) {
        self.0.put(key, AssetType::Tool, 0, Some(vector));
    }

    /// The `depth` keys nearest `query` by cosine, nearest first, with their cosines.
    pub(crate) fn nearest(&self, query: &[f32], depth: usize) -> Vec<(f32, String)> {
        self.0
            .nearest(query, depth)
            .into_iter()
            .map(|(cos, key)| (cos, key.to_string()))
            .collect()
    }
}

impl Table {
    /// An empty table for vectors of `dims` values.
    pub(crate) fn new(dims: usize) -> Table {
        Table {
            dims,
            ..Table::default()
        }
    }

    /// How many assets it holds.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// The tool rows (keys `tool:<identity>`) in ascending order, each key with its
    /// stamp, when the table is as read from its file: comparing a snapshot's 100,000 tools
    /// by a hash lookup each was a cache miss or three per tool.
    pub(crate) fn tools_in_order(&self) -> Option<(&[Arc<str>], &[u64])> {
        if !self.sorted {
            return None;
        }
        let start = self.keys.partition_point(|k| &**k < "tool:");
        // ';' follows ':': every key that starts with "tool:" sorts before "tool;".
        let end = self.keys.partition_point(|k| &**k < "tool;");
        Some((&self.keys[start..end], &self.stamps[start..end]))
    }

    /// The stamp indexed for `key`.
    pub(crate) fn stamp(&self, key: &str) -> Option<u64> {
        self.slots.get(key).map(|&s| self.stamps[s])
    }

    /// Every key, with its kind.
    pub(crate) fn keys(&self) -> impl Iterator<Item = (&str, AssetType)> + '_ {
        self.slots
            .values()
            .map(|&s| (&*self.keys[s], self.kinds[s]))
    }

    /// Adds or replaces an asset.
    pub(crate) fn put(&mut self, key: &str, kind: AssetType, stamp: u64, vector: Option<&[f32]>) {
        let slot = match self.slots.get(key) {
            Some(&s) => s,
            None => {
                let s = match self.free.pop() {
                    Some(s) => s,
                    None => {
                        self.keys.push("".into());
                        self.stamps.push(0);
                        self.kinds.push(kind);
                        self.scales.push(0.0);
                        self.vectors.resize(self.vectors.len() + self.dims, 0);
                        self.keys.len() - 1
                    }
                };
                self.sorted = false;
                let key: Arc<str> = key.into();
                self.slots.insert(key.clone(), s);
                self.keys[s] = key;
                s
            }
        };
        self.stamps[slot] = stamp;
        self.kinds[slot] = kind;
        let row = &mut self.vectors[slot * self.dims..(slot + 1) * self.dims];
        match vector.map(quantise) {
            Some(q) if q.values.len() == self.dims => {
                row.copy_from_slice(&q.values);
                self.scales[slot] = q.scale;
            }
            _ => {
                row.fill(0);
                self.scales[slot] = 0.0;
            }
        }
    }

    /// Removes an asset.
    pub(crate) fn remove(&mut self, key: &str) {
        if let Some(slot) = self.slots.remove(key) {
            self.sorted = false;
            self.keys[slot] = "".into();
            self.scales[slot] = 0.0;
            self.free.push(slot);
        }
    }

    /// The `depth` assets closest to `query` (a unit vector), best first, ties by key.
    pub(crate) fn nearest(&self, query: &[f32], depth: usize) -> Vec<(f32, &str)> {
        let q = quantise(query);
        if depth == 0 || q.scale == 0.0 || q.values.len() != self.dims {
            return Vec::new();
        }
        let mut scored: Vec<(f32, usize)> = self
            .vectors
            .chunks_exact(self.dims.max(1))
            .zip(&self.scales)
            .enumerate()
            .filter(|(_, (_, &scale))| scale != 0.0)
            .map(|(slot, (row, &scale))| (dot_i8(&q.values, row) as f32 * q.scale * scale, slot))
            .collect();
        let by_score = |a: &(f32, usize), b: &(f32, usize)| {
            b.0.total_cmp(&a.0)
                .then_with(|| self.keys[a.1].cmp(&self.keys[b.1]))
        };
        let depth = depth.min(scored.len());
        if depth == 0 {
            return Vec::new();
        }
        scored.select_nth_unstable_by(depth - 1, by_score);
        scored.truncate(depth);
        scored.sort_by(by_score);
        scored
            .into_iter()
            .map(|(cos, slot)| (cos, &*self.keys[slot]))
            .collect()
    }

    /// The table as a cache file stores it (see [`Table::from_stored`]).
    pub(crate) fn stored(&self) -> Stored<'_> {
        // In key order: the table read back is sorted (see `sorted`).
        let mut order: Vec<usize> = self.slots.values().copied().collect();
        order.sort_unstable_by(|&a, &b| self.keys[a].cmp(&self.keys[b]));
        let rows = order
            .into_iter()
            .map(|slot| Row {
                key: &self.keys[slot],
                kind: kind_byte(self.kinds[slot]),
                stamp: self.stamps[slot],
                scale: self.scales[slot],
                vector: self.vectors[slot * self.dims..(slot + 1) * self.dims]
                    .iter()
                    .map(|&v| v as u8)
                    .collect(),
            })
            .collect();
        Stored {
            dims: self.dims,
            rows,
        }
    }

    /// The table `stored` holds, when its vectors have `dims` values.
    pub(crate) fn from_stored(stored: Stored, dims: usize) -> Option<Table> {
        if stored.dims != dims {
            return None;
        }
        let n = stored.rows.len();
        let mut table = Table::new(dims);
        table.keys.reserve(n);
        table.slots.reserve(n);
        table.vectors.reserve(n * dims);
        table.sorted = true;
        for (slot, row) in stored.rows.into_iter().enumerate() {
            if row.vector.len() != dims {
                return None;
            }
            let key: Arc<str> = row.key.into();
            table.sorted &= table.keys.last().is_none_or(|last| *last < key);
            table.vectors.extend(row.vector.iter().map(|&b| b as i8));
            table.slots.insert(key.clone(), slot);
            table.keys.push(key);
            table.kinds.push(kind_of(row.kind)?);
            table.stamps.push(row.stamp);
            table.scales.push(row.scale);
        }
        Some(table)
    }
}

/// A table as a cache file stores it.
#[derive(Serialize, Deserialize)]
pub(crate) struct Stored<'a> {
    dims: usize,
    #[serde(borrow)]
    rows: Vec<Row<'a>>,
}

/// One entry of a stored table: its vector's values as bytes.
#[derive(Serialize, Deserialize)]
struct Row<'a> {
    key: &'a str,
    kind: u8,
    stamp: u64,
    scale: f32,
    #[serde(borrow, serialize_with = "crate::cache::as_bytes")]
    vector: Cow<'a, [u8]>,
}

fn kind_byte(kind: AssetType) -> u8 {
    match kind {
        AssetType::Tool => 0,
        AssetType::Toolbox => 1,
        AssetType::Workflow => 2,
        AssetType::Function => 3,
    }
}

fn kind_of(byte: u8) -> Option<AssetType> {
    Some(match byte {
        0 => AssetType::Tool,
        1 => AssetType::Toolbox,
        2 => AssetType::Workflow,
        3 => AssetType::Function,
        _ => return None,
    })
}

#[cfg(test)]
#[path = "../../tests/unit/search/table.rs"]
mod tests;
