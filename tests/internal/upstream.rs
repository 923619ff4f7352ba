//! engine/upstream against real MCP servers that nobody here wrote, installed by
//! `tests/upstream/setup.sh` (pinned versions, once, under the target directory): the
//! reference test server `@modelcontextprotocol/server-everything` over stdio and over
//! streamable HTTP, `@modelcontextprotocol/server-filesystem` on a temp folder and
//! `mcp-server-time` from PyPI. The failure modes real servers show (a missing program,
//! a hang at start, a crash mid-call, garbage on stdout) come from the small fixture
//! `tests/upstream/fixture_server.py`. Every server runs on this machine; no test sends
//! traffic off it (server-everything's gzip tool, which fetches a public URL, is never
//! called).
//!
//! Setup failures fail the tests (as tests/mcp_client.rs does): CI installs node and
//! python3, so a missing dependency there is a bug, not a reason to skip.

use super::common;
use super::servers;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::upstream::types::tool_types;
use crate::upstream::{self, wait_any, UpstreamError, UpstreamOptions, Upstreams};
use serde_json::{json, Value};
use servers::*;

fn open(world: &Path, options: UpstreamOptions) -> Upstreams {
    let configs = upstream::load(world, &[]);
    assert!(configs.problems.is_empty(), "{:?}", configs.problems);
    Upstreams::new(world, &configs, options).unwrap()
}

fn call_within(
    u: &Upstreams,
    server: &str,
    tool: &str,
    args: Value,
    within: Duration,
) -> Result<Value, UpstreamError> {
    let args = args.as_object().cloned().unwrap_or_default();
    u.start_call(server, tool, args)
        .wait(Instant::now() + within, &|| false)
}

fn call(u: &Upstreams, server: &str, tool: &str, args: Value) -> Result<Value, UpstreamError> {
    call_within(u, server, tool, args, Duration::from_secs(30))
}

/// Every content type the reference server sends, structured content, an error result,
/// the environment passed, list_changed, and the shape of the catalogue and its types.
fn exercise_everything(u: &Upstreams, server: &str) {
    let reports = u.sync(Some(server));
    let catalogue = match &reports[0].result {
        Ok(c) => c.clone(),
        Err(e) => panic!("sync failed: {e}"),
    };
    let echo = catalogue.tool("echo").expect("echo is listed");
    assert_eq!(echo.original, "echo");
    let env_tool = catalogue.tool("get_env").expect("get-env maps to get_env");
    assert_eq!(env_tool.original, "get-env");
    let slow = catalogue.tool("trigger_long_running_operation").unwrap();
    let types = tool_types(&slow.input_schema, slow.output_schema.as_ref());
    let duration = types.args.iter().find(|a| a.name == "duration").unwrap();
    assert_eq!(
        (duration.luau_type.as_str(), duration.optional),
        ("number", true)
    );
    let structured = catalogue.tool("get_structured_content").unwrap();
    let types = tool_types(&structured.input_schema, structured.output_schema.as_ref());
    assert!(types.returns.starts_with("{ "), "{}", types.returns);
    assert_eq!(
        u.catalogue(server).unwrap().tools.len(),
        catalogue.tools.len()
    );

    // One text item: a string.
    assert_eq!(
        call(u, server, "echo", json!({"message": "hi"})).unwrap(),
        json!("Echo: hi")
    );
    // structuredContent: the value itself.
    let weather = call(
        u,
        server,
        "get-structured-content",
        json!({"location": "New York"}),
    )
    .unwrap();
    assert!(weather.get("temperature").is_some(), "{weather}");
    // Several items: text and image.
    let image = call(u, server, "get-tiny-image", json!({})).unwrap();
    let items = image.as_array().expect("a list of content items");
    assert!(items.iter().any(|i| i["type"] == "image"
        && i["mimeType"] == "image/png"
        && i["data"].as_str().is_some_and(|d| !d.is_empty())));
    assert!(items.iter().any(|i| i["type"] == "text"));
    // Embedded resources and resource links.
    let reference = call(
        u,
        server,
        "get-resource-reference",
        json!({"resourceType": "Text", "resourceId": 1}),
    )
    .unwrap();
    assert!(
        reference
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["type"] == "resource"),
        "{reference}"
    );
    let links = call(u, server, "get-resource-links", json!({"count": 2})).unwrap();
    assert!(
        links
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["type"] == "resource_link"),
        "{links}"
    );
    let annotated = call(
        u,
        server,
        "get-annotated-message",
        json!({"messageType": "error", "includeImage": true}),
    )
    .unwrap();
    assert!(annotated.as_array().unwrap().len() >= 2, "{annotated}");
    // A tool error (arguments the tool's schema refuses) carries the server's message.
    match call(u, server, "get-sum", json!({"a": "one", "b": 2})) {
        Err(UpstreamError::Tool { call, message })
        | Err(UpstreamError::Rejected { call, message, .. }) => {
            assert!(call.ends_with(".get-sum"), "{call}");
            assert!(!message.is_empty());
        }
        other => panic!("expected a tool error, got {other:?}"),
    }
    assert_eq!(
        call(u, server, "get-sum", json!({"a": 2, "b": 3})).unwrap(),
        json!("The sum of 2 and 3 is 5.")
    );
}

