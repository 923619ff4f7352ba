//! Shared by the upstream tests: the real MCP servers `setup.sh` installs, the fixture
//! server, and worlds whose `.codemode/mcp.json` configures them.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The servers start node processes; two cores run the tests one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `<target>/upstream-servers`, set up once per test binary.
pub fn installed() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        super::common::install(
            "tests/upstream/setup.sh",
            "upstream-servers",
            "node, npm, python3 and the package registries are needed",
        )
    })
}

pub fn package(name: &str) -> String {
    installed()
        .join("node_modules/@modelcontextprotocol")
        .join(name)
        .join("dist/index.js")
        .display()
        .to_string()
}

pub fn fixture() -> String {
    root()
        .join("tests/upstream/fixture_server.py")
        .display()
        .to_string()
}

pub const SECRET: &str = "sk-test-9f8e7d6c5b4a";

/// A world whose `.codemode/mcp.json` holds `servers`.
pub fn world(servers: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".codemode")).unwrap();
    std::fs::write(
        dir.path().join(".codemode/mcp.json"),
        serde_json::to_string_pretty(&json!({ "mcpServers": servers })).unwrap(),
    )
    .unwrap();
    dir
}

pub fn everything_stdio() -> Value {
    json!({
        "command": "node",
        "args": [package("server-everything"), "stdio"],
        "env": { "CODEMODE_TEST_SECRET": SECRET }
    })
}

/// True once `pid` is gone (or a zombie waiting to be reaped).
pub fn is_dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

pub fn wait_dead(pid: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if is_dead(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

pub fn fixture_server(mode: &str, extra: &[&str]) -> Value {
    let mut args = vec![fixture(), mode.to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    json!({ "command": "python3", "args": args, "env": { "FIXTURE_SECRET": SECRET } })
}

/// Runs `node server-everything streamableHttp` on a free loopback port; killed on drop.
pub struct HttpServer {
    child: Child,
    pub port: u16,
}

impl HttpServer {
    pub fn start(port: Option<u16>) -> Self {
        let port = port.unwrap_or_else(|| {
            TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port()
        });
        let child = Command::new("node")
            .arg(package("server-everything"))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs");
        let until = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < until,
                "server-everything did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self { child, port }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
