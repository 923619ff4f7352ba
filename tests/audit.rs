//! The audit log (`<world>/.codemode/audit.jsonl`, `codemode audit`), driven through the
//! real binary: a call line per tool call (direct, denied, cached, inside
//! `tools.parallel`, from `codemode call`, of an upstream MCP server) and a run line per run, with the fields an
//! operator reads; nothing of what a script passes, prints or raises; no line a script
//! can forge; rotation at the size limit; the file out of the scripts' reach; and what
//! `codemode audit` shows.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use std::path::Path;

use common::{codemode, exec, text, World};
use serde_json::{json, Value};

/// A world with a `.codemode/` folder (so the log is on by default) and two tools:
/// `box.echo(x)` returns "echo:" .. x, `box.boom(x)` raises a message holding x.
fn world() -> World {
    let w = World::new();
    w.tool(
        "box.echo",
        "--!desc Echo text.\n--!arg x string Anything.\n--!return string Tagged.\n\
         local function echo(x: string): string\n\treturn \"echo:\" .. x\nend\n\nreturn echo\n",
    );
    w.tool(
        "box.boom",
        "--!desc Fail.\n--!arg x string Anything.\n--!return string Never.\n\
         local function boom(x: string): string\n\terror(\"boom with \" .. x)\nend\n\nreturn boom\n",
    );
    std::fs::create_dir_all(w.path().join(".codemode")).unwrap();
    w
}

fn log_path(world: &Path) -> std::path::PathBuf {
    world.join(".codemode/audit.jsonl")
}

/// Every line of the log, each parsed (a line that is not one JSON object fails the test).
fn lines(world: &Path) -> Vec<Value> {
    let raw = std::fs::read_to_string(log_path(world)).unwrap_or_default();
    parsed(&raw)
}

fn parsed(raw: &str) -> Vec<Value> {
    raw.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            assert!(v.is_object(), "{l}");
            v
        })
        .collect()
}

fn run_exec(world: &Path, extra: &[&str], script: &str) -> Value {
    let mut args = vec!["--no-bundled"];
    args.extend_from_slice(extra);
    let (envelope, _) = exec(world, &args, script);
    envelope
}

#[test]
fn a_run_writes_a_line_per_tool_call_and_one_for_itself() {
    let w = world();
    let envelope = run_exec(
        w.path(),
        &[],
        r#"local a = tools.box.echo("one")
local b = tools.box.echo("two")
local ok = pcall(tools.box.boom, "three")
assert(not ok)
return a .. b"#,
    );
    assert_eq!(envelope["ok"], true, "{envelope}");
    let lines = lines(w.path());
    assert_eq!(lines.len(), 4, "{lines:#?}");
    let (calls, run) = lines.split_at(3);
    for (line, (identity, outcome)) in calls.iter().zip([
        ("box.echo", "ok"),
        ("box.echo", "ok"),
        ("box.boom", "runtime"),
    ]) {
        assert_eq!(line["kind"], "call", "{line}");
        assert_eq!(line["identity"], identity, "{line}");
        assert_eq!(line["outcome"], outcome, "{line}");
        assert_eq!(line["agent"], "local", "{line}");
        assert_eq!(line["profile"], "default", "{line}");
        assert!(line["ms"].as_f64().unwrap() >= 0.0, "{line}");
        assert!(line.get("cached").is_none(), "{line}");
    }
    // "echo:one" as JSON is 10 bytes; a failed call gave nothing back.
    assert_eq!(calls[0]["bytes"], 10, "{}", calls[0]);
    assert_eq!(calls[2]["bytes"], 0, "{}", calls[2]);
    let run = &run[0];
    assert_eq!(run["kind"], "run", "{run}");
    assert_eq!(run["identity"], "run:exec", "{run}");
    assert_eq!(run["outcome"], "ok", "{run}");
    assert_eq!(run["calls"], 3, "{run}");
    assert_eq!(run["bytes"], json!("echo:oneecho:two").to_string().len());
    for line in &lines {
        assert_eq!(
            line["run"], run["run"],
            "one run id for a run's lines: {line}"
        );
        let time = line["time"].as_str().unwrap();
        let parsed: jiff::Timestamp = time.parse().unwrap_or_else(|e| panic!("{time}: {e}"));
        assert!(time.ends_with('Z'), "UTC: {time}");
        let age = jiff::Timestamp::now().duration_since(parsed);
        assert!(age.as_secs() < 120, "{time} is now");
    }

    // A failed run says how it ended; a second run appends, with its own run id.
    run_exec(w.path(), &[], "error('stop here')");
    let all = self::lines(w.path());
    let last = all.last().unwrap();
    assert_eq!(last["outcome"], "runtime", "{last}");
    assert_eq!(last["calls"], 0, "{last}");
    assert_ne!(last["run"], run["run"]);
    let syntax = run_exec(w.path(), &[], "return (");
    assert_eq!(syntax["error"]["kind"], "syntax", "{syntax}");
    assert_eq!(self::lines(w.path()).last().unwrap()["outcome"], "syntax");
}

