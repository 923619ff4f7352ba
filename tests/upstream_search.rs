//! Search over the tools of the reference MCP servers (memory, filesystem, time and
//! everything, as `setup.sh` pins them) speaks the user's words: a toolbox is described
//! from what its server said at `initialize` and from its tools, everyday requests find
//! the right server tool, rows are in the order of their `p`, and `weak` counts the rows
//! `all = true` adds.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use std::path::Path;

use serde_json::{json, Value};
use servers::*;

fn run(world: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = common::codemode(world, args, stdin);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A world configuring the four reference servers as people name them, synced; the
/// filesystem server serves `files`, a folder outside the world.
fn reference_world(files: &Path) -> tempfile::TempDir {
    let time = installed().join("venv/bin/mcp-server-time");
    let dir = world(json!({
        "memory": {
            "command": "node",
            "args": [package("server-memory")],
            "env": { "MEMORY_FILE_PATH": files.join("memory.jsonl") },
        },
        "filesystem": {
            "command": "node",
            "args": [package("server-filesystem"), files],
        },
        "time": { "command": time },
        "everything": { "command": "node", "args": [package("server-everything"), "stdio"] },
    }));
    let (out, err, code) = run(dir.path(), &["mcp", "sync"], "");
    assert_eq!(code, 0, "{out}{err}");
    dir
}

/// The value a script returns, through `codemode exec`.
fn exec(world: &Path, script: &str) -> Value {
    let (out, err, code) = run(world, &["exec"], script);
    let envelope: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    assert_eq!(code, 0, "{envelope}\n{err}");
    envelope["value"].clone()
}

/// Requests a person makes, each with the tools that serve it (any counts).
const EVERYDAY: &[(&str, &[&str])] = &[
    (
        "remember a fact about a person",
        &["memory.create_entities", "memory.add_observations"],
    ),
    (
        "search my memory for Alice",
        &["memory.search_nodes", "memory.open_nodes"],
    ),
    ("what time is it in Tokyo", &["time.get_current_time"]),
    (
        "what is the time difference between Paris and Sydney",
        &["time.convert_time"],
    ),
    (
        "convert 3pm New York time to London time",
        &["time.convert_time"],
    ),
    ("current time in UTC", &["time.get_current_time"]),
    (
        "list files in a folder",
        &[
            "filesystem.list_directory",
            "filesystem.list_directory_with_sizes",
        ],
    ),
    (
        "show me what is inside a text file",
        &["filesystem.read_text_file", "filesystem.read_file"],
    ),
    (
        "read several files at once",
        &["filesystem.read_multiple_files"],
    ),
    (
        "get the size and modification date of a file",
        &["filesystem.get_file_info"],
    ),
    ("save this text to a file", &["filesystem.write_file"]),
    ("rename a file", &["filesystem.move_file"]),
    ("make a new folder", &["filesystem.create_directory"]),
    (
        "find all markdown files under docs",
        &["filesystem.search_files"],
    ),
    ("replace a line in a config file", &["filesystem.edit_file"]),
    (
        "which folders am I allowed to access",
        &["filesystem.list_allowed_directories"],
    ),
    (
        "show the folder structure as a tree",
        &["filesystem.directory_tree"],
    ),
    ("add two numbers", &["everything.get_sum"]),
    ("repeat back what I say", &["everything.echo"]),
    ("print the environment variables", &["everything.get_env"]),
    (
        "compress a file with gzip",
        &["everything.gzip_file_as_resource"],
    ),
    (
        "run a long task and report its progress",
        &["everything.trigger_long_running_operation"],
    ),
    ("show a tiny image", &["everything.get_tiny_image"]),
];

/// Each request's rows (identity and `p`), `weak` and row count, with and without
/// `all`, at `limit`, from one script.
fn searches(world: &Path, queries: &[&str], limit: usize) -> Vec<Value> {
    let list = serde_json::to_string(queries).unwrap();
    let script = format!(
        r#"
        local out = {{}}
        for i, q in {} do
            local shown = tools.search(q, {{ limit = {limit} }})
            local every = tools.search(q, {{ limit = {limit}, all = true }})
            local rows = {{}}
            for _, row in shown.value do
                table.insert(rows, {{ identity = row.identity, p = row.p }})
            end
            local allP = {{}}
            for _, row in every.value do
                table.insert(allP, row.p)
            end
            out[i] = {{ query = q, rows = rows, weak = shown.weak, total = shown.total,
                allRows = #every.value, allP = allP, text = shown.stdout }}
        end
        return out
        "#,
        list.replacen('[', "{", 1).trim_end_matches(']').to_string() + "}"
    );
    exec(world, &script).as_array().unwrap().clone()
}

#[test]
fn a_toolbox_is_described_from_what_its_server_said_and_from_its_tools() {
    let _serial = serial();
    let files = tempfile::tempdir().unwrap();
    let dir = reference_world(files.path());
    let world = dir.path();
    let rows = exec(
        world,
        "local r = {} for _, b in tools.toolboxes().value do r[b.toolbox] = b.purpose end return r",
    );
    // The memory server sends no instructions: its name, the phrase its tools share and
    // their actions say what it is for.
    let memory = rows["memory"].as_str().unwrap();
    assert!(
        memory.starts_with("memory-server: knowledge graph: create entities"),
        "{memory}"
    );
    assert!(
        rows["filesystem"]
            .as_str()
            .unwrap()
            .contains("list directory"),
        "{rows}"
    );
    // The everything server gives a title and instructions: both speak for it.
    let everything = rows["everything"].as_str().unwrap();
    assert!(
        everything.starts_with("Everything Reference Server: "),
        "{everything}"
    );
    // The same line in listings, the type declarations and the docs.
    let (out, _, code) = run(world, &["list", "2", "memory"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("memory: {memory}")), "{out}");
    let (out, _, code) = run(world, &["types"], "");
    assert_eq!(code, 0);
    assert!(out.contains(memory), "{out}");
    let docs = tempfile::tempdir().unwrap();
    let (out, err, code) = run(world, &["docs", "--out", docs.path().to_str().unwrap()], "");
    assert_eq!(code, 0, "{out}{err}");
    let skill = std::fs::read_to_string(docs.path().join("everything/SKILL.md")).unwrap();
    assert!(skill.contains(everything), "{skill}");
    assert!(
        skill.contains("## Server instructions") && skill.contains("get-roots-list"),
        "the server's instructions are in its skill:\n{skill}"
    );
    // Search reads the server's words: its title finds its toolbox, and a tool is found
    // by what the instructions say of it ("`gzip-file-as-resource` creates
    // session-scoped resources").
    let (out, _, _) = run(
        world,
        &[
            "search",
            "Everything Reference Server",
            "--json",
            "--limit",
            "5",
        ],
        "",
    );
    let found: Value = serde_json::from_str(&out).unwrap();
    assert!(
        found["value"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["identity"] == "everything" && r["assetType"] == "toolbox"),
        "{out}"
    );
    let (out, _, _) = run(
        world,
        &[
            "search",
            "session-scoped resources",
            "--mode",
            "keyword",
            "--json",
        ],
        "",
    );
    let found: Value = serde_json::from_str(&out).unwrap();
    let first = &found["value"][0];
    assert_eq!(
        first["identity"], "everything.gzip_file_as_resource",
        "{out}"
    );
    // Every word of the request, though its description has "resource" only.
    assert_eq!(first["matched"]["words"], first["matched"]["of"], "{out}");

    // A cache written before the server's words were kept still loads; the toolbox is
    // then described from its tools alone.
    let cache = world.join(".codemode/cache/mcp");
    for entry in std::fs::read_dir(&cache).unwrap().flatten() {
        let path = entry.path();
        let mut file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert!(file.get("about").is_some(), "{file}");
        file.as_object_mut().unwrap().remove("about");
        std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    }
    let rows = exec(
        world,
        "local r = {} for _, b in tools.toolboxes().value do r[b.toolbox] = {b.purpose, b.toolCount} end return r",
    );
    assert_eq!(
        rows["memory"],
        json!([
            "knowledge graph: create entities, create relations, add observations, delete entities, delete observations, delete relations, read graph, search nodes, open nodes",
            9
        ])
    );
}

#[test]
fn everyday_requests_find_the_server_tool_in_the_first_three_rows() {
    let _serial = serial();
    let files = tempfile::tempdir().unwrap();
    let dir = reference_world(files.path());
    let queries: Vec<&str> = EVERYDAY.iter().map(|(q, _)| *q).collect();
    let found = searches(dir.path(), &queries, 5);
    let mut misses = Vec::new();
    for ((query, gold), result) in EVERYDAY.iter().zip(&found) {
        let rows: Vec<&str> = result["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["identity"].as_str().unwrap())
            .collect();
        if !rows.iter().take(3).any(|id| gold.contains(id)) {
            misses.push(format!(
                "{query:?}: {gold:?} not in the first 3 of {rows:?}"
            ));
        }
    }
    assert!(
        misses.is_empty(),
        "{} of {} missed:\n{}",
        misses.len(),
        EVERYDAY.len(),
        misses.join("\n")
    );
}

#[test]
fn rows_are_in_the_order_of_p_and_weak_is_what_all_adds() {
    let _serial = serial();
    let files = tempfile::tempdir().unwrap();
    let dir = reference_world(files.path());
    let mut queries: Vec<&str> = EVERYDAY.iter().map(|(q, _)| *q).collect();
    queries.extend([
        "knowledge graph",
        "water the plants on my balcony every morning",
        "xyzzy plugh",
        "read a file, then remember who wrote it and tell me the time in Paris",
    ]);
    for limit in [3, 10] {
        for result in searches(dir.path(), &queries, limit) {
            let query = &result["query"];
            let ps: Vec<f64> = result["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["p"].as_f64().unwrap())
                .collect();
            let all: Vec<f64> = result["allP"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .collect();
            for list in [&ps, &all] {
                assert!(
                    list.windows(2).all(|w| w[0] >= w[1]),
                    "{query} (limit {limit}): p out of order {list:?}\n{}",
                    result["text"]
                );
            }
            let added = result["allRows"].as_u64().unwrap() - ps.len() as u64;
            assert_eq!(
                result["weak"].as_u64().unwrap(),
                added,
                "{query} (limit {limit}): weak says {} rows are hidden, all = true adds {added}",
                result["weak"]
            );
            assert!(ps.len() <= limit && all.len() <= limit);
        }
    }
}
