//! Upstream MCP servers everywhere tools are: `codemode search` / `tools.search` /
//! `search_tools`, `codemode types`, `codemode docs` and `serve --expose-tools`, from the
//! cached catalogue of the real reference server (server-everything), without starting
//! any server; `notifications/tools/list_changed` refreshing what a running `serve`
//! shows; and an answer too large to read failing at once.

use super::common;
use super::servers;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use servers::*;

fn run(world: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = common::codemode(world, args, stdin);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A server entry that appends a line to `marker` when it is started, then runs `then`.
fn marked(marker: &Path, then: &str) -> Value {
    json!({
        "command": "sh",
        "args": ["-c", format!("echo started >> '{}'; exec {then}", marker.display())],
        "env": { "CODEMODE_TEST_SECRET": SECRET },
    })
}

/// Everything a person or a program reads about tools, and the strings none may hold.
fn assert_no_secret(what: &str, text: &str) {
    assert!(!text.contains(SECRET), "{what} shows a secret:\n{text}");
}

/// A world with server-everything (synced) and four servers that were never synced and
/// would hang if started; each start is written to `marker`.
fn five_servers(marker: &Path) -> tempfile::TempDir {
    let everything = format!("node '{}' stdio", package("server-everything"));
    let mut servers = serde_json::Map::new();
    servers.insert("everything".into(), marked(marker, &everything));
    for name in ["github", "files", "db", "browser"] {
        servers.insert(name.into(), marked(marker, "sleep 600"));
    }
    let dir = world(Value::Object(servers));
    let (out, err, code) = run(dir.path(), &["mcp", "sync", "everything"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(marker.exists(), "the sync started the server");
    std::fs::remove_file(marker).unwrap();
    dir
}

#[test]
fn search_types_and_docs_read_the_cached_catalogue_and_start_nothing() {
    let _serial = serial();
    let marker_dir = tempfile::tempdir().unwrap();
    let marker = marker_dir.path().join("started");
    let dir = five_servers(&marker);
    let world = dir.path();

    // Search by meaning and by name, from the command line, finds the upstream tool with
    // where it comes from and how to use it.
    let (out, err, code) = run(
        world,
        &[
            "search",
            "add two numbers together",
            "--json",
            "--no-bundled",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let found: Value = serde_json::from_str(&out).unwrap();
    let rows = found["value"].as_array().unwrap();
    let sum = rows
        .iter()
        .find(|r| r["identity"] == "everything.get_sum")
        .unwrap_or_else(|| panic!("get_sum not found by meaning: {out}"));
    assert_eq!(sum["from"], "mcp:everything", "{sum}");
    assert_eq!(sum["use"], "return tools.use('everything', 'get_sum')");
    assert!(sum.get("install").is_none(), "{sum}");
    let (out, _, code) = run(
        world,
        &["search", "get_sum", "--mode", "keyword", "--no-bundled"],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.contains("1. everything.get_sum"), "{out}");
    let (out, _, code) = run(
        world,
        &[
            "search",
            "",
            "--toolbox",
            "everything",
            "--limit",
            "100",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
    let listed: Value = serde_json::from_str(&out).unwrap();
    assert!(listed["total"].as_u64().unwrap() >= 10, "{listed}");
    assert!(listed["value"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["toolbox"] == "everything"));
    // A server never synced is still a toolbox search finds, saying how to fetch it.
    let (out, _, _) = run(world, &["search", "github", "--json"], "");
    assert!(out.contains("codemode mcp sync github"), "{out}");
    assert_no_secret("search", &out);

    // Types: one table argument typed from the input schema, the result from the output
    // schema, and a field of `tools` per server; the file parses.
    let (types, err, code) = run(world, &["types"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        types.contains("export type Toolbox_everything = {"),
        "{types}"
    );
    assert!(
        types.contains("\tget_sum: (args: { a: number, b: number }) -> any,"),
        "{types}"
    );
    let structured = types
        .lines()
        .find(|l| l.starts_with("\tget_structured_content: (args: {"))
        .expect("get_structured_content is declared");
    assert!(
        structured.contains(") -> { ") && structured.contains("temperature: number"),
        "{structured}"
    );
    assert!(
        types.contains("\teverything: Toolbox_everything,"),
        "{types}"
    );
    // A server not fetched yet is `any`: no call of its tools can be judged before the
    // first use fetches them.
    assert!(types.contains("\tgithub: any,"), "{types}");
    assert!(
        types.contains("The toolbox `github` is typed `any`: its tools are not fetched yet."),
        "{types}"
    );
    let plain: String = types
        .lines()
        .map(|l| match l.strip_prefix("declare ") {
            Some(rest) => format!("local {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    let parsed = full_moon::parse_fallible(&plain, full_moon::LuaVersion::luau());
    assert!(parsed.errors().is_empty(), "{:?}", parsed.errors());
    assert_no_secret("types", &types);

    // Docs: a SKILL.md per server, a TOOL.md per tool, entries on the page.
    let site = tempfile::tempdir().unwrap();
    let out_dir = site.path().join("site");
    let (_, err, code) = run(
        world,
        &["docs", "--out", out_dir.to_str().unwrap(), "--no-bundled"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let skill = std::fs::read_to_string(out_dir.join("everything/SKILL.md")).unwrap();
    assert!(skill.contains("name: everything"), "{skill}");
    assert!(skill.contains("[get_sum](get-sum/TOOL.md)"), "{skill}");
    let tool = std::fs::read_to_string(out_dir.join("everything/get-sum/TOOL.md")).unwrap();
    assert!(
        tool.contains("`tools.everything.get_sum(args: { a: number, b: number }): any`"),
        "{tool}"
    );
    assert!(tool.contains("| `a` | `number` | yes |"), "{tool}");
    let github = std::fs::read_to_string(out_dir.join("github/SKILL.md")).unwrap();
    assert!(github.contains("codemode mcp sync github"), "{github}");
    let page = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(page.contains("data-identity=\"everything.get_sum\""));
    for file in walk(&out_dir) {
        assert_no_secret(
            &file.display().to_string(),
            &std::fs::read_to_string(&file).unwrap(),
        );
    }

    // tools.list at every tier and tools.get: still from the cache.
    let (out, _, code) = run(world, &["list", "3"], "");
    assert_eq!(code, 0);
    assert!(out.contains("tools.everything.get_sum(args:"), "{out}");
    assert_no_secret("list", &out);

    assert!(
        !marker.exists(),
        "search, types, docs and list started a server: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );

    // In a script: tools.search rows, tools.use and tools.callable reach upstream tools.
    // A script's search fetches the servers not fetched yet; the four that hang are
    // waited for a few seconds, then left out of it (their fetches go on).
    let script = r#"
        local hits = tools.search("echo a message back", { mode = "keyword" }).value
        local row = hits[1]
        local fn = tools.use("everything", "echo")
        return {
            identity = row.identity,
            from = row.from,
            callable = tools.callable("everything", "echo"),
            missing = tools.callable("everything", "nope"),
            isFunction = type(fn) == "function",
        }
    "#;
    let started = std::time::Instant::now();
    let (out, err, code) = run(world, &["exec", "-"], script);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "{:?}",
        started.elapsed()
    );
    assert!(marker.exists(), "the script's search fetched nothing");
    let value = &serde_json::from_str::<Value>(&out).unwrap()["value"];
    assert_eq!(value["identity"], "everything.echo", "{value}");
    assert_eq!(value["from"], "mcp:everything");
    assert_eq!(value["callable"], "everything.echo");
    assert_eq!(value["missing"], Value::Null);
    assert_eq!(value["isFunction"], true);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `codemode serve` on stdio, spoken to as raw JSON-RPC.
struct Serve {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: i64,
    /// Messages other than answers (notifications), in the order they came.
    seen: Vec<Value>,
}

impl Serve {
    fn start(world: &Path, extra: &[&str]) -> Serve {
        let mut child = Command::new(common::bin())
            .arg("--world")
            .arg(world)
            .arg("serve")
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("codemode serve starts");
        let lines = common::lines_of(child.stdout.take().unwrap());
        let stdin = child.stdin.take().unwrap();
        let mut serve = Serve {
            child,
            stdin,
            lines,
            next_id: 1,
            seen: Vec::new(),
        };
        serve.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "1"}}),
        );
        serve.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        serve
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message within `within`, if any.
    fn next(&mut self, within: Duration) -> Option<Value> {
        let line = self.lines.recv_timeout(within).ok()?;
        Some(serde_json::from_str(&line).expect("stdout carries JSON-RPC only"))
    }

    /// Sends a request and returns its result; messages that come first are kept in
    /// `seen`.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self
                .next(Duration::from_secs(60))
                .expect("codemode serve answered");
            if message["id"] == id {
                return message["result"].clone();
            }
            self.seen.push(message);
        }
    }

    /// `tool_exec` of `script`: the envelope.
    fn exec(&mut self, script: &str) -> Value {
        let result = self.request(
            "tools/call",
            json!({"name": "tool_exec", "arguments": {"script": script}}),
        );
        result["structuredContent"].clone()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn expose_tools_lists_upstream_tools_with_their_schema_and_calls_them() {
    let _serial = serial();
    let marker_dir = tempfile::tempdir().unwrap();
    let marker = marker_dir.path().join("started");
    let dir = five_servers(&marker);
    let mut serve = Serve::start(dir.path(), &["--expose-tools", "--no-bundled"]);
    let listed = serve.request("tools/list", json!({}));
    let tools = listed["tools"].as_array().unwrap();
    let sum = tools
        .iter()
        .find(|t| t["name"] == "everything__get_sum")
        .unwrap_or_else(|| panic!("not exposed: {listed}"));
    assert_eq!(sum["inputSchema"]["properties"]["a"]["type"], "number");
    assert!(sum["description"]
        .as_str()
        .unwrap()
        .starts_with("tools.everything.get_sum(args: { a: number, b: number })"));
    assert_no_secret("tools/list", &listed.to_string());
    // search_tools ranks them too.
    let found = serve.request(
        "tools/call",
        json!({"name": "search_tools", "arguments": {"query": "sum of two numbers", "mode": "keyword"}}),
    );
    assert!(
        found["structuredContent"]["value"][0]["identity"] == "everything.get_sum",
        "{found}"
    );
    // serve fetched the four servers never synced in the background, and they hang: the
    // search above answered anyway.
    // A call goes through the same path as a script: the envelope, the server started.
    let called = serve.request(
        "tools/call",
        json!({"name": "everything__get_sum", "arguments": {"a": 2, "b": 40}}),
    );
    let envelope = &called["structuredContent"];
    assert_eq!(envelope["ok"], true, "{called}");
    assert!(
        envelope["value"].as_str().unwrap().contains("42"),
        "{called}"
    );
    assert!(marker.exists(), "the call started the server");
    // The server's own error comes back as a failed envelope naming the call.
    let refused = serve.request(
        "tools/call",
        json!({"name": "everything__get_sum", "arguments": {"a": "x"}}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused["structuredContent"]["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("get_sum(args:"),
        "{refused}"
    );
    assert_no_secret("a refused call", &refused.to_string());
}

#[test]
fn list_changed_from_a_started_server_refreshes_what_serve_shows() {
    let _serial = serial();
    let dir = world(json!({ "grow": fixture_server("grow", &[]) }));
    let (_, err, code) = run(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{err}");
    let mut serve = Serve::start(dir.path(), &["--expose-tools", "--no-bundled"]);
    let count = "return #tools.list('grow').value";
    assert_eq!(serve.exec(count)["value"], 3, "sleep, boom, grow");
    // The tool adds a tool and says so; codemode refreshes the cached catalogue, and
    // tells its own client that its tool list changed.
    let grown = serve.exec("return tools.grow.grow({})");
    assert_eq!(grown["value"], "grown_1", "{grown}");
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let n = serve.request(
            "tools/call",
            json!({"name": "tool_exec", "arguments": {"script": count}}),
        );
        if n["structuredContent"]["value"] == 4 {
            break;
        }
        assert!(Instant::now() < until, "the new tool never showed: {n}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let found = serve.exec(
        "local r = tools.search('grown_1', { mode = 'keyword' }).value[1]; return { r.identity, tools.get('grow.grown_1').from }",
    );
    assert_eq!(
        found["value"],
        json!(["grow.grown_1", "mcp:grow"]),
        "{found}"
    );
    while !serve
        .seen
        .iter()
        .any(|m| m["method"] == "notifications/tools/list_changed")
    {
        match serve.next(Duration::from_secs(5)) {
            Some(m) => serve.seen.push(m),
            None => panic!("codemode did not send tools/list_changed: {:?}", serve.seen),
        }
    }
    let listed = serve.request("tools/list", json!({}));
    assert!(listed.to_string().contains("grow__grown_1"), "{listed}");
}

#[test]
fn list_changed_from_a_started_server_shows_in_the_next_repl_entry() {
    let _serial = serial();
    let scratch = tempfile::tempdir().unwrap();
    let marker = scratch.path().join("started");
    let grow = format!("python3 '{}' grow", fixture());
    let dir = world(json!({ "grow": marked(&marker, &grow) }));
    let (_, err, code) = run(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(&marker).unwrap();

    let mut child = Command::new(common::bin())
        .args(["--no-bundled", "--world"])
        .arg(dir.path())
        .arg("repl")
        .env("CODEMODE_HISTORY", scratch.path().join("history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode runs");
    let mut stdin = child.stdin.take().unwrap();
    let received = common::lines_of(child.stdout.take().unwrap());
    let mut send = |entry: &str| writeln!(stdin, "{entry}").unwrap();
    let expect = |wanted: &str| {
        let until = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        while Instant::now() < until {
            if let Ok(line) = received.recv_timeout(Duration::from_millis(100)) {
                if line == wanted {
                    return;
                }
                seen.push(line);
            }
        }
        panic!("the REPL never printed {wanted}; it printed {seen:?}");
    };
    let count = "#tools.list('grow').value";
    send(count);
    expect("3");
    // The call starts the server, which adds a tool and sends list_changed.
    send("tools.grow.grow({})");
    expect("\"grown_1\"");
    let until = Instant::now() + Duration::from_secs(10);
    let mut grown = false;
    while !grown && Instant::now() < until {
        send(count);
        while let Ok(line) = received.recv_timeout(Duration::from_millis(100)) {
            grown |= line == "4";
        }
    }
    assert!(
        grown,
        "tools.list never showed the new tool in the same session"
    );
    send("tools.get('grow.grown_1').description");
    expect("\"Added at run time, number 1.\"");
    // The second growth comes from the same process, kept across entries.
    send("tools.grow.grow({})");
    expect("\"grown_2\"");
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let starts = std::fs::read_to_string(&marker).unwrap();
    assert_eq!(
        starts.lines().count(),
        1,
        "one server process for the session"
    );
}

#[test]
fn the_reference_server_announces_its_late_tools_and_the_stale_catalogue_is_replaced() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    // A catalogue from an older version of the server: only `echo`.
    let configs = crate::upstream::load(dir.path(), &[]);
    crate::upstream::cache::Cache::new(dir.path())
        .write(
            &configs.servers[0],
            &crate::upstream::Listing {
                tools: vec![json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}})],
                ..Default::default()
            },
        )
        .unwrap();
    let mut serve = Serve::start(dir.path(), &["--no-bundled"]);
    let count = "return #tools.list('everything').value";
    assert_eq!(serve.exec(count)["value"], 1);
    let echoed = serve.exec("return tools.everything.echo({ message = 'hi' })");
    assert_eq!(echoed["value"], "Echo: hi", "{echoed}");
    // After the handshake server-everything registers more tools and sends
    // tools/list_changed; the next scripts see them.
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let n = serve.exec(count)["value"].as_u64().unwrap_or(0);
        if n > 10 {
            break;
        }
        assert!(Instant::now() < until, "still {n} tools");
        std::thread::sleep(Duration::from_millis(100));
    }
    let found =
        serve.exec("return tools.search('get_sum', { mode = 'keyword' }).value[1].identity");
    assert_eq!(found["value"], "everything.get_sum", "{found}");
}

#[test]
fn an_answer_over_16_mib_fails_the_call_at_once_and_the_server_stays_up() {
    let _serial = serial();
    let dir = world(json!({ "big": fixture_server("huge", &[]) }));
    let (_, err, code) = run(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{err}");
    let script = r#"
        local ok, err = pcall(tools.big.huge, { mb = 17 })
        local after = tools.big.sleep({ ms = 1 })
        return { ok = ok, err = tostring(err), after = after }
    "#;
    let started = Instant::now();
    let (out, err, code) = run(dir.path(), &["exec", "--timeout-ms", "60000", "-"], script);
    let took = started.elapsed();
    assert_eq!(code, 0, "{out}{err}");
    let value = &serde_json::from_str::<Value>(&out).unwrap()["value"];
    assert_eq!(value["ok"], false, "{value}");
    let message = value["err"].as_str().unwrap();
    assert!(
        message.contains("big.huge answered with more than 16 MiB")
            && message.contains("ask the tool for less"),
        "{message}"
    );
    assert_eq!(value["after"], "slept 1 ms", "the connection stayed up");
    assert!(took < Duration::from_secs(20), "took {took:?}");
}
