//! Benchmark of the type check before a script runs, each figure against a baseline
//! measured in the same run.
//!
//! ```text
//! cargo build --release && cargo run --release --features bench --example bench_check
//! cargo run --release --features bench --example bench_check -- one-shot   # section 4 alone
//! ```
//!
//! 1. Check cost: one 30-line agent-style script checked against the bundled world's
//!    declarations by the `codemode-check` process (a round trip over its pipe, the
//!    declarations already loaded), and the whole pre-run step (that plus the verdict),
//!    against running the same script unchecked in process; an empty script's round trip
//!    is the part that is not the solver's. Target: check p50 <= 1 ms. A checked run is
//!    timed with a new script each time (a comment added) and with the same script again,
//!    whose reply the engine keeps.
//! 2. What loading the declarations costs (once per index snapshot): starting the
//!    checker and loading them, against one check.
//! 3. `tool_exec` round trip over MCP stdio with `--check certain` against `--check off`,
//!    interleaved, with a new script each request and with the same script again.
//!    Target: at most 20% added (1.5x at most).
//! 4. One-shot `codemode run` of `return 1` and of one tool call, with the default check
//!    against `--check off`, interleaved: in a world without `.codemode/` (each run checks
//!    afresh: a new checker process), in one with it (the same script again: the checker's
//!    reply kept there), and there with a new script each run. Target: at most 1.3x.
//!
//! Medians of many runs; compare ratios, not absolute times.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::check::Checking;
use crate::check::{judge, Checker, Declarations, Known, Mode};
use crate::registry::Registry;
use crate::{Limits, Output, Runtime, Session};
use serde_json::{json, Value};

#[path = "../common/serve.rs"]
mod serve;

use serve::Serve;

/// Thirty lines, as an agent writes them: discovery, several tools, a loop, a table.
const SCRIPT: &str = r#"local csv = "name,age,city\nada,36,London\nalan,41,Wilmslow\ngrace,85,Arlington"
local parsed = tools.table.parseCsv(csv, { numbers = true })
local sorted = tools.table.sortBy(parsed.rows, "age", { descending = true, numeric = true })
local lines = {}
for i, row in sorted do
	local slug = tools.text.slugify(row.name .. " " .. row.city)
	local short = tools.text.truncate(slug, 12)
	table.insert(lines, string.format("%d. %s", i, short))
end
local counts = tools.text.wordCount(table.concat(lines, "\n"))
local digest = tools.encoding.sha256(table.concat(lines))
local version = tools.semver.parse("1.4.2")
local later = tools.semver.compare(version.version, "1.10.0")
local link = tools.url.build({
	scheme = "https",
	host = "example.com",
	path = "/people",
	params = { count = counts.words },
})
local parts = tools.url.parse(link)
local json = tools.json.stringify({
	lines = lines,
	digest = string.sub(digest, 1, 8),
	newer = later > 0,
	host = parts.host,
})
local back = tools.json.parse(json)
local md = tools.markdown.list(lines)
print(md)
return { lines = #back.lines, words = counts.words, link = link }
"#;

const SAMPLES: usize = 2000;
const ROUND_TRIPS: usize = 1500;

fn median_us(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e6
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed())
}

