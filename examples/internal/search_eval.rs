//! Retrieval evaluation of `tools.search`.
//!
//! `cargo run --release --features bench --example search_eval` runs the hand-made sets of
//! `tests/search_eval/` (written by `scripts/search_eval_sets.py`): long multi-part
//! requests, short one-tool requests and "nothing fits" requests over a catalogue of
//! service APIs with near-duplicates, with the bundled toolboxes present. Per set and
//! split it prints recall@1 and recall@5 (any gold tool counts), for long requests the
//! share of parts whose tool is in the top 5, the requests with a pinned row (none of
//! them is a name, so every pin is false), and how often no row clears the relevance
//! threshold (the right answer for the "nothing fits" set only).
//!
//! `cargo run --release --features bench --example search_eval -- DATA_DIR` runs the BFCL set instead
//! (`scripts/search_eval.sh` builds DATA_DIR from the `bfcl-eval` package and runs this):
//! recall@1, recall@5 and MRR@10 for keyword, semantic (fused) and a plain single-field
//! BM25 baseline, on the held-out `test` split (all queries, and the paraphrases that
//! share few words with their tool) and on `dev` (the only split used for tuning).
//!
//! Knobs for tuning on dev: CM_FUSION_K, CM_KEYWORD_WEIGHT, CM_MEANING_WEIGHT,
//! CM_COVERAGE_POWER (0 = plain rank fusion), CM_MEANING_FLOOR, CM_CLOSE, CM_TIE, CM_FUZZY,
//! CM_SHARE (WordLlama's share of the meaning cosine); for the parts of a long request
//! CM_WHOLE_W, CM_PART_W (0 = one part), CM_MERGE_K and CM_LEAD; and for relevance
//! CM_THRESHOLD, CM_UNMATCHED, CM_FLOOR, CM_SEMANTIC_BIAS, CM_SEMANTIC_COVERAGE,
//! CM_SEMANTIC_COSINE, CM_SEMANTIC_MARGIN, CM_KEYWORD_BIAS, CM_ALL (every row, no
//! threshold), CM_DUMP=FILE (each row's evidence, to fit the relevance curves).
//! CM_VECTORS_LOG and CM_VECTORS rank by another meaning model's vectors, computed ahead
//! (see `search_eval/vectors.rs`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::assets::AssetIndex;
use crate::registry::Registry;
use crate::search::{Bundled, Fusion, Mode, SearchRequest, SearchService, Tuning};
use serde::Deserialize;

#[path = "../search_eval/sets.rs"]
mod sets;
#[path = "../search_eval/vectors.rs"]
mod vectors;
use tantivy::collector::TopDocs;
use tantivy::query::QueryParser;
use tantivy::schema::{Schema, Value, STORED, STRING, TEXT};
use tantivy::{doc, Index, TantivyDocument};

#[derive(Deserialize)]
struct Query {
    query: String,
    gold: String,
    split: String,
    paraphrase: bool,
}

/// Ranks of the gold tool (1-based) per query, `None` when not in the top 10.
type Ranks = Vec<Option<usize>>;

