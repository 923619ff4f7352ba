//! Meaning-vector search at scale: the int8 brute-force scan codemode runs
//! ([`crate::search::VectorScan`]) against an approximate nearest-neighbour index (HNSW,
//! the `instant-distance` crate), both held to exact float search in the same run.
//!
//! Tool texts are sentences drawn from the words of the bundled toolboxes' docstrings (so
//! the vectors spread as real descriptions do, unlike the scale benchmark's verb + noun
//! names), embedded with the bundled static model. For each size it prints the build time,
//! the p50 query time and recall@10 against exact search of each method.
//!
//! Run: `cargo run --release --features bench --example bench_ann [SIZES...]` (default 10000 100000).

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::search::{StaticModel, VectorScan};
use instant_distance::{Builder, HnswMap, Point, Search};
use rayon::prelude::*;

const QUERIES: usize = 300;
const K: usize = 10;

/// A unit vector; distance is one minus the cosine.
#[derive(Clone)]
struct Unit(Vec<f32>);

impl Point for Unit {
    fn distance(&self, other: &Self) -> f32 {
        1.0 - dot(&self.0, &other.0)
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A small deterministic generator (xorshift64*), so every run draws the same texts.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn sentence(&mut self, words: &[String], min: usize, max: usize) -> String {
        let len = min + self.below(max - min + 1);
        (0..len)
            .map(|_| words[self.below(words.len())].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The distinct words (three letters or more) of the bundled toolboxes' docstrings.
fn docstring_words() -> Vec<String> {
    let mut words = BTreeSet::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("toolboxes");
    for entry in walkdir::WalkDir::new(root).into_iter().flatten() {
        if entry.file_name() != "init.luau" {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines().filter(|l| l.starts_with("--!")) {
            for word in line[3..].split(|c: char| !c.is_ascii_alphabetic()) {
                if word.len() >= 3 {
                    words.insert(word.to_ascii_lowercase());
                }
            }
        }
    }
    words.into_iter().collect()
}

fn p50(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e3
}

/// The share of `exact`'s ids that `found` also has.
fn recall(exact: &[usize], found: &[usize]) -> f64 {
    exact.iter().filter(|id| found.contains(id)).count() as f64 / exact.len() as f64
}

fn embed_all(model: &StaticModel, texts: &[String]) -> Vec<Vec<f32>> {
    texts
        .par_iter()
        .map(|t| {
            model
                .embed(t)
                .expect("docstring words are in the model's vocabulary")
        })
        .collect()
}

pub fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("sizes are numbers of tools"))
        .collect();
    let sizes = if sizes.is_empty() {
        vec![10_000, 100_000]
    } else {
        sizes
    };
    let model = StaticModel::minilm();
    let words = docstring_words();
    println!(
        "{} words from the bundled docstrings, {} dimensions, {QUERIES} queries, recall@{K} against exact float search",
        words.len(),
        model.dims()
    );
    let mut rows = Vec::new();
    for &n in &sizes {
        let mut draw = Draw(0x9e37_79b9_7f4a_7c15 ^ n as u64);
        let texts: Vec<String> = (0..n).map(|_| draw.sentence(&words, 6, 16)).collect();
        let queries: Vec<String> = (0..QUERIES).map(|_| draw.sentence(&words, 3, 8)).collect();
        let vectors = embed_all(model, &texts);
        let query_vectors = embed_all(model, &queries);

        // Exact float search: the ground truth and the plain baseline.
        let mut exact_times = Vec::new();
        let exact: Vec<Vec<usize>> = query_vectors
            .iter()
            .map(|q| {
                let started = Instant::now();
                let mut scored: Vec<(f32, usize)> = vectors
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (dot(q, v), i))
                    .collect();
                scored.select_nth_unstable_by(K - 1, |a, b| b.0.total_cmp(&a.0));
                scored.truncate(K);
                exact_times.push(started.elapsed());
                scored.into_iter().map(|(_, i)| i).collect()
            })
            .collect();

        // The engine's scan.
        let started = Instant::now();
        let mut scan = VectorScan::new(model.dims());
        for (i, v) in vectors.iter().enumerate() {
            scan.put(&i.to_string(), v);
        }
        let scan_build = started.elapsed();
        let mut scan_times = Vec::new();
        let mut scan_recall = 0.0;
        for (q, truth) in query_vectors.iter().zip(&exact) {
            let started = Instant::now();
            let found = scan.nearest(q, K);
            scan_times.push(started.elapsed());
            let ids: Vec<usize> = found.iter().map(|(_, k)| k.parse().unwrap()).collect();
            scan_recall += recall(truth, &ids);
        }

        // HNSW with the crate's defaults (ef_construction 100, ef_search 100).
        let started = Instant::now();
        let points: Vec<Unit> = vectors.iter().cloned().map(Unit).collect();
        let hnsw: HnswMap<Unit, usize> = Builder::default().seed(7).build(points, (0..n).collect());
        let hnsw_build = started.elapsed();
        let mut hnsw_times = Vec::new();
        let mut hnsw_recall = 0.0;
        let mut search = Search::default();
        for (q, truth) in query_vectors.iter().zip(&exact) {
            let point = Unit(q.clone());
            let started = Instant::now();
            let ids: Vec<usize> = hnsw
                .search(&point, &mut search)
                .take(K)
                .map(|item| *item.value)
                .collect();
            hnsw_times.push(started.elapsed());
            hnsw_recall += recall(truth, &ids);
        }

        let (exact_ms, scan_ms, hnsw_ms) = (p50(exact_times), p50(scan_times), p50(hnsw_times));
        let (scan_recall, hnsw_recall) =
            (scan_recall / QUERIES as f64, hnsw_recall / QUERIES as f64);
        println!("\n== {n} tools");
        println!("exact float scan: p50 {exact_ms:.3} ms (baseline)");
        println!(
            "int8 scan (codemode): built in {:.0} ms, p50 {scan_ms:.3} ms ({:.2}x the float scan), recall@{K} {scan_recall:.3}, {} MB of vectors",
            scan_build.as_secs_f64() * 1e3,
            scan_ms / exact_ms,
            n * model.dims() / 1_000_000
        );
        println!(
            "HNSW: built in {:.1} s, p50 {hnsw_ms:.3} ms ({:.2}x the float scan, {:.2}x the int8 scan), recall@{K} {hnsw_recall:.3}, {} MB of float vectors plus the graph",
            hnsw_build.as_secs_f64(),
            hnsw_ms / exact_ms,
            hnsw_ms / scan_ms,
            n * model.dims() * 4 / 1_000_000
        );
        rows.push((n, scan_ms, scan_recall, hnsw_build, hnsw_ms, hnsw_recall));
    }
    println!(
        "\n| tools | int8 scan p50 | int8 recall@{K} | HNSW build | HNSW p50 | HNSW recall@{K} |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for (n, scan_ms, scan_recall, build, hnsw_ms, hnsw_recall) in rows {
        println!(
            "| {n} | {scan_ms:.2} ms | {scan_recall:.3} | {:.1} s | {hnsw_ms:.3} ms | {hnsw_recall:.3} |",
            build.as_secs_f64()
        );
    }
}
