//! Helpers shared by the integration tests: temp worlds, the fixture world, and running
//! the binary (every test spawns `codemode` through [`command`]).

#![allow(dead_code)]

pub mod fixture;
pub mod http;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

mod world;
// Not every test binary uses it (as with the rest of this module).
#[allow(unused_imports)]
pub use world::World;

/// The `codemode` binary (see [`built`]).
pub fn bin() -> PathBuf {
    built(option_env!("CARGO_BIN_EXE_codemode"), "codemode")
}

/// The type checker's binary, `codemode-check` (see [`built`]).
pub fn checker_bin() -> PathBuf {
    built(
        option_env!("CARGO_BIN_EXE_codemode-check"),
        "codemode-check",
    )
}

/// A binary of this package: Cargo names it to the integration tests; the crate's own
/// tests (`tests/internal/`, which include this file) find it where Cargo puts it, one
/// folder above their own `deps/`. `cargo test` builds the binaries first;
/// `cargo test --lib` alone does not.
fn built(named: Option<&str>, name: &str) -> PathBuf {
    if let Some(path) = named {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("the test's own path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("a test binary lives in <target>/<profile>/deps/")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: build the binaries first (cargo build --bins)",
        path.display()
    );
    path
}

/// The `codemode` binary as a command, with no world from the environment: every test
/// spawns it through here.
pub fn command() -> Command {
    let mut command = Command::new(bin());
    command
        .env_remove("CODEMODE_WORLD")
        .env_remove("CODEMODE_CHECK")
        .env_remove("CODEMODE_CHECKER");
    command
}

/// Runs `command` with `stdin` as its input, capturing stdout and stderr.
pub fn output(command: &mut Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).ok();
    child.wait_with_output().expect("wait codemode")
}

/// Runs `codemode ARGS` in `world` with `stdin`.
pub fn codemode(world: &Path, args: &[&str], stdin: &str) -> Output {
    // Global flags first: after `call <box>.<tool>` every word belongs to the tool.
    output(command().arg("--world").arg(world).args(args), stdin)
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The one JSON envelope `codemode exec` printed.
pub fn envelope(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not an envelope ({e}): {}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    })
}

/// Runs `codemode exec` on `script` and parses its single line of JSON.
pub fn exec(world: &Path, extra: &[&str], script: &str) -> (serde_json::Value, i32) {
    let mut args = vec!["exec"];
    args.extend_from_slice(extra);
    let out = codemode(world, &args, script);
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    assert_eq!(
        stdout.lines().count(),
        1,
        "exec must print exactly one line, got:\n{stdout}"
    );
    let json =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"));
    (json, out.status.code().unwrap_or(-1))
}

/// Runs `codemode ARGS` in `world` with `stdin`, its stdout a pipe whose reader closed
/// before the process started (as `codemode list | head -1` once `head` has its line);
/// returns the exit status, what it wrote to stderr, and how long it took.
pub fn codemode_closed_stdout(
    world: &Path,
    args: &[&str],
    stdin: &str,
) -> (std::process::ExitStatus, String, std::time::Duration) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let started = std::time::Instant::now();
    let mut child = command()
        .arg("--world")
        .arg(world)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).ok();
    let out = child.wait_with_output().expect("wait codemode");
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// The python of the official MCP Python SDK's venv (`tests/mcp/setup.sh`, under
/// `<target>/mcp-venv`), set up once per test binary.
pub fn mcp_python() -> &'static PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        install(
            "tests/mcp/setup.sh",
            "mcp-venv",
            "python3 and access to the package index are needed",
        )
    })
}

/// Runs `script` (a client written with the official MCP Python SDK, under `tests/`) with
/// `args`; it must succeed, and its one line of JSON on stdout is the answer.
pub fn sdk_client<I, S>(script: &str, args: I) -> serde_json::Value
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(mcp_python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
        .args(args)
        .output()
        .expect("the venv's python runs");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    serde_json::from_str(stdout.trim()).expect("one JSON line")
}

/// Runs the setup script `script` (which installs pinned packages once) into
/// `<target>/<folder>`, and returns the path it prints; a failure says what `needs` says.
pub fn install(script: &str, folder: &str, needs: &str) -> PathBuf {
    let dir = bin()
        .parent()
        .and_then(Path::parent)
        .expect("the binary lives in <target>/<profile>/")
        .join(folder);
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("bash runs {script}: {e}"));
    assert!(
        out.status.success(),
        "{script} failed ({needs}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// The lines a child process writes to `out`, read on a thread of their own so a test can
/// wait for each with a deadline (`recv_timeout`).
pub fn lines_of(out: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    lines
}

/// A runtime over `world` through the facade, with `libraries` after it and the bundled
/// toolboxes or not, and no type check: what most in-process tests run scripts in.
pub fn runtime(
    world: &Path,
    libraries: &[PathBuf],
    bundled: bool,
    limits: codemode::Limits,
) -> codemode::Runtime {
    let options = codemode::Options {
        libraries: libraries.to_vec(),
        bundled,
        limits,
        check: codemode::CheckMode::Off,
        ..codemode::Options::default()
    };
    codemode::World::open_with(world, &options)
        .unwrap()
        .runtime()
        .unwrap()
}
