//! Benchmark of the core engine, each figure against a baseline measured in the same run.
//!
//! 1. exec path: the same small script (10 tool calls, returns a table) through
//!    `Runtime::exec` versus bare mlua with a fresh sandboxed environment per run.
//! 2. policy: the exec path of (1) in a world whose profile denies tools (so every
//!    snapshot, listing and lookup is filtered) versus the same world without a policy.
//! 3. call path: one tool call through `Runtime::call` (arguments bound in Rust, no
//!    source) versus the same call as a script through `Runtime::exec`; and shell words
//!    bound and rendered by `Runtime::run_call` versus the Luau script `codemode call`
//!    used to generate for them.
//! 4. result cache: a call that the cache answers versus a call of a trivial Luau tool,
//!    as one `Runtime::call` each and as 1,000 calls inside one script.
//! 5. indexing: building the asset index of a generated world of 10,000 tools versus
//!    only reading those tools' files.
//! 6. audit log: the exec path of (1), and 1,000 tool calls in one script, with every run
//!    and call recorded in the world's `.codemode/audit.jsonl` versus without a log.
//!
//! Run: `cargo run --release --features bench --example bench` (`... -- audit exec` runs only those two).
//! Each figure is given as wall-clock time and as CPU time of this process (user + system,
//! all threads): on a busy machine the wall clock swings with other load, CPU time much
//! less. Compare ratios, not absolute times.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::assets::{AssetIndex, Origin, Root};
use crate::registry::Registry;
use crate::{Args, Call, Limits, Output, Runtime};
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

/// Wall-clock and CPU time of one measurement.
#[derive(Clone, Copy)]
struct Cost {
    wall: Duration,
    cpu: Duration,
}

/// CPU time (user + system) this process has used so far.
fn cpu_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; RUSAGE_SELF is always valid.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// Median cost of `f` over five samples, after a warm-up.
fn measure(mut f: impl FnMut()) -> Cost {
    f();
    let mut samples: Vec<Cost> = (0..5)
        .map(|_| {
            let (wall, cpu) = (Instant::now(), cpu_time());
            f();
            Cost {
                wall: wall.elapsed(),
                cpu: cpu_time() - cpu,
            }
        })
        .collect();
    samples.sort_by_key(|c| c.cpu);
    let cpu = samples[2].cpu;
    samples.sort_by_key(|c| c.wall);
    Cost {
        wall: samples[2].wall,
        cpu,
    }
}

fn report(
    title: &str,
    unit: &str,
    scale: f64,
    target: &str,
    (base_name, base): (&str, Cost),
    (name, cost): (&str, Cost),
) {
    println!("{title}");
    for (label, c) in [(base_name, base), (name, cost)] {
        println!(
            "  {label:<34} wall {:9.1} {unit}   cpu {:9.1} {unit}",
            c.wall.as_secs_f64() * scale,
            c.cpu.as_secs_f64() * scale
        );
    }
    println!(
        "  ratio                              wall {:9.2}x       cpu {:9.2}x   (target {target})",
        cost.wall.as_secs_f64() / base.wall.as_secs_f64(),
        cost.cpu.as_secs_f64() / base.cpu.as_secs_f64()
    );
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

/// A runtime over a temp world holding the bench toolbox (keep the folder while it runs).
fn bench_runtime() -> (tempfile::TempDir, Runtime) {
    let world = tempfile::tempdir().unwrap();
    for (name, source) in TOOLS {
        write_tool(world.path(), "bench", name, source);
    }
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    (world, Runtime::new(registry, Limits::default()).unwrap())
}

/// A profile that denies by default and by pattern, so every bundled toolbox but one is
/// hidden and one tool of the allowed ones is denied.
const POLICY: &str = r#"{ "profiles": { "default": {
    "default": "deny", "allow": ["bench.*", "text.*", "json.*"], "deny": ["*.words_*", "text.wrap"]
} } }"#;