#[test]
fn everything_over_stdio() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let changed = Arc::new(AtomicUsize::new(0));
    let seen = changed.clone();
    let options = UpstreamOptions {
        on_catalogue_change: Some(Arc::new(move |server: &str| {
            assert_eq!(server, "everything");
            seen.fetch_add(1, Ordering::SeqCst);
        })),
        ..UpstreamOptions::default()
    };
    let u = open(dir.path(), options);
    assert!(u.catalogue("everything").is_none(), "nothing cached yet");
    assert!(u.process_id("everything").is_none(), "nothing started yet");
    exercise_everything(&u, "everything");
    // The environment from the configuration reaches the server; what it answers is
    // masked before a script sees it.
    let env = call(&u, "everything", "get-env", json!({}))
        .unwrap()
        .to_string();
    assert!(
        env.contains("CODEMODE_TEST_SECRET") && env.contains("***") && !env.contains(SECRET),
        "get-env shows the env it was given, its secret masked: {env}"
    );
    // The reference server registers tools after the handshake and says so
    // (notifications/tools/list_changed): the cache is refreshed, the listener told.
    let until = Instant::now() + Duration::from_secs(10);
    while changed.load(Ordering::SeqCst) < 2 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        changed.load(Ordering::SeqCst) >= 2,
        "sync, then list_changed"
    );

    // A slow tool is cut at the deadline, and the server stays usable.
    let pid = u.process_id("everything").unwrap();
    let started = Instant::now();
    let err = call_within(
        &u,
        "everything",
        "trigger-long-running-operation",
        json!({"duration": 5, "steps": 5}),
        Duration::from_millis(400),
    )
    .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    match &err {
        UpstreamError::Timeout { call } => assert_eq!(
            call,
            "everything.trigger-long-running-operation (sent to MCP server 'everything', which had not answered)"
        ),
        other => panic!("expected a timeout, got {other:?}"),
    }
    let started = Instant::now();
    assert_eq!(
        call(&u, "everything", "echo", json!({"message": "still"})).unwrap(),
        json!("Echo: still")
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(
        u.process_id("everything"),
        Some(pid),
        "the same process served both"
    );

    // Nothing of the secret in Debug output.
    assert!(!format!("{u:?} {:?}", u.server("everything")).contains(SECRET));
    drop(u);
    assert!(wait_dead(pid), "the server ends with its Upstreams");
}

#[test]
fn everything_over_streamable_http() {
    let _serial = serial();
    let server = HttpServer::start(None);
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let dir = world(json!({
        "everything-http": { "type": "http", "url": url, "headers": { "X-Api-Key": SECRET } }
    }));
    let u = open(dir.path(), UpstreamOptions::default());
    exercise_everything(&u, "everything_http");
    let started = Instant::now();
    let err = call_within(
        &u,
        "everything_http",
        "trigger-long-running-operation",
        json!({"duration": 5, "steps": 5}),
        Duration::from_millis(400),
    )
    .unwrap_err();
    assert!(matches!(err, UpstreamError::Timeout { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_millis(1500));

    // The server goes away mid-session: the call fails, and the next one (once the server
    // is back) connects afresh.
    let port = server.port;
    drop(server);
    let err = call_within(
        &u,
        "everything_http",
        "echo",
        json!({"message": "x"}),
        Duration::from_secs(15),
    )
    .unwrap_err();
    eprintln!("after the server went away: {err}");
    assert!(
        matches!(
            err,
            UpstreamError::Crashed { .. } | UpstreamError::StartFailed { .. }
        ),
        "{err:?}"
    );
    assert!(!format!("{err} {err:?}").contains(SECRET), "{err}");
    let _server = HttpServer::start(Some(port));
    let mut result = call(&u, "everything_http", "echo", json!({"message": "back"}));
    if result.is_err() {
        // The first call after the restart may still meet the old session's failure.
        result = call(&u, "everything_http", "echo", json!({"message": "back"}));
    }
    assert_eq!(result.unwrap(), json!("Echo: back"));
}

#[test]
fn filesystem_server_on_a_temp_folder() {
    let _serial = serial();
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("notes.txt"), "first line\nsecond line\n").unwrap();
    std::fs::create_dir(files.path().join("sub")).unwrap();
    let allowed = files.path().canonicalize().unwrap();
    let dir = world(json!({
        "fs": { "command": "node", "args": [package("server-filesystem"), allowed.display().to_string()] }
    }));
    let u = open(dir.path(), UpstreamOptions::default());
    let catalogue = u.sync(None).remove(0).result.unwrap();
    assert!(catalogue.tool("read_text_file").is_some());
    let listing = call(
        &u,
        "fs",
        "list_directory",
        json!({"path": allowed.display().to_string()}),
    )
    .unwrap();
    let text = listing.to_string();
    assert!(text.contains("notes.txt") && text.contains("sub"), "{text}");
    let read = call(
        &u,
        "fs",
        "read_text_file",
        json!({"path": allowed.join("notes.txt").display().to_string(), "head": 1}),
    )
    .unwrap();
    assert!(
        read.to_string().contains("first line") && !read.to_string().contains("second"),
        "{read}"
    );
    let outside = call(&u, "fs", "read_text_file", json!({"path": "/etc/hostname"})).unwrap_err();
    match outside {
        UpstreamError::Tool { message, .. } => {
            assert!(message.to_lowercase().contains("denied"), "{message}")
        }
        other => panic!("expected a tool error, got {other:?}"),
    }
}

#[test]
fn a_script_may_take_in_more_than_the_output_cap_and_return_a_summary() {
    // Reading a file larger than the cap is fine when the script returns only its size;
    // the cap is on what the script returns and prints.
    let _serial = serial();
    let dir = world(
        json!({ "fs": { "command": "node", "args": [package("server-filesystem"), "./data"] } }),
    );
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("big.txt"), "x".repeat(300_000)).unwrap();
    let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}{err}");
    let script = format!(
        "local r = tools.fs.read_text_file({{ path = {:?} }}) return #r.content",
        data.join("big.txt").display().to_string()
    );
    let (out, err, code) = codemode_in(
        dir.path(),
        &["exec", "--max-output-bytes", "65536", "-"],
        &script,
    );
    assert_eq!(code, 0, "{out}{err}");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["value"], json!(300_000), "{envelope}");
}

#[test]
fn python_time_server() {
    let _serial = serial();
    let time = installed().join("venv/bin/mcp-server-time");
    let dir = world(json!({
        "time": { "command": time.display().to_string(), "args": ["--local-timezone", "UTC"] }
    }));
    let u = open(dir.path(), UpstreamOptions::default());
    let catalogue = u.sync(Some("time")).remove(0).result.unwrap();
    let convert = catalogue.tool("convert_time").unwrap();
    let types = tool_types(&convert.input_schema, convert.output_schema.as_ref());
    assert!(types.args.iter().all(|a| !a.optional), "{types:?}");
    let now = call(
        &u,
        "time",
        "get_current_time",
        json!({"timezone": "Europe/Paris"}),
    )
    .unwrap();
    assert!(now.to_string().contains("Europe/Paris"), "{now}");
    let converted = call(
        &u,
        "time",
        "convert_time",
        json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
    )
    .unwrap();
    assert!(converted.to_string().contains("21:00"), "{converted}");
    let err = call(
        &u,
        "time",
        "get_current_time",
        json!({"timezone": "Mars/Olympus"}),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            UpstreamError::Tool { .. } | UpstreamError::Rejected { .. }
        ),
        "{err:?}"
    );
}

