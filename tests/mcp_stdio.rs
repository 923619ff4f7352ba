//! `codemode serve` spoken to as raw JSON-RPC over its stdio: the malformed and hostile
//! input a real SDK never sends. After each bad message the server must still answer.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A server process and its line-oriented stdio.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        Server::start_in(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/mcp"),
            extra,
        )
    }

    fn start_in(world: &Path, extra: &[&str]) -> Server {
        let mut child = common::command()
            .arg("serve")
            .arg("--world")
            .arg(world)
            .args(["--workers", "2"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("codemode serve starts");
        let lines = common::lines_of(child.stdout.take().unwrap());
        let stdin = child.stdin.take();
        let mut server = Server {
            child,
            stdin,
            lines,
        };
        server.send_line(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"}}})
            .to_string(),
        );
        let init = server.next();
        assert_eq!(init["id"], 0, "{init}");
        server.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    fn send_line(&mut self, line: &str) {
        let mut frame = line.as_bytes().to_vec();
        frame.push(b'\n');
        self.send_bytes(&frame);
    }

    /// Writes `bytes` as they are (no newline added).
    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next message, which must be a JSON-RPC error with a null id and `code`.
    fn error_reply(&mut self, code: i64) -> Value {
        let reply = self.next();
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert_eq!(reply["id"], Value::Null, "{reply}");
        reply
    }

    /// The next stdout line, which must be one JSON-RPC message.
    fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answered within 30 s");
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
        assert_eq!(value["jsonrpc"], "2.0", "not a JSON-RPC message: {line}");
        value
    }

    /// The response to request `id` (skipping notifications).
    fn response(&mut self, id: i64) -> Value {
        loop {
            let msg = self.next();
            if msg["id"] == id {
                return msg;
            }
            assert!(msg.get("method").is_some(), "unexpected message {msg}");
        }
    }

    fn response_to(&mut self, id: i64, method: &str) -> Value {
        self.send_line(&json!({"jsonrpc": "2.0", "id": id, "method": method}).to_string());
        self.response(id)
    }

    /// Sends a `tool_exec` call without waiting for its answer.
    fn start_exec(&mut self, id: i64, script: &str) {
        self.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "tool_exec", "arguments": {"script": script}}})
            .to_string(),
        );
    }

    /// Fills both VMs (`--workers 2`) with endless loops, as calls 1 and 2.
    fn stick_both_vms(&mut self) {
        for id in [1, 2] {
            self.start_exec(id, "while true do end");
        }
        std::thread::sleep(Duration::from_millis(300));
    }

    fn call(&mut self, id: i64, name: &str, arguments: Value) -> Value {
        self.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}})
            .to_string(),
        );
        self.response(id)
    }

    fn exec(&mut self, id: i64, script: &str) -> Value {
        let response = self.call(id, "tool_exec", json!({ "script": script }));
        response["result"]["structuredContent"].clone()
    }

    /// The server still runs a plain script.
    fn assert_serving(&mut self, id: i64) {
        let env = self.exec(id, "return 40 + 2");
        assert_eq!(env["value"], 42, "the server stopped serving: {env}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_line_that_is_not_json_gets_a_parse_error_and_serving_goes_on() {
    let mut s = Server::start(&[]);
    for garbage in [
        "this is not json {",
        "{\"jsonrpc\": \"2.0\", \"id\": ",
        "}{",
        "nul",
    ] {
        s.send_line(garbage);
        let reply = s.error_reply(-32700);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("Parse error: "), "{garbage}: {message}");
    }
    s.assert_serving(1);
}

#[test]
fn a_line_that_is_not_utf8_gets_a_parse_error_and_the_next_line_is_answered() {
    let mut s = Server::start(&[]);
    s.send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xFFng\"}\n");
    s.send_line(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    let reply = s.error_reply(-32700);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Parse error: ") && message.contains("UTF-8"),
        "{message}"
    );
    // The bad line's request was not run, so the next message answers the ping.
    let pong = s.next();
    assert_eq!(pong["id"], 2, "{pong}");
    assert_eq!(pong["result"], json!({}));
    s.send_bytes(b"\xC3\x28\r\n");
    s.error_reply(-32700);
    s.assert_serving(3);
}

