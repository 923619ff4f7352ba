//! Scale: generated worlds of 1,000, 10,000 and 100,000 tools (50 per toolbox, well-formed
//! docstrings and signatures). For each size, in one run:
//!
//! - the first search in a fresh `codemode exec` process, cold (no cache: the baseline)
//!   and on the unchanged world (the index cache written by the cold run);
//! - `codemode list` on the unchanged world, against the same command cold;
//! - keyword and default (semantic) query p50 in a process that opened the world's cache,
//!   against a plain single-field BM25 tantivy query over the same tools;
//! - the resident memory of `codemode serve` after listings and searches;
//! - beside the first search, the least any process must do to confirm an unchanged world
//!   (a stat of every tool folder and file, on every core): the floor under that figure.
//!
//! Each target is printed with its figure and ✓ or ✗, then one table for every size.
//! Fresh-process figures are the median wall time of three runs, with the CPU time (user
//! plus system) beside them: on a shared machine the CPU time is the steadier figure.
//!
//! Run: `cargo build --release && cargo run --release --features bench --example bench_scale [SIZES...]`
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

use crate::assets::AssetIndex;
use crate::registry::Registry;
use crate::search::{Mode, SearchRequest};
use serde_json::{json, Value};
use tantivy::collector::TopDocs;

use super::generated;

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

/// What one child process took.
struct Ran {
    wall: Duration,
    /// User plus system time: what the run cost, whatever else the machine was doing.
    cpu: Duration,
    /// Peak resident memory, KiB.
    peak: u64,
    stdout: String,
}

/// The run of three whose wall time is the median: one run on a shared machine is noise.
fn median_of_three(mut once: impl FnMut() -> Ran) -> Ran {
    let mut runs = vec![once(), once(), once()];
    runs.sort_by_key(|r| r.wall);
    runs.swap_remove(1)
}

/// Runs one child process to the end.
// The child is reaped by `wait4` (which also reports its peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(codemode: &Path, world: &Path, args: &[&str], stdin: &str) -> Ran {
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
    let (status, peak, cpu) = wait_with_usage(child.id() as libc::pid_t);
    let wall = started.elapsed();
    assert!(status == 0, "codemode {args:?} failed: {out}");
    Ran {
        wall,
        cpu,
        peak,
        stdout: out,
    }
}

/// Waits for a child and returns its exit status and peak resident memory in KiB.
fn wait_with_usage(pid: libc::pid_t) -> (i32, u64, Duration) {
    let mut status = 0;
    // SAFETY: rusage is plain data, filled in by wait4 for a child of this process.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4 failed");
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (
        libc::WEXITSTATUS(status),
        usage.ru_maxrss as u64,
        time(usage.ru_utime) + time(usage.ru_stime),
    )
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

/// The least a fresh process must do to know an unchanged world is unchanged: look at each
/// tool folder (its time changes when a file is added, removed or renamed) and at each file
/// in it (an edit in place changes only the file), relative to its open toolbox folder, on
/// every core. The median of three passes, and how many stats one pass makes. The names are
/// listed before the clock starts.
fn stat_floor(world: &Path) -> (Duration, usize) {
    use rayon::prelude::*;
    let toolboxes: Vec<(PathBuf, Vec<String>)> = std::fs::read_dir(world)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".toolbox"))
        .map(|b| {
            let mut rels = Vec::new();
            for tool in std::fs::read_dir(b.path()).unwrap().filter_map(|e| e.ok()) {
                let name = tool.file_name().to_string_lossy().into_owned();
                if !name.ends_with(".tool") {
                    continue;
                }
                for file in std::fs::read_dir(tool.path())
                    .unwrap()
                    .filter_map(|e| e.ok())
                {
                    rels.push(format!("{name}/{}", file.file_name().to_string_lossy()));
                }
                rels.push(name);
            }
            (b.path(), rels)
        })
        .collect();
    let stats: usize = toolboxes.iter().map(|(_, r)| r.len()).sum();
    let mut passes: Vec<Duration> = (0..3)
        .map(|_| {
            let t = Instant::now();
            toolboxes.par_iter().for_each(|(dir, rels)| {
                let flags = rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY;
                let fd = rustix::fs::open(dir, flags, rustix::fs::Mode::empty()).unwrap();
                rustix::fs::fstat(&fd).unwrap();
                for rel in rels {
                    let _ = rustix::fs::statat(&fd, rel.as_str(), rustix::fs::AtFlags::empty());
                }
            });
            t.elapsed()
        })
        .collect();
    passes.sort();
    (passes[1], stats)
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
    first_search_cpu_ms: f64,
    list_ms: f64,
    list_cpu_ms: f64,
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
            "| {} | {:.0} ms {} ({:.0} CPU) | {:.0} ms {} ({:.0} CPU) | {:.2} ms {} | {:.2} ms {} | {:.0} MB {} |",
            f.tools,
            f.first_search_ms,
            verdict(f.first_search_ms, FIRST_SEARCH_TARGET_MS),
            f.first_search_cpu_ms,
            f.list_ms,
            verdict(f.list_ms, LIST_TARGET_MS),
            f.list_cpu_ms,
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

    let cold = run(codemode, world, &["exec", "-"], FIRST_SEARCH);
    let cold_value: Value = serde_json::from_str(&cold.stdout).unwrap();
    let warm = median_of_three(|| run(codemode, world, &["exec", "-"], FIRST_SEARCH));
    let warm_value: Value = serde_json::from_str(&warm.stdout).unwrap();
    assert_eq!(cold_value["value"]["first"], warm_value["value"]["first"]);
    println!(
        "first search, fresh process: cold (no cache, baseline) {:.0} ms ({:.0} ms CPU), peak {} MB; unchanged world (median of 3) {:.0} ms ({:.0} ms CPU; search itself {:.1} ms), peak {} MB: {:.1}x faster; target {FIRST_SEARCH_TARGET_MS} ms: {}",
        ms(cold.wall),
        ms(cold.cpu),
        cold.peak / 1024,
        ms(warm.wall),
        ms(warm.cpu),
        warm_value["value"]["ms"].as_f64().unwrap_or(0.0),
        warm.peak / 1024,
        ms(cold.wall) / ms(warm.wall),
        verdict(ms(warm.wall), FIRST_SEARCH_TARGET_MS),
    );
    let floor = stat_floor(world);
    println!(
        "  what an unchanged world costs to confirm, alone: a stat of each tool folder and of each file in it, on {} threads: {:.0} ms ({} stats); the first search is {:.1}x that",
        rayon::current_num_threads(),
        ms(floor.0),
        floor.1,
        ms(warm.wall) / ms(floor.0),
    );

    let list = median_of_three(|| run(codemode, world, &["list"], ""));
    std::fs::remove_dir_all(world.join(".codemode")).unwrap();
    let list_cold = run(codemode, world, &["list"], "");
    println!(
        "codemode list: unchanged world (median of 3) {:.0} ms ({:.0} ms CPU), peak {} MB; cold (no cache, baseline) {:.0} ms: {:.1}x faster; target {LIST_TARGET_MS} ms: {}",
        ms(list.wall),
        ms(list.cpu),
        list.peak / 1024,
        ms(list_cold.wall),
        ms(list_cold.wall) / ms(list.wall),
        verdict(ms(list.wall), LIST_TARGET_MS),
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
        first_search_ms: ms(warm.wall),
        first_search_cpu_ms: ms(warm.cpu),
        list_ms: ms(list.wall),
        list_cpu_ms: ms(list.cpu),
        keyword_ms: p50s[0],
        default_ms: p50s[1],
        serve_mb,
    }
}

pub fn main() {
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
