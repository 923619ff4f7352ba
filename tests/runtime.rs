//! The runtime in-process: isolation between runs, tools, and the index.

mod common;

use codemode::{ErrorKind, Limits, Output, Runtime};
use common::World;

fn runtime(world: &World) -> Runtime {
    common::runtime(world.path(), &[], true, Limits::default())
}

#[test]
fn random_numbers_never_carry_from_one_run_to_the_next() {
    let world = World::new();
    let mut rt = runtime(&world);
    let draw = "return { math.random(1, 2^30), math.random(1, 2^30), math.random() }";
    // What a run sees right after seeding 1234 ...
    let seeded = rt.exec(&format!("math.randomseed(1234) {draw}"), Output::Capture);
    // ... must not be what the next run sees when an earlier run seeded 1234.
    for _ in 0..3 {
        let planted = rt.exec("math.randomseed(1234) return 0", Output::Capture);
        assert!(planted.ok, "{}", planted.to_json());
        let next = rt.exec(draw, Output::Capture);
        assert_ne!(
            next.value, seeded.value,
            "run 2 drew run 1's seeded numbers"
        );
    }
    // Two runs in a row draw different numbers, too.
    let a = rt.exec(draw, Output::Capture);
    let b = rt.exec(draw, Output::Capture);
    assert_ne!(a.value, b.value);
}

#[test]
fn globals_never_leak_between_runs() {
    let world = World::new();
    let mut rt = runtime(&world);
    let first = rt.exec(
        "leaked = 42; _G.other = 1; string_copy = string; return leaked",
        Output::Capture,
    );
    assert_eq!(first.value, Some(serde_json::json!(42)));
    let second = rt.exec(
        "return {leaked == nil, other == nil, string_copy == nil}",
        Output::Capture,
    );
    assert_eq!(
        second.value,
        Some(serde_json::json!([true, true, true])),
        "{}",
        second.to_json()
    );
}

#[test]
fn loadstring_chunks_stay_in_their_run() {
    let world = World::new();
    let mut rt = runtime(&world);
    rt.exec("loadstring('sneaky = 1')()", Output::Capture);
    let second = rt.exec("return sneaky == nil", Output::Capture);
    assert_eq!(second.value, Some(serde_json::json!(true)));
}

#[test]
fn tool_module_state_is_fresh_every_run() {
    let world = World::new();
    world.tool(
        "state.counter",
        "local count = 0\n--!desc Count calls.\n--!return number Calls so far.\nlocal function counter(): number\n\tcount += 1\n\treturn count\nend\nreturn counter\n",
    );
    let mut rt = runtime(&world);
    let first = rt.exec(
        "tools.state.counter() return tools.state.counter()",
        Output::Capture,
    );
    assert_eq!(first.value, Some(serde_json::json!(2)));
    let second = rt.exec("return tools.state.counter()", Output::Capture);
    assert_eq!(
        second.value,
        Some(serde_json::json!(1)),
        "tool state leaked into the next run"
    );
}

#[test]
fn a_broken_tool_is_listed_but_never_hides_its_neighbours() {
    let world = World::new();
    world
        .tool(
            "box.good",
            "--!desc Works.\nlocal function good(): string\n\treturn 'ok'\nend\nreturn good\n",
        )
        .tool("box.syntax", "local function f(\nreturn f\n")
        .tool("box.nofn", "return 42\n")
        .tool("box.planned", "local function p() end\nreturn p\n")
        .file(
            "box.toolbox/planned.tool/.metadata",
            r#"{"status": "planned"}"#,
        )
        .tool("box.badmeta", "local function b() end\nreturn b\n")
        .file("box.toolbox/badmeta.tool/.metadata", "{not json")
        .tool("box.runtimenil", "return (function() return nil end)()\n");
    let mut rt = runtime(&world);
    let env = rt.exec(
        "local rows = {} for _, r in tools.list(3, 'box').value do rows[r.name] = r end\n\
         return {rows = rows, good = tools.box.good(), callable = tools.callable('box', 'syntax')}",
        Output::Capture,
    );
    let v = env.value.expect("list ran");
    assert_eq!(v["good"], "ok");
    assert!(v["callable"].is_null());
    assert_eq!(v["rows"]["good"]["registered"], true);
    for broken in ["syntax", "nofn", "planned", "badmeta"] {
        assert_eq!(
            v["rows"][broken]["registered"], false,
            "{broken} should be unregistered: {v}"
        );
        assert!(
            v["rows"][broken]["reason"].is_string(),
            "{broken} has no reason"
        );
    }
    assert!(v["rows"]["nofn"]["reason"]
        .as_str()
        .unwrap()
        .contains("return"));
    assert!(v["rows"]["planned"]["reason"]
        .as_str()
        .unwrap()
        .contains("planned"));
    let call = rt.exec("return tools.box.syntax()", Output::Capture);
    let error = call.error.expect("calling a broken tool fails");
    assert_eq!(error.kind, ErrorKind::Runtime);
    assert!(error.message.contains("not callable"), "{}", error.message);
    let dynamic = rt.exec("return tools.box.runtimenil()", Output::Capture);
    assert!(dynamic.error.unwrap().message.contains("not a function"));
}