#[test]
fn a_last_message_without_newline_is_answered_before_the_server_exits() {
    let mut s = Server::start(&[]);
    s.send_bytes(
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "tool_exec", "arguments": {"script": "return 40 + 2"}}})
        .to_string()
        .as_bytes(),
    );
    drop(s.stdin.take());
    let reply = s.response(5);
    assert_eq!(reply["result"]["structuredContent"]["value"], 42, "{reply}");
    let started = Instant::now();
    while s.child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the server kept running after stdin ended"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn a_last_line_that_is_not_json_is_answered_before_the_server_exits() {
    let mut s = Server::start(&[]);
    s.send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":");
    drop(s.stdin.take());
    s.error_reply(-32700);
}

#[test]
fn an_over_long_line_gets_a_parse_error_and_serving_goes_on() {
    let mut s = Server::start(&[]);
    let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#.to_vec();
    line.resize(17 * 1024 * 1024, b'x');
    line.extend_from_slice(b"\"}}\n");
    s.send_bytes(&line);
    let reply = s.error_reply(-32700);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("longer than"), "{message}");
    s.assert_serving(2);
}

#[test]
fn json_that_is_not_a_request_gets_invalid_request() {
    let mut s = Server::start(&[]);
    s.send_line(r#"{"foo": 1}"#);
    let reply = s.next();
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    s.send_line("[1, 2, 3]");
    let reply = s.next();
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    s.assert_serving(2);
}

#[test]
fn unknown_method_is_named_in_the_error() {
    let mut s = Server::start(&[]);
    s.send_line(r#"{"jsonrpc":"2.0","id":7,"method":"tools/explode","params":{}}"#);
    let reply = s.response(7);
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("tools/explode") && message.contains("tools/call"),
        "{message}"
    );
    s.assert_serving(8);
}

#[test]
fn malformed_tools_call_params_say_what_shape_is_expected() {
    let mut s = Server::start(&[]);
    s.send_line(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}"#);
    let reply = s.response(3);
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("arguments"),
        "{reply}"
    );
    s.send_line(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call"}"#);
    assert_eq!(s.response(4)["error"]["code"], -32602);
    s.assert_serving(5);
}

#[test]
fn unknown_tool_is_a_protocol_error_naming_the_tools() {
    let mut s = Server::start(&[]);
    let reply = s.call(1, "rm_rf", json!({}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(reply["error"]["message"]
        .as_str()
        .unwrap()
        .contains("tool_exec"));
    s.assert_serving(2);
}

#[test]
fn missing_and_mistyped_arguments_are_tool_errors() {
    let mut s = Server::start(&[]);
    for (id, args) in [
        (1, json!({})),
        (2, json!({"script": ["return 1"]})),
        (3, json!({"script": null})),
    ] {
        let reply = s.call(id, "tool_exec", args);
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("\"script\""), "{text}");
    }
    let reply = s.call(4, "search_tools", json!({"query": 3}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let reply = s.call(5, "search_tools", json!({"query": "x", "colour": "red"}));
    assert!(reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("colour"));
    let reply = s.call(6, "search_tools", json!({"query": "x", "toolbox": "nobox"}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("search_tools: ") && text.contains("nobox") && !text.contains("line"),
        "{text}"
    );
    let reply = s.call(7, "search_tools", json!({}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("got no query argument"), "{text}");
    s.assert_serving(8);
}

#[test]
fn script_errors_are_tool_results_with_is_error() {
    let mut s = Server::start(&[]);
    let reply = s.call(1, "tool_exec", json!({"script": "error('boom')"}));
    let result = &reply["result"];
    assert_eq!(result["isError"], true, "{reply}");
    assert_eq!(result["structuredContent"]["ok"], false);
    assert_eq!(result["structuredContent"]["error"]["kind"], "runtime");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        &text, &result["structuredContent"],
        "text and structured content differ"
    );
}

#[test]
fn printing_scripts_never_write_to_stdout() {
    let mut s = Server::start(&[]);
    let env = s.exec(
        1,
        "for i = 1, 50 do print('line', i) end io = nil return 'done'",
    );
    assert_eq!(env["value"], "done");
    assert!(env["stdout"].as_str().unwrap().contains("line\t50"));
    // Every line read so far parsed as JSON-RPC (Server::next checks each one).
    s.assert_serving(2);
}

#[test]
fn a_script_over_the_size_cap_is_refused_clearly() {
    let mut s = Server::start(&[]);
    let script = format!("return '{}'", "x".repeat(10 * 1024 * 1024));
    let env = s.exec(1, &script);
    assert_eq!(env["ok"], false);
    let message = env["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most"), "{message}");
    s.assert_serving(2);
}

#[test]
fn hundred_queued_calls_all_answer() {
    let mut s = Server::start(&[]);
    for id in 1..=100 {
        s.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "tool_exec", "arguments": {"script": format!("return {id}")}}})
            .to_string(),
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < 100 {
        let msg = s.next();
        let id = msg["id"].as_i64().expect("a response");
        assert_eq!(msg["result"]["structuredContent"]["value"], id, "{msg}");
        seen.insert(id);
    }
}

#[test]
fn closing_stdin_mid_call_ends_the_server_without_waiting_for_the_script() {
    let mut s = Server::start(&["--timeout-ms", "60000"]);
    s.start_exec(1, "while true do end");
    std::thread::sleep(Duration::from_millis(300));
    drop(s.stdin.take());
    let started = Instant::now();
    loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the server kept running after its client left"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn with_every_vm_stuck_in_a_script_the_server_still_answers() {
    // Scripts run on the server's own async threads; one thread more than VMs keeps it
    // answering while both VMs (--workers 2) spin until a deadline a minute away.
    let mut s = Server::start(&["--timeout-ms", "60000"]);
    s.stick_both_vms();
    let started = Instant::now();
    for id in 3..13 {
        assert_eq!(s.response_to(id, "ping")["result"], json!({}));
        let listed = s.response_to(id + 100, "tools/list");
        assert!(listed["result"]["tools"].as_array().is_some(), "{listed}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "answers waited for the stuck scripts"
    );
}

#[test]
fn a_long_script_never_holds_up_the_next_message() {
    // Scripts run on the server's async threads; one busy for seconds must not keep the
    // others from reading stdin. Several rounds, since which thread was reading varies.
    let mut s = Server::start(&[]);
    let long = "local t = os.clock() while os.clock() - t < 1.5 do end return 1";
    for round in 0..4 {
        let id = 10 * round;
        s.start_exec(id, long);
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        assert_eq!(s.response_to(id + 1, "ping")["result"], json!({}));
        s.assert_serving(id + 2);
        assert!(
            started.elapsed() < Duration::from_millis(700),
            "round {round}: ping and a short call waited {:?} for the long script",
            started.elapsed()
        );
        assert_eq!(s.response(id)["result"]["structuredContent"]["value"], 1);
    }
}

#[test]
fn cancelling_a_running_call_stops_its_script_and_frees_its_vm() {
    let mut s = Server::start(&["--timeout-ms", "60000"]);
    s.stick_both_vms();
    for id in [1, 2] {
        s.send_line(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "the user pressed stop"}})
            .to_string(),
        );
    }
    // Both VMs were stuck until a deadline a minute away; only the cancellation frees them.
    let started = Instant::now();
    s.assert_serving(3);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the cancelled scripts kept their VMs"
    );
}

