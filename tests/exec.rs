//! `codemode exec` as an agent sees it: one JSON envelope per run, whatever the script does.

mod common;

use common::{codemode, exec, text, World};
use serde_json::json;

/// For the runtime's own checks, which the type check (on by default) would pre-empt.
const OFF: &[&str] = &["--check", "off"];

#[test]
fn success_envelope_has_value_stdout_and_timing() {
    let world = World::new();
    let (env, code) = exec(
        world.path(),
        &[],
        "print('hi', 1) return {a = 1, list = {1, 2}}",
    );
    assert_eq!(code, 0);
    assert_eq!(env["ok"], true);
    assert_eq!(env["value"], json!({"a": 1, "list": [1, 2]}));
    assert_eq!(env["stdout"], "hi\t1\n");
    assert_eq!(env["truncated"], false);
    assert!(env["elapsedMs"].as_f64().unwrap() >= 0.0);
}

fn error_of(script: &str, flags: &[&str]) -> serde_json::Value {
    let world = World::new();
    let (env, code) = exec(world.path(), flags, script);
    assert_eq!(code, 1, "{env}");
    assert_eq!(env["ok"], false);
    env["error"].clone()
}

#[test]
fn every_error_kind_has_its_envelope() {
    let syntax = error_of("local x = \nreturn (", &[]);
    assert_eq!(syntax["kind"], "syntax");
    assert_eq!(syntax["line"], 2);
    // A NUL ends Luau's source text: the script is refused, not run up to it.
    let nul = error_of("print('one')\n\0print('two') return 3", &[]);
    assert_eq!(nul["kind"], "syntax", "{nul}");
    assert_eq!(nul["line"], 2, "{nul}");
    assert!(
        nul["message"]
            .as_str()
            .unwrap()
            .contains("a NUL byte at column 1"),
        "{nul}"
    );
    let runtime = error_of("\n\nerror('boom')", &[]);
    assert_eq!(runtime["kind"], "runtime");
    assert_eq!(runtime["line"], 3);
    assert!(runtime["message"].as_str().unwrap().contains("boom"));
    let timeout = error_of("while true do end", &["--timeout-ms", "200"]);
    assert_eq!(timeout["kind"], "timeout");
    assert!(timeout["hint"].as_str().unwrap().contains("--timeout-ms"));
    let memory = error_of(
        "local s = 'x' while true do s = s .. s end",
        &["--memory-mb", "32"],
    );
    assert_eq!(memory["kind"], "memory");
    let output = error_of(
        "while true do print('spam') end",
        &["--max-output-bytes", "1000"],
    );
    assert_eq!(output["kind"], "output");
    let limit = error_of("local function f() return 1 + f() end return f()", &[]);
    assert_eq!(limit["kind"], "limit");
}

#[test]
fn a_limit_that_stopped_a_run_is_named_with_the_flag_that_raises_it() {
    let cases = [
        (
            "while true do end",
            vec!["--timeout-ms", "200"],
            "timeout",
            "deadline",
            Some("--timeout-ms"),
        ),
        (
            "local s = 'x' while true do s = s .. s end",
            vec!["--memory-mb", "32"],
            "memory",
            "memory",
            Some("--memory-mb"),
        ),
        (
            "while true do print('spam') end",
            vec!["--max-output-bytes", "1000"],
            "output",
            "output",
            Some("--max-output-bytes"),
        ),
        (
            "for i = 1, 20000 do coroutine.create(print) end",
            vec![],
            "limit",
            "coroutines",
            None,
        ),
        (
            "local function f() return 1 + f() end return f()",
            vec![],
            "limit",
            "stack",
            None,
        ),
    ];
    for (script, flags, kind, limit, flag) in cases {
        let error = error_of(script, &flags);
        assert_eq!(error["kind"], kind, "{script}: {error}");
        assert_eq!(error["limit"], limit, "{script}: {error}");
        let hint = error["hint"].as_str().unwrap();
        if let Some(flag) = flag {
            assert!(hint.contains(flag), "{script}: {hint}");
        }
    }
    // An ordinary error names no limit.
    let runtime = error_of("error('boom')", &[]);
    assert!(runtime.get("limit").is_none(), "{runtime}");
}