fn env_f32(name: &str, default: f32) -> f32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub(crate) fn service() -> SearchService {
    let mut tuning = Tuning::default();
    tuning.tie_breaker = env_f32("CM_TIE", tuning.tie_breaker);
    tuning.fuzzy_boost = env_f32("CM_FUZZY", tuning.fuzzy_boost);
    tuning.toolbox_factor = env_f32("CM_BOX_FACTOR", tuning.toolbox_factor);
    tuning.function_factor = env_f32("CM_FUNCTION_FACTOR", tuning.function_factor);
    let name_boost = env_f32("CM_NAME_BOOST", tuning.boosts[0].1);
    tuning.boosts[0].1 = name_boost;
    let desc_boost = env_f32("CM_DESC_BOOST", tuning.boosts[2].1);
    tuning.boosts[2].1 = desc_boost;
    let mut fusion = Fusion::default();
    fusion.k = env_f32("CM_FUSION_K", fusion.k);
    fusion.keyword_weight = env_f32("CM_KEYWORD_WEIGHT", fusion.keyword_weight);
    fusion.meaning_weight = env_f32("CM_MEANING_WEIGHT", fusion.meaning_weight);
    fusion.coverage_power = env_f32("CM_COVERAGE_POWER", fusion.coverage_power);
    fusion.full_coverage = env_f32("CM_FULL_COVERAGE", fusion.full_coverage);
    fusion.meaning_floor = env_f32("CM_MEANING_FLOOR", fusion.meaning_floor);
    fusion.close = env_f32("CM_CLOSE", fusion.close);
    fusion.parts.whole = env_f32("CM_WHOLE_W", fusion.parts.whole);
    fusion.parts.part = env_f32("CM_PART_W", fusion.parts.part);
    fusion.parts.k = env_f32("CM_MERGE_K", fusion.parts.k);
    fusion.parts.lead = env_f32("CM_LEAD", fusion.parts.lead);
    let r = &mut fusion.relevance;
    r.threshold = env_f32("CM_THRESHOLD", r.threshold);
    r.unmatched = env_f32("CM_UNMATCHED", r.unmatched);
    r.floor = env_f32("CM_FLOOR", r.floor);
    r.semantic.bias = env_f32("CM_SEMANTIC_BIAS", r.semantic.bias);
    r.semantic.coverage = env_f32("CM_SEMANTIC_COVERAGE", r.semantic.coverage);
    r.semantic.cosine = env_f32("CM_SEMANTIC_COSINE", r.semantic.cosine);
    r.semantic.margin = env_f32("CM_SEMANTIC_MARGIN", r.semantic.margin);
    r.keyword.bias = env_f32("CM_KEYWORD_BIAS", r.keyword.bias);
    let service = SearchService::with_tuning(tuning, fusion);
    if let Some(meaning) = vectors::from_env() {
        return service.with_meaning(meaning);
    }
    match std::env::var("CM_SHARE").ok().and_then(|v| v.parse().ok()) {
        Some(share) => service.with_meaning(Arc::new(Bundled { share })),
        None => service,
    }
}

/// The baseline: every text of a tool in one field, tantivy's default tokenizer, BM25.
pub(crate) struct Baseline {
    reader: tantivy::IndexReader,
    parser: QueryParser,
    id: tantivy::schema::Field,
}

impl Baseline {
    fn new(assets: &AssetIndex) -> Baseline {
        Baseline::over(assets, |_| true)
    }

    /// Over the tools `keep` keeps.
    pub(crate) fn over(assets: &AssetIndex, keep: impl Fn(&str) -> bool) -> Baseline {
        let mut schema = Schema::builder();
        let id = schema.add_text_field("id", STRING | STORED);
        let body = schema.add_text_field("body", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 50_000_000).unwrap();
        for entry in assets.tools.values().filter(|e| keep(&e.identity)) {
            let m = &entry.meta();
            let mut text = format!("{} {} {}", m.identity, m.description, m.tags.join(" "));
            for a in &m.args {
                text.push_str(&format!(" {} {}", a.name, a.description));
            }
            writer
                .add_document(doc!(id => m.identity.as_str(), body => text))
                .unwrap();
        }
        writer.commit().unwrap();
        let parser = QueryParser::for_index(&index, vec![body]);
        Baseline {
            reader: index.reader().unwrap(),
            parser,
            id,
        }
    }

    fn rank(&self, query: &str, gold: &str) -> Option<usize> {
        self.top(query)
            .iter()
            .position(|id| id == gold)
            .map(|p| p + 1)
    }

    /// The identities of the top 10.
    pub(crate) fn top(&self, query: &str) -> Vec<String> {
        let (q, _) = self.parser.parse_query_lenient(query);
        let searcher = self.reader.searcher();
        let top = searcher
            .search(&q, &TopDocs::with_limit(10).order_by_score())
            .unwrap();
        top.iter()
            .filter_map(|(_, a)| {
                let d: TantivyDocument = searcher.doc(*a).unwrap();
                d.get_first(self.id)
                    .and_then(|v| v.as_str())
                    .map(String::from)
            })
            .collect()
    }
}