#[test]
fn exposed_calls_are_bound_by_the_binder_and_cancellable() {
    let world = tempfile::tempdir().unwrap();
    let tool = world.path().join("box.toolbox/fmt.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "local function fmt(text: string, opts: { sep: string?, spin: boolean? }?): string\n\tif opts and opts.spin then\n\t\twhile true do end\n\tend\n\treturn text .. ((opts and opts.sep) or '-')\nend\nreturn fmt\n",
    )
    .unwrap();
    let mut s = Server::start_in(
        world.path(),
        &["--expose-tools", "--no-bundled", "--timeout-ms", "60000"],
    );
    // A field of the options table may be given by its own name, as tools.bind takes it.
    let reply = s.call(1, "box__fmt", json!({"text": "a", "sep": "+"}));
    assert_eq!(
        reply["result"]["structuredContent"]["value"], "a+",
        "{reply}"
    );
    let reply = s.call(2, "box__fmt", json!({"text": "a", "opts": {"sepp": "+"}}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("\"opts\"") && text.contains("sepp"), "{text}");
    // Two endless calls fill both VMs; cancelling them frees the VMs at once.
    for id in [3, 4] {
        s.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "box__fmt", "arguments": {"text": "a", "spin": true}}})
            .to_string(),
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    for id in [3, 4] {
        s.send_line(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "stop"}})
            .to_string(),
        );
    }
    let started = Instant::now();
    s.assert_serving(5);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the cancelled calls kept their VMs"
    );
}

