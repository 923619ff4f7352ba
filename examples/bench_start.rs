//! Start-up cost: a `codemode exec` process running `return 1` on the bundled world, with
//! the default check and with `--check off`, against a bare mlua process that does the
//! same (read the script from stdin, sandbox, run, print the value as JSON), measured in
//! the same run, interleaved.
//!
//! Run: `cargo build --release && cargo run --release --example bench_start`. The bare
//! process is this example run with `--bare`. Medians of wall-clock time; compare the
//! ratio, not absolute times.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaSerdeExt, Value};

const ROUNDS: usize = 40;

fn bare() {
    let mut source = String::new();
    std::io::stdin().read_to_string(&mut source).unwrap();
    let lua = Lua::new();
    lua.sandbox(true).unwrap();
    let value: Value = lua.load(&source).set_mode(ChunkMode::Text).eval().unwrap();
    let json: serde_json::Value = lua.from_value(value).unwrap();
    println!("{}", serde_json::json!({ "ok": true, "value": json }));
}

fn time(mut command: Command) -> Duration {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    child.stdin.take().unwrap().write_all(b"return 1").unwrap();
    assert!(child.wait().unwrap().success());
    started.elapsed()
}

fn median(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e3
}

fn main() {
    if std::env::args().any(|a| a == "--bare") {
        return bare();
    }
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
    // An empty world, so the bundled toolboxes are all there is to index.
    let world = std::env::temp_dir().join(format!("codemode-bench-start-{}", std::process::id()));
    std::fs::create_dir_all(&world).unwrap();
    let (mut engine, mut unchecked, mut baseline) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let mut exec = Command::new(&codemode);
        exec.arg("exec").arg("--world").arg(&world).arg("-");
        engine.push(time(exec));
        let mut exec = Command::new(&codemode);
        exec.args(["exec", "--check", "off", "--world"])
            .arg(&world)
            .arg("-");
        unchecked.push(time(exec));
        let mut bare = Command::new(&me);
        bare.arg("--bare");
        baseline.push(time(bare));
    }
    let _ = std::fs::remove_dir_all(&world);
    let (engine, unchecked, baseline) = (median(engine), median(unchecked), median(baseline));
    println!("start-up, `return 1` in a fresh process, median of {ROUNDS}");
    println!("  bare mlua process                 {baseline:8.2} ms");
    println!("  codemode exec (bundled)           {engine:8.2} ms");
    println!("  codemode exec --check off         {unchecked:8.2} ms");
    println!(
        "  ratio, checked                    {:8.2}x   (target 2x)",
        engine / baseline
    );
    println!(
        "  ratio, --check off                {:8.2}x   (target 1.5x)",
        unchecked / baseline
    );
}
