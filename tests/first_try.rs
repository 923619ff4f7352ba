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
        text.contains("3 tools in 1 toolboxes: 1 callable, 2 problems"),
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
