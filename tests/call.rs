//! `codemode call`: words in, a rendered result or JSON out, exit codes that mean one thing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/cmdline")
}

fn call_in(dir: &Path, world: &Path, words: &[&str]) -> Output {
    common::command()
        .current_dir(dir)
        .arg("--world")
        .arg(world)
        .arg("call")
        .args(words)
        .output()
        .expect("codemode runs")
}

fn call(words: &[&str]) -> Output {
    call_in(&fixture(), &fixture(), words)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn prints_the_value_as_json_without_render() {
    let sub = fixture().join("demo.toolbox");
    let out = call_in(
        &sub,
        &fixture(),
        &[
            "demo.echo",
            "hi",
            "-5",
            "--sep=_",
            "-v",
            "--file",
            "notes.txt",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(value["text"], "hi");
    assert_eq!(value["count"], -5);
    assert_eq!(value["verbose"], true);
    assert_eq!(value["opts"]["sep"], "_");
    let file = value["file"].as_str().unwrap();
    assert!(
        file.ends_with("demo.toolbox/notes.txt"),
        "Path resolves against the cwd: {file}"
    );
}

#[test]
fn prints_through_render() {
    let out = call(&["demo.show", "string", "hello"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "shown: hello\n");

    let out = call(&["demo.show", "table", "x"]);
    assert_eq!(out.status.code(), Some(3), "render's exit is the exit code");
    assert_eq!(text(&out.stdout), "out: x\n");
    assert_eq!(text(&out.stderr), "warning: x\n");
}

#[test]
fn a_failing_render_exits_1_with_its_message() {
    let out = call(&["demo.show", "error", "purpose"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("demo.show/render.luau:7: render exploded on purpose"),
        "{err}"
    );

    let out = call(&["demo.broken"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("render.luau does not compile"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn refused_words_exit_2_with_the_bind_message() {
    let out = call(&["demo.echo", "x", "--sepp", "_"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown flag --sepp; did you mean --sep?"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let out = call(&["demo.echo"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("needs <text> (string)"), "{err}");
    assert!(
        err.contains("usage: codemode call demo.echo <text>"),
        "{err}"
    );

    let out = call(&["demo.plain", "four"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("expected a number, got \"four\""));
}

#[test]
fn help_after_the_identity_prints_generated_usage() {
    let out = call(&["demo.echo", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(
        page.starts_with("demo.echo - Echo the arguments back as a table."),
        "{page}"
    );
    assert!(
        page.contains("usage: codemode call demo.echo <text>"),
        "{page}"
    );
    assert!(page.contains("--verbose, -v"), "{page}");
    assert!(page.contains("tools.demo.echo(\"hi\", 2)"), "{page}");
}

#[test]
fn an_unknown_tool_exits_2_with_a_suggestion() {
    let out = call(&["demo.ecko"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `codemode call demo.echo`?"),
        "{}",
        text(&out.stderr)
    );
    let out = call(&["nodot"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn words_that_look_like_global_flags_belong_to_the_tool() {
    let out = call(&["demo.plain", "4", "--world", "elsewhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown flag --world"));
    let out = call(&["demo.plain", "--", "-4"]);
    assert_eq!(text(&out.stdout), "-8\n");
}

#[test]
fn render_is_read_at_call_time() {
    let world = tempfile::tempdir().unwrap();
    let tool = world.path().join("t.toolbox/hello.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "local function hello(name: string): string\n\treturn name\nend\nreturn hello\n",
    )
    .unwrap();
    std::fs::write(
        tool.join("render.luau"),
        "return function(r) return 'v1 ' .. r end\n",
    )
    .unwrap();
    let out = call_in(world.path(), world.path(), &["t.hello", "ann"]);
    assert_eq!(text(&out.stdout), "v1 ann\n");
    std::fs::write(
        tool.join("render.luau"),
        "return function(r) return 'v2 ' .. r end\n",
    )
    .unwrap();
    let out = call_in(world.path(), world.path(), &["t.hello", "ann"]);
    assert_eq!(text(&out.stdout), "v2 ann\n");
}

#[test]
fn fixture_worlds_stay_out_of_the_repo_root_world() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = common::command()
        .current_dir(root)
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !text(&out.stdout).contains("demo.echo"),
        "tests/worlds/.codemode-ignore hides fixtures"
    );
}

#[test]
fn every_value_a_tool_returns_is_printed_as_exec_returns_them() {
    let world = tempfile::tempdir().unwrap();
    let tool = world.path().join("m.toolbox/two.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "--!desc Two values.\n--!return a number\nreturn function() return 1, \"a\" end\n",
    )
    .unwrap();
    let out = call_in(world.path(), world.path(), &["m.two"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(value, serde_json::json!([1, "a"]));
}

#[test]
fn an_identity_with_an_empty_toolbox_or_tool_is_named_as_not_a_tool() {
    for identity in [".x", "text.", "."] {
        let out = call(&[identity]);
        assert_eq!(out.status.code(), Some(2), "{identity}");
        assert!(
            text(&out.stderr).contains(&format!(
                "'{identity}' is not a tool; name it as <box>.<tool>"
            )),
            "{identity}: {}",
            text(&out.stderr)
        );
    }
}
