//! `codemode serve` driven by the official MCP Python SDK (a client nobody here wrote),
//! over stdio and streamable HTTP, with the handshake-era protocol (`legacy`) and the
//! newest one (`auto` negotiates it through `server/discover`).
//!
//! `tests/mcp/setup.sh` creates a virtualenv with the pinned `mcp` package once (in the
//! target directory); the cases themselves live in `tests/mcp/client_test.py`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The suites share two cores: run them one at a time so timings stay meaningful.
static SERIAL: Mutex<()> = Mutex::new(());

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's python, set up once per test binary.
fn python() -> &'static PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let venv = Path::new(env!("CARGO_BIN_EXE_codemode"))
            .parent()
            .and_then(Path::parent)
            .expect("the binary lives in <target>/<profile>/")
            .join("mcp-venv");
        let out = Command::new("bash")
            .arg(root().join("tests/mcp/setup.sh"))
            .arg(&venv)
            .output()
            .expect("bash runs tests/mcp/setup.sh");
        assert!(
            out.status.success(),
            "tests/mcp/setup.sh failed (python3 and access to the package index are needed):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

fn suite(transport: &str, mode: &str) {
    let python = python();
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let out = Command::new(python)
        .arg(root().join("tests/mcp/client_test.py"))
        .args(["--bin", env!("CARGO_BIN_EXE_codemode")])
        .arg("--world")
        .arg(root().join("tests/worlds/mcp"))
        .args(["--transport", transport, "--mode", mode])
        .output()
        .expect("the venv's python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "MCP client suite {transport}/{mode} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn python_sdk_over_stdio_legacy() {
    suite("stdio", "legacy");
}

#[test]
fn python_sdk_over_stdio_newest_protocol() {
    suite("stdio", "auto");
}

#[test]
fn python_sdk_over_http_legacy() {
    suite("http", "legacy");
}

#[test]
fn python_sdk_over_http_newest_protocol() {
    suite("http", "auto");
}
