//! Runs every Luau spec script under `tests/luau/` as its own test.
//!
//! A spec passes when the script returns normally (it uses `assert`). Header lines
//! change that:
//! - `--!expect <kind>`: the run must fail with that error kind (`timeout`, `memory`, ...);
//! - `--!timeout-ms N`, `--!memory-mb N`, `--!max-output-bytes N`: limits for this spec;
//! - `--!world <dir>`: use `tests/worlds/<dir>` as the world (default: an empty temp dir);
//!   a fixture world comes without the bundled toolboxes unless the spec also says `--!bundled`;
//! - `--!profile NAME`: serve that profile of the world's `.codemode/policy.json` (without
//!   it, the world's `default` profile, as the command line does).
//!
//! After each spec, the same runtime must still run a plain script: no attack may leave
//! the engine unusable.

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode::{CheckMode, Limits, Options, Output, World};
use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/luau");
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&root)
        .into_iter()
        .flatten()
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "luau"))
        .collect();
    files.sort();
    let trials = files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&root)
                .unwrap()
                .with_extension("")
                .display()
                .to_string();
            Trial::test(name, move || run_spec(&path))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn header<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    source
        .lines()
        .take_while(|l| l.starts_with("--"))
        .find_map(|l| l.strip_prefix(&format!("--!{key} ")))
        .map(str::trim)
}

fn run_spec(path: &Path) -> Result<(), Failed> {
    let source = std::fs::read_to_string(path)?;
    let mut limits = Limits::default();
    if let Some(ms) = header(&source, "timeout-ms") {
        limits.timeout = Duration::from_millis(ms.parse()?);
    }
    if let Some(mb) = header(&source, "memory-mb") {
        limits.memory_bytes = mb.parse::<usize>()? << 20;
    }
    if let Some(bytes) = header(&source, "max-output-bytes") {
        limits.max_output_bytes = bytes.parse()?;
    }
    let temp = tempfile::tempdir()?;
    let world = match header(&source, "world") {
        Some(dir) => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/worlds")
            .join(dir),
        None => temp.path().to_path_buf(),
    };
    let bundled =
        header(&source, "world").is_none() || source.lines().any(|l| l.trim() == "--!bundled");
    let options = Options {
        bundled,
        profile: header(&source, "profile").map(str::to_string),
        limits: limits.clone(),
        check: CheckMode::Off,
        ..Options::default()
    };
    let mut runtime = World::open_with(&world, &options)?.runtime()?;
    let envelope = runtime.exec(&source, Output::Capture);
    let deadline = limits.timeout + Duration::from_secs(1);
    if envelope.elapsed_ms > deadline.as_secs_f64() * 1000.0 {
        return Err(format!(
            "took {:.0} ms, past the deadline plus one second",
            envelope.elapsed_ms
        )
        .into());
    }
    match (header(&source, "expect"), &envelope.error) {
        (None, None) => {}
        (None, Some(_)) => return Err(format!("the spec failed:\n{}", envelope.to_json()).into()),
        (Some(kind), Some(error)) => {
            let got = serde_json::to_value(error.kind)?;
            if got != kind {
                return Err(
                    format!("expected a {kind} error, got:\n{}", envelope.to_json()).into(),
                );
            }
        }
        (Some(kind), None) => {
            return Err(format!("expected a {kind} error, but the script succeeded").into())
        }
    }
    let after = runtime.exec("return 1 + 1", Output::Capture);
    if after.value != Some(serde_json::json!(2)) {
        return Err(format!("the runtime did not recover:\n{}", after.to_json()).into());
    }
    Ok(())
}