#[test]
fn search_tools_answers_rows_with_signatures_as_json_text_matching_its_output_schema() {
    let mut s = Server::start(&[]);
    let listed = s.response_to(1, "tools/list");
    let declared = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "search_tools")
        .unwrap()["outputSchema"]
        .clone();
    let validator = jsonschema::validator_for(&declared).expect("a valid output schema");
    for (id, query) in [(2, "slug url"), (3, "zzqx qqvv"), (4, "")] {
        let reply = s.call(
            id,
            "search_tools",
            json!({"query": query, "mode": "keyword"}),
        );
        let result = &reply["result"];
        assert_eq!(result["isError"], false, "{reply}");
        let structured = &result["structuredContent"];
        // The text content is the structured content's JSON, as tool_exec's is.
        let text: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(&text, structured, "{query}");
        assert!(validator.is_valid(structured), "{query}: {structured}");
        let rows = structured["value"].as_array().unwrap();
        for row in rows.iter().filter(|r| r["kind"] == "tool") {
            assert!(row["signature"].is_string(), "{query}: {row}");
        }
        match query {
            "slug url" => {
                assert_eq!(rows[0]["identity"], "text.slugify", "{structured}");
                let p = rows[0]["p"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&p), "{structured}");
            }
            // Nothing fits: no rows, and a note that says so.
            "zzqx qqvv" => {
                assert!(rows.is_empty(), "{structured}");
                assert!(structured["note"].is_string(), "{structured}");
            }
            _ => assert!(rows.len() > 1, "{structured}"),
        }
    }
}

#[test]
fn search_tools_checks_its_arguments_as_tools_search_does() {
    let mut s = Server::start(&[]);
    for (id, limit, shown) in [
        (1, json!(0), "0"),
        (2, json!(101), "101"),
        (3, json!(2.5), "2.5"),
    ] {
        let reply = s.call(id, "search_tools", json!({"query": "x", "limit": limit}));
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            text,
            format!("search_tools: limit must be a whole number from 1 to 100, got {shown}")
        );
    }
    let reply = s.call(4, "search_tools", json!({"query": "x", "mode": "fuzzy"}));
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "search_tools: mode must be \"keyword\" or \"semantic\" (by words, or by meaning: the default), got 'fuzzy'"
        ),
        "{text}"
    );
    let reply = s.call(
        5,
        "search_tools",
        json!({"query": "x", "toolbox": "no such"}),
    );
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("search_tools: toolbox must be a toolbox name"),
        "{text}"
    );
    let reply = s.call(
        6,
        "search_tools",
        json!({"query": "", "limit": 100, "toolbox": ""}),
    );
    assert_eq!(reply["result"]["isError"], false, "{reply}");
    assert!(
        reply["result"]["structuredContent"]["total"]
            .as_u64()
            .unwrap()
            >= 1,
        "{reply}"
    );
    s.assert_serving(7);
}

