//! Benchmark of the core engine, each figure against a baseline measured in the same run.
//!
//! 1. exec path: the same small script (10 tool calls, returns a table) through
//!    `Runtime::exec` versus bare mlua with a fresh sandboxed environment per run.
//! 2. indexing: building the asset index of a generated world of 10,000 tools versus
//!    only reading those tools' files.
//!
//! Run: `cargo run --release --example bench` (ratios hold on a noisy machine; absolute
//! times do not).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::assets::{AssetIndex, Origin, Root};
use codemode::{Limits, Output, Registry, Runtime};
use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaSerdeExt, Table, Value};

const TOOLS: [(&str, &str); 3] = [
    ("upper", "--!desc Upper-case.\n--!arg s string Text.\n--!return string Upper.\nlocal function upper(s: string): string\n\treturn string.upper(s)\nend\nreturn upper\n"),
    ("add", "--!desc Add.\n--!arg a number A.\n--!arg b number B.\n--!return number Sum.\nlocal function add(a: number, b: number): number\n\treturn a + b\nend\nreturn add\n"),
    ("words", "--!desc Count words.\n--!arg s string Text.\n--!return number Count.\nlocal function words(s: string): number\n\tlocal n = 0\n\tfor _ in string.gmatch(s, \"%S+\") do\n\t\tn += 1\n\tend\n\treturn n\nend\nreturn words\n"),
];

const SCRIPT: &str = r#"
local out = {}
for i = 1, 4 do
	out[#out + 1] = tools.bench.upper("hello " .. i)
end
for i = 1, 3 do
	out[#out + 1] = tools.bench.add(i, 10)
end
for i = 1, 3 do
	out[#out + 1] = tools.bench.words("a b c " .. i)
end
return { results = out, n = #out }
"#;

fn write_tool(dir: &Path, toolbox: &str, name: &str, source: &str) {
    let tool = dir.join(format!("{toolbox}.toolbox/{name}.tool"));
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(tool.join("init.luau"), source).unwrap();
    std::fs::write(
        tool.join(".metadata"),
        r#"{"tags": ["bench"], "status": "ready"}"#,
    )
    .unwrap();
    std::fs::write(
        tool.join("README.md"),
        format!("# {name}\n\nA generated tool for the benchmark.\n"),
    )
    .unwrap();
}

/// Median microseconds per run of `f` over `runs` runs, after a warm-up.
fn time_per_run(runs: u32, mut f: impl FnMut()) -> f64 {
    for _ in 0..runs / 10 {
        f();
    }
    let mut samples = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..runs {
            f();
        }
        samples.push(start.elapsed().as_secs_f64() * 1e6 / runs as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[2]
}

fn bare_mlua() -> impl FnMut() {
    let lua = Lua::new();
    let bench = lua.create_table().unwrap();
    for (name, source) in TOOLS {
        let f: mlua::Function = lua.load(source).eval().unwrap();
        bench.set(name, f).unwrap();
    }
    let tools = lua.create_table().unwrap();
    tools.set("bench", bench).unwrap();
    lua.globals().set("tools", tools).unwrap();
    lua.sandbox(true).unwrap();
    let meta = lua.create_table().unwrap();
    meta.set("__index", lua.globals()).unwrap();
    move || {
        let env: Table = lua.create_table().unwrap();
        env.set_metatable(Some(meta.clone())).unwrap();
        let value: Value = lua
            .load(SCRIPT)
            .set_mode(ChunkMode::Text)
            .set_environment(env)
            .eval()
            .unwrap();
        let json: serde_json::Value = lua.from_value(value).unwrap();
        std::hint::black_box(serde_json::to_string(&json).unwrap());
    }
}

fn bench_exec() {
    let world = tempfile::tempdir().unwrap();
    for (name, source) in TOOLS {
        write_tool(world.path(), "bench", name, source);
    }
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
    let check = runtime.exec(SCRIPT, Output::Capture);
    assert!(check.ok, "{}", check.to_json());
    let engine = time_per_run(5_000, || {
        std::hint::black_box(runtime.exec(SCRIPT, Output::Capture).to_json());
    });
    let bare = time_per_run(5_000, bare_mlua());
    println!("exec path (10 tool calls, table result, value to JSON):");
    println!("  bare mlua, fresh sandboxed env: {bare:8.1} µs/run");
    println!("  codemode Runtime::exec:         {engine:8.1} µs/run");
    println!(
        "  ratio engine / bare:            {:8.2}x (target <= 2x)",
        engine / bare
    );
}

fn bench_index(tools: usize) {
    let world = tempfile::tempdir().unwrap();
    for i in 0..tools {
        let source = TOOLS[i % TOOLS.len()]
            .1
            .replace("local function ", "local function t");
        write_tool(
            world.path(),
            &format!("box{}", i / 100),
            &format!("tool{i}"),
            &source,
        );
    }
    let paths: Vec<std::path::PathBuf> = walkdir::WalkDir::new(world.path())
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    let read = median(|| {
        use rayon::prelude::*;
        let bytes: usize = paths
            .par_iter()
            .map(|p| std::fs::read_to_string(p).map_or(0, |s| s.len()))
            .sum();
        std::hint::black_box(bytes);
    });
    let root = Root::disk(Origin::World, world.path()).unwrap();
    let roots = Arc::new(vec![root]);
    let index = median(|| {
        let index = AssetIndex::build(roots.clone());
        assert_eq!(index.tools.len(), tools);
        std::hint::black_box(index);
    });
    println!("indexing {tools} tools ({} files):", paths.len());
    println!(
        "  read the files only (parallel): {:8.1} ms",
        read.as_secs_f64() * 1e3
    );
    println!(
        "  build the asset index:          {:8.1} ms",
        index.as_secs_f64() * 1e3
    );
    println!(
        "  ratio index / read:             {:8.2}x (target <= 3x)",
        index.as_secs_f64() / read.as_secs_f64()
    );
}

fn median(mut f: impl FnMut()) -> Duration {
    f();
    let mut samples: Vec<Duration> = (0..5)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    samples.sort();
    samples[2]
}

fn main() {
    bench_exec();
    bench_index(10_000);
}
