//! Scale: generated worlds of 1,000, 10,000 and 100,000 tools (50 per toolbox, well-formed
//! docstrings and signatures). For each size, in one run:
//!
//! - the first search in a fresh `codemode exec` process, cold (no cache: the baseline)
//!   and on the unchanged world (the index cache written by the cold run);
//! - `codemode list` on the unchanged world, against the same command cold;
//! - keyword and default (semantic) query p50 in a process that opened the world's cache,
//!   against a plain single-field BM25 tantivy query over the same tools;
//! - the resident memory of `codemode serve` after listings and searches.
//!
//! Each target is printed with its figure and ✓ or ✗, then one table for every size.
//!
//! Run: `cargo build --release && cargo run --release --example bench_scale [SIZES...]`
//! (`BENCH_SCALE_CHECK=off` runs every `codemode` child with `--check off`).
//! Worlds are written under the temp folder and removed after their row; with
//! `BENCH_SCALE_WORLDS=DIR` they are kept in `DIR/tools-<size>` and reused by later runs
//! (generating 100,000 tools takes a while), their `.codemode` removed first so the cold
//! figures stay cold.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::assets::AssetIndex;
use codemode::search::{Mode, SearchRequest};
use codemode::Registry;
use serde_json::{json, Value};
use tantivy::collector::TopDocs;

#[path = "common/generated.rs"]
mod generated;

use generated::{bm25_baseline, write_world, QUERIES};

const PER_TOOLBOX: usize = 50;
const FIRST_SEARCH: &str = "local t = os.clock()\nlocal r = tools.search('send an email to a colleague')\nreturn { ms = (os.clock() - t) * 1000, first = r.value[1].identity }";

/// `--check MODE` when `BENCH_SCALE_CHECK` names one (`off` measures the engine without the
/// type checker's preflight), else nothing: the default mode.
fn check_mode() -> Vec<String> {
    std::env::var("BENCH_SCALE_CHECK")
        .map(|mode| vec!["--check".to_string(), mode])
        .unwrap_or_default()
}

/// Wall time and peak resident memory (KiB) of one child process, with its stdout.
// The child is reaped by `wait4` (which also reports its peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(codemode: &Path, world: &Path, args: &[&str], stdin: &str) -> (Duration, u64, String) {
    let started = Instant::now();
    let mut child = Command::new(codemode)
        .arg("--world")
        .arg(world)
        .arg("--no-bundled")
        // The cold baseline indexes 100,000 tools inside the script: past the default
        // deadline on a busy machine.
        .args(["--timeout-ms", "600000"])
        .args(check_mode())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn codemode");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    let (status, peak) = wait_with_peak(child.id() as libc::pid_t);
    let elapsed = started.elapsed();
    assert!(status == 0, "codemode {args:?} failed: {out}");
    (elapsed, peak, out)
}

/// Waits for a child and returns its exit status and peak resident memory in KiB.
fn wait_with_peak(pid: libc::pid_t) -> (i32, u64) {
    let mut status = 0;
    // SAFETY: rusage is plain data, filled in by wait4 for a child of this process.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4 failed");
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn p50(mut run: impl FnMut(&str)) -> f64 {
    for q in QUERIES {
        run(q);
    }
    let mut times = Vec::new();
    for _ in 0..20 {
        for q in QUERIES {
            let t = Instant::now();
            run(q);
            times.push(t.elapsed());
        }
    }
    times.sort();
    ms(times[times.len() / 2])
}

fn bm25_p50(index: &AssetIndex) -> f64 {
    let (idx, parser) = bm25_baseline(index);
    let reader = idx.reader().unwrap();
    p50(|q| {
        let (query, _) = parser.parse_query_lenient(q);
        let _ = reader
            .searcher()
            .search(&query, &TopDocs::with_limit(10).order_by_score())
            .unwrap();
    })
}

/// Resident memory (KiB) of `codemode serve` after listings and searches.
fn serve_rss(codemode: &Path, world: &Path) -> u64 {
    let mut child = Command::new(codemode)
        .args(["serve", "--no-bundled", "--timeout-ms", "600000"])
        .args(check_mode())
        .arg("--world")
        .arg(world)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut call = |id: u64, msg: Value| -> Value {
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
        if id == 0 {
            return Value::Null;
        }
        let line = lines.next().unwrap().unwrap();
        serde_json::from_str(&line).unwrap()
    };
    call(
        1,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}),
    );
    call(
        0,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    let script =
        "local n = #tools.list().value\nlocal two = #tools.list(2, 'box1').value\nreturn n + two";
    let mut id = 2;
    for round in 0..3 {
        let reply = call(
            id,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "tool_exec", "arguments": {"script": script}}}),
        );
        assert_eq!(
            reply["result"]["structuredContent"]["ok"], true,
            "listing under serve failed: {reply}"
        );
        id += 1;
        for q in QUERIES {
            let query = format!("{q} {round}");
            call(
                id,
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "search_tools", "arguments": {"query": query}}}),
            );
            id += 1;
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    let _ = child.kill();
    let _ = child.wait();
    rss
}