fn bench_policy() {
    const RUNS: u32 = 5_000;
    let (world, mut plain) = bench_runtime();
    let profile = crate::policy::parse(Path::new("policy.json"), POLICY, None).unwrap();
    let registry = Registry::open(world.path(), &[], true)
        .unwrap()
        .with_profile(profile);
    let mut filtered = Runtime::new(Arc::new(registry), Limits::default()).unwrap();
    for runtime in [&mut plain, &mut filtered] {
        let check = runtime.exec(SCRIPT, Output::Capture);
        assert!(check.ok, "{}", check.to_json());
    }
    let denied = filtered.exec("return tools.toolboxes().value", Output::Capture);
    assert_eq!(denied.value.unwrap().as_array().unwrap().len(), 3);
    let run = |runtime: &mut Runtime| {
        measure(|| {
            for _ in 0..RUNS {
                std::hint::black_box(runtime.exec(SCRIPT, Output::Capture).to_json());
            }
        })
    };
    // Alternated, best of three each: the two differ by little, and load comes and goes.
    let best = |a: Cost, b: Cost| Cost {
        wall: a.wall.min(b.wall),
        cpu: a.cpu.min(b.cpu),
    };
    let (mut base, mut with) = (run(&mut plain), run(&mut filtered));
    for _ in 0..2 {
        base = best(base, run(&mut plain));
        with = best(with, run(&mut filtered));
    }
    report(
        "exec path with a policy (the script of 1; profile hides 7 of 10 toolboxes), per run:",
        "µs",
        1e6 / RUNS as f64,
        "<= 1.05x",
        ("no policy file", base),
        ("profile with allow and deny rules", with),
    );
}

fn bench_exec() {
    const RUNS: u32 = 5_000;
    let (_world, mut runtime) = bench_runtime();
    let check = runtime.exec(SCRIPT, Output::Capture);
    assert!(check.ok, "{}", check.to_json());
    let engine = measure(|| {
        for _ in 0..RUNS {
            std::hint::black_box(runtime.exec(SCRIPT, Output::Capture).to_json());
        }
    });
    let mut bare_run = bare_mlua();
    let bare = measure(|| {
        for _ in 0..RUNS {
            bare_run();
        }
    });
    report(
        "exec path (10 tool calls, table result, value to JSON), per run:",
        "µs",
        1e6 / RUNS as f64,
        "<= 2x",
        ("bare mlua, fresh sandboxed env", bare),
        ("codemode Runtime::exec", engine),
    );
}

/// The script `codemode call bench.add 1 2` ran before calls were bound in Rust.
const GENERATED_CALL: &str = r#"local r = tools.parseCommandLine("bench.add", { "1", "2" }, { cwd = "." })
if not r.ok then
	return { stage = "refused", message = r.message }
end
local value = tools.use("bench", "add")(table.unpack(r.args, 1, r.n))
local shown = tools.render("bench.add", value)
if shown == nil then
	return { stage = "value", value = value }
end
return { stage = "rendered", out = shown.out, err = shown.err, exit = shown.exit }
"#;