#[test]
fn run_and_call_name_their_front_end_and_the_call() {
    let w = world();
    w.file("script.luau", "return tools.box.echo('x')\n");
    let script = w.path().join("script.luau");
    let out = codemode(
        w.path(),
        &["--no-bundled", "run", script.to_str().unwrap()],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = codemode(w.path(), &["--no-bundled", "call", "box.echo", "hello"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown: Vec<(String, String)> = lines(w.path())
        .iter()
        .map(|l| {
            (
                l["identity"].as_str().unwrap().to_string(),
                l["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        ("box.echo", "ok"),
        ("run:run", "ok"),
        ("box.echo", "ok"),
        ("run:call", "ok"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(shown, expected);
}

const POLICY: &str = r#"{ "profiles": {
    "default": { "default": "allow", "deny": ["ops.drop*"] },
    "narrow": { "default": "deny", "allow": ["box.echo"] }
} }"#;

#[test]
fn a_call_the_profile_refuses_is_recorded_as_denied() {
    let w = world();
    w.file(".codemode/policy.json", POLICY);
    w.tool("ops.drop_table", "return function() return 'dropped' end\n");
    let envelope = run_exec(
        w.path(),
        &[],
        // Code that never runs calls nothing, though Luau looks its names up at load.
        "if false then tools.ops.drop_table() end\n\
         local ok, e = pcall(function() return tools.ops.drop_table() end)\nassert(not ok)\n\
         return tools.ops.drop_table()",
    );
    assert_eq!(envelope["error"]["kind"], "denied", "{envelope}");
    let lines = lines(w.path());
    let outcomes: Vec<(&str, &str, &str)> = lines
        .iter()
        .map(|l| {
            (
                l["kind"].as_str().unwrap(),
                l["identity"].as_str().unwrap(),
                l["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("call", "ops.drop_table", "denied"),
            ("call", "ops.drop_table", "denied"),
            ("run", "run:exec", "denied"),
        ]
    );

    // Refused by `codemode call` before anything runs, and under another profile.
    let out = codemode(
        w.path(),
        &[
            "--no-bundled",
            "--profile",
            "narrow",
            "call",
            "box.boom",
            "x",
        ],
        "",
    );
    assert!(!out.status.success());
    let lines = self::lines(w.path());
    let tail = &lines[lines.len() - 2..];
    assert_eq!(
        (&tail[0]["identity"], &tail[0]["outcome"]),
        (&json!("box.boom"), &json!("denied"))
    );
    assert_eq!(
        (&tail[1]["identity"], &tail[1]["outcome"]),
        (&json!("run:call"), &json!("denied"))
    );
    assert!(tail.iter().all(|l| l["profile"] == "narrow"), "{tail:?}");
}

#[test]
fn a_cached_answer_and_calls_inside_tools_parallel_are_recorded() {
    let w = world();
    w.file(
        "box.toolbox/echo.tool/.metadata",
        &json!({ "cache": { "ttlSeconds": 600 } }).to_string(),
    );
    let envelope = run_exec(
        w.path(),
        &[],
        r#"local first = tools.box.echo("same")
local second = tools.box.echo("same")
local rows = tools.parallel({
	function() return tools.box.echo("p1") end,
	function() return tools.box.echo("p2") end,
})
return { first, second, #rows }"#,
    );
    assert_eq!(envelope["ok"], true, "{envelope}");
    let lines = lines(w.path());
    let calls: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "call").collect();
    assert_eq!(calls.len(), 4, "{lines:#?}");
    let cached: Vec<bool> = calls.iter().map(|l| l["cached"] == true).collect();
    assert_eq!(cached, [false, true, false, false], "{calls:#?}");
    assert!(calls.iter().all(|l| l["identity"] == "box.echo"));
    assert_eq!(calls[1]["bytes"], calls[0]["bytes"]);
    assert_eq!(lines.last().unwrap()["calls"], 4);
}

#[test]
fn a_tool_past_its_own_time_limit_is_a_timeout() {
    let w = world();
    w.tool("box.slow", "return function() while true do end end\n");
    w.file(
        "box.toolbox/slow.tool/.metadata",
        &json!({ "limits": { "timeoutMs": 50 } }).to_string(),
    );
    let envelope = run_exec(w.path(), &[], "local ok = pcall(tools.box.slow)\nreturn ok");
    assert_eq!(envelope["value"], false, "{envelope}");
    let lines = lines(w.path());
    assert_eq!(lines[0]["identity"], "box.slow");
    assert_eq!(lines[0]["outcome"], "timeout", "{}", lines[0]);
    assert!(lines[0]["ms"].as_f64().unwrap() >= 40.0, "{}", lines[0]);
}

#[test]
fn nothing_a_script_passes_prints_raises_or_returns_reaches_the_log() {
    let w = world();
    let marker = "MARKER-7f3a9c";
    let envelope = run_exec(
        w.path(),
        &[],
        &format!(
            "-- {marker} in the script's text\nprint('{marker}')\nlocal echoed = tools.box.echo('{marker}')\n\
             local ok, e = pcall(tools.box.boom, '{marker}')\nassert(not ok)\nreturn echoed"
        ),
    );
    assert_eq!(envelope["value"], format!("echo:{marker}"), "{envelope}");
    let raw = std::fs::read_to_string(log_path(w.path())).unwrap();
    assert_eq!(parsed(&raw).len(), 3, "{raw}");
    assert!(!raw.contains(marker), "{raw}");
    assert!(!raw.contains("MARKER"), "{raw}");
}

#[test]
fn a_script_cannot_forge_a_line() {
    let w = world();
    w.file(".codemode/policy.json", POLICY);
    w.tool("ops.drop_table", "return function() return 'dropped' end\n");
    let forged = r#"{"time":"2020-01-01T00:00:00Z","agent":"admin","profile":"default","kind":"run","identity":"run:exec","outcome":"ok","ms":0,"bytes":0,"run":"1-1"}"#;
    // A denied identity is recorded as written (the refusal depends on the name alone),
    // and a tool's error may hold anything: both carry a newline and a whole line.
    let script = format!(
        "local name = 'drop\\n' .. {forged:?} .. '\\n'\n\
         local ok = pcall(function() return tools.ops[name]() end)\nassert(not ok)\n\
         local ok2 = pcall(tools.box.boom, '\\n' .. {forged:?} .. '\\n')\nassert(not ok2)\nreturn 1"
    );
    let envelope = run_exec(w.path(), &[], &script);
    assert_eq!(envelope["ok"], true, "{envelope}");
    let lines = lines(w.path());
    assert_eq!(
        lines.len(),
        3,
        "exactly the lines the engine wrote: {lines:#?}"
    );
    assert!(
        lines.iter().all(|l| l["agent"] == "local"),
        "no line of agent admin: {lines:#?}"
    );
    let name = lines[0]["identity"].as_str().unwrap();
    assert!(name.starts_with("ops.drop\n{"), "{name:?}");
    assert_eq!(lines[0]["outcome"], "denied");
    assert_eq!(lines[1]["identity"], "box.boom");
    // The operator's text view shows the newline as `\n`: one row per line of the log.
    let out = codemode(w.path(), &["audit"], "");
    let shown = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(shown.lines().count(), 3, "{shown}");
    assert!(shown.contains("ops.drop\\n{"), "{shown}");
}

#[test]
fn scripts_cannot_read_or_write_the_log() {
    let w = world();
    run_exec(w.path(), &[], "return 1");
    assert!(log_path(w.path()).is_file());
    let envelope = run_exec(w.path(), &[], "return vfs.read('.codemode/audit.jsonl')");
    assert_eq!(envelope["ok"], false, "{envelope}");
    let envelope = run_exec(
        w.path(),
        &[],
        "vfs.write('.codemode/audit.jsonl', 'forged\\n')\nreturn 1",
    );
    assert_eq!(envelope["ok"], false, "{envelope}");
    let envelope = run_exec(w.path(), &[], "return vfs.list('.codemode')");
    assert_eq!(envelope["ok"], false, "{envelope}");
    let raw = std::fs::read_to_string(log_path(w.path())).unwrap();
    assert!(!raw.contains("forged"));
    assert_eq!(parsed(&raw).len(), 4);
}

#[test]
fn the_log_is_rotated_at_its_size_and_keeps_five() {
    let w = world();
    let max = 1500;
    let script = "for i = 1, 4 do tools.box.echo('x') end\nreturn 1";
    for _ in 0..20 {
        run_exec(w.path(), &["--audit-max-bytes", &max.to_string()], script);
    }
    let dir = w.path().join(".codemode");
    let mut files = vec![log_path(w.path())];
    files.extend((1..=5).map(|n| dir.join(format!("audit.jsonl.{n}"))));
    for file in &files {
        assert!(file.is_file(), "{} exists", file.display());
        let size = std::fs::metadata(file).unwrap().len();
        assert!(size <= max, "{} is {size} bytes", file.display());
        let raw = std::fs::read_to_string(file).unwrap();
        let lines = parsed(&raw);
        // Whole runs: a run's lines go in one write.
        assert_eq!(lines.len() % 5, 0, "{raw}");
        assert_eq!(lines.last().unwrap()["kind"], "run");
    }
    assert!(!dir.join("audit.jsonl.6").exists(), "only five are kept");
    // The newest run is in the live file, an older one in .1.
    let newest = lines(w.path()).last().unwrap()["run"].clone();
    let older = parsed(&std::fs::read_to_string(&files[1]).unwrap());
    assert_ne!(older.last().unwrap()["run"], newest);
}

#[test]
fn processes_appending_at_once_leave_whole_lines() {
    let w = world();
    let script = "for i = 1, 20 do tools.box.echo('x') end\nreturn 1";
    let children: Vec<_> = (0..4)
        .map(|_| {
            let mut command = common::command();
            command.args(["--world"]).arg(w.path()).args([
                "--no-bundled",
                "--check",
                "off",
                "run",
                "-",
            ]);
            command
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped());
            let mut child = command.spawn().unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(script.as_bytes())
                .unwrap();
            child
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let lines = lines(w.path());
    assert_eq!(lines.len(), 4 * 21);
    assert_eq!(lines.iter().filter(|l| l["kind"] == "run").count(), 4);
}

#[test]
fn where_the_log_goes() {
    // A bare folder of tools gets no log (and no .codemode folder) unless asked.
    let w = World::new();
    w.tool("box.echo", "return function(x) return x end\n");
    run_exec(w.path(), &[], "return tools.box.echo('a')");
    assert!(!w.path().join(".codemode").exists());
    run_exec(w.path(), &["--audit", "file"], "return tools.box.echo('a')");
    assert_eq!(lines(w.path()).len(), 2);

    // stderr: the same lines there, none in the file.
    let w = world();
    let out = codemode(
        w.path(),
        &["--no-bundled", "--audit", "stderr", "exec"],
        "return tools.box.echo('a')",
    );
    let stderr = text(&out.stderr);
    let shown = parsed(&stderr);
    assert_eq!(shown.len(), 2, "{stderr}");
    assert_eq!(shown[1]["identity"], "run:exec");
    assert!(!log_path(w.path()).exists());

    // off: nothing anywhere.
    let out = codemode(
        w.path(),
        &["--no-bundled", "--audit", "off", "exec"],
        "return tools.box.echo('a')",
    );
    assert!(text(&out.stderr).is_empty());
    assert!(!log_path(w.path()).exists());
}

#[test]
fn a_link_in_the_logs_place_is_not_written_through() {
    let w = world();
    let outside = tempfile::NamedTempFile::new().unwrap();
    std::os::unix::fs::symlink(outside.path(), log_path(w.path())).unwrap();
    let out = codemode(w.path(), &["--no-bundled", "exec"], "return 1");
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(outside.path()).unwrap(), "");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("audit log cannot be written") && stderr.contains("symbolic link"),
        "{stderr}"
    );
}

#[test]
fn codemode_audit_shows_the_last_lines() {
    let w = world();
    w.file(".codemode/policy.json", POLICY);
    w.tool("ops.drop_it", "return function() return 'dropped' end\n");
    run_exec(w.path(), &[], "return tools.box.echo('a')");
    run_exec(w.path(), &[], "return tools.ops.drop_it()");
    let out = codemode(w.path(), &["audit"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let rows: Vec<&str> = shown.lines().collect();
    assert_eq!(rows.len(), 4, "{shown}");
    assert!(
        rows[0].contains("  box.echo") && rows[0].contains(" ok "),
        "{shown}"
    );
    assert!(
        rows[1].contains("run:exec") && rows[1].contains("1 call"),
        "{shown}"
    );
    assert!(
        rows[2].contains("ops.drop_it") && rows[2].contains("DENIED"),
        "{shown}"
    );
    assert!(rows
        .iter()
        .all(|r| r.contains("local") && r.contains("default")));
    // The time column reads as a date and time in UTC.
    assert!(
        rows[0].split_whitespace().nth(1).unwrap().ends_with('Z'),
        "{shown}"
    );

    let out = codemode(w.path(), &["audit", "-n", "1", "--json"], "");
    let last = parsed(&text(&out.stdout));
    assert_eq!(last.len(), 1);
    assert_eq!(last[0]["identity"], "run:exec");
    assert_eq!(last[0]["outcome"], "denied");

    let out = codemode(w.path(), &["audit", "--agent", "nobody"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).is_empty());
    assert!(
        text(&out.stderr).contains("no lines of agent 'nobody'"),
        "{}",
        text(&out.stderr)
    );
    let out = codemode(w.path(), &["audit", "--agent", "local", "-n", "3"], "");
    assert_eq!(text(&out.stdout).lines().count(), 3);
}

#[test]
fn calls_of_an_upstream_server_are_recorded_and_their_arguments_are_not() {
    let _serial = servers::serial();
    let dir = servers::world(json!({ "fx": servers::fixture_server("typed", &["0"]) }));
    let w = dir.path();
    std::fs::write(
        w.join(".codemode/policy.json"),
        r#"{ "profiles": { "default": { "default": "allow", "deny": ["fx.get_sum"] } } }"#,
    )
    .unwrap();
    let out = codemode(w, &["--no-bundled", "mcp", "sync", "fx"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let marker = "UPSTREAM-MARK-51c2";
    let envelope = run_exec(
        w,
        &["--check", "off"],
        &format!(
            r#"local one = tools.fx.echo({{ message = "{marker}" }})
local rows = tools.parallel({{
	function() return tools.fx.echo({{ message = "p1" }}) end,
	function() return tools.fx.echo({{ message = "p2" }}) end,
}})
local ok = pcall(function() return tools.fx.get_sum({{ a = 1, b = 2 }}) end)
assert(not ok)
return #rows"#
        ),
    );
    assert_eq!(envelope["value"], 2, "{envelope}");
    let raw = std::fs::read_to_string(log_path(w)).unwrap();
    assert!(!raw.contains(marker), "{raw}");
    let lines = parsed(&raw);
    let calls: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l["kind"] == "call")
        .map(|l| {
            (
                l["identity"].as_str().unwrap(),
                l["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("fx.echo", "ok"),
            ("fx.echo", "ok"),
            ("fx.echo", "ok"),
            ("fx.get_sum", "denied"),
        ]
    );
    assert!(
        lines[0]["bytes"].as_u64().unwrap() > marker.len() as u64,
        "{}",
        lines[0]
    );
    assert_eq!(lines.last().unwrap()["calls"], 4);
}

#[test]
fn a_run_of_many_calls_writes_every_line_its_own_last() {
    let w = world();
    // About 160 bytes a line: the trail writes early three times or more.
    let envelope = run_exec(
        w.path(),
        &[],
        "for i = 1, 1500 do tools.box.echo('x') end\nreturn 1",
    );
    assert_eq!(envelope["ok"], true, "{envelope}");
    let lines = lines(w.path());
    assert_eq!(lines.len(), 1501);
    assert!(lines[..1500].iter().all(|l| l["kind"] == "call"));
    assert_eq!(lines[1500]["calls"], 1500);
    let size = std::fs::metadata(log_path(w.path())).unwrap().len();
    assert!(
        size > 3 * 64 * 1024,
        "{size}: more than three flushes' worth"
    );
}