fn verdict(value: f64, target: f64) -> &'static str {
    if value <= target {
        "✓"
    } else {
        "✗"
    }
}

/// One size's figures against the targets, for the closing table.
struct Figures {
    tools: usize,
    first_search_ms: f64,
    list_ms: f64,
    keyword_ms: f64,
    default_ms: f64,
    serve_mb: f64,
}

/// The resident-memory target of `serve`: 300 MB at 100,000 tools, 60 MB below.
fn serve_target(tools: usize) -> f64 {
    if tools >= 100_000 {
        300.0
    } else {
        60.0
    }
}

const FIRST_SEARCH_TARGET_MS: f64 = 300.0;
const LIST_TARGET_MS: f64 = 1000.0;
const KEYWORD_TARGET_MS: f64 = 2.0;
const DEFAULT_TARGET_MS: f64 = 10.0;

fn table(rows: &[Figures]) {
    println!("\n| tools | first search (≤{FIRST_SEARCH_TARGET_MS} ms) | list (≤{LIST_TARGET_MS} ms) | keyword p50 (≤{KEYWORD_TARGET_MS} ms) | default p50 (≤{DEFAULT_TARGET_MS} ms) | serve RSS (≤60 MB; ≤300 MB at 100k) |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for f in rows {
        println!(
            "| {} | {:.0} ms {} | {:.0} ms {} | {:.2} ms {} | {:.2} ms {} | {:.0} MB {} |",
            f.tools,
            f.first_search_ms,
            verdict(f.first_search_ms, FIRST_SEARCH_TARGET_MS),
            f.list_ms,
            verdict(f.list_ms, LIST_TARGET_MS),
            f.keyword_ms,
            verdict(f.keyword_ms, KEYWORD_TARGET_MS),
            f.default_ms,
            verdict(f.default_ms, DEFAULT_TARGET_MS),
            f.serve_mb,
            verdict(f.serve_mb, serve_target(f.tools)),
        );
    }
}

/// The world of `tools` tools: kept under `BENCH_SCALE_WORLDS` (reused when a previous
/// run wrote it whole), else in a temporary folder removed after the row.
fn world_for(tools: usize) -> (PathBuf, Option<tempfile::TempDir>) {
    let Some(keep) = std::env::var_os("BENCH_SCALE_WORLDS") else {
        let dir = tempfile::Builder::new()
            .prefix("codemode-bench-scale-")
            .tempdir()
            .unwrap();
        let path = dir.path().to_path_buf();
        let t = Instant::now();
        write_world(&path, tools, |i| i / PER_TOOLBOX);
        println!("(world written in {:.1} s)", t.elapsed().as_secs_f64());
        // Files modified within two seconds of being read are confirmed by content.
        std::thread::sleep(Duration::from_millis(2100));
        return (path, Some(dir));
    };
    let path = PathBuf::from(keep).join(format!("tools-{tools}"));
    let done = path.join(".written");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        let t = Instant::now();
        write_world(&path, tools, |i| i / PER_TOOLBOX);
        std::fs::write(&done, "").unwrap();
        println!("(world written in {:.1} s)", t.elapsed().as_secs_f64());
        std::thread::sleep(Duration::from_millis(2100));
    }
    let _ = std::fs::remove_dir_all(path.join(".codemode"));
    (path, None)
}