#[test]
fn servers_that_fail_to_start_hang_crash_or_print_garbage() {
    let _serial = serial();
    let dir = world(json!({
        "missing": { "command": "/nonexistent/mcp-server" },
        "hangs": fixture_server("hang", &[]),
        "stalls": fixture_server("hang", &[]),
        "banner": fixture_server("banner", &[]),
        "crashes": fixture_server("crash", &[]),
        "garbage": fixture_server("garbage", &[]),
    }));
    let options = UpstreamOptions {
        start_timeout: Duration::from_millis(1500),
        ..UpstreamOptions::default()
    };
    let u = open(dir.path(), options);
    let text = |e: &UpstreamError| format!("{e} {e:?}");

    let started = Instant::now();
    let err = call(&u, "missing", "x", json!({})).unwrap_err();
    assert!(matches!(err, UpstreamError::StartFailed { .. }), "{err:?}");
    assert!(text(&err).contains("no such program"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(1));

    let started = Instant::now();
    let err = call(&u, "hangs", "x", json!({})).unwrap_err();
    assert!(
        text(&err).contains("did not finish the MCP handshake"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(
        text(&err).contains("secret=***") && !text(&err).contains(SECRET),
        "{err}"
    );

    // Called again at once, it is not started again: the same failure, said to be recent.
    let started = Instant::now();
    let err = call(&u, "hangs", "x", json!({})).unwrap_err();
    assert!(text(&err).contains("not started again for"), "{err}");
    assert!(started.elapsed() < Duration::from_millis(500));

    // A deadline shorter than the start timeout ends the wait first; the start is dropped.
    let started = Instant::now();
    let err = call_within(&u, "stalls", "x", json!({}), Duration::from_millis(300)).unwrap_err();
    assert!(matches!(err, UpstreamError::Timeout { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(1));

    let err = call(&u, "banner", "sleep", json!({"ms": 1})).unwrap_err();
    assert!(matches!(err, UpstreamError::StartFailed { .. }), "{err:?}");
    assert!(
        text(&err).contains("Welcome to the fixture server"),
        "{err}"
    );

    let err = call(&u, "crashes", "boom", json!({})).unwrap_err();
    match &err {
        UpstreamError::Crashed {
            how, stderr, call, ..
        } => {
            assert_eq!(call, "crashes.boom");
            assert_eq!(how, "exited with status 3");
            assert!(stderr.contains("fatal: exploding on purpose"), "{stderr}");
        }
        other => panic!("expected a crash, got {other:?}"),
    }
    assert!(
        !text(&err).contains(SECRET) && text(&err).contains("secret=***"),
        "{err}"
    );
    // The next call starts it again (and it crashes again, as it does).
    let err = call(&u, "crashes", "boom", json!({})).unwrap_err();
    assert!(matches!(err, UpstreamError::Crashed { .. }), "{err:?}");

    let started = Instant::now();
    let err = call(&u, "garbage", "boom", json!({})).unwrap_err();
    match &err {
        UpstreamError::Protocol { detail, .. } => {
            assert!(detail.contains("not json at all"), "{detail}")
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "garbage fails the call at once"
    );
}

#[test]
fn deadline_sends_cancelled_and_fan_out_is_bounded_per_server() {
    let _serial = serial();
    let log = tempfile::NamedTempFile::new().unwrap();
    let dir = world(json!({
        "slow": fixture_server("slow", &[log.path().to_str().unwrap()]),
    }));
    let options = UpstreamOptions {
        max_in_flight: 4,
        ..UpstreamOptions::default()
    };
    let u = open(dir.path(), options);
    // Start it once, so timings below are of calls only.
    assert_eq!(
        call(&u, "slow", "sleep", json!({"ms": 1})).unwrap(),
        json!("slept 1 ms")
    );

    let err = call_within(
        &u,
        "slow",
        "sleep",
        json!({"ms": 5000}),
        Duration::from_millis(300),
    )
    .unwrap_err();
    assert!(matches!(err, UpstreamError::Timeout { .. }), "{err:?}");
    let until = Instant::now() + Duration::from_secs(3);
    let mut logged = String::new();
    while Instant::now() < until {
        logged = std::fs::read_to_string(log.path()).unwrap_or_default();
        if !logged.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let cancelled: Value = serde_json::from_str(
        logged
            .lines()
            .next()
            .expect("notifications/cancelled reached the server"),
    )
    .unwrap();
    assert!(cancelled.get("requestId").is_some(), "{cancelled}");
    assert!(
        cancelled["reason"].as_str().unwrap().contains("deadline"),
        "{cancelled}"
    );

    // 8 calls of 200 ms with 4 in flight: two rounds, not eight, and not one.
    let started = Instant::now();
    let mut calls: Vec<_> = (0..8)
        .map(|_| {
            u.start_call(
                "slow",
                "sleep",
                json!({"ms": 200}).as_object().unwrap().clone(),
            )
        })
        .collect();
    let mut done = 0;
    while let Some(i) = wait_any(
        &mut calls,
        Instant::now() + Duration::from_secs(10),
        &|| false,
    )
    .unwrap()
    {
        assert_eq!(calls[i].try_take().unwrap().unwrap(), json!("slept 200 ms"));
        done += 1;
    }
    let elapsed = started.elapsed();
    assert_eq!(done, 8);
    assert!(
        elapsed >= Duration::from_millis(390),
        "{elapsed:?}: at most 4 at once"
    );
    assert!(
        elapsed < Duration::from_millis(1200),
        "{elapsed:?}: 4 at once"
    );

    // A stop check ends the wait and cancels too.
    let err = u
        .start_call(
            "slow",
            "sleep",
            json!({"ms": 5000}).as_object().unwrap().clone(),
        )
        .wait(Instant::now() + Duration::from_secs(10), &|| true)
        .unwrap_err();
    assert!(matches!(err, UpstreamError::Stopped { .. }), "{err:?}");
    let err = call(&u, "nope", "x", json!({})).unwrap_err();
    assert!(matches!(err, UpstreamError::UnknownServer(_)));
}

#[test]
fn cli_sync_prints_each_server_and_fails_on_any_failure() {
    let _serial = serial();
    let time = installed().join("venv/bin/mcp-server-time");
    let dir = world(json!({
        "time": { "command": time.display().to_string() },
        "broken-one": { "command": "/nonexistent/mcp-server" },
        "old": { "type": "sse", "url": "http://127.0.0.1:9/sse" },
    }));
    let out = common::command()
        .args(["mcp", "sync"])
        .arg("--world")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("time: 2 tools: get_current_time, convert_time"),
        "{stdout}"
    );
    assert!(stdout.contains("broken_one: failed"), "{stdout}");
    assert!(stderr.contains("no such program"), "{stderr}");
    assert!(
        stderr.contains("server 'old'") && stderr.contains("SSE"),
        "{stderr}"
    );
    let files: Vec<_> = std::fs::read_dir(dir.path().join(".codemode/cache/mcp"))
        .unwrap()
        .collect();
    assert_eq!(files.len(), 1);
    // One server only.
    let out = common::command()
        .args(["mcp", "sync", "time"])
        .arg("--world")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("time: 2 tools"));
}

/// `target/<profile>/examples/upstream_client`, built for these tests (it reaches inside
/// the crate, so it is built with the `bench` feature, which `cargo test` leaves off).
fn example_client() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let bin = common::bin();
        let profile_dir = bin.parent().unwrap();
        let target = profile_dir.parent().unwrap();
        let mut build = Command::new(env!("CARGO"));
        build
            .current_dir(root())
            .args([
                "build",
                "--quiet",
                "--features",
                "bench",
                "--example",
                "upstream_client",
            ])
            .env("CARGO_TARGET_DIR", target);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let out = build.output().expect("cargo runs");
        assert!(
            out.status.success(),
            "cannot build examples/upstream_client.rs:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        profile_dir.join("examples/upstream_client")
    })
}

/// The official conformance suite's client scenarios, against engine/upstream.
fn conformance(scenario: &str) {
    let suite = installed().join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let client = example_client();
    let _serial = serial();
    let results = tempfile::tempdir().unwrap();
    let out = Command::new("node")
        .arg(&suite)
        .args([
            "client",
            "--scenario",
            scenario,
            "--timeout",
            "60000",
            "--command",
        ])
        .arg(format!("{} conformance", client.display()))
        .arg("--output-dir")
        .arg(results.path())
        .output()
        .expect("node runs the conformance suite");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let failed = |why: &str| -> ! {
        panic!(
            "conformance scenario {scenario}: {why} ({}):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    };
    if !out.status.success() {
        failed("not passed");
    }
    // The checks themselves, as the suite saved them: none failed, at least one passed.
    let mut statuses = Vec::new();
    for run in std::fs::read_dir(results.path()).unwrap().flatten() {
        let checks: Value =
            serde_json::from_str(&std::fs::read_to_string(run.path().join("checks.json")).unwrap())
                .unwrap();
        for check in checks.as_array().unwrap() {
            statuses.push((check["id"].to_string(), check["status"].to_string()));
        }
    }
    if statuses.iter().any(|(_, s)| s.contains("FAILURE")) {
        failed(&format!("a check failed: {statuses:?}"));
    }
    if !statuses.iter().any(|(_, s)| s.contains("SUCCESS")) {
        failed("no check passed");
    }
}

#[test]
fn conformance_initialize() {
    conformance("initialize");
}

#[test]
fn conformance_tools_call() {
    conformance("tools_call");
}

/// SIGTERM to a process holding servers ends them too (its handler kills their process
/// groups, then the process dies of the signal as before).
#[test]
fn sigterm_leaves_no_orphans() {
    let client = example_client();
    let _serial = serial();
    let dir = world(json!({
        "everything": everything_stdio(),
        "slow": fixture_server("slow", &[]),
    }));
    let mut child = Command::new(client)
        .arg("hold")
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    use std::io::BufRead;
    let mut pids = Vec::new();
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line == "ready" {
            break;
        }
        if let Some(pid) = line.rsplit(' ').next().and_then(|p| p.parse::<u32>().ok()) {
            pids.push(pid);
        }
    }
    assert_eq!(pids.len(), 2, "both servers started");
    assert!(pids.iter().all(|&p| !is_dead(p)));
    // SAFETY: signalling our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(libc::SIGTERM),
        "it still dies of SIGTERM"
    );
    for pid in pids {
        assert!(wait_dead(pid), "server process {pid} outlived its client");
    }
}

/// Runs the codemode binary in `world` and returns (stdout, stderr, exit code).
fn codemode_in(world: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = common::codemode(world, args, stdin);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn configured_servers_are_toolboxes_that_scripts_list_get_and_call() {
    let _serial = serial();
    let time = installed().join("venv/bin/mcp-server-time");
    let dir = world(json!({
        "everything": everything_stdio(),
        "time": { "command": time.display().to_string(), "args": ["--local-timezone", "UTC"] }
    }));
    // Before any sync, listing names the servers and says how to fetch their tools;
    // nothing is started for a listing.
    let (listed, _, code) = codemode_in(dir.path(), &["list", "2", "--no-bundled"], "");
    assert_eq!(code, 0, "{listed}");
    assert!(listed.contains("codemode mcp sync everything"), "{listed}");
    // `check` warns of them too (a script calling them would fail), and starts nothing.
    let (checked, _, code) = codemode_in(dir.path(), &["check", "--no-bundled"], "");
    assert_eq!(code, 0, "{checked}");
    assert!(
        checked.contains("warning: MCP server 'time': its tools are not fetched yet")
            && checked.contains("codemode mcp sync time"),
        "{checked}"
    );
    let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}{err}");
    // Now the tools are listed from the cache, with signatures and from = mcp:<server>.
    let (listed, _, _) = codemode_in(dir.path(), &["list", "3", "everything"], "");
    assert!(
        listed.contains("get_sum(args: { a: number, b: number })"),
        "{listed}"
    );
    // One script calls two servers and returns only what matters.
    let script = r#"
        local sum = tools.everything.get_sum({ a = 2, b = 40 })
        local now = tools.time.get_current_time({ timezone = "Asia/Tokyo" })
        local meta = tools.get("time.get_current_time")
        local boxes = {}
        for _, row in tools.toolboxes().value do
            boxes[row.toolbox] = row.from
        end
        return { sum = sum, tz = now.timezone, from = meta.from, everything = boxes.everything }
    "#;
    let (out, err, code) = codemode_in(dir.path(), &["exec", "-"], script);
    assert_eq!(code, 0, "{out}{err}");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    let value = &envelope["value"];
    assert!(value["sum"].as_str().unwrap().contains("42"), "{envelope}");
    assert_eq!(value["tz"], "Asia/Tokyo", "{envelope}");
    assert_eq!(value["from"], "mcp:time");
    assert_eq!(value["everything"], "mcp:everything");
    // A wrong call says what the tool takes; a missing tool names the listing.
    let (out, _, code) = codemode_in(
        dir.path(),
        &["exec", "-"],
        "return tools.everything.get_sum(5)",
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("takes one table") && out.contains("get_sum(args:"),
        "{out}"
    );
    // Arguments are checked against the input schema before the server sees them.
    for (script, expected) in [
        (
            "return tools.everything.get_sum({ a = 2 })",
            "argument args.b: missing (a number is required)",
        ),
        (
            "return tools.everything.get_sum({ a = 'two', b = 1 })",
            "argument args.a: expected number, got the string \"two\"",
        ),
        (
            "return tools.time.get_current_time({ timezon = 'UTC' })",
            "the table has \"timezon\": is it a misspelt \"timezone\"?",
        ),
    ] {
        let (out, _, code) = codemode_in(dir.path(), &["exec", "-"], script);
        assert_eq!(code, 1, "{script}: {out}");
        let envelope: Value = serde_json::from_str(&out).unwrap();
        let message = envelope["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(expected), "{script}: {envelope}");
        let hint = envelope["error"]["hint"].as_str().unwrap_or_default();
        assert!(hint.contains("call it as tools."), "{script}: {envelope}");
    }
    let (out, _, _) = codemode_in(dir.path(), &["exec", "-"], "return tools.time.nope({})");
    assert!(out.contains("no tool named 'nope'"), "{out}");
    // A slow tool is cut at the run's deadline: the envelope says timeout.
    let started = Instant::now();
    let (out, _, code) = codemode_in(
        dir.path(),
        &["exec", "--timeout-ms", "800", "-"],
        "return tools.everything.trigger_long_running_operation({ duration = 5, steps = 5 })",
    );
    assert_eq!(code, 1, "{out}");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["error"]["limit"], "deadline", "{envelope}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_stdio_server_gets_a_minimal_environment_and_only_the_variables_its_entry_names() {
    let _serial = serial();
    let mut entry = everything_stdio();
    entry["env"]["GRANTED_TOKEN"] = json!("${CODEMODE_PROBE_GRANTED}");
    let dir = world(json!({ "everything": entry }));
    let run = |args: &[&str], script: &str| {
        let out = common::output(
            common::command()
                .env("CODEMODE_PROBE_PRIVATE", "private-probe-value")
                .env("CODEMODE_PROBE_GRANTED", "granted-probe-value")
                .arg("--world")
                .arg(dir.path())
                .args(args),
            script,
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["mcp", "sync"], "");
    let out = run(&["exec", "-"], "return tools.everything.get_env({})");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["ok"], true, "{envelope}");
    let text = envelope["value"].to_string();
    // What a program needs to start, and what the entry passes by name; nothing else of
    // codemode's environment (a token there belongs to codemode, not to every server).
    assert!(text.contains("PATH"), "{text}");
    // The variable the entry names reached the server (its value, a `${NAME}`, masked).
    assert!(
        text.contains("GRANTED_TOKEN") && !text.contains("granted-probe-value"),
        "{text}"
    );
    // The secret the entry passes reached the server, and comes back masked.
    assert!(
        text.contains("CODEMODE_TEST_SECRET") && !text.contains(SECRET),
        "{text}"
    );
    assert!(!text.contains("private-probe-value"), "{text}");
    assert!(!text.contains("CODEMODE_PROBE_PRIVATE"), "{text}");
}

#[test]
fn a_server_that_stops_reading_fails_the_next_call_and_codemode_lives_on() {
    let _serial = serial();
    let dir = world(json!({ "deaf": fixture_server("deaf", &[]) }));
    let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}{err}");
    // The second request goes into a pipe whose reader is gone: the write fails (it does
    // not kill codemode with SIGPIPE) and the call says the server is gone.
    let script = r#"
        local first = tools.deaf.sleep({ ms = 1 })
        local ok, err = pcall(tools.deaf.sleep, { ms = 1 })
        return { first = first, ok = ok, err = tostring(err) }
    "#;
    let started = Instant::now();
    let (out, err, code) = codemode_in(dir.path(), &["exec", "--timeout-ms", "5000", "-"], script);
    assert_eq!(code, 0, "codemode ended with {code}: {out}{err}");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["value"]["first"], "last words", "{envelope}");
    assert_eq!(envelope["value"]["ok"], false, "{envelope}");
    let message = envelope["value"]["err"].as_str().unwrap();
    assert!(
        message
            .contains("MCP server 'deaf' stopped reading its stdin while deaf.sleep was running"),
        "{message}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the failed write was noticed at once, not at the deadline: {:?}",
        started.elapsed()
    );
}

#[test]
fn codemode_call_binds_shell_words_against_the_input_schema() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}{err}");
    let call = |words: &[&str]| {
        let mut args = vec!["call"];
        args.extend_from_slice(words);
        codemode_in(dir.path(), &args, "")
    };
    // Each property is a --NAME VALUE read by its type; a boolean one is also a flag.
    let (out, err, code) = call(&["everything.get_sum", "--a", "2", "--b", "40"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("The sum of 2 and 40 is 42."), "{out}");
    let (out, err, code) = call(&["everything.get_structured_content", "--location", "Chicago"]);
    assert_eq!(code, 0, "{out}{err}");
    let value: Value = serde_json::from_str(&out).unwrap();
    assert!(value["temperature"].is_number(), "{value}");
    let (out, err, code) = call(&[
        "everything.get_annotated_message",
        "--messageType",
        "success",
        "--includeImage",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("image/png"),
        "the flag asked for the image: {out}"
    );
    // One JSON word is the whole table.
    let (out, err, code) = call(&["everything.get_sum", r#"{"a": 1, "b": 2}"#]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("is 3."), "{out}");

    // Words that do not fit are refused before anything is sent (exit 2), saying what
    // the tool takes.
    for (words, needles) in [
        (
            &["everything.get_sum", "--a", "2", "--c", "3"][..],
            &[
                "unknown flag --c",
                "--a, --b",
                "codemode call everything.get_sum --help",
            ][..],
        ),
        (
            &["everything.get_sum", "--a", "two", "--b", "1"],
            &["--a: expected a number, got \"two\""],
        ),
        (
            &["everything.get_sum", "--a", "2"],
            &["--b", "a number is required"],
        ),
        (
            &["everything.get_structured_content", "--location", "Paris"],
            &["not one of: New York, Chicago, Los Angeles"],
        ),
        (
            &["everything.nope", "--a", "1"],
            &[
                "no tool named 'nope' on MCP server 'everything'",
                "codemode list 2 everything",
            ],
        ),
    ] {
        let (out, err, code) = call(words);
        assert_eq!(code, 2, "{words:?}: {out}{err}");
        for needle in needles {
            assert!(
                err.contains(needle),
                "{words:?}: {needle:?} missing from {err}"
            );
        }
    }

    // --help is the usage the binder prints for any tool, with what each field means.
    let (out, err, code) = call(&["everything.get_sum", "--help"]);
    assert_eq!(code, 0, "{out}{err}");
    for needle in [
        "usage: codemode call everything.get_sum --a NUMBER --b NUMBER",
        "--a  First number (required)",
        "Returns the sum of two numbers",
    ] {
        assert!(out.contains(needle), "{needle:?} missing from {out}");
    }
}

#[test]
fn a_bad_mcp_json_is_named_by_check_and_the_world_still_works() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".codemode")).unwrap();
    std::fs::write(
        dir.path().join(".codemode/mcp.json"),
        r#"{"mcpServers": {"broken": {"args": ["x"]}}}"#,
    )
    .unwrap();
    let (out, _, code) = codemode_in(dir.path(), &["check"], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("mcp.json") && out.contains("broken"), "{out}");
    let (out, _, code) = codemode_in(
        dir.path(),
        &["exec", "-"],
        "return tools.text.slugify('A B')",
    );
    assert_eq!(code, 0, "{out}");
    // Sync names the problem and does not claim that nothing is configured.
    let (out, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("broken"), "{err}");
    assert!(out.contains("no MCP server could be read"), "{out}");
    assert!(!out.contains("no MCP servers configured"), "{out}");
}

#[test]
fn tools_parallel_keeps_calls_in_flight_together_and_reports_each_slot() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (_, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{err}");
    // Ten calls of a one-second tool: one after the other they take ten seconds.
    let script = r#"
        local fns = {}
        for i = 1, 10 do
            fns[i] = function()
                return tools.everything.trigger_long_running_operation({ duration = 1, steps = 1 })
            end
        end
        fns[11] = function() return tools.everything.nope({}) end
        fns[12] = function() return tools.everything.get_sum({ a = 1, b = 2 }) end
        fns[13] = function() error("plain failure") end
        local r = tools.parallel(fns)
        local oks = 0
        for i = 1, 10 do
            if r[i].ok then oks += 1 end
        end
        return { oks = oks, missing = r[11].error, sum = r[12].value, failed = r[13].error, n = #r }
    "#;
    let started = Instant::now();
    let (out, err, code) = codemode_in(dir.path(), &["exec", "--timeout-ms", "30000", "-"], script);
    let took = started.elapsed();
    assert_eq!(code, 0, "{out}{err}");
    let value = &serde_json::from_str::<Value>(&out).unwrap()["value"];
    assert_eq!(value["oks"], 10, "{value}");
    assert_eq!(value["n"], 13);
    assert!(
        value["missing"]
            .as_str()
            .unwrap()
            .contains("no tool named 'nope'"),
        "{value}"
    );
    assert!(value["sum"].as_str().unwrap().contains('3'), "{value}");
    assert!(
        value["failed"].as_str().unwrap().contains("plain failure"),
        "{value}"
    );
    assert!(
        took < Duration::from_secs(6),
        "ten one-second calls took {took:?}"
    );
    // Past the deadline the run stops as a timeout, whatever is still in flight.
    let (out, _, code) = codemode_in(
        dir.path(),
        &["exec", "--timeout-ms", "500", "-"],
        "return tools.parallel({ function() return tools.everything.trigger_long_running_operation({ duration = 5, steps = 5 }) end })",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\"limit\":\"deadline\""), "{out}");
}

#[test]
fn mcp_json_limits_cancel_a_slow_call_and_its_cache_spares_the_server() {
    let _serial = serial();
    let mut limited = fixture_server("slow", &[]);
    limited["limits"] = json!({ "timeoutMs": 300 });
    let mut cached = fixture_server("slow", &[]);
    cached["tools"] =
        json!({ "sleep": { "cache": { "ttlSeconds": 600 }, "limits": { "maxOutputBytes": 8 } } });
    let dir = world(json!({ "limited": limited.clone(), "cached": cached.clone() }));
    let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}{err}");
    // The server's own limit ends the call long before the script's deadline, the request
    // is cancelled upstream, and the caller's pcall gets the timeout.
    let started = Instant::now();
    let (out, err, code) = codemode_in(
        dir.path(),
        &["exec", "--timeout-ms", "20000", "-"],
        // The server stays usable after the cancelled call (the wait that gave up is the
        // one `deadline_sends_cancelled_and_fan_out_is_bounded_per_server` watches cancel).
        // It is started first: on a loaded machine its start alone can take the 300 ms a
        // call is given, and the call after the cancelled one would wait for it too.
        "for _ = 1, 5 do
            if pcall(tools.limited.sleep, { ms = 1 }) then break end
        end
        local ok, e = pcall(tools.limited.sleep, { ms = 5000 })
        return { ok, tostring(e), tools.limited.sleep({ ms = 1 }) }",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["value"][0], false, "{envelope}");
    let message = envelope["value"][1].as_str().unwrap();
    assert!(
        message.contains("tools.limited.sleep did not answer within its own limit of 300 ms"),
        "{message}"
    );
    assert_eq!(envelope["value"][2], "slept 1 ms", "{envelope}");
    // Inside tools.parallel the limit holds too: that slot fails, the others answer.
    let started = Instant::now();
    let (out, err, code) = codemode_in(
        dir.path(),
        &["exec", "--timeout-ms", "20000", "-"],
        // The server is started first: on a loaded machine its start alone can take the
        // 300 ms a call is given, and two calls side by side would both wait for it.
        "for _ = 1, 5 do
            if pcall(tools.limited.sleep, { ms = 1 }) then break end
        end
        local r = tools.parallel({
            function() return tools.limited.sleep({ ms = 5000 }) end,
            function() return tools.limited.sleep({ ms = 1 }) end,
        })
        return { r[1].ok, r[1].error, r[2].value }",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["value"][0], false, "{envelope}");
    assert!(
        envelope["value"][1]
            .as_str()
            .unwrap_or_default()
            .contains("did not answer within its own limit of 300 ms"),
        "{envelope}"
    );
    assert_eq!(envelope["value"][2], "slept 1 ms", "{envelope}");
    // Uncaught, it is the envelope's timeout.
    let (out, _, code) = codemode_in(
        dir.path(),
        &["exec", "-"],
        "return tools.limited.sleep({ ms = 5000 })",
    );
    assert_eq!(code, 1);
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["error"]["kind"], "timeout", "{envelope}");
    // A cached upstream tool: the second process's call is a hit that starts no server.
    let script = "return tools.cached.sleep({ ms = 700 })";
    let (out, _, code) = codemode_in(dir.path(), &["exec", "-"], script);
    assert_eq!(code, 0, "{out}");
    let first: Value = serde_json::from_str(&out).unwrap();
    assert!(first["elapsedMs"].as_f64().unwrap() >= 700.0, "{first}");
    let (out, _, _) = codemode_in(dir.path(), &["exec", "-"], script);
    let second: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(second["value"], first["value"], "{second}");
    assert!(
        second["elapsedMs"].as_f64().unwrap() < 300.0,
        "a hit must not call the server: {second}"
    );
    // The same tool of the server configured otherwise (another account's token, say) is
    // not a hit: the result of one configuration is never another's.
    let configure = |cached: &Value| {
        std::fs::write(
            dir.path().join(".codemode/mcp.json"),
            json!({ "mcpServers": { "limited": limited, "cached": cached } }).to_string(),
        )
        .unwrap();
        let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
        assert_eq!(code, 0, "{synced}{err}");
    };
    let mut other = cached.clone();
    other["env"] = json!({ "CODEMODE_TEST_ACCOUNT": "bob" });
    configure(&other);
    let (out, _, _) = codemode_in(dir.path(), &["exec", "-"], script);
    let third: Value = serde_json::from_str(&out).unwrap();
    assert!(
        third["elapsedMs"].as_f64().unwrap() >= 700.0,
        "another configuration's result was used: {third}"
    );
    configure(&cached);
    // Its maxOutputBytes cuts what the caller gets, and the envelope says so.
    let (out, _, _) = codemode_in(
        dir.path(),
        &["exec", "-"],
        "return tools.cached.sleep({ ms = 1 })",
    );
    let cut: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(cut["truncated"], true, "{cut}");
    assert_eq!(cut["truncation"][0]["what"], "tools.cached.sleep", "{cut}");
    assert_eq!(cut["value"], "sle…", "{cut}");
}

/// A stdio server starts in the world, where scripts write files: neither a module a
/// script plants beside it (`python -m`) nor a server script kept in the world's files
/// may become code the server runs.
#[test]
fn a_script_cannot_plant_code_that_a_server_runs() {
    let _serial = serial();
    let python = installed().join("venv/bin/python");
    let dir = world(json!({
        "time": { "command": python.display().to_string(), "args": ["-m", "mcp_server_time"] },
        "mine": { "command": python.display().to_string(), "args": ["server.py"] }
    }));
    let planted = dir.path().join("planted");
    let (synced, _, _) = codemode_in(dir.path(), &["mcp", "sync", "time"], "");
    assert!(synced.contains("time: 2 tools"), "{synced}");
    let plant = format!(
        "vfs.write('mcp_server_time.py', 'open(\"{}\", \"w\").write(\"ran\")') return true",
        planted.display()
    );
    let (out, _, code) = codemode_in(dir.path(), &["exec", "-"], &plant);
    assert_eq!(code, 0, "{out}");
    let (out, _, code) = codemode_in(
        dir.path(),
        &["--check", "off", "exec", "-"],
        "return tools.time.get_current_time({ timezone = 'UTC' }).timezone",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"value\":\"UTC\""), "{out}");
    assert!(!planted.exists(), "the planted module ran");

    // A server whose code is a file of the world is refused, named with the fix.
    let (checked, _, code) = codemode_in(dir.path(), &["check", "--no-bundled"], "");
    assert_eq!(code, 1, "{checked}");
    assert!(
        checked
            .contains("server 'mine': its args[0] (\"server.py\") names a file inside the world"),
        "{checked}"
    );
    assert!(checked.contains("allowWorldAccess"), "{checked}");
    let (out, _, _) = codemode_in(
        dir.path(),
        &["--check", "off", "exec", "-"],
        "vfs.write('server.py', 'print(1)') return tools.mine",
    );
    assert!(out.contains("a file inside the world"), "{out}");
}

