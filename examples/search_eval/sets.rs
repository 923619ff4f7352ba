//! The hand-made sets of `tests/search_eval/`: one world from `catalogue.json` (with the
//! bundled toolboxes present), and per set and split the figures of each mode.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use crate::assets::AssetIndex;
use crate::registry::Registry;
use crate::search::{Mode, SearchRequest, SearchService};
use serde::Deserialize;

use super::{service, Baseline};

#[derive(Deserialize)]
struct Catalogue {
    toolboxes: BTreeMap<String, String>,
    tools: BTreeMap<String, String>,
}

/// A request and, per thing it asks for, the tools that answer it (none: nothing fits).
#[derive(Deserialize)]
struct Case {
    query: String,
    #[serde(default)]
    gold: Vec<String>,
    #[serde(default)]
    parts: Vec<Vec<String>>,
    split: String,
}

impl Case {
    fn parts(&self) -> Vec<Vec<String>> {
        if self.parts.is_empty() && !self.gold.is_empty() {
            vec![self.gold.clone()]
        } else {
            self.parts.clone()
        }
    }
}

/// What one mode did on one request.
struct Outcome {
    /// 1-based rank of the first gold row.
    first: Option<usize>,
    /// Parts with a gold row in the top 5.
    parts_in_5: usize,
    parts: usize,
    pinned: bool,
    empty: bool,
}

