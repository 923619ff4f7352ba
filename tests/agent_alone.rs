//! An agent alone: a world whose MCP servers nobody synced, served to an agent with
//! nothing but MCP, and edited while it is served. The servers fetch their tools when a
//! script needs them (or in the background while serving); an edit of
//! `.codemode/mcp.json` is applied and announced without a restart.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use std::process::Command;

use serde_json::{json, Value};
use servers::*;

/// The whole loop through the official MCP Python SDK: see `tests/upstream/agent_alone.py`.
#[test]
fn an_agent_alone_uses_never_synced_servers_and_sees_edits_while_serving() {
    let _serial = serial();
    let out = Command::new(common::mcp_python())
        .arg(root().join("tests/upstream/agent_alone.py"))
        .arg(common::bin())
        .arg(installed())
        .output()
        .expect("the venv's python runs");
    let stdout = common::text(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        common::text(&out.stderr)
    );
    let timings: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    eprintln!("edits announced after: {timings}");
    for key in ["added_announced_s", "removed_announced_s"] {
        // The watcher applies an edit within a fraction of a second; the bound leaves
        // room for a loaded machine.
        let seconds = timings[key].as_f64().unwrap();
        assert!(seconds < 5.0, "{key}: {seconds} s");
    }
}

/// A one-shot `exec` calls a server never synced: the call fetches its tools first, and
/// the catalogue is kept for the next run.
#[test]
fn a_one_shot_run_fetches_the_tools_it_calls() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (env, code) = common::exec(
        dir.path(),
        &[],
        "return tools.everything.get_sum({a = 20, b = 22})",
    );
    assert_eq!(code, 0, "{env}");
    assert!(env["value"].as_str().unwrap().contains("42"), "{env}");
    let cached: Vec<String> = std::fs::read_dir(dir.path().join(".codemode/cache/mcp"))
        .expect("the catalogue is cached")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // A refresh the server asked for may be cut short by the exit (its temporary
        // file is cleared by the next write).
        .filter(|name| !name.starts_with('.'))
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
}

/// `tools.search` covers servers not fetched yet: it fetches them first.
#[test]
fn a_search_fetches_the_servers_it_covers() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (env, code) = common::exec(
        dir.path(),
        &[],
        "local found = tools.search('sum of two numbers', {toolbox = 'everything'})\n\
         return found.value[1].identity",
    );
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["value"], "everything.get_sum", "{env}");
}

/// A fetch that fails says which server, how it was started and what it wrote to
/// stderr, with its secret masked; the script learns it at the call.
#[test]
fn a_failed_fetch_names_the_server_its_command_and_its_stderr() {
    let _serial = serial();
    let dir = world(json!({ "banner": fixture_server("banner", &[]) }));
    let (env, code) = common::exec(dir.path(), &[], "return tools.banner.sleep({ms = 1})");
    assert_ne!(code, 0, "{env}");
    let message = env["error"]["message"].as_str().unwrap();
    assert!(message.contains("tools.banner"), "{message}");
    assert!(message.contains("started as `python3 "), "{message}");
    assert!(message.contains("fixture banner starting"), "{message}");
    assert!(!env.to_string().contains(SECRET), "{env}");
    let hint = env["error"]["hint"].as_str().unwrap();
    assert!(hint.contains(".codemode/mcp.json"), "{hint}");
}

/// A one-shot listing starts no server: it says the tools are not fetched yet, and how
/// to fetch them.
#[test]
fn a_one_shot_listing_starts_nothing_and_says_how_to_fetch() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let out = common::codemode(dir.path(), &["list"], "");
    let listed = common::text(&out.stdout);
    assert!(out.status.success(), "{listed}");
    assert!(listed.contains("codemode mcp sync everything"), "{listed}");
    assert!(!dir.path().join(".codemode/cache/mcp").exists());
}