/// A file server given a folder of the world (as the guard advises) writes there for any
/// script that may call it, so a toolbox folder inside it is not a tool: a script limited
/// to the server's tools cannot plant one that another profile's scripts would call.
#[test]
fn a_toolbox_planted_through_a_file_server_is_not_a_tool() {
    let _serial = serial();
    let dir = world(json!({
        "files": { "command": "node", "args": [package("server-filesystem"), "./data"] }
    }));
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(
        dir.path().join(".codemode/policy.json"),
        r#"{ "profiles": { "default": { "default": "allow" },
                "filer": { "default": "deny", "allow": ["files.*"],
                "capabilities": { "authoring": false, "vfsWrite": false } } } }"#,
    )
    .unwrap();
    let (synced, _, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}");
    let data = dir.path().canonicalize().unwrap().join("data");
    let plant = format!(
        "local at = '{}/text.toolbox/slugify.tool' \
         tools.files.create_directory({{ path = at }}) \
         tools.files.write_file({{ path = at .. '/init.luau', content = '--!desc Planted.\\nreturn function(s: string): string return \"planted\" end\\n' }}) \
         return true",
        data.display()
    );
    let (out, _, code) = codemode_in(
        dir.path(),
        &["--profile", "filer", "--check", "off", "exec", "-"],
        &plant,
    );
    assert_eq!(code, 0, "{out}");
    assert!(data.join("text.toolbox/slugify.tool/init.luau").is_file());

    let (out, _, code) = codemode_in(
        dir.path(),
        &["exec", "-"],
        "return tools.text.slugify('Hello World')",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"value\":\"hello-world\""), "{out}");
    let (checked, _, _) = codemode_in(dir.path(), &["check"], "");
    assert!(
        checked.contains("data/text.toolbox: this toolbox folder is inside data, the folder MCP server 'files' is given"),
        "{checked}"
    );
}