#[test]
fn an_exposed_tool_broken_on_disk_says_why_it_cannot_be_called() {
    let world = tempfile::tempdir().unwrap();
    let tool = world.path().join("box.toolbox/echo.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "return function(s: string) return (\n",
    )
    .unwrap();
    let mut s = Server::start_in(world.path(), &["--expose-tools", "--no-bundled"]);
    let reply = s.call(1, "box__echo", json!({"s": "x"}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("cannot be called now") && text.contains("does not compile"),
        "{text}"
    );
}

#[test]
fn an_exposed_tool_takes_its_trailing_values_as_an_array() {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/types");
    let mut s = Server::start_in(&world, &["--expose-tools", "--no-bundled"]);
    let listed = s.response_to(1, "tools/list");
    let sum = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "kinds__sum")
        .unwrap_or_else(|| panic!("kinds__sum is not listed: {listed}"));
    let schema = &sum["inputSchema"];
    assert_eq!(schema["required"], json!(["first"]), "{schema}");
    assert_eq!(
        schema["properties"]["..."]["items"],
        json!({"type": "number"}),
        "{schema}"
    );
    let reply = s.call(2, "kinds__sum", json!({"first": 1, "...": [2, 3]}));
    assert_eq!(reply["result"]["structuredContent"]["value"], 6, "{reply}");
    let reply = s.call(3, "kinds__sum", json!({"first": 1, "...": 2}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("must be an array"), "{text}");
    let reply = s.call(4, "kinds__choose", json!({"mode": "fast", "...": [1]}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
}

#[test]
fn http_on_a_non_loopback_address_is_refused_without_allow_remote() {
    let out = common::command()
        .args(["serve", "--http", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--allow-remote") && err.contains("loopback"),
        "{err}"
    );
}

#[test]
fn example_client_configs_start_codemode_serve() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/mcp");
    for file in [
        "claude-desktop/claude_desktop_config.json",
        "cursor/.cursor/mcp.json",
        "claude-code/.mcp.json",
    ] {
        let text = std::fs::read_to_string(examples.join(file)).unwrap();
        let config: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let entry = &config["mcpServers"]["codemode"];
        assert_eq!(entry["command"], "codemode", "{file}");
        let args: Vec<String> = entry["args"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: args"))
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        assert_eq!(args[0], "serve", "{file}");
        // The world placeholder (a path or a client variable) stands where --world's value goes.
        let at = args.iter().position(|a| a == "--world").expect("--world") + 1;
        let mut args = args.clone();
        args[at] = world.display().to_string();
        let out = common::command()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                let mut stdin = child.stdin.take().unwrap();
                writeln!(
                    stdin,
                    r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"cfg","version":"1"}}}}}}"#
                )?;
                drop(stdin);
                child.wait_with_output()
            })
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("\"serverInfo\""),
            "{file}: {stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn serve_survives_hostile_tool_files_and_attack_scripts() {
    let world = tempfile::tempdir().unwrap();
    let fine = world.path().join("evil.toolbox/fine.tool");
    std::fs::create_dir_all(&fine).unwrap();
    std::fs::write(
        fine.join("init.luau"),
        "--!desc Doubles.\n--!arg n number A number.\nlocal function fine(n: number): number\n\treturn n * 2\nend\nreturn fine\n",
    )
    .unwrap();
    let mut s = Server::start_in(
        world.path(),
        &[
            "--expose-tools",
            // Long enough for the planting script on a loaded machine; each attack still
            // ends at it.
            "--timeout-ms",
            "2000",
            "--max-output-bytes",
            "65536",
        ],
    );
    // A script plants files built to crash the parsers, then lists, types and searches.
    let planted = s.exec(
        1,
        r#"
        local n = 40000
        vfs.write("evil.toolbox/q.tool/init.luau", "local function q(x: string" .. string.rep("?", n) .. ") end\nreturn q\n")
        vfs.write("evil.toolbox/g.tool/init.luau", "local function g(x: A" .. string.rep("<A", 300000) .. ") end\nreturn g\n")
        vfs.write("evil.toolbox/c.tool/init.luau", "local function c(x: café)\n\treturn x\nend\nreturn c\n")
        vfs.write("evil.toolbox/d.tool/init.luau", "--!arg x string" .. string.rep("?", n) .. " X.\nlocal function d(x)\n\treturn x\nend\nreturn d\n")
        vfs.write("evil.toolbox/t.tool/init.luau", "function t(n:dé")
        local rows = tools.list(3, "evil").value
        tools.search("double a number")
        return #rows
        "#,
    );
    assert_eq!(planted["value"], 6, "{planted}");
    let attacks = [
        "table.move({}, 1, 2^31 - 2, 2)",
        "local t = string.split(string.rep('c,a,b,', 2^20), ',') table.sort(t)",
        "return loadstring(string.rep('a.b.c = x + 1\\n', 140000))",
        "error(string.rep('E', 20 * 2^20), 0)",
        "return tools[string.rep('n', 2^24)]",
        "local s = string.rep('a', 2^20) return string.find(s, string.rep('a', 2^14) .. 'b', 1, true)",
        "math.randomseed(1) return tools.list(3).value",
    ];
    for (i, attack) in attacks.iter().enumerate() {
        let id = 10 + 2 * i as i64;
        let response = s.call(id, "tool_exec", json!({ "script": attack }));
        let text = response.to_string();
        assert!(
            text.len() < 200 * 1024,
            "reply of {} bytes to {attack}",
            text.len()
        );
        if i == 0 {
            let error = &response["result"]["structuredContent"]["error"];
            assert_eq!(error["limit"], "deadline", "{response}");
            let hint = error["hint"].as_str().unwrap();
            assert!(hint.contains("the server's --timeout-ms"), "{hint}");
        }
        let env = s.exec(id + 1, "return tools.evil.fine(21)");
        assert_eq!(env["value"], 42, "after {attack}: {env}");
    }
    // The exposed tools list (schemas of every tool, hostile ones included) still answers,
    // and the good tool is callable directly.
    let listed = s.response_to(100, "tools/list");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"evil__fine"), "{names:?}");
    let reply = s.call(101, "evil__fine", json!({"n": 4}));
    assert_eq!(reply["result"]["isError"], false, "{reply}");
    s.assert_serving(102);
}

