//! The result cache and per-tool limits, through the real binary: hits that do not run
//! the tool (it counts its runs in a file), across processes and restarts; edits and
//! time to live; two processes writing one store at once; a corrupt and a locked store,
//! which cost the cache and never the run; `codemode cache stats|clear`; and limits that
//! `codemode check` reports when malformed.

use super::common;

use std::path::Path;
use std::time::Duration;

use common::{codemode, exec, text, World};
use serde_json::{json, Value};

/// A world with `t.double`, cached for `ttl` seconds, which counts its runs in runs.txt.
fn world(ttl: u64) -> World {
    let world = World::new();
    world.file("t.toolbox/README.md", "Test tools.\n");
    world.tool(
        "t.double",
        r#"--!desc Doubles x, counting its runs in runs.txt.
local function double(x: number): number
	local n = if vfs.exists("runs.txt") then tonumber(vfs.read("runs.txt")) else 0
	vfs.write("runs.txt", tostring(n + 1))
	return x * 2
end
return double
"#,
    );
    world.file(
        "t.toolbox/double.tool/.metadata",
        &json!({ "cache": { "ttlSeconds": ttl } }).to_string(),
    );
    world
}

fn runs(world: &Path) -> u32 {
    std::fs::read_to_string(world.join("runs.txt"))
        .map(|t| t.trim().parse().unwrap())
        .unwrap_or(0)
}

fn value_of(world: &Path, script: &str) -> Value {
    let (envelope, code) = exec(world, &["--no-bundled"], script);
    assert_eq!(code, 0, "{envelope}");
    envelope["value"].clone()
}