fn write_world(dir: &Path, catalogue: &Catalogue) {
    for (name, description) in &catalogue.toolboxes {
        let folder = dir.join(format!("{name}.toolbox"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("README.md"),
            format!("# {name}\n\n{description}\n"),
        )
        .unwrap();
    }
    for (identity, source) in &catalogue.tools {
        let (b, t) = identity.split_once('.').unwrap();
        let folder = dir.join(format!("{b}.toolbox/{t}.tool"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("init.luau"), source).unwrap();
    }
}

fn outcome(identities: &[String], pinned: bool, case: &Case) -> Outcome {
    let parts = case.parts();
    let gold: HashSet<&str> = parts.iter().flatten().map(String::as_str).collect();
    let first = identities
        .iter()
        .position(|i| gold.contains(i.as_str()))
        .map(|p| p + 1);
    let top5: HashSet<&str> = identities.iter().take(5).map(String::as_str).collect();
    let parts_in_5 = parts
        .iter()
        .filter(|p| p.iter().any(|g| top5.contains(g.as_str())))
        .count();
    Outcome {
        first,
        parts_in_5,
        parts: parts.len(),
        pinned,
        empty: identities.is_empty(),
    }
}

fn run_mode(
    service: &SearchService,
    index: &Arc<AssetIndex>,
    cases: &[Case],
    mode: Mode,
) -> (Vec<Outcome>, f64) {
    let started = Instant::now();
    let out = cases
        .iter()
        .map(|case| {
            let mut req = SearchRequest::new(case.query.clone());
            req.mode = mode;
            req.all = std::env::var("CM_ALL").is_ok();
            let rows = service.search(index, &req).unwrap().rows;
            let ids: Vec<String> = rows.iter().map(|r| r.identity.clone()).collect();
            if std::env::var("CM_DEBUG").is_ok_and(|v| v == mode.name()) && case.split == "dev" {
                let got = ids
                    .iter()
                    .take(5)
                    .zip(rows.iter().map(|r| r.p.unwrap_or(0.0)))
                    .map(|(i, p)| format!("{i} {p:.2}"))
                    .collect::<Vec<_>>();
                println!(
                    "DEBUG {} | gold {:?} | got {:?}",
                    case.query,
                    case.parts(),
                    got
                );
            }
            if let Ok(path) = std::env::var("CM_DUMP") {
                use std::io::Write;
                let gold: HashSet<String> = case.parts().into_iter().flatten().collect();
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .unwrap();
                for r in rows.iter().filter(|r| r.p != Some(1.0)) {
                    let (cov, cos, crowd) = r.evidence.unwrap_or((0.0, None, 0.0));
                    writeln!(
                        f,
                        "{} {} {} {} {} {}",
                        mode.name(),
                        case.split,
                        u8::from(gold.contains(&r.identity)),
                        cov,
                        cos.unwrap_or(-1.0),
                        crowd
                    )
                    .unwrap();
                }
            }
            outcome(&ids, rows.iter().any(|r| r.p == Some(1.0)), case)
        })
        .collect();
    (
        out,
        started.elapsed().as_secs_f64() * 1e3 / cases.len().max(1) as f64,
    )
}

fn print_row(name: &str, outcomes: &[&Outcome], long: bool) {
    let n = outcomes.len().max(1) as f64;
    let at = |k: usize| {
        outcomes
            .iter()
            .filter(|o| o.first.is_some_and(|r| r <= k))
            .count() as f64
            / n
    };
    let parts: usize = outcomes.iter().map(|o| o.parts).sum();
    let parts_in_5: usize = outcomes.iter().map(|o| o.parts_in_5).sum();
    let all_parts = outcomes
        .iter()
        .filter(|o| o.parts > 0 && o.parts_in_5 == o.parts)
        .count() as f64
        / n;
    let pins = outcomes.iter().filter(|o| o.pinned).count();
    let empty = outcomes.iter().filter(|o| o.empty).count() as f64 / n;
    let extra = if long {
        format!(
            " {:>8.3} {:>8.3}",
            parts_in_5 as f64 / parts.max(1) as f64,
            all_parts
        )
    } else {
        format!(" {:>8} {:>8}", "", "")
    };
    println!(
        "  {name:<14} {:>8.3} {:>8.3}{extra} {pins:>5} {empty:>7.3}",
        at(1),
        at(5)
    );
}

/// Runs every set; prints the table.
pub fn run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/search_eval");
    let read = |name: &str| {
        std::fs::read_to_string(root.join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}; run scripts/search_eval_sets.py"))
    };
    let catalogue: Catalogue = serde_json::from_str(&read("catalogue.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    write_world(dir.path(), &catalogue);
    let registry = Registry::open(dir.path(), &[], true).expect("cannot open the eval world");
    let index: Arc<AssetIndex> = registry.snapshot();
    let service = service();
    service.sync(&index).unwrap();
    println!(
        "{} tools ({} of the catalogue, the rest bundled) in {} toolboxes",
        index.tools.len(),
        catalogue.tools.len(),
        index.toolbox_names().len()
    );
    let baseline = Baseline::over(&index, |_| true);
    for set in ["long", "short", "none"] {
        let cases: Vec<Case> = serde_json::from_str(&read(&format!("{set}.json"))).unwrap();
        let base: Vec<Outcome> = cases
            .iter()
            .map(|c| outcome(&baseline.top(&c.query), false, c))
            .collect();
        let mut modes = vec![("bm25-baseline", base, 0.0)];
        for (name, mode) in [("keyword", Mode::Keyword), ("default", Mode::Semantic)] {
            let (out, ms) = run_mode(&service, &index, &cases, mode);
            modes.push((name, out, ms));
        }
        let long = set == "long";
        for split in ["test", "dev"] {
            let picked: Vec<usize> = (0..cases.len())
                .filter(|&i| cases[i].split == split)
                .collect();
            println!("\n{set} requests, {split} split ({}):", picked.len());
            println!(
                "  {:<14} {:>8} {:>8} {:>8} {:>8} {:>5} {:>7}",
                "mode", "recall@1", "recall@5", "parts@5", "all@5", "pins", "nothing"
            );
            for (name, outcomes, _) in &modes {
                let sub: Vec<&Outcome> = picked.iter().map(|&i| &outcomes[i]).collect();
                print_row(name, &sub, long);
            }
        }
        for (name, _, ms) in modes.iter().skip(1) {
            println!("  {name}: {ms:.2} ms per request (mean, rows built)");
        }
    }
    println!("\nnothing = share of requests where no row clears the relevance threshold (right only for the none set); pins = requests with a pinned row (none is a name); parts@5 = parts with a gold tool in the top 5; all@5 = requests with every part's tool in the top 5.");
}
