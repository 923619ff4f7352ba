//! Live reload in a world of 10,000 tools.
//!
//! Measures, with the watcher running, the time from editing one `init.luau` to the new
//! version being visible in `registry.snapshot()`; then the cost of an incremental update
//! against a full rebuild, for 1 and for 100 changed tools.
//!
//! Run: `cargo run --release --features bench --example bench_reload [TOOLS]`

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::registry::Registry;

const PER_BOX: usize = 100;

fn source(name: &str, version: usize) -> String {
    format!(
        "--!desc Tool {name}, version {version}.\n--!arg text string Some text.\n--!return string The text.\nlocal function {name}(text: string): string\n\treturn text .. \"{version}\"\nend\n\nreturn {name}\n"
    )
}

fn tool_dir(world: &Path, i: usize) -> PathBuf {
    world.join(format!("b{}.toolbox/t{i}.tool", i / PER_BOX))
}

fn edit(world: &Path, i: usize, version: usize) -> PathBuf {
    let path = tool_dir(world, i).join("init.luau");
    std::fs::write(&path, source(&format!("t{i}"), version)).unwrap();
    path
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

pub fn main() {
    let tools: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let temp = tempfile::tempdir().unwrap();
    let world = temp.path().canonicalize().unwrap();
    for i in 0..tools {
        let dir = tool_dir(&world, i);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("init.luau"), source(&format!("t{i}"), 0)).unwrap();
        std::fs::write(dir.join(".metadata"), "{\"tags\": [\"bench\"]}").unwrap();
    }
    let started = Instant::now();
    let registry = Arc::new(Registry::open(&world, &[], false).unwrap());
    let build_ms = started.elapsed().as_secs_f64() * 1000.0;
    println!(
        "world: {tools} tools in {} toolboxes; initial build {build_ms:.1} ms",
        tools.div_ceil(PER_BOX)
    );

    // 1. Edit to visible, with the watcher running.
    let watcher = registry.watch().unwrap();
    let mut visible = Vec::new();
    for round in 1..=20 {
        let i = (round * 7919) % tools;
        let identity = format!("b{}.t{i}", i / PER_BOX);
        let wanted = format!("Tool t{i}, version {round}.");
        let t0 = Instant::now();
        edit(&world, i, round);
        loop {
            let index = registry.snapshot();
            if index
                .tool(&identity)
                .is_some_and(|t| t.meta().description == wanted)
            {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "edit never became visible"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
        visible.push(t0.elapsed().as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(30));
    }
    drop(watcher);
    let worst = visible.iter().cloned().fold(0.0, f64::max);
    println!(
        "edit -> visible with the watcher (20 edits): median {:.1} ms, worst {worst:.1} ms (target 200 ms; includes the {} ms debounce)",
        median(visible.clone()),
        crate::registry::QUIET.as_millis()
    );

    // 2. Incremental update vs full rebuild, without the watcher.
    let mut full = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        registry.reload();
        full.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    let full_ms = median(full);
    println!("full rebuild: {full_ms:.1} ms");
    let mut copies = Vec::new();
    for _ in 0..5 {
        let t0 = Instant::now();
        let copy = (*registry.snapshot()).clone();
        drop(copy);
        copies.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    println!(
        "floor: copying and dropping the snapshot's maps (persistent maps: shared, not copied): {:.2} ms",
        median(copies)
    );
    let mut version = 1000;
    for changed in [1usize, 10, 100] {
        let mut runs = Vec::new();
        for _ in 0..5 {
            version += 1;
            let paths: Vec<PathBuf> = (0..changed)
                .map(|k| edit(&world, (k * 97 + version) % tools, version))
                .collect();
            let t0 = Instant::now();
            registry.apply_changes(&paths);
            runs.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
        let ms = median(runs);
        println!(
            "incremental, {changed:>3} changed tools: {ms:.2} ms ({:.4} ms per tool); full rebuild / incremental = {:.0}x",
            ms / changed as f64,
            full_ms / ms
        );
    }
}