#[test]
fn a_hit_runs_nothing_and_survives_a_restart_an_edit_invalidates() {
    let w = world(600);
    assert_eq!(value_of(w.path(), "return tools.t.double(21)"), json!(42));
    assert_eq!(runs(w.path()), 1);
    // Another process: the store is on disk, so the call is a hit.
    assert_eq!(value_of(w.path(), "return tools.t.double(21)"), json!(42));
    assert_eq!(runs(w.path()), 1, "a hit must not run the tool");
    // Editing the tool changes its stamp: the next call runs the new version.
    let init = w.path().join("t.toolbox/double.tool/init.luau");
    let source = std::fs::read_to_string(&init).unwrap();
    std::fs::write(&init, source.replace("return x * 2", "return x * 3")).unwrap();
    assert_eq!(value_of(w.path(), "return tools.t.double(21)"), json!(63));
    assert_eq!(runs(w.path()), 2);
    // `codemode call` goes through the same cache.
    let out = codemode(w.path(), &["--no-bundled", "call", "t.double", "21"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "63");
    assert_eq!(runs(w.path()), 2);
}

#[test]
fn editing_a_module_the_tool_requires_invalidates_its_results() {
    let w = World::new();
    w.file(
        "m.toolbox/shared.module/init.luau",
        "return { factor = 2 }\n",
    );
    w.tool(
        "m.scale",
        "--!desc Scales x by the shared factor.\nlocal shared = require(\".shared\")\nlocal function scale(x: number): number\n\treturn x * shared.factor\nend\nreturn scale\n",
    );
    w.file(
        "m.toolbox/scale.tool/.metadata",
        &json!({ "cache": { "ttlSeconds": 600 } }).to_string(),
    );
    assert_eq!(value_of(w.path(), "return tools.m.scale(21)"), json!(42));
    w.file(
        "m.toolbox/shared.module/init.luau",
        "return { factor = 3 }\n",
    );
    assert_eq!(value_of(w.path(), "return tools.m.scale(21)"), json!(63));
}

#[test]
fn a_function_resolved_before_its_files_changed_keeps_no_result() {
    // A script resolves the tool while its file says `x * 999`, puts the file back byte
    // for byte, and calls: the result must not be stored under the restored file's stamp.
    let w = world(600);
    let poison = r#"
local p = "t.toolbox/double.tool/init.luau"
local original = vfs.read(p)
vfs.write(p, (string.gsub(original, "return x %* 2", "return x * 999")))
local f = tools.t.double
vfs.write(p, original)
return f(1)
"#;
    assert_eq!(value_of(w.path(), poison), json!(999));
    assert_eq!(
        value_of(w.path(), "return tools.t.double(1)"),
        json!(2),
        "a result of the changed version was kept under the original's stamp"
    );
    // The original version's own results are still cached.
    let before = runs(w.path());
    assert_eq!(value_of(w.path(), "return tools.t.double(1)"), json!(2));
    assert_eq!(runs(w.path()), before, "a hit must not run the tool");
}

#[test]
fn cuts_of_many_tools_are_named_for_the_first_few_and_counted_for_the_rest() {
    // A run may call hundreds of tools that cut their results; the envelope stays small.
    let w = World::new();
    w.file("t.toolbox/README.md", "Test tools.\n");
    for i in 0..12 {
        w.tool(
            &format!("t.long{i}"),
            "--!desc A long text.\nlocal function long(): string\n\treturn string.rep('x', 100)\nend\nreturn long\n",
        );
        w.file(
            &format!("t.toolbox/long{i}.tool/.metadata"),
            &json!({ "limits": { "maxOutputBytes": 10 } }).to_string(),
        );
    }
    let script = "local n = 0 for i = 0, 11 do n += #tools.t['long' .. i]() end return n";
    let (envelope, code) = exec(w.path(), &["--no-bundled"], script);
    assert_eq!(code, 0, "{envelope}");
    let cuts = envelope["truncation"].as_array().unwrap();
    assert_eq!(cuts.len(), 9, "{envelope}");
    assert_eq!(
        cuts[8]["note"],
        "results of 4 more tools were cut to their own limits"
    );
}

#[test]
fn a_result_past_its_time_to_live_is_not_returned() {
    let w = world(1);
    value_of(w.path(), "return tools.t.double(1)");
    value_of(w.path(), "return tools.t.double(1)");
    assert_eq!(runs(w.path()), 1);
    std::thread::sleep(Duration::from_millis(1100));
    value_of(w.path(), "return tools.t.double(1)");
    assert_eq!(runs(w.path()), 2, "an expired result must not be returned");
}

#[test]
fn two_processes_write_one_store_at_once_without_corrupting_it() {
    let w = world(600);
    // Both write 150 results, 100 of them the same calls, at the same time.
    let script = |offset: u32| {
        format!(
            "local sum = 0\nfor i = 1, 150 do sum += tools.t.double((i + {offset}) % 200) end\nreturn sum"
        )
    };
    let spawn = |script: String| {
        let path = w.path().to_path_buf();
        std::thread::spawn(move || exec(&path, &["--no-bundled"], &script))
    };
    let (a, b) = (spawn(script(0)), spawn(script(50)));
    for (envelope, code) in [a.join().unwrap(), b.join().unwrap()] {
        assert_eq!(code, 0, "{envelope}");
        assert!(envelope["value"].as_f64().unwrap() > 0.0, "{envelope}");
    }
    let path = w.path().join(".codemode/results.db");
    let store = crate::results::Store::open(&path, crate::results::DEFAULT_CAP_BYTES).unwrap();
    store.check().unwrap();
    let stats = store.stats(0).unwrap();
    assert_eq!(
        stats.entries, 200,
        "every distinct call was kept once: {stats:?}"
    );
    // A third process finds all of them: the tool does not run.
    let before = runs(w.path());
    value_of(w.path(), &script(0));
    value_of(w.path(), &script(50));
    assert_eq!(runs(w.path()), before);
}

#[test]
fn a_corrupt_store_costs_the_cache_with_one_warning_and_clear_recovers() {
    let w = world(600);
    std::fs::create_dir_all(w.path().join(".codemode")).unwrap();
    let garbage: Vec<u8> = (0..20_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(w.path().join(".codemode/results.db"), garbage).unwrap();
    let out = codemode(
        w.path(),
        &["--no-bundled", "exec"],
        "return { tools.t.double(1), tools.t.double(1), tools.t.double(1) }",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(common::envelope(&out)["value"], json!([2, 2, 2]));
    assert_eq!(runs(w.path()), 3, "no cache: the tool runs every time");
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("result cache not used").count(),
        1,
        "one warning:\n{stderr}"
    );
    assert!(
        stderr.contains("not a result cache") && stderr.contains("codemode cache clear"),
        "{stderr}"
    );
    // stats says what is wrong and what to do; clear deletes it; caching resumes.
    let stats = codemode(w.path(), &["cache", "stats"], "");
    assert_eq!(stats.status.code(), Some(2));
    assert!(
        text(&stats.stderr).contains("delete it"),
        "{}",
        text(&stats.stderr)
    );
    let clear = codemode(w.path(), &["cache", "clear"], "");
    assert!(clear.status.success(), "{}", text(&clear.stderr));
    assert!(
        text(&clear.stdout).contains("deleted"),
        "{}",
        text(&clear.stdout)
    );
    value_of(w.path(), "return { tools.t.double(1), tools.t.double(1) }");
    assert_eq!(runs(w.path()), 4);
}

#[test]
fn a_locked_store_costs_the_cache_not_the_run() {
    let w = world(600);
    value_of(w.path(), "return tools.t.double(5)");
    let db = rusqlite::Connection::open(w.path().join(".codemode/results.db")).unwrap();
    db.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let out = codemode(
        w.path(),
        &["--no-bundled", "exec"],
        "return tools.t.double(6)",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(common::envelope(&out)["value"], json!(12));
    assert!(
        text(&out.stderr).contains("locked by another process"),
        "{}",
        text(&out.stderr)
    );
    db.execute_batch("COMMIT").unwrap();
    // Free again: the result of 5 was kept before, 6 is kept now.
    value_of(
        w.path(),
        "return { tools.t.double(5), tools.t.double(6), tools.t.double(6) }",
    );
    assert_eq!(runs(w.path()), 3);
}

#[test]
fn cache_stats_and_clear_report_what_is_kept() {
    let w = world(600);
    let out = codemode(w.path(), &["cache", "stats"], "");
    assert!(
        text(&out.stdout).contains("no result cache yet"),
        "{}",
        text(&out.stdout)
    );
    value_of(w.path(), "for i = 1, 3 do tools.t.double(i) end return 0");
    let out = codemode(w.path(), &["cache", "stats", "--json"], "");
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["entries"], 3, "{stats}");
    assert_eq!(stats["tools"], json!([["t.double", 3]]));
    let out = codemode(w.path(), &["cache", "clear"], "");
    assert_eq!(
        text(&out.stdout).lines().next(),
        Some(
            format!(
                "removed 3 results from {}",
                w.path().join(".codemode/results.db").display()
            )
            .as_str()
        )
    );
    value_of(w.path(), "return tools.t.double(1)");
    assert_eq!(runs(w.path()), 4, "cleared: the call runs again");
    // Scripts cannot reach the store through vfs.
    let (envelope, _) = exec(
        w.path(),
        &["--no-bundled"],
        "return vfs.read('.codemode/results.db')",
    );
    assert_eq!(envelope["ok"], false, "{envelope}");
}

#[test]
fn malformed_limits_and_cache_are_reported_by_check_and_the_tool_is_not_callable() {
    let w = world(600);
    w.tool(
        "t.odd",
        "--!desc Odd.\nlocal function odd(): number\n\treturn 1\nend\nreturn odd\n",
    );
    w.file(
        "t.toolbox/odd.tool/.metadata",
        r#"{"limits": {"timeoutMs": 0}, "cache": {"ttl": 5}}"#,
    );
    let out = codemode(w.path(), &["--no-bundled", "check"], "");
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout) + &text(&out.stderr);
    assert!(
        report.contains("t.odd")
            && report.contains("limits.timeoutMs is 0; give a whole number from 1"),
        "{report}"
    );
    let (envelope, code) = exec(w.path(), &["--no-bundled"], "return tools.t.odd()");
    assert_eq!(code, 1);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not callable"),
        "{envelope}"
    );
    // Its neighbours still work.
    assert_eq!(value_of(w.path(), "return tools.t.double(2)"), json!(4));
}

