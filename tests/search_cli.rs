//! `codemode search` on the command line, and `tools.install` copying a library toolbox.

mod common;

use std::path::Path;
use std::process::Output;

fn codemode(args: &[&str]) -> Output {
    common::output(common::command().args(args), "")
}

fn world() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/worlds/search")
        .display()
        .to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn search_prints_a_compact_listing_with_the_exact_name_first() {
    let out = codemode(&["search", "slugify", "--world", &world()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("for \"slugify\" (semantic)"), "{stdout}");
    assert!(
        lines[1].starts_with("1. text.slugify (p 1.00) - Turn text into a URL slug."),
        "{stdout}"
    );
}

#[test]
fn no_match_suggests_what_was_not_tried_in_flags() {
    let out = codemode(&[
        "search",
        "--mode",
        "keyword",
        "zzqx frobnicate",
        "--world",
        &world(),
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(
            "no match for \"zzqx frobnicate\"; try other words, --mode semantic, or codemode list"
        ),
        "{stdout}"
    );
    // Already semantic: it is not suggested again. No word is in the index, so the
    // assets nearest in meaning are weak ones, there for `--all`.
    let out = codemode(&["search", "日本語のテキストを数える", "--world", &world()]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("no close match for \"日本語のテキストを数える\" (")
            && stdout.contains("--all shows them")
            && !stdout.contains("--mode"),
        "{stdout}"
    );
}

#[test]
fn search_json_gives_rows_and_total() {
    let out = codemode(&[
        "search",
        "count words",
        "--world",
        &world(),
        "--mode",
        "keyword",
        "--limit",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(value["value"][0]["identity"], "text.wordCount");
    assert!(value["value"].as_array().unwrap().len() <= 2);
    assert!(value["total"].as_u64().unwrap() >= 1);
    assert_eq!(value["weak"], 0, "{value}");
    // Nothing fits: no rows, and how many weak ones were hidden.
    let out = codemode(&["search", "xyzzy plugh", "--world", &world(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(value["value"], serde_json::json!([]), "{value}");
    assert!(value["weak"].as_u64().unwrap() > 0, "{value}");
}

#[test]
fn search_lists_a_toolbox_with_an_empty_query() {
    let out = codemode(&["search", "--toolbox", "mail", "--world", &world()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("mail.compose")
            && stdout.contains("mail.inbox")
            && !stdout.contains("text."),
        "{stdout}"
    );
}

#[test]
fn search_refuses_bad_options_with_a_hint() {
    // Options the command line can check are usage errors (exit 2) naming what is allowed.
    for (args, expect) in [
        (
            vec!["search", "x", "--mode", "fuzzy"],
            "--mode must be \"keyword\" or \"semantic\"",
        ),
        (
            vec!["search", "x", "--limit", "-1"],
            "--limit must be a whole number from 1 to 100, got -1",
        ),
        (
            vec!["search", "x", "--limit", "0"],
            "--limit must be a whole number from 1 to 100, got 0",
        ),
        (vec!["list", "9"], "the tier is 1, 2 or 3, got 9"),
    ] {
        let mut args = args.clone();
        let w = world();
        args.extend(["--world", &w]);
        let out = codemode(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(expect), "{}", text(&out.stderr));
        assert!(out.stdout.is_empty());
    }
    // A toolbox that is not there is found out by the search itself.
    let w = world();
    let out = codemode(&["search", "x", "--toolbox", "nope", "--world", &w]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no toolbox named 'nope'") && stderr.contains("hint:"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn search_accepts_query_syntax_and_control_characters_as_text() {
    let out = codemode(&[
        "search",
        "\"slugify\" (x) * : \u{1}\\",
        "--world",
        &world(),
        "--mode",
        "keyword",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1. text.slugify"));
}

fn library() -> tempfile::TempDir {
    let lib = tempfile::tempdir().unwrap();
    let tool = lib.path().join("greet.toolbox/hello.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "--!desc Say hello to someone.\nlocal function hello(who: string): string\n\treturn 'hello ' .. who\nend\n\nreturn hello\n",
    )
    .unwrap();
    let broken = lib.path().join("greet.toolbox/farewell.tool");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("init.luau"),
        "--!desc Say goodbye to someone.\nlocal function farewell(who: string): string\n\treturn 'bye ' ..\nend\n\nreturn farewell\n",
    )
    .unwrap();
    std::fs::write(
        lib.path().join("greet.toolbox/README.md"),
        "# greet\n\nGreetings.\n",
    )
    .unwrap();
    lib
}

fn exec(world: &Path, lib: &Path, script: &str) -> serde_json::Value {
    let out = common::output(
        common::command()
            .args(["exec", "--world"])
            .arg(world)
            .arg("--library")
            .arg(lib),
        script,
    );
    common::envelope(&out)
}

#[test]
fn install_copies_a_library_toolbox_into_the_world_once() {
    let lib = library();
    let world = tempfile::tempdir().unwrap();
    let found = exec(
        world.path(),
        lib.path(),
        "local r = tools.search('hello', { mode = 'keyword' })\nreturn r.value[1]",
    );
    assert_eq!(found["value"]["identity"], "greet.hello", "{found}");
    assert_eq!(found["value"]["from"], "library");
    assert_eq!(found["value"]["installed"], false);
    assert!(
        found["value"].get("install").is_none(),
        "a library tool that works needs no copy: {found}"
    );
    // A library tool that does not work is one to fix in a copy: the hint says how.
    let broken = exec(
        world.path(),
        lib.path(),
        "local r = tools.search('goodbye', { mode = 'keyword' })\nreturn { row = r.value[1], text = r.stdout }",
    );
    assert_eq!(
        broken["value"]["row"]["identity"], "greet.farewell",
        "{broken}"
    );
    assert_eq!(broken["value"]["row"]["install"], "tools.install('greet')");
    assert!(
        broken["value"]["text"]
            .as_str()
            .unwrap()
            .contains("[library: tools.install('greet')]"),
        "{broken}"
    );

    let installed = exec(world.path(), lib.path(), "return tools.install('greet')");
    assert_eq!(installed["value"]["ok"], true, "{installed}");
    assert_eq!(
        installed["value"]["path"], "greet.toolbox",
        "world-relative, as vfs takes it"
    );
    let copied = world.path().join("greet.toolbox/hello.tool/init.luau");
    assert!(copied.is_file() && world.path().join("greet.toolbox/README.md").is_file());
    let leftovers: Vec<_> = std::fs::read_dir(world.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        // The engine's index cache is expected; a temporary folder is not.
        .filter(|e| e.file_name() != ".codemode")
        .collect();
    assert!(leftovers.is_empty(), "no temporary folder is left behind");

    let after = exec(
        world.path(),
        lib.path(),
        "local r = tools.search('hello', { mode = 'keyword' })\nreturn r.value[1]",
    );
    assert_eq!(after["value"]["from"], "world", "{after}");
    assert_eq!(after["value"]["installed"], true);
    assert!(after["value"].get("install").is_none());

    std::fs::write(&copied, "-- edited\n").unwrap();
    let again = exec(world.path(), lib.path(), "return tools.install('greet')");
    assert_eq!(again["value"]["ok"], false);
    assert!(
        again["value"]["error"]
            .as_str()
            .unwrap()
            .contains("already holds toolbox 'greet'"),
        "{again}"
    );
    assert_eq!(
        std::fs::read_to_string(&copied).unwrap(),
        "-- edited\n",
        "never clobbers"
    );
}

#[test]
fn install_refuses_unknown_toolboxes_and_wrong_types() {
    let lib = library();
    let world = tempfile::tempdir().unwrap();
    let missing = exec(world.path(), lib.path(), "return tools.install('nope')");
    assert_eq!(missing["value"]["ok"], false);
    assert!(missing["value"]["error"]
        .as_str()
        .unwrap()
        .contains("no toolbox named 'nope'"));
    // A number the type check cannot see (it stops a literal 42 first) is refused as
    // the prelude refuses it.
    let wrong = exec(
        world.path(),
        lib.path(),
        "local n: any = 42\nreturn tools.install(n)",
    );
    assert_eq!(wrong["ok"], false);
    assert!(wrong["error"]["message"]
        .as_str()
        .unwrap()
        .contains("needs a toolbox name"));
}

#[test]
fn words_no_tool_holds_are_no_close_match_however_near_in_meaning() {
    // None of these words is in any indexed text: the semantic rows are only what their
    // letters land near, so nothing fits (and `--all` still shows them).
    for query in ["xyzzy plugh", "qqqq"] {
        let out = codemode(&["search", query, "--world", &world()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.starts_with(&format!("no close match for \"{query}\"")),
            "{stdout}"
        );
        let all = codemode(&["search", query, "--all", "--world", &world()]);
        assert!(text(&all.stdout).contains("1. "), "{}", text(&all.stdout));
    }
    // A request whose words the index holds still finds its tool.
    let out = codemode(&["search", "make a url slug", "--world", &world()]);
    assert!(
        text(&out.stdout).contains("1. text.slugify"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_request_that_spells_a_tool_name_in_words_finds_that_tool_first() {
    // `table.toCsv` is nearer "parse csv" in meaning; the request spells `parseCsv`.
    for query in ["parse csv", "Parse a CSV"] {
        let out = codemode(&["search", query, "--world", &world()]);
        let stdout = text(&out.stdout);
        assert!(
            stdout
                .lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("1. table.parseCsv")),
            "{query}: {stdout}"
        );
    }
}

/// A world of the given tools (`box.tool`, description), each returning nothing.
fn world_of(tools: &[(&str, &str)]) -> tempfile::TempDir {
    let world = tempfile::tempdir().unwrap();
    for (identity, description) in tools {
        let (toolbox, name) = identity.split_once('.').unwrap();
        let folder = world.path().join(format!("{toolbox}.toolbox/{name}.tool"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("init.luau"),
            format!("--!desc {description}\nreturn function() return nil end\n"),
        )
        .unwrap();
    }
    world
}

#[test]
fn a_name_written_exactly_pins_that_tool_and_not_its_twin_in_another_case() {
    let world = world_of(&[
        ("storage.URL", "Share a file by its URL."),
        ("storage.url", "Share a file by its url."),
    ]);
    let w = world.path().display().to_string();
    for (query, pinned, twin) in [
        ("storage.URL", "storage.URL", "storage.url"),
        ("use storage.url to share it", "storage.url", "storage.URL"),
        ("URL", "storage.URL", "storage.url"),
    ] {
        let out = codemode(&["search", query, "--world", &w, "--json", "--all"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = value["value"].as_array().unwrap();
        assert_eq!(rows[0]["identity"], pinned, "{query}: {value}");
        assert_eq!(rows[0]["p"], 1.0, "{query}: {value}");
        let other = rows.iter().find(|r| r["identity"] == twin);
        assert!(other.is_some_and(|r| r["p"] != 1.0), "{query}: {value}");
    }
}

#[test]
fn a_request_naming_a_toolbox_and_its_tool_finds_that_tool_first() {
    let world = world_of(&[
        ("storage.list", "List the files in a bucket."),
        ("slack.list", "List the channels of a workspace."),
        ("jira.listIssues", "List the issues of a project."),
    ]);
    let w = world.path().display().to_string();
    for (query, first) in [
        ("storage list", "storage.list"),
        ("list storage", "storage.list"),
        ("slack list", "slack.list"),
        ("jira list issues", "jira.listIssues"),
    ] {
        let out = codemode(&["search", query, "--world", &w, "--json"]);
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value["value"][0]["identity"], first, "{query}: {value}");
        assert_ne!(
            value["value"][0]["p"], 1.0,
            "{query} is not a name: {value}"
        );
    }
}