#[test]
fn a_script_that_adds_many_tools_is_few_list_changed_notifications() {
    let world = tempfile::tempdir().unwrap();
    let mut server = Server::start_in(world.path(), &["--expose-tools", "--no-bundled"]);
    let made = server.exec(
        1,
        "return tools.createToolbox({ name = 'many', description = 'Many.' }).ok",
    );
    assert_eq!(made["value"], true, "{made}");
    server.start_exec(
        2,
        "for i = 1, 60 do\n\tassert(tools.create({ toolbox = 'many', name = 't' .. i, \
         description = 'One.', code = 'return 1' }).ok)\nend\nreturn true",
    );
    let mut notified = 0;
    loop {
        let msg = server.next();
        if msg["id"] == 2 {
            assert_eq!(msg["result"]["structuredContent"]["value"], true, "{msg}");
            break;
        }
        notified += usize::from(msg["method"] == "notifications/tools/list_changed");
    }
    // The last change is told once the list has been quiet a moment: wait past that, then
    // read up to the answer of one more request.
    std::thread::sleep(Duration::from_millis(1500));
    server.start_exec(3, "return 1");
    loop {
        let msg = server.next();
        notified += usize::from(msg["method"] == "notifications/tools/list_changed");
        if msg["id"] == 3 {
            break;
        }
    }
    assert!(
        (1..=20).contains(&notified),
        "60 tools created in one script sent {notified} tools/list_changed"
    );
}

#[test]
fn list_changed_is_sent_as_soon_as_a_script_adds_a_tool() {
    let world = tempfile::tempdir().unwrap();
    let mut server = Server::start_in(world.path(), &["--expose-tools", "--no-bundled"]);
    let made = server.exec(
        1,
        "return tools.createToolbox({ name = 'mine', description = 'Mine.' }).ok",
    );
    assert_eq!(made["value"], true, "{made}");
    let sent = Instant::now();
    server.start_exec(
        2,
        "local made = tools.create({ toolbox = 'mine', name = 'shout', description = 'Shout.', \
         args = { { name = 'text', type = 'string' } }, code = 'return string.upper(text)' })
         return made.ok",
    );
    let (mut answered, mut notified) = (None, None);
    while answered.is_none() || notified.is_none() {
        let msg = server.next();
        if msg["id"] == 2 {
            answered = Some(msg);
        } else if msg["method"] == "notifications/tools/list_changed" {
            notified = Some(sent.elapsed());
        }
    }
    let answered = answered.unwrap();
    assert_eq!(
        answered["result"]["structuredContent"]["value"], true,
        "{answered}"
    );
    // The change signal wakes the notifier; a poll would leave up to its period between.
    let notified = notified.unwrap();
    assert!(
        notified < Duration::from_secs(1),
        "tools/list_changed came {notified:?} after the script that added the tool"
    );
    let listed = server.response_to(3, "tools/list");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"mine__shout"), "{names:?}");
}

#[test]
fn a_fresh_servers_first_script_is_checked_before_it_acts() {
    // The first script reaches the server while its checker starts and loads the
    // declarations: it waits for them rather than act unchecked.
    for round in 0..3 {
        let world = tempfile::tempdir().unwrap();
        let mut s = Server::start_in(world.path(), &[]);
        let envelope = s.exec(
            1,
            "vfs.write('out.txt', 'hello')\nreturn tools.text.slugfy('x')",
        );
        assert_eq!(
            envelope["error"]["kind"], "type",
            "round {round}: {envelope}"
        );
        assert!(
            !world.path().join("out.txt").exists(),
            "round {round}: the refused script wrote its file"
        );
    }
}
