//! Benchmark of `codemode serve`: what MCP adds to a run, and what a second worker buys.
//!
//! ```text
//! cargo build --release && cargo run --release --example bench_mcp
//! ```
//!
//! 1. Round trip of `tool_exec` over stdio for a small script, against the same script run
//!    in process (`Runtime::exec`) and against `ping` (the transport's own cost).
//!    Target: tool_exec round trip <= 3 x in-process + ping.
//! 2. Throughput of short scripts with 2 workers against 1, on the pool alone and through
//!    the server (requests pipelined on stdio). Target: >= 1.7x on 2 cores.
//!
//! Medians of many runs; all figures come from the same process, so ratios compare like
//! with like on whatever machine runs it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::{Limits, Output, Pool, Registry, Runtime};
use serde_json::{json, Value};

const SMALL: &str = r#"return tools.text.slugify("Hello MCP World")"#;
const SHORT: &str = "local n = 0 for i = 1, 20000 do n += i % 7 end return n";
const ROUND_TRIPS: usize = 2000;
const BATCH: usize = 2000;

fn main() {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/mcp");
    let registry = Arc::new(Registry::open(&world, &[], true).expect("the bench world opens"));

    let in_process = in_process_us(&registry);
    let bin = server_binary();
    let mut server = Server::start(&bin, &world, 1);
    let ping = server.median_us(|s, id| s.request(id, "ping", json!({})));
    let exec = server.median_us(|s, id| s.request(id, "tools/call", tool_exec(SMALL)));
    drop(server);
    println!("round trip, small script ({SMALL}):");
    println!("  in-process Runtime::exec   {in_process:8.1} us");
    println!("  MCP ping over stdio        {ping:8.1} us  (transport cost)");
    println!("  MCP tool_exec over stdio   {exec:8.1} us");
    let budget = 3.0 * in_process + ping;
    println!(
        "  tool_exec / in-process = {:.1}x; (tool_exec - ping) / in-process = {:.1}x; target tool_exec <= 3 x in-process + ping = {budget:.1} us: {}",
        exec / in_process,
        (exec - ping).max(0.0) / in_process,
        if exec <= budget { "met" } else { "NOT met" }
    );

    println!("throughput, short scripts ({SHORT}):");
    let pool1 = pool_rate(&registry, 1);
    let pool2 = pool_rate(&registry, 2);
    println!("  pool, 1 worker    {pool1:9.0} scripts/s");
    println!(
        "  pool, 2 workers   {pool2:9.0} scripts/s   ratio {:.2}x",
        pool2 / pool1
    );
    let mcp1 = Server::start(&bin, &world, 1).pipelined_rate();
    let mcp2 = Server::start(&bin, &world, 2).pipelined_rate();
    println!("  MCP, --workers 1  {mcp1:9.0} scripts/s");
    println!(
        "  MCP, --workers 2  {mcp2:9.0} scripts/s   ratio {:.2}x",
        mcp2 / mcp1
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "  target >= 1.7x with 2 workers on 2 cores ({cores} here): pool {}, MCP {}",
        verdict(pool2 / pool1),
        verdict(mcp2 / mcp1)
    );
}

fn verdict(ratio: f64) -> &'static str {
    if ratio >= 1.7 {
        "met"
    } else {
        "NOT met"
    }
}

/// Median microseconds of `Runtime::exec` for the small script.
fn in_process_us(registry: &Arc<Registry>) -> f64 {
    let mut runtime = Runtime::new(registry.clone(), Limits::default()).unwrap();
    let mut times = Vec::with_capacity(ROUND_TRIPS);
    for _ in 0..ROUND_TRIPS {
        let t = Instant::now();
        let env = runtime.exec(SMALL, Output::Capture);
        times.push(t.elapsed());
        assert!(env.ok, "{}", env.to_json());
    }
    median_us(times)
}

/// Scripts per second on a pool of `workers`, with the queue kept full.
fn pool_rate(registry: &Arc<Registry>, workers: usize) -> f64 {
    let pool = Pool::new(registry.clone(), Limits::default(), workers, BATCH * 2).unwrap();
    for _ in 0..50 {
        pool.exec(SHORT);
    }
    let (tx, rx) = channel();
    let t = Instant::now();
    for _ in 0..BATCH {
        let tx = tx.clone();
        pool.submit(
            SHORT.to_string(),
            move |env| tx.send(env.ok).unwrap(),
            || true,
        )
        .unwrap();
    }
    for _ in 0..BATCH {
        assert!(rx.recv().unwrap());
    }
    BATCH as f64 / t.elapsed().as_secs_f64()
}

fn tool_exec(script: &str) -> Value {
    json!({"name": "tool_exec", "arguments": {"script": script}})
}

fn median_us(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e6
}

/// The release (or debug) `codemode` binary next to this example.
fn server_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let bin = dir.join("codemode");
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build --release` first (same profile as this example)",
        bin.display()
    );
    bin
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(bin: &Path, world: &Path, workers: usize) -> Server {
        let mut child = Command::new(bin)
            .arg("serve")
            .arg("--world")
            .arg(world)
            .args(["--workers", &workers.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("codemode serve starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            stdout,
        };
        server.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"}}),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        for id in 1..=50 {
            server.request(id, "tools/call", tool_exec(SMALL));
        }
        server
    }

    fn send(&mut self, msg: &Value) {
        let mut line = msg.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad line {line:?}: {e}"))
    }

    fn request(&mut self, id: usize, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.read();
            if msg["id"] == id {
                assert!(msg.get("error").is_none(), "{msg}");
                return msg;
            }
        }
    }

    fn median_us(&mut self, mut f: impl FnMut(&mut Server, usize) -> Value) -> f64 {
        let times = (0..ROUND_TRIPS)
            .map(|i| {
                let t = Instant::now();
                f(self, 1000 + i);
                t.elapsed()
            })
            .collect();
        median_us(times)
    }

    /// Scripts per second with BATCH requests written at once (a writer thread) and
    /// their responses read as they come.
    fn pipelined_rate(mut self) -> f64 {
        let mut stdin = self.stdin.try_clone_writer();
        let t = Instant::now();
        let writer = std::thread::spawn(move || {
            for id in 0..BATCH {
                let msg = json!({"jsonrpc": "2.0", "id": 10_000 + id, "method": "tools/call",
                    "params": tool_exec(SHORT)});
                let mut line = msg.to_string();
                line.push('\n');
                stdin.write_all(line.as_bytes()).unwrap();
            }
            stdin.flush().unwrap();
            stdin
        });
        let mut done = 0;
        while done < BATCH {
            let msg = self.read();
            if msg.get("id").is_some() {
                assert_eq!(msg["result"]["isError"], false, "{msg}");
                done += 1;
            }
        }
        let rate = BATCH as f64 / t.elapsed().as_secs_f64();
        let _ = writer.join();
        rate
    }
}

/// Lets a writer thread own the pipe while the bench reads responses.
trait CloneWriter {
    fn try_clone_writer(&mut self) -> std::fs::File;
}

impl CloneWriter for ChildStdin {
    fn try_clone_writer(&mut self) -> std::fs::File {
        use std::os::fd::AsFd;
        std::fs::File::from(self.as_fd().try_clone_to_owned().unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
