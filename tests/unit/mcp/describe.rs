//! Tests of `engine/mcp/describe.rs`, compiled as its child module `tests` (they reach its
//! private items).

use std::sync::Arc;

use super::*;
use crate::registry::Registry;
use crate::runtime::{Output, Runtime};

/// The first screen stays short, and names the whole loop with the spellings `tools.help`
/// uses.
#[test]
fn the_description_is_short_and_names_the_whole_loop() {
    let many: Vec<(String, bool)> = (0..500)
        .map(|i| (format!("toolbox{i}"), i % 3 == 0))
        .collect();
    let text = tool_exec(&Limits::default(), &many);
    assert!(text.len() < 1_500, "{} bytes", text.len());
    assert!(text.contains("more (tools.toolboxes())"), "{text}");
    for needed in [
        "tools.list(\"box\", 3)",
        "tools.parallel(",
        "tools.install(",
        "one table",
        "tools.create{",
        ".codemode/mcp.json",
    ] {
        assert!(text.contains(needed), "{needed} missing from {text}");
    }
    assert!(!INSTRUCTIONS.contains("tools.list(3"), "{INSTRUCTIONS}");
}

/// The toolbox line names each toolbox once, marks MCP servers, and ends with a dot.
#[test]
fn the_toolbox_line_names_every_toolbox_when_few() {
    let line = toolbox_line(&[("text".into(), false), ("files".into(), true)]);
    assert_eq!(line, "\nToolboxes: text, files (MCP).");
    assert_eq!(toolbox_line(&[]), "");
}

/// A model copies the authoring line of the description as it is; it must work.
#[test]
fn the_authoring_calls_in_the_description_work_as_written() {
    let text = tool_exec(&Limits::default(), &[]);
    let line = text
        .lines()
        .find(|l| l.starts_with("Author"))
        .expect("an Author line");
    // Each `tools.create...{ ... }` call, to its closing brace.
    let calls: Vec<&str> = line
        .match_indices("tools.create")
        .map(|(at, _)| {
            let mut depth = 0;
            let end = line[at..]
                .char_indices()
                .find_map(|(i, c)| {
                    depth += (c == '{') as i32 - (c == '}') as i32;
                    (c == '}' && depth == 0).then_some(at + i + 1)
                })
                .unwrap_or(line.len());
            &line[at..end]
        })
        .collect();
    assert_eq!(calls.len(), 2, "{line}");
    let script = format!(
        "local box = {}\nassert(box.ok, box.error)\nlocal made = {}\nassert(made.ok, made.error)\nreturn tools.mine.shout('hi')",
        calls[0], calls[1]
    );
    let world = tempfile::tempdir().unwrap();
    let registry = Arc::new(Registry::open(world.path(), &[], false).unwrap());
    let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
    let envelope = runtime.exec(&script, Output::Capture);
    assert_eq!(
        envelope.value,
        Some(json!("HI")),
        "{script}\n{}",
        envelope.to_json()
    );
}