fn bench_call() {
    const RUNS: u32 = 5_000;
    let (_world, mut runtime) = bench_runtime();
    let positional = || Args::Positional(vec![serde_json::json!(1), serde_json::json!(2)]);
    let called = runtime.call("bench.add", positional()).unwrap();
    assert_eq!(
        called.value,
        Some(serde_json::json!(3)),
        "{}",
        called.to_json()
    );
    let script = measure(|| {
        for _ in 0..RUNS {
            let envelope = runtime.exec("return tools.bench.add(1, 2)", Output::Capture);
            std::hint::black_box(envelope.to_json());
        }
    });
    let call = measure(|| {
        for _ in 0..RUNS {
            let envelope = runtime.call("bench.add", positional()).unwrap();
            std::hint::black_box(envelope.to_json());
        }
    });
    report(
        "call path, one tool call (bench.add(1, 2)), per run:",
        "µs",
        1e6 / RUNS as f64,
        "<= 1x",
        ("Runtime::exec, the call as source", script),
        ("Runtime::call, positional JSON", call),
    );
    let words = || Args::Words {
        words: vec!["1".into(), "2".into()],
        cwd: None,
    };
    let generated = measure(|| {
        for _ in 0..RUNS {
            let envelope = runtime.exec(GENERATED_CALL, Output::Capture);
            std::hint::black_box(envelope.to_json());
        }
    });
    let bound = measure(|| {
        for _ in 0..RUNS {
            let call = Call::new("bench.add", words()).rendered();
            let called = runtime.run_call(call, Output::Capture, None).unwrap();
            std::hint::black_box(called.envelope.to_json());
        }
    });
    report(
        "call path, shell words bound and rendered (codemode call bench.add 1 2), per run:",
        "µs",
        1e6 / RUNS as f64,
        "<= 1x",
        ("exec of the generated call script", generated),
        ("Runtime::run_call, words, render", bound),
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
    let read = measure(|| {
        use rayon::prelude::*;
        let bytes: usize = paths
            .par_iter()
            .map(|p| std::fs::read_to_string(p).map_or(0, |s| s.len()))
            .sum();
        std::hint::black_box(bytes);
    });
    let roots = Arc::new(vec![Root::disk(Origin::World, world.path()).unwrap()]);
    let index = measure(|| {
        let index = AssetIndex::build(roots.clone());
        assert_eq!(index.tools.len(), tools);
        std::hint::black_box(index);
    });
    report(
        &format!(
            "indexing {tools} tools ({} files), whole world:",
            paths.len()
        ),
        "ms",
        1e3,
        "<= 3x",
        ("read the files only (parallel)", read),
        ("build the asset index", index),
    );
    // The index reads signatures and compiles lazily; this is what the first tier-3
    // listing, search or `codemode check` adds, once per file version.
    let everything = measure(|| {
        let index = AssetIndex::build(roots.clone());
        let callable = index.tools.values().filter(|t| t.is_registered()).count();
        assert_eq!(callable, tools);
        std::hint::black_box(index);
    });
    report(
        "indexing, then reading every signature (full_moon) and compiling every tool:",
        "ms",
        1e3,
        "for reference",
        ("read the files only (parallel)", read),
        ("build + read + compile all", everything),
    );
}

/// A trivial tool, and the same tool with `"cache"` in its `.metadata`.
const TRIVIAL: &str = "--!desc Double.\n--!arg x number X.\n--!return number Twice x.\nlocal function double(x: number): number\n\treturn x * 2\nend\nreturn double\n";

fn bench_cache() {
    const RUNS: u32 = 5_000;
    const CALLS: u32 = 1_000;
    let (world, _) = bench_runtime();
    write_tool(world.path(), "bench", "trivial", TRIVIAL);
    write_tool(world.path(), "bench", "cached", TRIVIAL);
    std::fs::write(
        world.path().join("bench.toolbox/cached.tool/.metadata"),
        r#"{"cache": {"ttlSeconds": 3600}}"#,
    )
    .unwrap();
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
    let args = || Args::Positional(vec![serde_json::json!(21)]);
    for identity in ["bench.trivial", "bench.cached"] {
        let called = runtime.call(identity, args()).unwrap();
        assert_eq!(
            called.value,
            Some(serde_json::json!(42)),
            "{}",
            called.to_json()
        );
    }
    let mut one = |identity: &'static str| {
        measure(|| {
            for _ in 0..RUNS {
                let envelope = runtime.call(identity, args()).unwrap();
                std::hint::black_box(envelope.to_json());
            }
        })
    };
    let (trivial, hit) = (one("bench.trivial"), one("bench.cached"));
    report(
        "result cache, one Runtime::call (x * 2), per call:",
        "µs",
        1e6 / RUNS as f64,
        "<= 2x",
        ("a call of a trivial Luau tool", trivial),
        ("a cache hit of the same tool", hit),
    );
    let script = |tool: &str| {
        format!("local s = 0\nfor i = 1, {CALLS} do s += tools.bench.{tool}(i % 100) end\nreturn s")
    };
    let (plain, cached) = (script("trivial"), script("cached"));
    let warm = runtime.exec(&cached, Output::Capture);
    assert!(warm.ok, "{}", warm.to_json());
    let mut many = |source: &str| {
        measure(|| {
            for _ in 0..10 {
                std::hint::black_box(runtime.exec(source, Output::Capture).to_json());
            }
        })
    };
    let (plain, cached) = (many(&plain), many(&cached));
    report(
        "result cache, calls inside one script (1,000 calls, all hits), per call:",
        "µs",
        1e6 / (10 * CALLS) as f64,
        "none: a hit hashes the arguments and reads SQLite",
        ("a call of a trivial Luau tool", plain),
        ("a cache hit of the same tool", cached),
    );
}