#[test]
fn world_shadows_library_and_shared_module_resolves_per_toolbox() {
    let world = World::new();
    let lib = World::new();
    lib.file(
        "t.toolbox/shared.module/init.luau",
        "return { who = 'library' }",
    )
    .tool(
        "t.which",
        "local shared = require('.shared')\nreturn function() return shared.who end",
    )
    .tool(
        "t.other",
        "local shared = require('.shared')\nreturn function() return shared.who end",
    );
    world
        .file(
            "t.toolbox/shared.module/init.luau",
            "return { who = 'world' }",
        )
        .tool(
            "t.which",
            "local shared = require('.shared')\nreturn function() return shared.who end",
        );
    let mut rt = common::runtime(
        world.path(),
        &[lib.path().to_path_buf()],
        false,
        Limits::default(),
    );
    let env = rt.exec(
        "return {tools.t.which(), tools.t.other(), tools.get('t.which').from}",
        Output::Capture,
    );
    assert_eq!(
        env.value,
        Some(serde_json::json!(["world", "library", "world"])),
        "{}",
        env.to_json()
    );
}

#[test]
fn memory_breach_leaves_a_working_runtime() {
    let world = World::new();
    let limits = Limits {
        memory_bytes: 32 << 20,
        ..Limits::default()
    };
    let mut rt = common::runtime(world.path(), &[], true, limits);
    for _ in 0..3 {
        let bomb = rt.exec(
            "local t = {} while true do table.insert(t, string.rep('x', 1000)) end",
            Output::Capture,
        );
        assert_eq!(bomb.error.unwrap().kind, ErrorKind::Memory);
        let after = rt.exec("return #tools.toolboxes().value >= 0", Output::Capture);
        assert_eq!(
            after.value,
            Some(serde_json::json!(true)),
            "{}",
            after.to_json()
        );
    }
}

#[test]
fn writes_stop_before_the_disk_holding_the_world_fills() {
    // Each run's write budget is bounded, but runs follow one another: past the free-space
    // floor every write is refused, saying why, and nothing is written.
    let world = World::new();
    let limits = Limits {
        min_free_disk_bytes: u64::MAX,
        ..Limits::default()
    };
    let mut rt = common::runtime(world.path(), &[], true, limits);
    let refused = rt.exec("vfs.write('junk.txt', 'x') return 1", Output::Capture);
    let error = refused.error.expect("the write was allowed");
    assert!(error.message.contains("MiB free"), "{}", error.message);
    assert!(error.hint.unwrap().contains("free space"));
    assert!(!world.path().join("junk.txt").exists());
    let created = rt.exec(
        "return tools.create({ toolbox = 'mine', name = 'x', description = 'X.', code = 'return 1' })",
        Output::Capture,
    );
    assert!(
        !world.path().join("mine.toolbox").exists(),
        "{}",
        created.to_json()
    );
}

#[test]
fn a_tool_can_only_require_its_own_toolbox_modules() {
    let world = World::new();
    world
        .file("a.toolbox/shared.module/init.luau", "return { secret = 'a' }")
        .file("b.toolbox/shared.module/init.luau", "return { secret = 'b' }")
        .file("outside.luau", "return 'escaped'")
        .tool(
            "b.probe",
            "return function(path: string) local ok, v = pcall(require, path) return ok and v or tostring(v) end",
        );
    let mut rt = runtime(&world);
    for path in [
        "../a.toolbox/shared.module",
        "../../outside",
        "/etc/passwd",
        "@self/../a",
        ".a",
        "a",
    ] {
        let env = rt.exec(&format!("return tools.b.probe({path:?})"), Output::Capture);
        let value = env.value.unwrap_or_default();
        let text = value.as_str().unwrap_or_default();
        assert!(
            text.contains("no such module"),
            "require({path}) gave {value}"
        );
    }
    let own = rt.exec("return tools.b.probe('.shared')", Output::Capture);
    assert_eq!(
        own.value,
        Some(serde_json::json!({"secret": "b"})),
        "{}",
        own.to_json()
    );
}

#[test]
fn the_largest_file_a_run_reads_or_writes_is_a_limit() {
    let world = World::new();
    world.file("big.txt", &"x".repeat(2000));
    let limits = Limits {
        max_file_bytes: 1024,
        ..Limits::default()
    };
    let mut rt = common::runtime(world.path(), &[], false, limits);
    let small = rt.exec(
        "vfs.write('small.txt', string.rep('y', 1000)) return #vfs.read('small.txt')",
        Output::Capture,
    );
    assert_eq!(
        small.value,
        Some(serde_json::json!(1000)),
        "{}",
        small.to_json()
    );
    for script in [
        "return vfs.read('big.txt')",
        "return vfs.write('large.txt', string.rep('y', 1025))",
        "return tools.createToolbox({ name = 'box', description = 'a box' }) and tools.create({ toolbox = 'box', name = 'huge', description = 'too big', code = 'return ' .. string.rep(' ', 2000) .. '1' })",
    ] {
        let env = rt.exec(script, Output::Capture);
        // Raised (vfs) or answered as a refusal (tools.create): either way it names the cap.
        let text = env.to_json().to_string();
        assert!(text.contains("1024 bytes"), "{script}: {text}");
    }
    assert!(!world.path().join("large.txt").exists());
}
