//! `codemode registry export|check`: tools.json interop by the rules of the registry format.

mod common;

use common::fixture;

use std::path::Path;

use serde_json::{json, Value};

fn export_to(world: &Path, file: &Path) -> Value {
    let out = fixture::codemode(
        world,
        &["registry", "export", "--out", file.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

fn check(file: &Path) -> (bool, String) {
    let out = common::command()
        .args(["registry", "check", file.to_str().unwrap()])
        .output()
        .unwrap();
    (out.status.success(), fixture::stdout(&out))
}

#[test]
fn export_writes_a_valid_registry_with_locations_relative_to_the_file() {
    let world = fixture::world();
    let file = world.path().join("out/registry/tools.json");
    let doc = export_to(world.path(), &file);
    assert_eq!(doc["version"], "1.0.0");
    let tools = doc["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "math-ops-add-all",
            "text-shout",
            "text-slugify",
            "text-word-count"
        ]
    );
    let slugify = &tools[2];
    assert_eq!(
        slugify["location"],
        "../../text.toolbox/slugify.tool/init.luau"
    );
    assert_eq!(slugify["status"], "ready");
    assert_eq!(slugify["capabilities"], json!(["slugify"]));
    assert_eq!(slugify["languages"], json!(["en"]));
    assert_eq!(slugify["tags"], json!(["url", "slug", "text", "strings"]));
    assert!(
        tools[0].get("languages").is_none(),
        "languages is omitted when unknown"
    );
    assert_eq!(doc["meta"]["repo"], "../..");
    let (ok, report) = check(&file);
    assert!(ok, "{report}");
    assert!(report.contains("4 of 4 entries valid"), "{report}");
}

#[test]
fn export_to_stdout_is_relative_to_the_current_directory_and_skips_broken_tools() {
    let world = fixture::world();
    let out = common::command()
        .current_dir(world.path())
        .args(["registry", "export"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["tools"][1]["location"],
        "text.toolbox/shout.tool/init.luau"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("skipped text.broken") && stderr.contains("codemode check"),
        "{stderr}"
    );
}

#[test]
fn planned_tools_are_exported_with_their_status() {
    let world = fixture::world();
    fixture::put(
        world.path(),
        "text.toolbox/later.tool/init.luau",
        "--!desc Coming soon.\nreturn function() end\n",
    );
    fixture::put(
        world.path(),
        "text.toolbox/later.tool/.metadata",
        r#"{"status": "planned", "capabilities": ["plan"]}"#,
    );
    let doc = export_to(world.path(), &world.path().join("tools.json"));
    let later = doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "text-later")
        .unwrap()
        .clone();
    assert_eq!(later["status"], "planned");
    assert_eq!(later["capabilities"], json!(["plan"]));
}

#[test]
fn export_refuses_names_that_clash_once_hyphenated() {
    let world = fixture::world();
    fixture::put(
        world.path(),
        "text.toolbox/word_count.tool/init.luau",
        "return function() end\n",
    );
    let out = fixture::codemode(world.path(), &["registry", "export"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("text-word-count") && stderr.contains("text.word_count"),
        "{stderr}"
    );
}

/// A registry with one good entry (pointing at a real file) plus whatever `bad` holds.
fn registry_with(dir: &Path, bad: Vec<Value>) -> std::path::PathBuf {
    fixture::put(dir, "tools/good/main.py", "print('hi')\n");
    let mut tools = vec![json!({
        "name": "good-tool", "description": "Works.", "location": "tools/good/main.py",
        "status": "ready", "capabilities": ["run"], "languages": ["en", "es"], "tags": ["x"]
    })];
    tools.extend(bad);
    let file = dir.join("tools.json");
    let doc = json!({"version": "1.0.0", "tools": tools, "meta": {"repo": ".", "created": "2026-05-09", "purpose": "Test."}});
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    file
}

#[test]
fn check_accepts_a_good_file() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, report) = check(&registry_with(dir.path(), vec![]));
    assert!(ok, "{report}");
}

#[test]
fn check_names_every_failing_entry_and_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    fixture::put(dir.path(), "tools/a-dir/keep", "");
    let good = |name: &str| json!({"name": name, "description": "d", "location": "tools/good/main.py", "status": "ready", "capabilities": ["c"], "tags": ["t"]});
    let mut missing = good("missing-fields");
    missing.as_object_mut().unwrap().remove("description");
    missing.as_object_mut().unwrap().remove("tags");
    let mut status = good("bad-status");
    status["status"] = json!("done");
    let mut nowhere = good("no-location");
    nowhere["location"] = json!("tools/nowhere/main.py");
    let mut folder = good("dir-location");
    folder["location"] = json!("tools/a-dir");
    let mut empty_caps = good("empty-capabilities");
    empty_caps["capabilities"] = json!([]);
    let mut lang = good("bad-language");
    lang["languages"] = json!(["english"]);
    let mut wrong_type = good("wrong-type");
    wrong_type["tags"] = json!("t");
    let file = registry_with(
        dir.path(),
        vec![
            missing,
            status,
            nowhere,
            folder,
            empty_caps,
            lang,
            wrong_type,
            good("Bad_Name"),
            good("good-tool"),
            json!(3),
        ],
    );
    let (ok, report) = check(&file);
    assert!(!ok, "{report}");
    for (place, reason) in [
        (
            "tools[1] \"missing-fields\"",
            "missing required field \"description\"",
        ),
        (
            "tools[1] \"missing-fields\"",
            "missing required field \"tags\"",
        ),
        ("tools[2] \"bad-status\"", "status \"done\" is not one of"),
        ("tools[3] \"no-location\"", "does not exist"),
        ("tools[4] \"dir-location\"", "is not a file"),
        (
            "tools[5] \"empty-capabilities\"",
            "\"capabilities\" is empty",
        ),
        ("tools[6] \"bad-language\"", "not an ISO 639-1 code"),
        (
            "tools[7] \"wrong-type\"",
            "\"tags\" must be an array of strings, got a string",
        ),
        (
            "tools[8] \"Bad_Name\"",
            "not lowercase and hyphen-separated",
        ),
        ("tools[9] \"good-tool\"", "already used by tools[0]"),
        ("tools[10]", "must be an object, got a number"),
    ] {
        assert!(
            report
                .lines()
                .any(|l| l.starts_with("error: ") && l.contains(place) && l.contains(reason)),
            "no line for {place}: {reason}\n{report}"
        );
    }
    assert!(report.contains("1 of 11 entries valid"), "{report}");
}

