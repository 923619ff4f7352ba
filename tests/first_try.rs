//! What a new author or agent meets on day one: signatures read from the function the file
//! returns, tools that return no function reported as not callable everywhere, exact
//! identities, and authoring calls that refuse what cannot work.

mod common;

use common::{codemode, exec, World};
use serde_json::json;

const NESTED: &str = "local function f()\n\tlocal function f(a, b)\n\t\treturn a\n\tend\n\treturn f\nend\n\nreturn f\n";

#[test]
fn the_signature_is_that_of_the_returned_function_not_a_nested_one() {
    let world = World::new();
    world.tool("demo.f", NESTED);
    let (envelope, _) = exec(
        world.path(),
        &[],
        "return { sig = tools.get('demo.f').signature, args = #tools.get('demo.f').args }",
    );
    assert_eq!(
        envelope["value"],
        json!({ "sig": "f()", "args": 0 }),
        "{envelope}"
    );
    let out = codemode(world.path(), &["list", "3", "demo"], "");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains("tools.demo.f()"), "{listed}");
    assert!(!listed.contains("a: any"), "{listed}");
}

#[test]
fn a_tool_that_returns_no_function_is_not_callable_and_check_names_it() {
    let world = World::new();
    world
        .tool("demo.viaLocal", "local x = 1\nreturn x\n")
        .tool(
            "demo.viaCall",
            "local function make() return 5 end\nreturn make()\n",
        )
        .tool(
            "demo.good",
            "local function make() return function() return 1 end end\nreturn make()\n",
        );
    let (envelope, _) = exec(
        world.path(),
        &[],
        r#"local m = tools.get("demo.viaLocal")
           return { callable = tools.callable("demo", "viaLocal"), viaCall = tools.callable("demo", "viaCall"),
                    good = tools.callable("demo", "good"), registered = m.registered, reason = m.reason }"#,
    );
    assert_eq!(
        envelope["value"],
        json!({
            "good": "demo.good",
            "registered": false,
            "reason": "tool demo.viaLocal: init.luau returned an integer, not a function"
        }),
        "{envelope}"
    );
    let out = codemode(world.path(), &["check", "--no-bundled"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error: demo.viaLocal"), "{text}");
    assert!(text.contains("error: demo.viaCall"), "{text}");
    assert!(!text.contains("error: demo.good"), "{text}");
    assert!(
        text.contains("3 tools in 1 toolbox: 1 callable, 2 problems"),
        "{text}"
    );
}

#[test]
fn a_tool_whose_loading_loops_is_stopped_by_the_deadline_in_check() {
    let world = World::new();
    world.tool("demo.spin", "while true do end\nreturn function() end\n");
    let out = codemode(
        world.path(),
        &["--timeout-ms", "300", "check", "--no-bundled"],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error: demo.spin"), "{text}");
}

#[test]
fn identities_are_exact_case_included() {
    let world = World::new();
    world
        .tool(
            "misc.calculate_BMI",
            "return function() return 'upper' end\n",
        )
        .tool(
            "misc.calculate_bmi",
            "return function() return 'lower' end\n",
        );
    let (envelope, _) = exec(
        world.path(),
        &["--no-bundled"],
        r#"return { tools.misc.calculate_BMI(), tools.misc.calculate_bmi(),
                    tools.get("misc.calculate_BMI").name, tools.get("misc.calculate_bmi").name,
                    tools.callable("misc", "calculate_BMI"), tools.callable("misc", "calculate_bmi"),
                    tools.search("calculate_BMI").value[1].identity,
                    tools.search("calculate_bmi").value[1].identity,
                    tools.search("misc.calculate_BMI", { mode = "keyword" }).value[1].identity }"#,
    );
    assert_eq!(
        envelope["value"],
        json!([
            "upper",
            "lower",
            "calculate_BMI",
            "calculate_bmi",
            "misc.calculate_BMI",
            "misc.calculate_bmi",
            "misc.calculate_BMI",
            "misc.calculate_bmi",
            "misc.calculate_BMI"
        ]),
        "{envelope}"
    );
}

#[test]
fn exec_of_a_missing_file_still_prints_one_envelope() {
    let world = World::new();
    let out = codemode(world.path(), &["exec", "MISSING.luau"], "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(envelope["ok"], json!(false));
    assert_eq!(envelope["error"]["kind"], json!("input"));
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot read script MISSING.luau"),
        "{envelope}"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_envelope_is_as_the_readme_says_for_several_values_nan_and_time() {
    let world = World::new();
    let (envelope, _) = exec(world.path(), &[], "return 1, 'a'");
    assert_eq!(envelope["value"], json!([1, "a"]));
    let (envelope, _) = exec(world.path(), &[], "return { 0/0, math.huge, -math.huge }");
    assert_eq!(envelope["value"], json!([null, null, null]));
    let (envelope, _) = exec(world.path(), &[], "return nil");
    assert_eq!(envelope["value"], json!(null));
    let ms = envelope["elapsedMs"].as_f64().unwrap();
    assert_eq!(
        (ms * 1000.0).round() / 1000.0,
        ms,
        "not rounded to microseconds: {ms}"
    );
}

/// Code, docs and generated files stand on the repository's own documents: none names the
/// design document that lives outside it.
#[test]
fn nothing_cites_a_document_outside_the_repo() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    for dir in [
        "engine",
        "docs",
        "prelude",
        "toolboxes",
        "examples",
        "tests",
    ] {
        for entry in walkdir::WalkDir::new(repo.join(dir)).into_iter().flatten() {
            let path = entry.path();
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            // This test names it to look for it.
            if path.ends_with("first_try.rs") {
                continue;
            }
            if text.contains("DESIGN.md") {
                offenders.push(path.display().to_string());
            }
        }
    }
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    if readme.contains("DESIGN.md") {
        offenders.push("README.md".into());
    }
    let world = World::new();
    let types = codemode(world.path(), &["types"], "");
    assert!(types.status.success());
    if String::from_utf8_lossy(&types.stdout).contains("DESIGN.md") {
        offenders.push("codemode types output".into());
    }
    assert!(offenders.is_empty(), "{offenders:?}");
}

#[test]
fn a_table_raised_with_error_is_reported_as_json() {
    let world = World::new();
    let (envelope, code) = exec(world.path(), &[], "error({ code = 1 })");
    assert_eq!(code, 1, "{envelope}");
    assert_eq!(envelope["error"]["kind"], "runtime", "{envelope}");
    assert_eq!(envelope["error"]["message"], r#"{"code":1}"#, "{envelope}");
    // Raised inside a tool, and with a __tostring, the text is what the script chose.
    world.tool(
        "demo.fail",
        "local function fail(): ()\n\terror({ reason = 'no', at = { 1, 2 } })\nend\nreturn fail\n",
    );
    let (envelope, _) = exec(world.path(), &[], "tools.demo.fail()");
    assert_eq!(
        envelope["error"]["message"], r#"{"at":[1,2],"reason":"no"}"#,
        "{envelope}"
    );
    let (envelope, _) = exec(
        world.path(),
        &[],
        "error(setmetatable({}, { __tostring = function() return 'custom text' end }))",
    );
    assert_eq!(envelope["error"]["message"], "custom text", "{envelope}");
    // A string keeps its position, at the level asked for (a global function: the
    // compiler may inline a local one, and then there is no level 2 to name).
    let (envelope, _) = exec(
        world.path(),
        &[],
        "function check(x)\n\tif not x then error('x is required', 2) end\nend\ncheck(nil)\n",
    );
    assert_eq!(
        envelope["error"]["message"], "script:4: x is required",
        "{envelope}"
    );
    assert_eq!(envelope["error"]["line"], 4, "{envelope}");
    let (envelope, _) = exec(world.path(), &[], "\nerror(42)");
    assert_eq!(envelope["error"]["message"], "script:2: 42", "{envelope}");
}

#[test]
fn errors_raised_in_callbacks_of_guarded_builtins_reach_pcall_as_raised() {
    let world = World::new();
    let (envelope, _) = exec(
        world.path(),
        &[],
        r#"local raised = { code = 7 }
local seen = {}
local function caught(f, ...)
	local ok, e = pcall(f, ...)
	assert(not ok, "expected an error")
	return e
end
seen.sort = caught(table.sort, { 3, 1, 2 }, function() error(raised) end) == raised
seen.sortText = caught(table.sort, { 3, 1, 2 }, function() error("boom", 0) end)
seen.gsub = caught(string.gsub, "abc", "b", function() error(raised) end) == raised
seen.gsubIndex = caught(string.gsub, "abc", "b", setmetatable({}, { __index = function() error(raised) end })) == raised
seen.format = caught(string.format, "%*", setmetatable({}, { __tostring = function() error(raised) end })) == raised
-- What they do is unchanged.
local t = { 3, 1, 2 }
table.sort(t, function(a, b) return a > b end)
seen.sorted = t
seen.replaced = (string.gsub("a-b", "-", { ["-"] = "+" }))
local big = table.create(10000, 0)
for i = 1, 10000 do big[i] = i end
seen.moved = #table.move(big, 1, 10000, 1, {})
table.move(big, 1, 9999, 2) -- overlapping, in slices: copied from the end
seen.shifted = { big[1], big[2], big[5000], big[10000] }
seen.formatted = string.format("%s %*", "x", 5)
return seen"#,
    );
    assert_eq!(
        envelope["value"],
        json!({
            "sort": true, "sortText": "boom", "gsub": true, "gsubIndex": true,
            "format": true, "sorted": [3, 2, 1], "replaced": "a+b", "moved": 10000,
            "shifted": [1, 1, 4999, 9999], "formatted": "x 5"
        }),
        "{envelope}"
    );
}

#[test]
fn a_world_toolbox_shadowing_a_library_one_is_noted_and_keeps_its_purpose() {
    let plain = World::new();
    let (library, _) = exec(
        plain.path(),
        &[],
        "for _, b in tools.toolboxes().value do if b.toolbox == 'text' then return b end end",
    );
    let purpose = library["value"]["purpose"].as_str().unwrap().to_string();
    assert!(!purpose.is_empty(), "{library}");
    assert_eq!(library["value"].get("shadows"), None, "{library}");

    let world = World::new();
    world.tool(
        "text.shout",
        "local function shout(s: string): string\n\treturn string.upper(s)\nend\nreturn shout\n",
    );
    let (envelope, _) = exec(
        world.path(),
        &[],
        "for _, b in tools.toolboxes().value do if b.toolbox == 'text' then return b end end",
    );
    assert_eq!(envelope["value"]["purpose"], purpose.as_str(), "{envelope}");
    assert_eq!(envelope["value"]["shadows"], true, "{envelope}");
    assert_eq!(envelope["value"]["from"], "world", "{envelope}");
    let note = "[the world's text shadows the library's]";
    for args in [&["list"][..], &["list", "2", "text"][..]] {
        let out = codemode(world.path(), args, "");
        let listed = String::from_utf8_lossy(&out.stdout);
        let line = listed.lines().find(|l| l.starts_with("text")).unwrap();
        assert!(line.ends_with(note), "{args:?}: {listed}");
    }
    let out = codemode(world.path(), &["list", "2", "json"], "");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        !listed.contains("shadows"),
        "only the shadowing toolbox: {listed}"
    );
    let out = codemode(world.path(), &["check"], "");
    let checked = String::from_utf8_lossy(&out.stdout);
    assert!(
        checked.contains(
            "note: toolbox text: the world's text.toolbox shadows the library toolbox text"
        ),
        "{checked}"
    );
    assert!(!checked.contains("note: toolbox json"), "{checked}");
}

/// The envelope of a script run in `world`: its error message, or its value.
fn outcome(world: &World, script: &str) -> serde_json::Value {
    // The runtime's own answer: the type check (on by default) would stop some of these
    // scripts before they run (tests/check.rs covers that).
    let (envelope, _) = exec(world.path(), &["--check", "off"], script);
    match envelope.get("error") {
        Some(error) => error["message"].clone(),
        None => envelope["value"].clone(),
    }
}

#[test]
fn direct_calls_are_checked_against_the_signature_as_bind_checks() {
    let world = World::new();
    world
        .tool(
            "demo.add",
            "local function add(a: number, b: number): number\n\treturn a + b\nend\nreturn add\n",
        )
        .tool(
            "demo.greet",
            "local function greet(opts: { name: string, loud: boolean? }): string\n\treturn 'hi ' .. opts.name\nend\nreturn greet\n",
        )
        .tool(
            "demo.sum",
            "local function sum(...: number): number\n\tlocal t = 0\n\tfor _, v in { ... } do t += v end\n\treturn t\nend\nreturn sum\n",
        )
        .tool(
            "demo.made",
            "local function make() return function(...) return select('#', ...) end end\nreturn make()\n",
        );
    // The message is the one tools.bind gives for the same values.
    let (envelope, code) = exec(
        world.path(),
        &["--check", "off"],
        "local x = 1\nreturn tools.demo.add('1', 2)",
    );
    assert_eq!(code, 1);
    let bound = outcome(&world, "return tools.bind('demo.add', { '1', 2 }).message");
    assert_eq!(
        bound,
        "demo.add: argument a: expected number, got the string \"1\""
    );
    assert_eq!(
        envelope["error"]["message"],
        format!("script:2: {}", bound.as_str().unwrap()),
        "raised at the line of the call: {envelope}"
    );
    assert_eq!(envelope["error"]["line"], 2, "{envelope}");
    assert_eq!(
        envelope["error"]["hint"],
        "the call does not fit the tool's signature: tools.demo.add(a: number, b: number): number (tools.get('demo.add') has the details)",
        "{envelope}"
    );
    for (call, message) in [
        ("tools.demo.add(1)", "demo.add needs argument b (number), the second parameter; it takes (a: number, b: number)"),
        ("tools.demo.add(1, 2, 3)", "demo.add takes 2 arguments (a, b); got a value at position 3"),
        ("tools.demo.add(1, 2, nil, 4)", "demo.add takes 2 arguments (a, b); got a value at position 4"),
        ("tools.demo.greet({ loud = true })", "demo.greet: argument opts.name: missing (a string is required)"),
        ("tools.demo.sum(1, 2, 'x')", "demo.sum: argument 3 (one of the trailing ...): expected number, got the string \"x\""),
    ] {
        assert_eq!(
            outcome(&world, &format!("return {call}")),
            format!("script:1: {message}")
        );
    }
    // What fits passes untouched: trailing nils, varargs, the same function through use,
    // a script's pcall sees the refusal, a tool whose parameters are unknown takes all, and
    // a table may carry more fields than its type names (another tool's result, whole).
    assert_eq!(
        outcome(
            &world,
            r#"local ok, e = pcall(tools.demo.add, 1)
return { tools.demo.add(1, 2, nil), tools.demo.sum(1, 2, 3), tools.demo.greet({ name = "x" }),
	tools.use("demo", "add") == tools.demo.add, ok, string.find(e, "needs argument b", 1, true) ~= nil,
	tools.demo.made(1, "two", {}), tools.demo.greet({ name = "y", extra = { 1 } }) }"#
        ),
        json!([3, 6, "hi x", true, false, true, 3, "hi y"])
    );
}

#[test]
fn codemode_call_speaks_shell() {
    let world = World::new();
    let out = codemode(
        world.path(),
        &["call", "text.trunc", "A long sentence", "8"],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "did you mean `codemode call text.truncate`? `codemode list 2 text` lists its tools"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("tools."), "no Luau at a shell: {stderr}");
    let out = codemode(world.path(), &["call", "txt.truncate", "x", "8"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("did you mean text? `codemode list 2 text` lists its tools"),
        "{stderr}"
    );

    let out = codemode(
        world.path(),
        &[
            "call",
            "text.truncate",
            "A long sentence",
            "8",
            "--timeout-ms",
            "500",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--timeout-ms is a codemode flag: put global flags before the tool name"),
        "{stderr}"
    );

    // A bare boolean option is true; `true`/`false` after it is its value, anything else
    // is the next word.
    for (words, expected) in [
        (
            &["the quick brown fox", "12", "--wordBoundary"][..],
            "the quick…",
        ),
        (
            &["--wordBoundary", "the quick brown fox", "12"][..],
            "the quick…",
        ),
        (
            &["the quick brown fox", "12", "--wordBoundary", "false"][..],
            "the quick b…",
        ),
    ] {
        let mut args = vec!["call", "text.truncate"];
        args.extend_from_slice(words);
        let out = codemode(world.path(), &args, "");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{words:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(stdout.trim(), format!("\"{expected}\""), "{words:?}");
    }

    // An error inside the tool points at the tool's usage, not at Luau.
    let out = codemode(world.path(), &["call", "text.truncate", "abc", "-1"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("hint: `codemode call text.truncate --help` shows what it takes"),
        "{stderr}"
    );
}

#[test]
fn the_tools_surface_is_discoverable_from_a_script() {
    let world = World::new();
    let (envelope, _) = exec(
        world.path(),
        &[],
        r#"local all = tools.help()
local one = tools.help("tools.create")
local meta = tools.get("tools.create")
local hits = tools.search("save a new tool", { limit = 5 })
local ids = {}
for _, row in hits.value do table.insert(ids, row.identity) end
return { text = all.stdout, count = #all.value, one = one.stdout, meta = meta, ids = ids,
	line = hits.stdout, bad = select(2, pcall(tools.help, "crate")) }"#,
    );
    let value = &envelope["value"];
    let text = value["text"].as_str().unwrap();
    assert!(
        text.contains("tools.create(args: CreateArgs) -> WriteResult"),
        "{text}"
    );
    assert!(text.contains("e.g. local made = tools.create({"), "{text}");
    assert!(
        text.contains("tools.help(name: string?) -> Printed<{ SurfaceFunction }>"),
        "{text}"
    );
    // The functions of `tools`, with `tools.results.get` and `tools.results.search`.
    assert_eq!(value["count"], 17, "{envelope}");
    let one = value["one"].as_str().unwrap();
    assert!(
        one.starts_with("tools.create(args: CreateArgs) -> WriteResult\n  Save a new tool"),
        "{one}"
    );
    assert_eq!(value["meta"]["identity"], "tools.create");
    assert_eq!(value["meta"]["from"], "surface");
    assert_eq!(
        value["meta"]["signature"],
        "create(args: CreateArgs) -> WriteResult"
    );
    assert!(value["meta"]["examples"][0]
        .as_str()
        .unwrap()
        .contains("tools.create("));
    let ids: Vec<&str> = value["ids"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert!(
        ids.iter().take(3).any(|id| *id == "tools.create"),
        "search finds the authoring call: {ids:?}"
    );
    assert!(
        value["line"]
            .as_str()
            .unwrap()
            .contains("tools.create (function)"),
        "{envelope}"
    );
    assert!(
        value["bad"]
            .as_str()
            .unwrap()
            .contains("tools has no function \"crate\""),
        "{envelope}"
    );
    // The same rows as the definitions an editor reads: no second copy to drift.
    let types = codemode(world.path(), &["types"], "");
    let declared = String::from_utf8_lossy(&types.stdout);
    assert!(
        declared.contains("\t--- e.g. local made = tools.create({"),
        "{declared}"
    );
}
