//! Benchmark of upstream MCP servers as toolboxes, against real servers (server-everything,
//! server-filesystem, mcp-server-time, installed by `tests/upstream/setup.sh`):
//!
//! ```text
//! cargo build --release && cargo run --release --features bench --example bench_upstream
//! ```
//!
//! 1. Context saved: five tasks an agent does over those servers, counted in bytes its
//!    context receives. Classic MCP: every tool definition of the three servers, then each
//!    call the model writes and each result it reads (measured with a direct client).
//!    Code mode (`codemode serve`): the two tools' definitions, one `search_tools` call
//!    (its rows carry the signatures), then the task's script and its envelope. Target:
//!    code mode at most 1/10 of classic on each of five tasks that read data and over all
//!    five; two controls of a few small calls each are shown beside them.
//! 2. Overhead: a script making 10 sequential calls of a fast tool (`echo`) through a warm
//!    codemode, against the same 10 calls by a direct MCP client. Target <= 1.5x.
//! 3. Fan-out: 10 calls of a 100 ms tool through `tools.parallel`, against one call.
//!    Target <= 2x.
//! 4. Lazy start: `codemode list` and `codemode search` processes on a world with five
//!    configured (and synced) servers, against a world with none; every server command
//!    writes a marker when started, and none may be. Target <= 2x.
//!
//! Medians of interleaved runs: ratios compare like with like on whatever machine runs it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::registry::Registry;
use crate::{Limits, Output, Runtime};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Map, Value};

pub fn main() {
    let servers = install();
    let bin = codemode_binary();
    let files = tempfile::tempdir().expect("a temporary folder");
    let folder = make_folder(files.path());
    let rt = tokio::runtime::Runtime::new().expect("a tokio runtime");

    context_saved(&rt, &bin, &servers, &folder);
    overhead_and_fan_out(&rt, &servers);
    lazy_start(&bin, &servers, &folder);
}

// ---------------------------------------------------------------- servers and worlds

struct Installed {
    everything: PathBuf,
    filesystem: PathBuf,
    time: PathBuf,
}

fn install() -> Installed {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("tests/upstream/setup.sh"))
        .output()
        .expect("bash runs tests/upstream/setup.sh");
    assert!(
        out.status.success(),
        "tests/upstream/setup.sh failed (node, npm and python3 are needed):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let package = |name: &str| {
        dir.join("node_modules/@modelcontextprotocol")
            .join(name)
            .join("dist/index.js")
    };
    Installed {
        everything: package("server-everything"),
        filesystem: package("server-filesystem"),
        time: dir.join("venv/bin/mcp-server-time"),
    }
}

/// The three servers as (name, command, arguments).
fn entries(servers: &Installed, folder: &Path) -> Vec<(&'static str, String, Vec<String>)> {
    vec![
        (
            "everything",
            "node".into(),
            vec![servers.everything.display().to_string(), "stdio".into()],
        ),
        (
            "fs",
            "node".into(),
            vec![
                servers.filesystem.display().to_string(),
                folder.display().to_string(),
            ],
        ),
        (
            "time",
            servers.time.display().to_string(),
            vec!["--local-timezone".into(), "UTC".into()],
        ),
    ]
}

fn write_world(dir: &Path, servers: Value) {
    std::fs::create_dir_all(dir.join(".codemode")).unwrap();
    std::fs::write(
        dir.join(".codemode/mcp.json"),
        json!({ "mcpServers": servers }).to_string(),
    )
    .unwrap();
}