#[test]
fn check_rejects_broken_documents() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("{not json", "not valid JSON"),
        (
            "\u{feff}{\"version\": \"1.0.0\", \"tools\": []}",
            "byte-order mark",
        ),
        ("[]", "must be a JSON object"),
        (r#"{"tools": []}"#, "missing required field \"version\""),
        (
            r#"{"version": "1.0", "tools": []}"#,
            "not a semantic version",
        ),
        (
            r#"{"version": "1.0.0"}"#,
            "missing required field \"tools\"",
        ),
        (
            r#"{"version": "1.0.0", "tools": {}}"#,
            "\"tools\" must be an array",
        ),
        (
            r#"{"version": "1.0.0", "tools": [], "meta": {"created": "yesterday"}}"#,
            "not an ISO 8601 date",
        ),
    ];
    for (text, reason) in cases {
        let file = dir.path().join("tools.json");
        std::fs::write(&file, text).unwrap();
        let (ok, report) = check(&file);
        assert!(!ok && report.contains(reason), "{text}: {report}");
    }
    let out = common::command()
        .args([
            "registry",
            "check",
            dir.path().join("absent.json").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a missing file is a usage error"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn check_reads_the_example_of_the_format_document() {
    // The format document's own example, with its entry points created.
    let dir = tempfile::tempdir().unwrap();
    let example = json!({
        "version": "1.0.0",
        "tools": [
            {"name": "torrent-finder", "description": "Search and download movies/series via BitTorrent",
             "location": "tools/torrent-finder/main.py", "status": "ready", "capabilities": ["search", "open"],
             "languages": ["en", "es"], "tags": ["torrent", "movies", "series", "4k", "1080p"]},
            {"name": "subtitle-finder", "description": "Search and download subtitles in Spanish",
             "location": "tools/subtitle-finder/main.py", "status": "ready", "capabilities": ["search", "download"],
             "languages": ["es", "en"], "tags": ["subtitles", "srt", "español"]},
            {"name": "media-info", "description": "Extract technical info from media files",
             "location": "tools/media-info/main.py", "status": "ready", "capabilities": ["info", "tracks", "quick"],
             "tags": ["ffprobe", "codec", "resolution", "audio-tracks"]}
        ],
        "meta": {"repo": "{workspace-root}/movie-scraper-tools/", "created": "2026-05-09", "purpose": "Kone's toolkit"}
    });
    for t in example["tools"].as_array().unwrap() {
        fixture::put(dir.path(), t["location"].as_str().unwrap(), "");
    }
    let file = dir.path().join("tools.json");
    std::fs::write(&file, example.to_string()).unwrap();
    let (ok, report) = check(&file);
    assert!(ok, "{report}");
}
