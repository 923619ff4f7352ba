//! The new-user walkthrough in `examples/walkthrough/`: each task is one `tool_exec` script
//! (run here through `codemode exec`, which prints the same envelope) in a fresh world, and
//! the one search its header names (`--!search QUERY`) finds every bundled tool it calls.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::{codemode, exec, World};
use serde_json::{json, Value};

fn script(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples/walkthrough")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tools.<box>.<name>(` calls in `source`, for boxes the bundled library holds.
fn bundled_calls(source: &str, world: &World) -> BTreeSet<String> {
    let out = codemode(world.path(), &["list", "1", "--json"], "");
    let rows: Value = serde_json::from_slice(&out.stdout).expect("list --json");
    let bundled: BTreeSet<String> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["identity"].as_str().unwrap().to_string())
        .collect();
    source
        .split("tools.")
        .skip(1)
        .filter_map(|rest| {
            let end = rest.find('(')?;
            let identity = &rest[..end];
            bundled.contains(identity).then(|| identity.to_string())
        })
        .collect()
}

/// The search in the script's header lists every bundled tool the script calls.
fn one_search_finds_the_tools(name: &str) {
    let source = script(name);
    let query = source
        .lines()
        .find_map(|l| l.strip_prefix("--!search "))
        .unwrap_or_else(|| panic!("{name} has no --!search header"));
    let world = World::new();
    let out = codemode(world.path(), &["search", query, "--json"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits: BTreeSet<String> = found["value"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["identity"].as_str().map(String::from))
        .collect();
    let calls = bundled_calls(&source, &world);
    assert!(!calls.is_empty(), "{name} calls no bundled tool");
    let missing: Vec<_> = calls.difference(&hits).collect();
    assert!(
        missing.is_empty(),
        "search {query:?} does not list {missing:?}; it lists {hits:?}"
    );
}

fn run(name: &str) -> (Value, World) {
    let world = World::new();
    let (envelope, code) = exec(world.path(), &[], &script(name));
    assert_eq!(envelope["ok"], json!(true), "{name}: {envelope}");
    assert_eq!(code, 0);
    (envelope, world)
}

#[test]
fn csv_to_markdown_report_is_one_script() {
    one_search_finds_the_tools("csv_report.luau");
    let (envelope, _world) = run("csv_report.luau");
    assert_eq!(
        envelope["value"],
        json!({ "regions": 3, "total": "2842.43" })
    );
    let stdout = envelope["stdout"].as_str().unwrap();
    assert!(
        stdout.contains("| region | Revenue |\n| ------ | ------: |\n| South  | 1243.00 |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("- Best seller: Widget (264 units)"),
        "{stdout}"
    );
}

#[test]
fn a_version_tool_is_written_saved_and_called_in_one_script() {
    one_search_finds_the_tools("semver_tool.luau");
    let (envelope, world) = run("semver_tool.luau");
    assert_eq!(
        envelope["value"],
        json!({ "stable": "1.10.0", "any": "2.0.0-rc.1" })
    );
    assert_eq!(
        envelope["stdout"],
        json!("newest(versions: {string}, includePre: boolean?): string?\n")
    );
    // Saved for good: the next run, a new process, calls it without creating it.
    let (again, code) = exec(
        world.path(),
        &[],
        "return tools.release.newest({ '0.9.0', '0.10.0' })",
    );
    assert_eq!(
        (again["value"].clone(), code),
        (json!("0.10.0"), 0),
        "{again}"
    );
}

#[test]
fn three_text_tools_chain_on_one_input_in_one_script() {
    one_search_finds_the_tools("text_chain.luau");
    let (envelope, _world) = run("text_chain.luau");
    assert_eq!(
        envelope["value"],
        json!({
            "short": "Crème Brûlée: A Quick Guide to…",
            "slug": "creme-brulee-a-quick-guide-to",
            "constant": "CREME_BRULEE_A_QUICK_GUIDE_TO"
        })
    );
}
