//! An MCP server someone else wrote, with names and replies nobody here would choose
//! (`tests/upstream/fixture_server.py odd`, configured as `odd-server`): replies that are
//! JSON but not JSON-RPC fail their call at once, a slow start names the waiting call,
//! the server answers to its configured name on the command line, a tool without an
//! input schema leaves the others standing, and docs and export handle its tools.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use servers::*;

fn run(world: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = common::codemode(world, args, stdin);
    (
        common::text(&out.stdout),
        common::text(&out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

/// A world with the odd server, synced by its configured name.
fn odd_world() -> tempfile::TempDir {
    let dir = world(json!({ "odd-server": fixture_server("odd", &[]) }));
    let (out, err, code) = run(dir.path(), &["mcp", "sync", "odd-server"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("odd_server: 7 tools"), "{out}");
    // The tool without an input schema is kept, and named.
    assert!(
        out.contains("note: 'noschema' has no inputSchema; it takes any arguments, unchecked"),
        "{out}"
    );
    dir
}

fn exec(world: &Path, timeout_ms: &str, script: &str) -> Value {
    // Unchecked: the errors asserted are the runtime's, which a script meets whenever
    // the type checker is off or cannot see the name (a computed key).
    let (out, err, _) = run(
        world,
        &["--check", "off", "--timeout-ms", timeout_ms, "exec"],
        script,
    );
    serde_json::from_str(&out).unwrap_or_else(|_| panic!("an envelope: {out}{err}"))
}

#[test]
fn replies_that_are_json_but_not_json_rpc_fail_the_call_at_once() {
    let _serial = serial();
    let dir = odd_world();
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let bad = [
        r#"{"jsonrpc":"2.0","id":ID,"result":{"content":[]},"error":{"code":1,"message":"x"}}"#
            .to_string(),
        r#"{"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text","text":"\ud800"}]}}"#
            .to_string(),
        format!(
            r#"{{"jsonrpc":"2.0","id":ID,"result":{{"content":[],"structuredContent":{{"x":{deep}}}}}}}"#
        ),
        r#"{"jsonrpc":"2.0","id":ID,"result":{"content":[]}} and more"#.to_string(),
        r#"{"foo":1}"#.to_string(),
        "[1,2]".to_string(),
    ];
    let script = format!(
        "local out = {{}}\nfor _, line in {} do\n\tlocal ok, e = pcall(tools.odd_server.raw, {{ line = line }})\n\ttable.insert(out, {{ ok, tostring(e) }})\nend\nreturn out",
        lua_list(&bad)
    );
    let started = Instant::now();
    let envelope = exec(dir.path(), "60000", &script);
    // Each call fails as soon as the reply is read, not at the 60 s deadline.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}: {envelope}",
        started.elapsed()
    );
    let results = envelope["value"].as_array().expect("a list").clone();
    assert_eq!(results.len(), bad.len(), "{envelope}");
    for (line, result) in bad.iter().zip(&results) {
        assert_eq!(result[0], false, "{line}: {result}");
        let message = result[1].as_str().unwrap();
        assert!(
            message.contains("MCP server 'odd_server' broke the protocol"),
            "{line}: {message}"
        );
        assert!(message.contains("odd_server.raw"), "{line}: {message}");
        assert!(message.contains("not a JSON-RPC"), "{line}: {message}");
    }
    // A reply with an id leaves the connection up; one without closes it, and the next
    // call starts the server again.
    let after = exec(
        dir.path(),
        "20000",
        "return tools.odd_server.echo({ a = 1 })",
    );
    assert_eq!(
        after["value"], r#"{"tool": "echo", "args": {"a": 1}}"#,
        "{after}"
    );
}

fn lua_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("[==[{s}]==]")).collect();
    format!("{{ {} }}", quoted.join(", "))
}

#[test]
fn a_deadline_passed_while_a_server_starts_names_the_waiting_call() {
    let _serial = serial();
    let mut slow = fixture_server("odd", &[]);
    let args: Vec<String> = serde_json::from_value(slow["args"].clone()).unwrap();
    slow["command"] = json!("sh");
    slow["args"] = json!(["-c", format!("sleep 3; exec python3 '{}' odd", args[0])]);
    let dir = world(json!({ "slow-start": slow }));
    let (out, err, code) = run(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{out}{err}");
    let started = Instant::now();
    let envelope = exec(dir.path(), "1500", "return tools.slow_start.echo({})");
    assert!(started.elapsed() < Duration::from_secs(3), "{envelope}");
    assert_eq!(envelope["error"]["kind"], "timeout", "{envelope}");
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the script ran past its deadline of 1500 ms: tools.slow_start.echo (MCP server 'slow_start' was still starting or connecting)"),
        "{message}"
    );
}

#[test]
fn the_configured_name_works_on_the_command_line_and_scripts_are_pointed_to_the_toolbox() {
    let _serial = serial();
    let dir = odd_world();
    let (out, err, code) = run(dir.path(), &["list", "3", "odd-server"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("tools.odd_server.getThing(args: {}?): any"),
        "{out}"
    );
    let (out, err, code) = run(dir.path(), &["call", "odd-server.echo", "{\"b\": 2}"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#"\"b\": 2"#), "{out}");
    // The tool as the server names it, too.
    let (out, err, code) = run(dir.path(), &["call", "odd-server.getThing"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("getThing"), "{out}");
    let (_, err, code) = run(dir.path(), &["call", "odd_servr.echo"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did you mean odd_server?"), "{err}");
    let (_, err, code) = run(dir.path(), &["mcp", "sync", "nope"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("no MCP server named 'nope' is configured; the configured ones are odd-server (toolbox odd_server)"),
        "{err}"
    );
    let by_name = exec(dir.path(), "20000", "return tools['odd-server'].echo({})");
    let hint = by_name["error"]["hint"].as_str().unwrap_or_default();
    assert!(
        hint.starts_with("MCP server 'odd-server' is the toolbox tools.odd_server"),
        "{by_name}"
    );
    let typo = exec(dir.path(), "20000", "return tools.odd_servr.echo({})");
    let hint = typo["error"]["hint"].as_str().unwrap_or_default();
    assert!(hint.starts_with("did you mean tools.odd_server?"), "{typo}");
    // The tool without a schema is callable.
    let called = exec(dir.path(), "20000", "return tools.odd_server.noschema({})");
    assert_eq!(called["ok"], true, "{called}");
    // tools.callable says so in both spellings, and nil for a tool the server lacks.
    let asked = exec(
        dir.path(),
        "20000",
        "return { tools.callable('odd_server.echo'), tools.callable('odd_server', 'echo'), tools.callable('odd_server.nope') or 'nil' }",
    );
    assert_eq!(
        asked["value"],
        serde_json::json!(["odd_server.echo", "odd_server.echo", "nil"]),
        "{asked}"
    );
}

#[test]
fn docs_give_odd_tool_names_folders_of_their_own_and_export_names_what_it_leaves_out() {
    let _serial = serial();
    let dir = odd_world();
    let out = tempfile::tempdir().unwrap();
    let (stdout, err, code) = run(
        dir.path(),
        &[
            "docs",
            "--out",
            out.path().to_str().unwrap(),
            "--no-bundled",
        ],
        "",
    );
    assert_eq!(code, 0, "{stdout}{err}");
    let server = out.path().join("odd-server");
    for folder in ["tool", "get-thing", "get-thing-2", "echo", "noschema"] {
        assert!(
            server.join(folder).join("TOOL.md").is_file(),
            "{folder}: {stdout}"
        );
    }
    assert!(!server.join("TOOL.md").exists());
    let skill = std::fs::read_to_string(server.join("SKILL.md")).unwrap();
    assert!(skill.contains("](tool/TOOL.md)"), "{skill}");
    assert!(!skill.contains("](/TOOL.md)"), "{skill}");
    let file = out.path().join("tools.json");
    let (_, err, code) = run(
        dir.path(),
        &["registry", "export", "--out", file.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "skipped odd_server.echo: a tool of MCP server 'odd-server', no file to point at"
        ),
        "{err}"
    );
}

#[test]
fn an_mcp_config_file_with_no_servers_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("c1.json");
    std::fs::write(&file, r#"{"servers": {}}"#).unwrap();
    let (out, err, code) = run(
        dir.path(),
        &["--mcp-config", file.to_str().unwrap(), "mcp", "sync"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("no MCP servers configured in {}", file.display())),
        "{out}"
    );
    // Asked to sync one server by name, there is none: that fails.
    let (out, err, code) = run(
        dir.path(),
        &[
            "--mcp-config",
            file.to_str().unwrap(),
            "mcp",
            "sync",
            "nosuch",
        ],
        "",
    );
    assert_eq!(code, 1, "{out}{err}");
}

/// A server list scripts could read (tokens) or rewrite (the commands the next start
/// runs) is not read: one given with --mcp-config inside the world, unless hidden.
#[test]
fn an_mcp_config_file_scripts_can_reach_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let odd = serde_json::to_string(
        &json!({ "mcpServers": { "odd-server": fixture_server("odd", &[]) } }),
    )
    .unwrap();
    std::fs::write(dir.path().join("servers.json"), &odd).unwrap();
    std::fs::create_dir(dir.path().join(".private")).unwrap();
    std::fs::write(dir.path().join(".private/servers.json"), &odd).unwrap();
    // Reached through a symbolic link from outside, it is still the world's file.
    let elsewhere = tempfile::tempdir().unwrap();
    let link = elsewhere.path().join("servers.json");
    std::os::unix::fs::symlink(dir.path().join("servers.json"), &link).unwrap();
    let inside = dir.path().join("servers.json").display().to_string();
    for given in [inside, link.display().to_string()] {
        let (out, err, code) = run(dir.path(), &["--mcp-config", &given, "mcp", "sync"], "");
        let out = format!("{out}{err}");
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains("it is not read: it lies inside the world")
                && out.contains("move it outside the world"),
            "{out}"
        );
        assert!(!out.contains("odd_server: 7 tools"), "{out}");
        let (out, _, _) = run(
            dir.path(),
            &["--mcp-config", &given, "--check", "off", "exec", "-"],
            "return vfs.read('servers.json')",
        );
        assert!(out.contains("odd-server"), "scripts can read it: {out}");
    }
    let hidden = dir
        .path()
        .join(".private/servers.json")
        .display()
        .to_string();
    let (out, err, code) = run(dir.path(), &["--mcp-config", &hidden, "mcp", "sync"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("odd_server: 7 tools"), "{out}");
    assert!(!out.contains("is not read"), "{out}");
}

/// Luau has one number type: what a server's schema calls an integer is checked before
/// the call is sent, and a second value given to a tool that takes one table is refused,
/// not dropped.
#[test]
fn integer_arguments_and_extra_values_are_refused_before_the_call() {
    let dir = odd_world();
    let fine = exec(
        dir.path(),
        "20000",
        "return tools.odd_server.paged({ page = 2, sizes = { 1, 3 }, ratio = 0.5 })",
    );
    assert_eq!(
        fine["value"], r#"{"tool": "paged", "args": {"page": 2, "ratio": 0.5, "sizes": [1, 3]}}"#,
        "{fine}"
    );
    for (script, named) in [
        (
            "tools.odd_server.paged({ page = 1.5 })",
            "args.page must be a whole number",
        ),
        (
            "tools.odd_server.paged({ sizes = { 1, 2.5 } })",
            "args.sizes[2] must be a whole number",
        ),
        (
            "tools.odd_server.paged({ page = 2 }, 'more')",
            "takes one table of named arguments; it was given 2 values",
        ),
    ] {
        let envelope = exec(dir.path(), "20000", &format!("return {script}"));
        let error = envelope["error"].to_string();
        assert!(error.contains(named), "{script}: {envelope}");
        assert!(
            error.contains("paged("),
            "the hint shows the signature: {error}"
        );
    }
    // Inside tools.parallel, where the call is sent without waiting, the same.
    let envelope = exec(
        dir.path(),
        "20000",
        "return tools.parallel({ function() return tools.odd_server.paged({}, 1, 2) end })",
    );
    let error = envelope["value"][0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("it was given 3 values"), "{envelope}");
}

/// A server list that does not read as JSON is named to the script that misses its
/// toolbox, checked or not: the server it calls may be one added there.
#[test]
fn a_broken_server_list_is_named_where_a_toolbox_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".codemode")).unwrap();
    std::fs::write(
        dir.path().join(".codemode/mcp.json"),
        r#"{"mcpServers": {"memory": {"command": "node", "args": ["x.js"]},}}"#,
    )
    .unwrap();
    let script = "return tools.memory.create_entities({ entities = {} })";
    for check in ["off", "certain"] {
        let (out, err, _) = run(dir.path(), &["--check", check, "exec"], script);
        let envelope: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
        let hint = envelope["error"]["hint"].as_str().unwrap_or_default();
        assert!(
            hint.contains("server list has a problem")
                && hint.contains(".codemode/mcp.json: not valid JSON"),
            "--check {check}: {envelope}"
        );
        assert!(!hint.contains(&dir.path().display().to_string()), "{hint}");
    }
    // A toolbox that exists is not told about it.
    let (out, _, _) = run(dir.path(), &["exec"], "return tools.text.slugify('A b')");
    assert!(out.contains("\"value\":\"a-b\""), "{out}");
}