#[test]
fn a_tool_timeout_is_an_envelope_timeout_naming_the_tool_and_its_limit() {
    let w = World::new();
    w.tool(
        "t.spin",
        "--!desc Spins.\nlocal function spin(): number\n\twhile true do end\nend\nreturn spin\n",
    );
    w.file(
        "t.toolbox/spin.tool/.metadata",
        r#"{"limits": {"timeoutMs": 80}}"#,
    );
    let started = std::time::Instant::now();
    let (envelope, code) = exec(
        w.path(),
        &["--no-bundled", "--timeout-ms", "20000"],
        "return tools.t.spin()",
    );
    assert_eq!(code, 1);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let error = &envelope["error"];
    assert_eq!(error["kind"], "timeout", "{envelope}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("tools.t.spin ran past its own time limit of 80 ms"),
        "{envelope}"
    );
    assert!(
        error["hint"].as_str().unwrap().contains("limits.timeoutMs"),
        "{envelope}"
    );
    // The tool's limit is its own, not the run's: no deadline flag is named.
    assert!(error.get("limit").is_none(), "{envelope}");
    // Through `codemode call` too.
    let out = codemode(w.path(), &["--no-bundled", "call", "t.spin"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("own time limit of 80 ms")
            || text(&out.stdout).contains("own time limit of 80 ms"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn a_store_shipped_as_a_link_or_a_fifo_is_refused_by_stats_and_removed_by_clear() {
    use std::os::unix::fs::symlink;
    let w = world(600);
    let settings = w.path().join(".codemode");
    std::fs::create_dir_all(&settings).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let theirs = outside.path().join("their.db");
    std::fs::write(&theirs, "the user's own file").unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(settings.join("results.db"))
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo");
    symlink(&theirs, settings.join("results.db-wal")).unwrap();
    // Bounded: a FIFO opened for reading would wait for a writer forever.
    let within = |args: &[&str]| {
        let mut command = std::process::Command::new("timeout");
        command
            .arg("20")
            .arg(common::bin())
            .arg("--world")
            .arg(w.path());
        common::output(command.args(args), "")
    };

    let stats = within(&["cache", "stats"]);
    assert_eq!(stats.status.code(), Some(2), "{}", text(&stats.stderr));
    let said = text(&stats.stderr);
    assert!(
        said.contains("results.db (it is a FIFO")
            && said.contains("`codemode cache clear` removes it"),
        "{said}"
    );

    let clear = within(&["cache", "clear"]);
    assert!(clear.status.success(), "{}", text(&clear.stderr));
    let said = text(&clear.stdout);
    assert!(
        said.contains("removed ") && said.contains("results.db-wal (it is a symbolic link"),
        "{said}"
    );
    assert!(std::fs::symlink_metadata(settings.join("results.db")).is_err());
    assert!(std::fs::symlink_metadata(settings.join("results.db-wal")).is_err());
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "the user's own file",
        "the link was removed, not what it pointed to"
    );
    // Caching resumes in a store of the world's own.
    value_of(w.path(), "return { tools.t.double(2), tools.t.double(2) }");
    assert_eq!(runs(w.path()), 1);

    // A dangling link is no store yet; a folder is refused, its contents left alone, and
    // the index caches are cleared all the same.
    std::fs::remove_file(settings.join("results.db")).unwrap();
    symlink(outside.path().join("gone.db"), settings.join("results.db")).unwrap();
    let stats = within(&["cache", "stats"]);
    assert_eq!(stats.status.code(), Some(2), "{}", text(&stats.stdout));
    assert!(text(&stats.stderr).contains("(it is a symbolic link"));
    std::fs::remove_file(settings.join("results.db")).unwrap();
    std::fs::create_dir(settings.join("results.db")).unwrap();
    std::fs::write(settings.join("results.db/mine.txt"), "kept").unwrap();
    std::fs::create_dir_all(settings.join("cache/assets")).unwrap();
    let clear = within(&["cache", "clear"]);
    assert_eq!(clear.status.code(), Some(2), "{}", text(&clear.stdout));
    assert!(
        text(&clear.stderr).contains("(it is a folder") && text(&clear.stderr).contains("by hand"),
        "{}",
        text(&clear.stderr)
    );
    assert!(settings.join("results.db/mine.txt").exists());
    assert!(
        !settings.join("cache/assets").exists(),
        "the index caches were cleared"
    );
}

#[test]
fn a_cached_row_read_in_a_later_run_is_cut_to_its_tool_cap_and_the_envelope_says_so() {
    let w = World::new();
    w.file("t.toolbox/README.md", "Test tools.\n");
    w.tool(
        "t.report",
        "--!desc A short brief and a long raw result.\nlocal function report(): any\n\treturn { brief = 'short', raw = string.rep('r', 200000), indexTerms = { 'report' } }\nend\nreturn report\n",
    );
    w.file(
        "t.toolbox/report.tool/.metadata",
        &json!({ "cache": { "ttlSeconds": 600 }, "limits": { "maxOutputBytes": 100 } }).to_string(),
    );
    let key = value_of(w.path(), "local brief, key = tools.t.report() return key");
    assert_eq!(
        key.as_str().map(str::len),
        Some(32),
        "the key is never cut: {key}"
    );
    for script in [
        "return tools.results.search('')[1].raw",
        "return tools.results.search('report')[1].raw",
        &format!("return tools.results.get('{}').raw", key.as_str().unwrap()),
    ] {
        let (envelope, code) = exec(w.path(), &["--no-bundled"], script);
        assert_eq!(code, 0, "{envelope}");
        let raw = envelope["value"].as_str().unwrap();
        assert!(
            raw.len() < 120 && raw.ends_with('…'),
            "{script}: {} bytes",
            raw.len()
        );
        assert_eq!(envelope["truncated"], true, "{envelope}");
        assert_eq!(
            envelope["truncation"][0]["what"], "tools.t.report",
            "{envelope}"
        );
    }
    // Once the tool is gone, its limits are unknown: its rows are not handed out.
    std::fs::remove_dir_all(w.path().join("t.toolbox/report.tool")).unwrap();
    assert_eq!(value_of(w.path(), "return #tools.results.search('')"), 0);
}