/// A binary of this workspace beside the example (same profile).
fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bin = exe.parent().and_then(Path::parent).unwrap().join(name);
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build --release` first (same profile as this example)",
        bin.display()
    );
    bin
}

pub fn main() {
    if std::env::args().nth(1).as_deref() == Some("one-shot") {
        return one_shot();
    }
    let world = tempfile::tempdir().unwrap();
    let registry = Arc::new(Registry::open(world.path(), &[], true).expect("the world opens"));
    let index = registry.snapshot();
    let text = crate::host::definitions(&index, &registry.upstream_views(&index));
    let checker_bin = binary("codemode-check");

    // 2. Start and load, against one check (the second figure is measured below).
    let timeout = Duration::from_secs(2);
    let mut loads = Vec::new();
    for _ in 0..5 {
        let checker = Checker::with_program(Ok(checker_bin.clone()), timeout);
        let declarations = Declarations::new(text.as_str());
        let (first, took) = timed(|| checker.check(&declarations, SCRIPT));
        first.expect("the checker answers");
        loads.push(took);
    }

    // 1. Check cost, pre-run step and the unchecked run, interleaved.
    let checker = Checker::with_program(Ok(checker_bin.clone()), timeout);
    let declarations = Declarations::new(text.as_str());
    let found = checker
        .check(&declarations, SCRIPT)
        .expect("the checker answers");
    assert!(
        judge(
            SCRIPT,
            found.diagnostics.clone(),
            Mode::Certain,
            false,
            |_| Known::default()
        )
        .stop
        .is_none(),
        "the benchmark script is refused: {:?}",
        found.diagnostics
    );
    let mut unchecked = Runtime::new(registry.clone(), Limits::default()).unwrap();
    assert!(unchecked.exec(SCRIPT, Output::Capture).ok);
    // The same runtime with a checker of its own: the script runs while it is checked.
    let mut checked = Runtime::new(registry.clone(), Limits::default()).unwrap();
    let own = Checker::with_program(Ok(checker_bin.clone()), timeout);
    checked.set_checking(Some(Arc::new(Checking::new(Mode::Certain, own))));
    assert!(checked.exec(SCRIPT, Output::Capture).ok);
    let (mut check, mut step, mut run) = (Vec::new(), Vec::new(), Vec::new());
    let (mut overlapped, mut first, mut again) = (Vec::new(), Vec::new(), Vec::new());
    let mut empty = Vec::new();
    for i in 0..SAMPLES {
        // A new script each time, or the reply kept for the last one would answer.
        let fresh = format!("{SCRIPT}-- {i}\n");
        empty.push(timed(|| checker.check(&declarations, "").unwrap()).1);
        check.push(timed(|| checker.check(&declarations, SCRIPT).unwrap()).1);
        step.push(
            timed(|| {
                let found = checker.check(&declarations, SCRIPT).unwrap();
                judge(SCRIPT, found.diagnostics, Mode::Certain, false, |_| {
                    Known::default()
                })
            })
            .1,
        );
        run.push(timed(|| unchecked.exec(SCRIPT, Output::Capture)).1);
        overlapped.push(timed(|| checked.exec(&fresh, Output::Capture)).1);
        again.push(timed(|| checked.exec(SCRIPT, Output::Capture)).1);
        // As a REPL entry (a fresh session each time) the verdict comes before the run.
        let mut session = Session::new();
        let entry = format!("{fresh}-- entry\n");
        first.push(timed(|| checked.run(crate::RunRequest::new(&entry).session(&mut session))).1);
    }
    let (overlapped, first, again) = (median_us(overlapped), median_us(first), median_us(again));
    let (check, step, run) = (median_us(check), median_us(step), median_us(run));
    let empty = median_us(empty);
    let load = median_us(loads);
    println!(
        "type check of a 30-line script against the bundled world's declarations ({} bytes):",
        text.len()
    );
    println!("  checker round trip (declarations loaded)   {check:8.1} us  (target <= 1000 us)");
    println!("  pre-run step (round trip + verdict)        {step:8.1} us");
    println!("  round trip of an empty script              {empty:8.1} us  (pipe, JSON, the checker's set-up)");
    println!("  the same script run unchecked in process   {run:8.1} us");
    println!("  the same script run checked in process     {overlapped:8.1} us  (it runs while it is checked)");
    println!("  the same, the verdict first (a REPL entry) {first:8.1} us");
    println!(
        "  the same script again, checked             {again:8.1} us  (the reply kept in memory)"
    );
    println!(
        "  pre-run step / run = {:.2}x; checked run / unchecked run = {:.2}x; again: {:.2}x",
        step / run,
        overlapped / run,
        again / run
    );
    println!("  start the checker + load declarations + check: {load:8.1} us = {:.0}x one check (once per process and index snapshot)", load / check);

    // 3. tool_exec over MCP, checked and not, interleaved.
    let bin = binary("codemode");
    let mut on = start_serve(&bin, world.path(), "certain");
    let mut off = start_serve(&bin, world.path(), "off");
    println!("tool_exec round trip over MCP stdio:");
    for same in [false, true] {
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for i in 0..ROUND_TRIPS {
            let id = 100 + i;
            let script = match same {
                true => SCRIPT.to_string(),
                false => format!("{SCRIPT}-- {i}\n"),
            };
            with.push(timed(|| on.request(id, "tools/call", tool_exec(&script))).1);
            without.push(timed(|| off.request(id, "tools/call", tool_exec(&script))).1);
        }
        let (with, without) = (median_us(with), median_us(without));
        println!(
            "  {}",
            match same {
                false => "a new script each request (each checked):",
                true => "the same script again (the reply kept in memory):",
            }
        );
        println!("    --check off                              {without:8.1} us");
        println!("    --check certain                          {with:8.1} us");
        println!(
            "    added by the check: {:.1} us = {:+.1}% (target <= 20%); with / without = {:.2}x (target <= 1.5x)",
            with - without,
            100.0 * (with - without) / without,
            with / without
        );
    }
    drop((on, off));

    one_shot();
}

/// How many runs of each one-shot case.
const ONE_SHOT_ROUNDS: usize = 40;

/// 4. `codemode run` with the default check against `--check off`, interleaved.
fn one_shot() {
    let bin = binary("codemode");
    let scripts = tempfile::tempdir().unwrap();
    let bare = tempfile::tempdir().unwrap();
    let kept = tempfile::tempdir().unwrap();
    std::fs::create_dir(kept.path().join(".codemode")).unwrap();
    let run = |world: &Path, check: Option<&str>, source: &str| {
        let file = scripts.path().join("script.luau");
        std::fs::write(&file, source).unwrap();
        let mut command = Command::new(&bin);
        command.env_remove("CODEMODE_CHECK");
        if let Some(check) = check {
            command.args(["--check", check]);
        }
        command.arg("--world").arg(world).arg("run").arg(&file);
        let (out, took) = timed(|| command.output().expect("codemode runs"));
        assert!(
            out.status.success(),
            "{source}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        took
    };
    println!(
        "one-shot `codemode run`, the default check / --check off, median of {ONE_SHOT_ROUNDS}:"
    );
    for (what, script) in [
        ("return 1", "return 1"),
        (
            "one tool call",
            "return tools.text.slugify(\"Hello World\")",
        ),
    ] {
        for (place, world, fresh) in [
            ("no .codemode/ (checked afresh)", bare.path(), false),
            (".codemode/, the same script again", kept.path(), false),
            (".codemode/, a new script each run", kept.path(), true),
        ] {
            let (mut on, mut off) = (Vec::new(), Vec::new());
            // Once first: the kept reply (or the index cache) of a world is written once.
            run(world, None, script);
            for i in 0..ONE_SHOT_ROUNDS {
                let source = match fresh {
                    true => format!("{script} -- {i}"),
                    false => script.to_string(),
                };
                on.push(run(world, None, &source));
                off.push(run(world, Some("off"), &source));
            }
            let (on, off) = (median_us(on) / 1e3, median_us(off) / 1e3);
            println!(
                "  {what:<14} {place:<36} {on:6.2} ms / {off:6.2} ms = {:.2}x (target <= 1.3x)",
                on / off
            );
        }
    }
}

fn tool_exec(script: &str) -> Value {
    json!({"name": "tool_exec", "arguments": {"script": script}})
}

/// `codemode serve` with one worker and the check mode `check`, warmed up with the script.
fn start_serve(bin: &Path, world: &Path, check: &str) -> Serve {
    let mut serve = Serve::start(
        Command::new(bin)
            .args(["--check", check, "serve", "--workers", "1", "--world"])
            .arg(world),
    );
    for id in 1..=50 {
        let reply = serve.request(id, "tools/call", tool_exec(SCRIPT));
        let text = reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            text.contains("\"ok\":true"),
            "the script fails under --check {check}: {text}"
        );
    }
    serve
}
