//! A world holding tool files built to crash the parsers: every command still works,
//! names the hostile tools as broken, and keeps the good tool usable.

mod common;

use common::{codemode, exec, World};

fn hostile_world() -> World {
    let world = World::new();
    let n = 30_000;
    world
        .tool(
            "evil.optionals",
            &format!("local function q(x: string{}) end\nreturn q\n", "?".repeat(n)),
        )
        .tool(
            "evil.generics",
            &format!(
                "local function g(x: A{}{})\nend\nreturn g\n",
                "<A".repeat(300_000),
                ">".repeat(300_000)
            ),
        )
        .tool(
            "evil.chain",
            &format!("local function c()\n\treturn 1{}\nend\nreturn c\n", " .. 1".repeat(n)),
        )
        .tool(
            "evil.docarg",
            &format!(
                "--!arg x string{} The x.\nlocal function d(x)\n\treturn x\nend\nreturn d\n",
                "?".repeat(n)
            ),
        )
        .tool("evil.accent", "local function a(x: café)\n\treturn x\nend\nreturn a\n")
        .tool("evil.cut", "function t(n:dé")
        .tool(
            "evil.bidi",
            "--!arg _ {[\u{202e} The arg.\nlocal function b(_)\n\treturn 1\nend\nreturn b\n",
        )
        .tool(
            "evil.fine",
            "--!desc Doubles a number.\nlocal function fine(n: number): number\n\treturn n * 2\nend\nreturn fine\n",
        );
    world
}

fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_names_each_hostile_tool_instead_of_crashing() {
    let world = hostile_world();
    let out = codemode(world.path(), &["check"], "");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let report = format!("{stdout}{stderr}");
    for name in ["optionals", "generics", "chain", "cut"] {
        assert!(
            report.contains(&format!("evil.{name}")),
            "{name} missing:\n{report}"
        );
    }
    assert!(report.contains("nested deeper"), "{report}");
    assert!(report.len() < 64 * 1024, "the report is bounded");
}

#[test]
fn list_types_and_docs_survive_a_hostile_world() {
    let world = hostile_world();
    for args in [
        vec!["list", "3", "evil"],
        vec!["list", "--json", "3"],
        vec!["types"],
        vec!["search", "double a number"],
    ] {
        let out = codemode(world.path(), &args, "");
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.code().is_some(),
            "{args:?} was killed by a signal\n{stderr}"
        );
        assert!(stdout.contains("fine"), "{args:?}:\n{stdout}\n{stderr}");
    }
    let docs = tempfile::tempdir().unwrap();
    let out = codemode(
        world.path(),
        &["docs", "--out", docs.path().to_str().unwrap()],
        "",
    );
    assert!(out.status.code().is_some(), "docs was killed by a signal");
}

#[test]
fn scripts_still_run_and_bind_in_a_hostile_world() {
    let world = hostile_world();
    let (json, code) = exec(
        world.path(),
        &[],
        r#"
        local rows = tools.list(3, "evil").value
        for _, row in rows do
            tools.bind("evil." .. row.name, { "x" })
            tools.get("evil." .. row.name)
        end
        return { count = #rows, fine = tools.evil.fine(21) }
        "#,
    );
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["value"]["count"], 8, "{json}");
    assert_eq!(json["value"]["fine"], 42, "{json}");
}