/// A world with a cached upstream tool (`cached.sleep`), the same server uncached
/// (`plain.sleep`) and a cached folder tool that relays `plain.sleep` with the contract.
fn cached_parallel_world() -> tempfile::TempDir {
    let mut cached = fixture_server("slow", &[]);
    cached["tools"] = json!({ "sleep": { "cache": { "ttlSeconds": 600 } } });
    let dir = world(json!({ "cached": cached, "plain": fixture_server("slow", &[]) }));
    let tool = dir.path().join("relay.toolbox/sleepy.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "--!desc Sleeps through the plain server and reports it.\n\
         --!arg ms number How long.\n\
         --!return any The report.\n\
         local function sleepy(ms: number): any\n\
         \tlocal said = tools.plain.sleep({ ms = ms })\n\
         \treturn { brief = `relayed {said}`, raw = said, indexTerms = { \"relay\" } }\n\
         end\n\
         return sleepy\n",
    )
    .unwrap();
    std::fs::write(tool.join(".metadata"), r#"{"cache": {"ttlSeconds": 600}}"#).unwrap();
    let (synced, err, code) = codemode_in(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{synced}{err}");
    dir
}

fn exec_value(dir: &Path, script: &str) -> Value {
    let (out, err, code) = codemode_in(dir, &["exec", "--timeout-ms", "30000", "-"], script);
    assert_eq!(code, 0, "{out}{err}");
    serde_json::from_str::<Value>(&out).unwrap()["value"].clone()
}

#[test]
fn a_slot_of_tools_parallel_cannot_forge_what_a_cached_call_keeps() {
    let _serial = serial();
    let dir = cached_parallel_world();
    // Two slots wait on cached calls (an upstream tool, and a folder tool whose upstream
    // call is in flight); a third holds their coroutines and tries every way to resume or
    // close them with a forged answer. Each try is refused and the real answers are kept.
    let script = r#"
        local held = {}
        local forged = { brief = "FORGED", raw = "FORGED", indexTerms = { "forged" } }
        local r = tools.parallel({
            function() held[1] = coroutine.running(); return tools.cached.sleep({ ms = 400 }) end,
            function() held[2] = coroutine.running(); return tools.relay.sleepy(400) end,
            function()
                local refused = 0
                for _, co in held do
                    local tries = {
                        table.pack(pcall(coroutine.resume, co, true, forged)),
                        table.pack(pcall(coroutine.wrap(function()
                            return coroutine.resume(co, true, "FORGED")
                        end))),
                        table.pack(pcall(coroutine.close, co)),
                    }
                    for _, t in tries do
                        if not t[1] and string.find(tostring(t[2]), "is the engine's", 1, true) then
                            refused += 1
                        end
                    end
                end
                return refused
            end,
        })
        return {
            r[1].value, r[2].value, r[3].value,
            #tools.results.search("forged"), #tools.results.search(""),
        }
    "#;
    let value = exec_value(dir.path(), script);
    assert_eq!(value[0], "slept 400 ms", "{value}");
    assert_eq!(value[1], "relayed slept 400 ms", "{value}");
    assert_eq!(value[2], 6, "every try refused: {value}");
    assert_eq!(value[3], 0, "no forged row: {value}");
    assert_eq!(value[4], 2, "both real results kept: {value}");
    // Another process reads back the real results, not a forged one.
    let value = exec_value(
        dir.path(),
        "local brief, key = tools.relay.sleepy(400)
         return { tools.cached.sleep({ ms = 400 }), brief, tools.results.get(key).raw }",
    );
    assert_eq!(
        value,
        json!(["slept 400 ms", "relayed slept 400 ms", "slept 400 ms"])
    );
}

#[test]
fn cached_calls_inside_tools_parallel_stay_in_flight_together_and_are_kept() {
    let _serial = serial();
    let dir = cached_parallel_world();
    // Start the servers first: their start is not what is measured.
    exec_value(
        dir.path(),
        "return { tools.plain.sleep({ ms = 1 }), tools.cached.sleep({ ms = 1 }) }",
    );
    // Four cached upstream calls and two cached folder tools relaying upstream calls, a
    // nested tools.parallel among them: one after the other they take six seconds.
    let script = r#"
        local fns = {}
        for i = 1, 4 do
            fns[i] = function() return tools.cached.sleep({ ms = 1000 + i }) end
        end
        fns[5] = function() return (tools.relay.sleepy(1005)) end
        fns[6] = function()
            local inner = tools.parallel({ function() return tools.relay.sleepy(1006) end })
            return inner[1].value
        end
        local r = tools.parallel(fns)
        local out = {}
        for i, slot in r do
            out[i] = slot.value or slot.error
        end
        return out
    "#;
    let expected = json!([
        "slept 1001 ms",
        "slept 1002 ms",
        "slept 1003 ms",
        "slept 1004 ms",
        "relayed slept 1005 ms",
        "relayed slept 1006 ms"
    ]);
    let started = Instant::now();
    assert_eq!(exec_value(dir.path(), script), expected);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(4),
        "six one-second calls took {took:?}"
    );
    // The second run is all hits.
    let started = Instant::now();
    assert_eq!(exec_value(dir.path(), script), expected);
    let took = started.elapsed();
    assert!(took < Duration::from_millis(900), "hits took {took:?}");
}