/// 1,000 tool calls in one script, for the cost of one call's audit line.
const MANY_CALLS: &str = r#"
local n = 0
for i = 1, 1000 do
	n += tools.bench.add(i, 1)
end
return n
"#;

fn bench_audit() {
    const RUNS: u32 = 5_000;
    const MANY_RUNS: u32 = 20;
    let (world, mut plain) = bench_runtime();
    let registry = Registry::open(world.path(), &[], true).unwrap();
    registry.set_audit(crate::audit::Log::file(
        world.path(),
        "bench",
        crate::audit::DEFAULT_MAX_BYTES,
    ));
    let mut audited = Runtime::new(Arc::new(registry), Limits::default()).unwrap();
    for runtime in [&mut plain, &mut audited] {
        let check = runtime.exec(SCRIPT, Output::Capture);
        assert!(check.ok, "{}", check.to_json());
    }
    let log = world.path().join(".codemode/audit.jsonl");
    let lines = std::fs::read_to_string(&log).unwrap().lines().count();
    assert_eq!(lines, 11, "10 call lines and a run line");
    let best = |a: Cost, b: Cost| Cost {
        wall: a.wall.min(b.wall),
        cpu: a.cpu.min(b.cpu),
    };
    // Alternated, best of three each, as for the policy.
    let compare = |script: &str, runs: u32, plain: &mut Runtime, audited: &mut Runtime| {
        let run = |runtime: &mut Runtime| {
            measure(|| {
                for _ in 0..runs {
                    std::hint::black_box(runtime.exec(script, Output::Capture).to_json());
                }
            })
        };
        let (mut base, mut with) = (run(plain), run(audited));
        for _ in 0..2 {
            base = best(base, run(plain));
            with = best(with, run(audited));
        }
        (base, with)
    };
    let (base, with) = compare(SCRIPT, RUNS, &mut plain, &mut audited);
    report(
        "exec path with the audit log (the script of 1: 10 call lines and a run line), per run:",
        "µs",
        1e6 / RUNS as f64,
        "none set: the file's append is most of it",
        ("no audit log", base),
        ("every run and call in audit.jsonl", with),
    );
    let (base, with) = compare(MANY_CALLS, MANY_RUNS, &mut plain, &mut audited);
    report(
        "audit log, calls inside one script (1,000 calls of a trivial tool), per call:",
        "µs",
        1e6 / (MANY_RUNS * 1000) as f64,
        "none: a line is about 200 bytes, written with the run's",
        ("no audit log", base),
        ("every call in audit.jsonl", with),
    );
}

pub fn main() {
    // `bench audit exec` runs those two; no name runs them all.
    let only: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    let benches: [(&str, fn()); 6] = [
        ("exec", bench_exec),
        ("policy", bench_policy),
        ("call", bench_call),
        ("cache", bench_cache),
        ("index", || bench_index(10_000)),
        ("audit", bench_audit),
    ];
    for (name, bench) in benches {
        if wanted(name) {
            bench();
        }
    }
}