fn sync(bin: &Path, world: &Path, server: &str) {
    let out = Command::new(bin)
        .args(["mcp", "sync", server, "--world"])
        .arg(world)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "codemode mcp sync {server} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A folder of notes for the filesystem server: markdown with titles and TODOs, logs.
fn make_folder(dir: &Path) -> PathBuf {
    let folder = dir.join("notes");
    std::fs::create_dir_all(folder.join("archive")).unwrap();
    for i in 1..=8 {
        let mut text = format!("# Meeting notes {i}\n\n");
        for line in 0..40 {
            let todo = if (line + i) % 17 == 0 && i % 3 != 0 {
                "TODO follow up with the team. "
            } else {
                ""
            };
            text.push_str(&format!(
                "{todo}Item {line} of meeting {i}: the group discussed the plan and agreed on next steps.\n"
            ));
        }
        std::fs::write(folder.join(format!("note-{i}.md")), text).unwrap();
    }
    for i in 1..=4 {
        let text: String = (0..(60 * i))
            .map(|n| {
                format!(
                    "2025-01-0{i} 10:{:02}:00 INFO request {n} served in {} ms\n",
                    n % 60,
                    n % 37
                )
            })
            .collect();
        std::fs::write(folder.join(format!("log-{i}.txt")), text).unwrap();
    }
    folder.canonicalize().unwrap()
}

/// `target/<profile>/codemode`, next to this example.
fn codemode_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("codemode");
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build --release` first (same profile as this example)",
        bin.display()
    );
    bin
}

// ---------------------------------------------------------------- a direct MCP client

type Client = RunningService<RoleClient, ()>;

fn connect(rt: &tokio::runtime::Runtime, command: &str, args: &[String]) -> Client {
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args).stderr(Stdio::null());
    rt.block_on(async {
        ().serve(TokioChildProcess::new(cmd).expect("the server starts"))
            .await
            .expect("the MCP handshake")
    })
}

fn call_direct(rt: &tokio::runtime::Runtime, client: &Client, tool: &str, args: &Value) -> Value {
    let mut params = CallToolRequestParams::new(tool.to_string());
    params.arguments = args.as_object().cloned();
    let result = rt
        .block_on(client.peer().call_tool(params))
        .unwrap_or_else(|e| panic!("{tool} failed: {e}"));
    serde_json::to_value(result).unwrap()
}

// ---------------------------------------------------------------- codemode serve

struct Serve {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    id: u64,
}

impl Serve {
    fn start(bin: &Path, world: &Path) -> Serve {
        let mut child = Command::new(bin)
            .arg("serve")
            .arg("--world")
            .arg(world)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("codemode serve starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut serve = Serve {
            child,
            stdin,
            stdout,
            id: 0,
        };
        serve.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}),
        );
        writeln!(
            serve.stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .unwrap();
        serve
    }

    /// The `result` of a request.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let request = json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params});
        writeln!(self.stdin, "{request}").unwrap();
        self.stdin.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "serve exited"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == self.id {
                return message["result"].clone();
            }
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- 1. context saved

/// One task: the calls a classic agent makes (server, tool, arguments), and what a
/// code-mode agent sends instead.
struct Task {
    name: &'static str,
    classic: Vec<(&'static str, &'static str, Value)>,
    query: &'static str,
    script: String,
    /// A control: a task of a few small calls, reported but outside the target set.
    control: bool,
}

fn tasks(folder: &Path) -> Vec<Task> {
    let dir = folder.display().to_string();
    let file = |name: String| json!({ "path": format!("{dir}/{name}") });
    let md: Vec<String> = (1..=8).map(|i| format!("note-{i}.md")).collect();
    let all: Vec<String> = md
        .iter()
        .cloned()
        .chain((1..=4).map(|i| format!("log-{i}.txt")))
        .collect();
    let zones = [
        "America/New_York",
        "Europe/London",
        "Europe/Berlin",
        "Asia/Kolkata",
        "Asia/Tokyo",
        "Australia/Sydney",
    ];
    let read_text = r#"local function text(path)
	local r = tools.fs.read_text_file({ path = path })
	return if type(r) == "table" then r.content else r
end
"#;
    vec![
        Task {
            name: "summary table of the markdown notes",
            classic: std::iter::once(("fs", "list_directory", json!({ "path": dir })))
                .chain(md.iter().map(|f| ("fs", "read_text_file", file(f.clone()))))
                .collect(),
            query: "list a folder and read text files",
            script: format!(
                r#"{read_text}local dir = "{dir}"
local listing = tools.fs.list_directory({{ path = dir }})
local listed = if type(listing) == "table" then listing.content else listing
local fns = {{}}
for name in string.gmatch(listed, "%[FILE%] ([^\n]+%.md)") do
	table.insert(fns, function()
		local body = text(dir .. "/" .. name)
		local _, lines = string.gsub(body, "\n", "")
		return {{ file = name, lines = lines, title = string.match(body, "^# ([^\n]+)") }}
	end)
end
local rows = {{}}
for _, slot in tools.parallel(fns) do
	table.insert(rows, slot.value)
end
return rows"#
            ),
            control: false,
        },
        Task {
            name: "which files mention TODO",
            classic: std::iter::once(("fs", "list_directory", json!({ "path": dir })))
                .chain(
                    all.iter()
                        .map(|f| ("fs", "read_text_file", file(f.clone()))),
                )
                .collect(),
            query: "read the files of a directory",
            script: format!(
                r#"{read_text}local dir = "{dir}"
local listing = tools.fs.list_directory({{ path = dir }})
local listed = if type(listing) == "table" then listing.content else listing
local hits = {{}}
for name in string.gmatch(listed, "%[FILE%] ([^\n]+)") do
	local _, n = string.gsub(text(dir .. "/" .. name), "TODO", "")
	if n > 0 then
		hits[name] = n
	end
end
return hits"#
            ),
            control: false,
        },
        Task {
            name: "a 09:00 UTC meeting in six time zones",
            classic: zones
                .iter()
                .map(|z| {
                    (
                        "time",
                        "convert_time",
                        json!({"source_timezone": "UTC", "time": "09:00", "target_timezone": z}),
                    )
                })
                .collect(),
            query: "convert a time between time zones",
            script: format!(
                r#"local out = {{}}
for _, zone in {{ "{}" }} do
	local r = tools.time.convert_time({{ source_timezone = "UTC", time = "09:00", target_timezone = zone }})
	out[zone] = string.sub(r.target.datetime, 12, 16)
end
return out"#,
                zones.join("\", \"")
            ),
            control: true,
        },
        Task {
            name: "the warmest of three cities",
            classic: ["New York", "Chicago", "Los Angeles"]
                .iter()
                .map(|c| {
                    (
                        "everything",
                        "get-structured-content",
                        json!({ "location": c }),
                    )
                })
                .collect(),
            query: "weather temperature for a city",
            script: r#"local best, temp = nil, -math.huge
for _, city in { "New York", "Chicago", "Los Angeles" } do
	local w = tools.everything.get_structured_content({ location = city })
	if w.temperature > temp then
		best, temp = city, w.temperature
	end
end
return { city = best, temperature = temp }"#
                .to_string(),
            control: true,
        },
        Task {
            name: "requests and mean latency per log",
            classic: std::iter::once(("fs", "list_directory", json!({ "path": dir })))
                .chain((1..=4).map(|i| ("fs", "read_text_file", file(format!("log-{i}.txt")))))
                .collect(),
            query: "read a text file",
            script: format!(
                r#"{read_text}local out = {{}}
for i = 1, 4 do
	local n, total = 0, 0
	for ms in string.gmatch(text("{dir}/log-" .. i .. ".txt"), "served in (%d+) ms") do
		n += 1
		total += tonumber(ms)
	end
	out["log-" .. i .. ".txt"] = {{ requests = n, meanMs = math.floor(total / n * 10) / 10 }}
end
return out"#
            ),
            control: false,
        },
        Task {
            name: "the five slowest requests of all logs",
            classic: (1..=4)
                .map(|i| ("fs", "read_text_file", file(format!("log-{i}.txt"))))
                .collect(),
            query: "read a text file",
            script: format!(
                r#"{read_text}local rows = {{}}
for i = 1, 4 do
	for line in string.gmatch(text("{dir}/log-" .. i .. ".txt"), "[^\n]+") do
		table.insert(rows, {{ ms = tonumber(string.match(line, "served in (%d+) ms")), line = line }})
	end
end
table.sort(rows, function(a, b) return a.ms > b.ms end)
local top = {{}}
for i = 1, 5 do
	top[i] = rows[i].line
end
return top"#
            ),
            control: false,
        },
        Task {
            name: "the three largest files, first lines",
            classic: std::iter::once((
                "fs",
                "list_directory_with_sizes",
                json!({ "path": dir, "sortBy": "size" }),
            ))
            .chain(
                (2..=4)
                    .rev()
                    .map(|i| ("fs", "read_text_file", file(format!("log-{i}.txt")))),
            )
            .collect(),
            query: "file sizes in a directory",
            script: format!(
                r#"{read_text}local r = tools.fs.list_directory_with_sizes({{ path = "{dir}", sortBy = "size" }})
local listed = if type(r) == "table" then r.content else r
local top = {{}}
for name, size in string.gmatch(listed, "%[FILE%] (%S+)%s+([%d%.]+ %a+)") do
	if #top < 3 then
		local first = string.match(text("{dir}/" .. name), "^[^\n]*")
		table.insert(top, {{ file = name, size = size, first = first }})
	end
end
return top"#
            ),
            control: false,
        },
    ]
}

fn bytes(value: &Value) -> usize {
    serde_json::to_string(value).map_or(0, |s| s.len())
}

fn context_saved(rt: &tokio::runtime::Runtime, bin: &Path, servers: &Installed, folder: &Path) {
    // Classic: a direct client per server; the model sees every tool definition.
    let mut clients = Vec::new();
    let mut definitions = 0;
    let mut tool_count = 0;
    for (name, command, args) in entries(servers, folder) {
        let client = connect(rt, &command, &args);
        let tools = rt.block_on(client.peer().list_all_tools()).unwrap();
        tool_count += tools.len();
        definitions += bytes(&serde_json::to_value(&tools).unwrap());
        clients.push((name, client));
    }
    let client = |server: &str| &clients.iter().find(|(n, _)| *n == server).unwrap().1;

    // Code mode: codemode serve over a world configuring the same servers, synced.
    let world = tempfile::tempdir().unwrap();
    let config: Map<String, Value> = entries(servers, folder)
        .into_iter()
        .map(|(name, command, args)| (name.to_string(), json!({"command": command, "args": args})))
        .collect();
    write_world(world.path(), Value::Object(config));
    for (name, _, _) in entries(servers, folder) {
        sync(bin, world.path(), name);
    }
    let mut serve = Serve::start(bin, world.path());
    let listed = serve.request("tools/list", json!({}));
    let codemode_definitions = bytes(&listed);

    println!("1. context an agent receives, bytes (classic MCP vs code mode):");
    println!(
        "   tool definitions: classic {definitions} ({tool_count} tools of 3 servers), code mode {codemode_definitions} (tool_exec, search_tools)"
    );
    let (mut classic_total, mut code_total, mut worst) = (0usize, 0usize, 0.0f64);
    for task in tasks(folder) {
        let mut classic = definitions;
        for (server, tool, args) in &task.classic {
            let result = call_direct(rt, client(server), tool, args);
            assert_ne!(
                result["isError"], true,
                "{}: {tool} failed: {result}",
                task.name
            );
            classic += bytes(&json!({"name": tool, "arguments": args})) + bytes(&result);
        }
        let mut code = codemode_definitions;
        let search =
            json!({"name": "search_tools", "arguments": {"query": task.query, "limit": 5}});
        code += bytes(&search) + bytes(&serve.request("tools/call", search.clone()));
        let run = json!({"name": "tool_exec", "arguments": {"script": task.script}});
        let result = serve.request("tools/call", run.clone());
        assert_eq!(
            result["isError"], false,
            "{}: the script failed: {result}",
            task.name
        );
        code += bytes(&run) + bytes(&result);
        let ratio = code as f64 / classic as f64;
        if !task.control {
            worst = worst.max(ratio);
            classic_total += classic;
            code_total += code;
        }
        println!(
            "   {:<40} classic {classic:>7}  code mode {code:>6}  = 1/{:<5.1} ({} classic calls){}",
            task.name,
            1.0 / ratio,
            task.classic.len(),
            if task.control {
                "  control: few small results, outside the target set"
            } else {
                ""
            }
        );
    }
    let overall = code_total as f64 / classic_total as f64;
    println!(
        "   the five data tasks: classic {classic_total}, code mode {code_total} = 1/{:.1}; worst 1/{:.1}; target <= 1/10 each and overall: {}",
        1.0 / overall,
        1.0 / worst,
        if worst <= 0.1 && overall <= 0.1 { "met" } else { "NOT met" }
    );
    drop(serve);
    for (_, client) in clients {
        let _ = rt.block_on(client.cancel());
    }
}

// ---------------------------------------------------------------- 2, 3. overhead, fan-out

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn overhead_and_fan_out(rt: &tokio::runtime::Runtime, servers: &Installed) {
    let world = tempfile::tempdir().unwrap();
    let args = vec![servers.everything.display().to_string(), "stdio".into()];
    write_world(
        world.path(),
        json!({ "everything": { "command": "node", "args": args } }),
    );
    let registry = Registry::open(world.path(), &[], true).unwrap();
    registry.attach_upstreams(&[]);
    registry.upstreams().unwrap().sync(None);
    let limits = Limits {
        timeout: Duration::from_secs(30),
        ..Limits::default()
    };
    let mut runtime = Runtime::new(Arc::new(registry), limits).unwrap();
    let mut exec = |script: &str| {
        let started = Instant::now();
        let envelope = runtime.exec(script, Output::Capture);
        assert!(envelope.ok, "{script}: {:?}", envelope.error);
        started.elapsed()
    };
    let direct = connect(rt, "node", &args);
    let ten_calls = r#"for i = 1, 10 do tools.everything.echo({ message = "m" .. i }) end"#;
    exec(ten_calls);
    let (mut through, mut straight) = (Vec::new(), Vec::new());
    for _ in 0..40 {
        through.push(exec(ten_calls));
        let started = Instant::now();
        for i in 1..=10 {
            call_direct(rt, &direct, "echo", &json!({ "message": format!("m{i}") }));
        }
        straight.push(started.elapsed());
    }
    let (through, straight) = (median(through), median(straight));
    let ratio = ms(through) / ms(straight);
    println!("2. 10 sequential calls of server-everything's echo (medians of 40):");
    println!(
        "   direct MCP client {:.2} ms, a codemode script (warm, in process) {:.2} ms = {ratio:.2}x; target <= 1.5x: {}",
        ms(straight),
        ms(through),
        if ratio <= 1.5 { "met" } else { "NOT met" }
    );

    let one =
        r#"return tools.everything.trigger_long_running_operation({ duration = 0.1, steps = 1 })"#;
    let ten = r#"local fns = {}
for i = 1, 10 do
	fns[i] = function()
		return tools.everything.trigger_long_running_operation({ duration = 0.1, steps = 1 })
	end
end
for _, slot in tools.parallel(fns) do
	assert(slot.ok, slot.error)
end"#;
    let (mut single, mut fanned) = (Vec::new(), Vec::new());
    for _ in 0..10 {
        single.push(exec(one));
        fanned.push(exec(ten));
    }
    let (single, fanned) = (median(single), median(fanned));
    let ratio = ms(fanned) / ms(single);
    println!("3. fan-out of a 100 ms tool (medians of 10):");
    println!(
        "   one call {:.1} ms, 10 calls through tools.parallel {:.1} ms = {ratio:.2}x; target <= 2x: {}",
        ms(single),
        ms(fanned),
        if ratio <= 2.0 { "met" } else { "NOT met" }
    );
    let _ = rt.block_on(direct.cancel());
}

// ---------------------------------------------------------------- 4. lazy start

fn lazy_start(bin: &Path, servers: &Installed, folder: &Path) {
    let marker_dir = tempfile::tempdir().unwrap();
    let marker = marker_dir.path().join("started");
    let five = tempfile::tempdir().unwrap();
    let none = tempfile::tempdir().unwrap();
    // Five servers (the three, and a second filesystem and time server), each started
    // through a shell line that first appends its name to the marker.
    let mut five_entries = entries(servers, folder);
    five_entries.push(("fs2", five_entries[1].1.clone(), five_entries[1].2.clone()));
    five_entries.push((
        "time2",
        servers.time.display().to_string(),
        vec!["--local-timezone".into(), "Europe/Paris".into()],
    ));
    let mut config = Map::new();
    for (name, command, args) in five_entries {
        let line = std::iter::once(command)
            .chain(args)
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" ");
        let script = format!("echo {name} >> '{}'; exec {line}", marker.display());
        config.insert(
            name.to_string(),
            json!({"command": "sh", "args": ["-c", script]}),
        );
    }
    let names: Vec<String> = config.keys().cloned().collect();
    write_world(five.path(), Value::Object(config));
    for name in &names {
        sync(bin, five.path(), name);
    }
    std::fs::remove_file(&marker).expect("the syncs started the servers");
    let run = |world: &Path, args: &[&str]| {
        let started = Instant::now();
        let out = Command::new(bin)
            .arg("--world")
            .arg(world)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            started.elapsed(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    println!(
        "4. lazy start: a world with {} configured servers vs none (medians of 15 processes):",
        names.len()
    );
    for args in [&["list", "2"][..], &["search", "read a file"][..]] {
        let (mut with, mut without) = (Vec::new(), Vec::new());
        let mut shown = String::new();
        for _ in 0..15 {
            let (took, out) = run(five.path(), args);
            with.push(took);
            shown = out;
            without.push(run(none.path(), args).0);
        }
        assert!(
            shown.contains("everything") || shown.contains("fs."),
            "the upstream tools are listed: {shown}"
        );
        let (with, without) = (median(with), median(without));
        let ratio = ms(with) / ms(without);
        println!(
            "   codemode {:<20} {:.1} ms vs {:.1} ms = {ratio:.2}x; target <= 2x: {}",
            args.join(" "),
            ms(with),
            ms(without),
            if ratio <= 2.0 { "met" } else { "NOT met" }
        );
    }
    let started = std::fs::read_to_string(&marker).unwrap_or_default();
    assert!(
        started.is_empty(),
        "list or search started servers: {started}"
    );
    println!("   servers started by list and search: none (every server command writes a marker)");
}