fn metrics(ranks: &[Option<usize>]) -> (f64, f64, f64) {
    let n = ranks.len().max(1) as f64;
    let at = |k: usize| ranks.iter().filter(|r| r.is_some_and(|r| r <= k)).count() as f64 / n;
    let mrr = ranks
        .iter()
        .map(|r| r.map_or(0.0, |r| 1.0 / r as f64))
        .sum::<f64>()
        / n;
    (at(1), at(5), mrr)
}

pub fn main() {
    match std::env::args().nth(1) {
        Some(dir) => bfcl(dir.into()),
        None => sets::run(),
    }
}

fn bfcl(dir: PathBuf) {
    let queries: Vec<Query> = serde_json::from_str(
        &std::fs::read_to_string(dir.join("queries.json"))
            .expect("queries.json missing: run scripts/search_eval.sh first"),
    )
    .expect("queries.json is not valid");
    let registry =
        Registry::open(&dir.join("world"), &[], false).expect("cannot open the eval world");
    let index: Arc<AssetIndex> = registry.snapshot();
    let service = service();
    let started = Instant::now();
    service.sync(&index).unwrap();
    println!(
        "{} tools indexed in {:.0} ms",
        index.tools.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let baseline = Baseline::new(&index);

    let mut results: Vec<(&str, Ranks)> = Vec::new();
    results.push((
        "bm25-baseline",
        queries
            .iter()
            .map(|q| baseline.rank(&q.query, &q.gold))
            .collect(),
    ));
    for (name, mode) in [("keyword", Mode::Keyword), ("semantic", Mode::Semantic)] {
        let started = Instant::now();
        let ranks = queries
            .iter()
            .map(|q| {
                let mut req = SearchRequest::new(q.query.clone());
                req.mode = mode;
                req.all = std::env::var("CM_ALL").is_ok();
                let rows = service.search(&index, &req).unwrap().rows;
                rows.iter()
                    .position(|r| r.identity == q.gold)
                    .map(|p| p + 1)
            })
            .collect();
        let per = started.elapsed().as_secs_f64() * 1e3 / queries.len() as f64;
        println!("{name}: {per:.3} ms per query (mean, with row building)");
        results.push((name, ranks));
    }
    if std::env::var("CM_DEBUG").is_ok() {
        let (base, kw) = (&results[0].1, &results[1].1);
        for (i, q) in queries.iter().enumerate().filter(|(_, q)| q.split == "dev") {
            if base[i] == Some(1) && kw[i].is_none_or(|r| r > 5) {
                let mut req = SearchRequest::new(q.query.clone());
                req.mode = Mode::Keyword;
                let rows = service.search(&index, &req).unwrap().rows;
                let top: Vec<&str> = rows.iter().take(3).map(|r| r.identity.as_str()).collect();
                println!(
                    "MISS {} | gold {} | got {:?}",
                    &q.query.chars().take(90).collect::<String>(),
                    q.gold,
                    top
                );
            }
        }
    }
    for (split, paraphrase_only) in [
        ("test", false),
        ("test", true),
        ("dev", false),
        ("dev", true),
    ] {
        let picked: Vec<usize> = (0..queries.len())
            .filter(|&i| queries[i].split == split && (!paraphrase_only || queries[i].paraphrase))
            .collect();
        let label = if paraphrase_only {
            "paraphrases"
        } else {
            "all queries"
        };
        println!("\n{split} split, {label} ({}):", picked.len());
        println!(
            "  {:<14} {:>9} {:>9} {:>7}",
            "mode", "recall@1", "recall@5", "MRR"
        );
        for (name, ranks) in &results {
            let sub: Vec<Option<usize>> = picked.iter().map(|&i| ranks[i]).collect();
            let (r1, r5, mrr) = metrics(&sub);
            println!("  {name:<14} {r1:>9.3} {r5:>9.3} {mrr:>7.3}");
        }
    }
}