fn row(codemode: &Path, tools: usize) -> Figures {
    println!(
        "\n== {tools} tools in {} toolboxes",
        tools.div_ceil(PER_TOOLBOX)
    );
    let (world, _temporary) = world_for(tools);
    let world = world.as_path();

    let (cold, cold_peak, out) = run(codemode, world, &["exec", "-"], FIRST_SEARCH);
    let cold_value: Value = serde_json::from_str(&out).unwrap();
    let (warm, warm_peak, out) = run(codemode, world, &["exec", "-"], FIRST_SEARCH);
    let warm_value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(cold_value["value"]["first"], warm_value["value"]["first"]);
    println!(
        "first search, fresh process: cold (no cache, baseline) {:.0} ms, peak {} MB; unchanged world {:.0} ms (search itself {:.1} ms), peak {} MB: {:.1}x faster; target {FIRST_SEARCH_TARGET_MS} ms: {}",
        ms(cold),
        cold_peak / 1024,
        ms(warm),
        warm_value["value"]["ms"].as_f64().unwrap_or(0.0),
        warm_peak / 1024,
        ms(cold) / ms(warm),
        verdict(ms(warm), FIRST_SEARCH_TARGET_MS),
    );

    let (list, list_peak, _) = run(codemode, world, &["list"], "");
    std::fs::remove_dir_all(world.join(".codemode")).unwrap();
    let (list_cold, _, _) = run(codemode, world, &["list"], "");
    println!(
        "codemode list: unchanged world {:.0} ms, peak {} MB; cold (no cache, baseline) {:.0} ms: {:.1}x faster; target {LIST_TARGET_MS} ms: {}",
        ms(list),
        list_peak / 1024,
        ms(list_cold),
        ms(list_cold) / ms(list),
        verdict(ms(list), LIST_TARGET_MS),
    );
    // Settle the cache again for the rows below.
    run(codemode, world, &["exec", "-"], FIRST_SEARCH);

    let registry = Registry::open(world, &[], false).unwrap();
    let snapshot: Arc<AssetIndex> = registry.snapshot();
    let service = registry.search();
    service.sync(&snapshot).unwrap();
    let baseline = bm25_p50(&snapshot);
    let mut p50s = Vec::new();
    for (mode, target) in [
        (Mode::Keyword, KEYWORD_TARGET_MS),
        (Mode::Semantic, DEFAULT_TARGET_MS),
    ] {
        let p = p50(|q| {
            let mut req = SearchRequest::new(q);
            req.mode = mode;
            service.search(&snapshot, &req).unwrap();
        });
        println!(
            "{mode:?} p50 {p:.2} ms (plain BM25 baseline {baseline:.3} ms, {:.1}x); target {target} ms at 100k: {}",
            p / baseline,
            verdict(p, target)
        );
        p50s.push(p);
    }
    drop(registry);

    let rss = serve_rss(codemode, world);
    let serve_mb = rss as f64 / 1024.0;
    println!(
        "serve after listings and searches: {serve_mb:.0} MB resident; target {} MB: {}",
        serve_target(tools),
        verdict(serve_mb, serve_target(tools))
    );
    Figures {
        tools,
        first_search_ms: ms(warm),
        list_ms: ms(list),
        keyword_ms: p50s[0],
        default_ms: p50s[1],
        serve_mb,
    }
}

fn main() {
    let me = std::env::current_exe().unwrap();
    let codemode: PathBuf = me
        .parent()
        .and_then(|examples| examples.parent())
        .map(|release| release.join("codemode"))
        .expect("target/release/codemode next to the examples folder");
    assert!(
        codemode.exists(),
        "build the binary first: cargo build --release"
    );
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000, 100_000]
    } else {
        sizes
    };
    let figures: Vec<Figures> = sizes.into_iter().map(|n| row(&codemode, n)).collect();
    table(&figures);
}
