//! `codemode serve` driven by the official MCP Python SDK (a client nobody here wrote),
//! over stdio and streamable HTTP, with the handshake-era protocol (`legacy`) and the
//! newest one (`auto` negotiates it through `server/discover`).
//!
//! `tests/mcp/setup.sh` creates a virtualenv with the pinned `mcp` package once (in the
//! target directory); the cases themselves live in `tests/mcp/client_test.py`.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// The suites share two cores: run them one at a time so timings stay meaningful.
static SERIAL: Mutex<()> = Mutex::new(());

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn suite(transport: &str, mode: &str) {
    let python = common::mcp_python();
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
