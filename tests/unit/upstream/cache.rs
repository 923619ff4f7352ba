//! Tests of `engine/upstream/cache.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::upstream::config::parse_text;

fn server(token: &str) -> ServerConfig {
    let text = format!(
        r#"{{"mcpServers": {{"files": {{"command": "srv", "args": ["--x"], "env": {{"API_TOKEN": "{token}"}}}}}}}}"#
    );
    parse_text(Path::new("/w/mcp.json"), &text)
        .servers
        .remove(0)
}

#[test]
fn round_trip_keyed_by_config_without_secrets() {
    let world = tempfile::tempdir().unwrap();
    let cache = Cache::new(world.path());
    let old = server("token-one-xyz");
    let new = server("token-two-xyz");
    assert_ne!(key(&old), key(&new));
    assert!(cache.read(&old).is_none());
    let tools = Listing {
        tools: vec![json!({"name": "read-file", "inputSchema": {"type": "object"}})],
        ..Listing::default()
    };
    cache.write(&old, &tools).unwrap();
    assert_eq!(cache.read(&old).unwrap().tools[0].name, "read_file");
    assert!(
        cache.read(&new).is_none(),
        "another configuration is another entry"
    );
    cache.write(&new, &tools).unwrap();
    let files: Vec<_> = std::fs::read_dir(cache.dir()).unwrap().flatten().collect();
    assert_eq!(files.len(), 1, "the old configuration's file is removed");
    let name = files[0].file_name().into_string().unwrap();
    let text = std::fs::read_to_string(files[0].path()).unwrap();
    for secret in ["token-two-xyz", "API_TOKEN", "--x"] {
        assert!(
            !name.contains(secret) && !text.contains(secret),
            "{name}: {text}"
        );
    }
    assert!(name.starts_with("files-") && name.ends_with(".json"));
}

/// A temporary file of a process that is gone is removed by the next write; one of a
/// live process (mid-write) is left alone.
#[test]
fn a_write_clears_temporary_files_of_processes_that_are_gone() {
    let world = tempfile::tempdir().unwrap();
    let cache = Cache::new(world.path());
    let tools = Listing {
        about: ServerAbout::default(),
        tools: vec![json!({"name": "x", "inputSchema": {"type": "object"}})],
    };
    cache.write(&server("a-token-123"), &tools).unwrap();
    // Pid 4194305 is past Linux's largest (2^22), so no process has it.
    let gone = cache.dir().join(".codemode-tmp-4194305-0-files-0.json");
    let live = cache.dir().join(format!(
        ".codemode-tmp-{}-9-files-0.json",
        std::process::id()
    ));
    std::fs::write(&gone, "half").unwrap();
    std::fs::write(&live, "half").unwrap();
    cache.write(&server("b-token-456"), &tools).unwrap();
    assert!(!gone.exists());
    assert!(live.exists());
}

#[test]
fn what_the_server_said_is_kept_and_a_file_from_before_still_loads() {
    let world = tempfile::tempdir().unwrap();
    let cache = Cache::new(world.path());
    let files = server("token-one-xyz");
    let listing = Listing {
        about: ServerAbout {
            name: Some("memory-server".into()),
            version: Some("0.6.3".into()),
            instructions: Some("Keeps facts.".into()),
            ..ServerAbout::default()
        },
        tools: vec![json!({"name": "read_graph", "inputSchema": {"type": "object"}})],
    };
    let written = cache.write(&files, &listing).unwrap();
    assert_eq!(written.about, listing.about);
    // Read back by a new process (no parsed catalogue kept).
    let read = Cache::new(world.path()).read(&files).unwrap();
    assert_eq!(read.about, listing.about);
    // A file written before `about` was kept: the same tools, nothing said.
    let path = cache.path(&files);
    let mut old: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    old.as_object_mut().unwrap().remove("about");
    std::fs::write(&path, serde_json::to_vec(&old).unwrap()).unwrap();
    let read = Cache::new(world.path()).read(&files).unwrap();
    assert_eq!(read.tools[0].name, "read_graph");
    assert_eq!(read.about, ServerAbout::default());
}