#[test]
fn missing_toolbox_and_tool_get_hints_naming_the_nearest() {
    let world = World::new();
    world.tool(
        "text2.slugify",
        "return function(s: string): string return s end",
    );
    let (env, _) = exec(world.path(), OFF, "return tools.txt2.slugify('a')");
    let hint = env["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("tools.text2"), "{hint}");
    assert!(hint.contains("tools.toolboxes()"), "{hint}");
    let (env, _) = exec(world.path(), OFF, "return tools.text2.slugfy('a')");
    assert!(env["error"]["message"].as_str().unwrap().contains("slugfy"));
    let hint = env["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("tools.text2.slugify") && hint.contains("tools.list('text2'"),
        "{hint}"
    );
    // A toolbox with no tools yet says how to add one, not an empty list.
    world.file("empty.toolbox/README.md", "Nothing yet.\n");
    let (env, _) = exec(world.path(), OFF, "return tools.empty.anything()");
    let hint = env["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("holds no tools yet") && hint.contains("tools.create("),
        "{hint}"
    );
}

#[test]
fn print_flood_keeps_stdout_up_to_the_cap() {
    let world = World::new();
    let (env, _) = exec(
        world.path(),
        &["--max-output-bytes", "1000"],
        "while true do print('0123456789') end",
    );
    assert_eq!(env["error"]["kind"], "output");
    assert_eq!(env["truncated"], true);
    let stdout = env["stdout"].as_str().unwrap();
    assert!(
        stdout.len() <= 1000 && stdout.len() > 900,
        "{}",
        stdout.len()
    );
}

/// The cap holds for the reply as sent: printed quotes, tabs and newlines are counted as
/// their JSON escapes, so an envelope of escaped text stays within it too.
#[test]
fn printed_text_is_capped_as_the_envelope_carries_it() {
    let world = World::new();
    let (env, _) = exec(
        world.path(),
        &["--max-output-bytes", "1000"],
        "while true do print('\"a\"\\t\\b\\0') end",
    );
    assert_eq!(env["error"]["kind"], "output", "{env}");
    let stdout = &env["stdout"];
    let sent = stdout.to_string().len() - 2;
    assert!(sent <= 1000 && sent > 900, "stdout is {sent} bytes as JSON");
    assert!(env.to_string().len() < 1500, "{}", env.to_string().len());
}

#[test]
fn huge_return_is_cut_to_valid_json_and_says_so() {
    let world = World::new();
    let (env, code) = exec(
        world.path(),
        &["--max-output-bytes", "5000"],
        "local t = {} for i = 1, 100000 do t[i] = {name = 'item' .. i} end return t",
    );
    assert_eq!(code, 0);
    assert_eq!(env["truncated"], true);
    assert_eq!(env["truncation"][0]["what"], "value");
    assert_eq!(env["truncation"][0]["capBytes"], 5000);
    let value_len = env["value"].to_string().len();
    assert!(value_len <= 5200, "value is {value_len} bytes");
    // The list ends before an element that did not fit whole: none lacks its name.
    let items = env["value"].as_array().unwrap();
    assert!(items.len() > 100, "{}", items.len());
    assert!(
        items.iter().all(|i| i["name"].is_string()),
        "{:?}",
        items.last()
    );
    let (env, _) = exec(
        world.path(),
        &["--max-output-bytes", "5000"],
        "return string.rep('x', 1e6)",
    );
    assert!(env["value"].as_str().unwrap().len() < 5000);
}

#[test]
fn cyclic_function_and_coroutine_values_become_placeholders() {
    let world = World::new();
    let (env, code) = exec(
        world.path(),
        &[],
        "local t = {f = print, co = coroutine.create(print)} t.self = t return t",
    );
    assert_eq!(code, 0);
    assert_eq!(
        env["value"],
        json!({"co": "<coroutine>", "f": "<function>", "self": "<cycle>"})
    );
}

#[test]
fn bytecode_given_as_the_script_is_refused() {
    let world = World::new();
    // Luau bytecode as the engine's own compiler makes it (mlua's, the same Luau).
    let bytecode = mlua::chunk::Compiler::new()
        .set_optimization_level(2)
        .compile("return 'ran as bytecode'")
        .unwrap();
    let mut child = common::command()
        .args(["exec", "--world"])
        .arg(world.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&bytecode).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("ran as bytecode"), "{text}");
    assert_eq!(out.status.code(), Some(1), "{text}");
}

#[test]
fn exec_reads_a_file_and_reports_usage_errors_with_exit_2() {
    let world = World::new();
    world.file("s.luau", "return 7");
    let script = world.path().join("s.luau");
    let out = codemode(world.path(), &["exec", script.to_str().unwrap()], "");
    let env: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(env["value"], 7);
    let out = codemode(world.path(), &["exec", "/no/such/file.luau"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read script"));
    let out = codemode(world.path(), &["exec", "--timeout-ms", "abc"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_names_every_broken_tool_and_exits_1() {
    let world = World::new();
    world
        .tool("b.good", "return function() end")
        .tool("b.bad", "return function(")
        .tool("b.worse", "return 1");
    let out = codemode(world.path(), &["check"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("b.bad") && text.contains("b.worse"), "{text}");
    assert!(!text.contains("error: b.good"), "{text}");
}

#[test]
fn a_module_that_does_not_compile_is_named_by_check_and_by_require() {
    let world = World::new();
    world
        .file("m.toolbox/shared.module/init.luau", "return {")
        .tool(
            "m.uses",
            "local shared = require('.shared')\nreturn function() return shared end",
        )
        .tool("m.plain", "return function() return 1 end");
    let out = codemode(world.path(), &["check"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("shared.module/init.luau does not compile"),
        "{text}"
    );
    let (env, _) = exec(world.path(), &[], "return tools.m.plain()");
    assert_eq!(env["value"], 1, "{env}");
    let (env, _) = exec(world.path(), &[], "return tools.m.uses()");
    let message = env["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("does not compile"), "{env}");
}

#[test]
fn a_missing_name_hint_stays_short_in_a_big_world() {
    let world = World::new();
    for i in 0..40 {
        world.tool(&format!("box{i:02}.t"), "return function() end");
    }
    let (env, _) = exec(
        world.path(),
        &["--no-bundled", "--check", "off"],
        "return tools.zzz.t()",
    );
    let hint = env["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("… and 28 more"), "{hint}");
    assert!(hint.len() < 400, "{} bytes: {hint}", hint.len());
}

#[test]
fn a_world_that_is_a_toolbox_folder_names_the_folder_to_pass() {
    let world = World::new();
    world.tool("text2.slug", "return function(s: string) return s end");
    let inside = world.path().join("text2.toolbox");
    let out = codemode(&inside, &["list"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let parent = world.path().canonicalize().unwrap();
    assert!(
        stderr.contains("is a toolbox folder, not a world")
            && stderr.contains(&format!("--world {}", parent.display())),
        "{stderr}"
    );
}

#[test]
fn check_warns_of_docstring_lines_that_name_no_parameter() {
    let world = World::new();
    world.tool(
        "b.flags",
        "--!desc Flags.\n--!arg x number The x.\n--!arg x number Again.\n--!flag verbose v\n--!example\nreturn function(x: number) return x end",
    );
    let out = codemode(world.path(), &["check"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "warnings alone do not fail check: {text}"
    );
    for expected in [
        "`--!flag verbose` names no parameter (its parameters are x)",
        "`--!arg x` is written twice",
        "`--!example` is empty",
    ] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    // A flag written twice is one flag in the usage, and a `--!rest` naming no parameter
    // is told about.
    world.tool(
        "b.twice",
        "--!desc Twice.\n--!arg opts {verbose: boolean?}? Options.\n--!flag verbose v\n--!flag verbose v\n--!rest items\nreturn function(opts) return opts end",
    );
    let out = codemode(world.path(), &["check"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "`--!flag verbose` is written twice",
        "`--!rest items` names no parameter",
    ] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    let help = codemode(world.path(), &["call", "b.twice", "--help"], "");
    let usage = String::from_utf8_lossy(&help.stdout);
    assert_eq!(usage.matches("[--verbose|-v]").count(), 1, "{usage}");
}

#[test]
fn an_error_inside_a_tool_hints_at_its_signature() {
    let world = World::new();
    world.tool(
        "b.shout",
        "return function(text: string): string\n\treturn string.upper(text) .. text.x\nend",
    );
    let (env, code) = exec(
        world.path(),
        &["--no-bundled"],
        "return tools.b.shout('hi')",
    );
    assert_eq!(code, 1);
    let hint = env["error"]["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("inside tools.b.shout")
            && hint.contains("tools.b.shout(text: string): string"),
        "{env}"
    );
    // A call refused before the tool ran names the signature too.
    let (env, _) = exec(
        world.path(),
        &["--no-bundled", "--check", "off"],
        "return tools.b.shout()",
    );
    let hint = env["error"]["hint"].as_str().unwrap_or_default();
    assert!(
        hint.starts_with(
            "the call does not fit the tool's signature: tools.b.shout(text: string): string"
        ),
        "{env}"
    );
    // An error of the script itself gets no such hint.
    let (env, _) = exec(world.path(), &["--no-bundled"], "error('plain')");
    assert!(env["error"].get("hint").is_none(), "{env}");
}

#[test]
fn an_envelope_never_outgrows_the_output_cap_whatever_failed() {
    let world = World::new();
    let cap = 64 * 1024;
    let margin = 8 * 1024;
    let scripts = [
        // A huge error message, as a string and with multi-byte characters.
        r#"error(string.rep("E", 8 * 2^20), 0)"#,
        r#"error(string.rep("é", 2^22))"#,
        // Huge names echoed by lookups (once in the message, once in the hint).
        r#"local n = string.rep("a", 2^24) return tools[n]"#,
        r#"local n = string.rep("b", 2^24) return tools.text[n]("x")"#,
        r#"return tools.get(string.rep("c", 2^24) .. ".x")"#,
        // Printing close to the cap, then returning a big value: they share the cap.
        r#"print(string.rep("p", 60 * 1024)) return string.rep("v", 2^20)"#,
        r#"print(string.rep("p", 60 * 1024)) error(string.rep("E", 2^20))"#,
        // An error raised inside a tool, with a long message.
        r#"tools.text.slugify(string.rep("x", 2^20), { sep = {} })"#,
    ];
    for script in scripts {
        let out = codemode(
            world.path(),
            &["exec", "--max-output-bytes", &cap.to_string()],
            script,
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.len() <= cap + margin,
            "{} bytes for: {script}\n{}",
            stdout.len(),
            &stdout[..300.min(stdout.len())]
        );
        let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        if let Some(message) = envelope["error"]["message"].as_str() {
            assert!(message.len() <= 4096, "{script}");
        }
    }
}

#[test]
fn a_listing_cut_at_the_output_cap_says_so_and_names_the_flag() {
    let world = World::new();
    for i in 0..20 {
        world.tool(
            &format!("many.tool{i}"),
            "--!desc A tool with a description long enough to fill the cap quickly.\nreturn function() return 1 end",
        );
    }
    let out = codemode(
        world.path(),
        &["--no-bundled", "--max-output-bytes", "300", "list", "2"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(stdout.len() <= 310, "{stdout}");
    assert!(!stdout.contains("tool19"), "{stdout}");
    assert!(
        stderr.contains("was cut at 300 bytes") && stderr.contains("--max-output-bytes"),
        "{stderr}"
    );
    // Under the cap nothing is said.
    let whole = codemode(world.path(), &["--no-bundled", "list", "2"], "");
    assert!(text(&whole.stdout).contains("tool19"));
    assert!(
        !text(&whole.stderr).contains("was cut"),
        "{}",
        text(&whole.stderr)
    );
}

#[test]
fn codemode_list_prints_a_listing_over_the_script_cap_whole() {
    // 600 descriptions of 1,900 characters: a tier-3 listing (whole descriptions) of about
    // 1.1 MiB, over the 1 MiB a script's output gets.
    let world = World::new();
    let words = "lorem ipsum ".repeat(158);
    for i in 0..600 {
        world.tool(
            &format!("big.tool{i}"),
            &format!("--!desc {words}\nreturn function() return 1 end"),
        );
    }
    let out = codemode(world.path(), &["--no-bundled", "list", "3"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(stdout.len() > 1 << 20, "{} bytes", stdout.len());
    assert!(stdout.contains("tool599") && stdout.contains("tool0"));
    assert!(!stderr.contains("was cut"), "{stderr}");
}

#[test]
fn check_says_a_bad_toolbox_name_once_not_once_per_tool() {
    let world = World::new();
    for name in ["a", "b", "c"] {
        world.tool(
            &format!("1x.{name}"),
            "--!desc T.\nreturn function() return 1 end",
        );
    }
    let out = codemode(world.path(), &["check"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(
        text.matches("toolbox name '1x' is not a Luau identifier")
            .count(),
        1,
        "{text}"
    );
    assert!(text.contains("1 problem,"), "{text}");
}

#[test]
fn codemode_list_of_an_unknown_toolbox_hints_in_shell_commands() {
    let world = World::new();
    let out = codemode(world.path(), &["list", "2", "txt"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did you mean text?") && err.contains("`codemode list` lists them"),
        "{err}"
    );
    assert!(!err.contains("tools."), "{err}");
}

#[test]
fn an_error_value_whose_tostring_fails_is_named_not_bare() {
    let error = error_of(
        "error(setmetatable({}, { __tostring = function() error('inner') end }))",
        &["--check", "off"],
    );
    assert_eq!(error["kind"], "runtime", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("could not be turned into text"), "{error}");
    assert!(
        error["hint"].as_str().unwrap().contains("raise a string"),
        "{error}"
    );
}
