//! A world of 50,000 tools (1,000 toolboxes of 50) lists, gets, searches and calls in
//! one process and under `serve`, run after run, with the index updated between runs.
//! (Listing once overflowed a stack from about 2,000 tools.)

use super::common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

use crate::registry::Registry;
use crate::{Limits, Output, Runtime};
use serde_json::{json, Value};

const TOOLS: usize = 50_000;

fn write_world(dir: &Path) {
    for i in 0..TOOLS {
        let name = format!("op{i}");
        let folder = dir.join(format!("box{}.toolbox/{name}.tool", i / 50));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("init.luau"),
            format!(
                "--!desc Handle the record number {i} of topic t{}.\n--!arg id string Which record.\n--!return string The id, echoed.\nlocal function {name}(id: string): string\n\treturn id\nend\n\nreturn {name}\n",
                i % 97
            ),
        )
        .unwrap();
    }
}

const SCRIPT: &str = r#"
local listed = tools.list().value
local tier2 = tools.list(2, "box999")
local got = tools.get("box123.op6150")
local found = tools.search("record number 6150")
local keyword = tools.search("op6150", { mode = "keyword" })
return {
    count = #listed,
    tier2 = #tier2.value,
    got = got ~= nil and got.name,
    semantic = found.value[1] ~= nil,
    keyword = keyword.value[1] and keyword.value[1].identity,
    call = tools.box123.op6150("x"),
    fresh = tools.get("box0.fresh") ~= nil,
}
"#;

#[test]
fn fifty_thousand_tools_in_one_process_run_after_run() {
    let world = common::World::new();
    write_world(world.path());
    let registry = Arc::new(Registry::open(world.path(), &[], false).unwrap());
    // Debug builds index 50,000 tools slowly; the deadline is not what this test is about.
    let limits = Limits {
        timeout: std::time::Duration::from_secs(600),
        ..Limits::default()
    };
    let mut runtime = Runtime::new(registry.clone(), limits).unwrap();
    for round in 0..3 {
        let envelope = runtime.exec(SCRIPT, Output::Capture);
        let v = envelope.value.clone().unwrap_or(Value::Null);
        assert_eq!(v["count"], TOOLS + round, "{}", envelope.to_json());
        assert_eq!(v["tier2"], 50);
        assert_eq!(v["got"], "op6150");
        assert_eq!(v["semantic"], true);
        assert_eq!(v["keyword"], "box123.op6150");
        assert_eq!(v["call"], "x");
        assert_eq!(v["fresh"], round > 0);
        // Change the world between runs: a new tool, then an edit of it.
        let fresh = world.path().join("box0.toolbox/fresh.tool/init.luau");
        std::fs::create_dir_all(fresh.parent().unwrap()).unwrap();
        std::fs::write(
            &fresh,
            format!("--!desc Fresh tool, version {round}.\nreturn function() return {round} end\n"),
        )
        .unwrap();
        registry.apply_changes(std::slice::from_ref(&fresh));
        if round == 1 {
            // The next listing has one more tool.
            let extra = world.path().join("box1.toolbox/extra.tool/init.luau");
            std::fs::create_dir_all(extra.parent().unwrap()).unwrap();
            std::fs::write(&extra, "return function() return 1 end\n").unwrap();
            registry.apply_changes(&[extra]);
        }
    }
}

#[test]
fn fifty_thousand_tools_under_serve_run_after_run() {
    let world = common::World::new();
    write_world(world.path());
    let mut child = common::command()
        .args(["serve", "--no-bundled", "--timeout-ms", "600000", "--world"])
        .arg(world.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut send = |msg: Value| {
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "scale", "version": "1"}}}),
    );
    let mut next = move || -> Value {
        let line = lines.next().unwrap().unwrap();
        serde_json::from_str(&line).unwrap()
    };
    assert_eq!(next()["id"], 0);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for round in 0..3 {
        let id = 1 + 2 * round;
        send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "tool_exec", "arguments": {"script": SCRIPT}}}));
        let reply = next();
        let v = &reply["result"]["structuredContent"]["value"];
        assert_eq!(v["count"], TOOLS + usize::from(round > 0), "{reply}");
        assert_eq!(v["keyword"], "box123.op6150", "{reply}");
        assert_eq!(v["call"], "x", "{reply}");
        assert_eq!(v["fresh"], round > 0, "{reply}");
        // A script changes the world; the next run sees it.
        let edit = format!(
            "vfs.write('box0.toolbox/fresh.tool/init.luau', '--!desc Fresh, round {round}.\\nreturn function() return {round} end\\n') return true"
        );
        send(
            json!({"jsonrpc": "2.0", "id": id + 1, "method": "tools/call",
            "params": {"name": "tool_exec", "arguments": {"script": edit}}}),
        );
        let reply = next();
        assert_eq!(reply["result"]["structuredContent"]["ok"], true, "{reply}");
        send(
            json!({"jsonrpc": "2.0", "id": 100 + id, "method": "tools/call",
            "params": {"name": "search_tools", "arguments": {"query": "record number 77"}}}),
        );
        let reply = next();
        assert_eq!(reply["result"]["isError"], false, "{reply}");
    }
    let _ = child.kill();
    let _ = child.wait();
}
