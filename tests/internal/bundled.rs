//! The bundled toolboxes, read by a registry: every tool documented and with a spec.

use crate::assets::Origin;
use crate::registry::Registry;

/// Tool authors copy these folders, so every metadata source must be filled in.
#[test]
fn every_bundled_tool_is_documented_and_has_a_spec() {
    let world = tempfile::tempdir().unwrap();
    let registry = Registry::open(world.path(), &[], true).unwrap();
    let index = registry.snapshot();
    let bundled: Vec<_> = index
        .tools
        .values()
        .filter(|t| t.origin == Origin::Library)
        .collect();
    assert!(bundled.len() >= 10, "only {} bundled tools", bundled.len());
    let mut problems = Vec::new();
    for tool in bundled {
        let m = &tool.meta();
        let mut fail = |what: &str| problems.push(format!("{}: {what}", m.identity));
        if !tool.is_registered() {
            fail(&format!("not callable: {:?}", tool.reason()));
        }
        if !tool.warnings().is_empty() {
            fail(&format!("warnings: {:?}", tool.warnings()));
        }
        if m.description.len() < 20 {
            fail("no real --!desc");
        }
        if m.signature.is_none() {
            fail("no typed signature");
        }
        for arg in &m.args {
            if arg.description.is_empty() {
                fail(&format!("--!arg {} has no description", arg.name));
            }
        }
        match &m.returns {
            Some(r) if !r.description.is_empty() => {}
            _ => fail("no --!return with a description"),
        }
        if m.examples.is_empty() {
            fail("no --!example");
        }
        if m.tags.len() < 3 {
            fail("fewer than 3 tags in .metadata");
        }
        if m.status != "ready" {
            fail("status is not ready");
        }
        if m.purpose.as_deref().unwrap_or("").len() < 20 {
            fail("README.md has no purpose line");
        }
        let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/luau/toolboxes")
            .join(format!("{}_{}.luau", m.toolbox, m.name));
        if !spec.is_file() {
            fail(&format!("no spec script {}", spec.display()));
        }
    }
    for summary in index.toolboxes() {
        if summary.from == Origin::Library && summary.purpose.len() < 20 {
            problems.push(format!("toolbox {} has no purpose line", summary.toolbox));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `build.rs` compiles every bundled Luau file ahead of time; what the engine takes in
/// place of compiling one must be what compiling it now gives, and every file is there.
#[test]
fn the_bytecode_built_with_the_engine_is_what_compiling_the_bundled_files_gives() {
    let files: Vec<String> =
        walkdir::WalkDir::new(concat!(env!("CARGO_MANIFEST_DIR"), "/toolboxes"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "luau"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect();
    assert_eq!(crate::assets::PRECOMPILED.len(), files.len());
    for (source, bytecode) in crate::assets::PRECOMPILED {
        assert!(files.iter().any(|f| f == source));
        let now = crate::assets::compiler().compile(source).unwrap();
        assert_eq!(&now, bytecode);
    }
    // A source that differs by a byte is compiled, not taken from the list.
    let (source, bytecode) = crate::assets::PRECOMPILED[0];
    let edited = format!("local _ = 1\n{source}");
    assert_ne!(crate::assets::compile(&edited).unwrap(), bytecode);
}
