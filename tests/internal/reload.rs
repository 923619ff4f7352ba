//! Live reload: edits on disk show in `Registry::snapshot()` while a watcher runs.
//! Each case polls until the change is visible (generous timeout, no timed asserts).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::assets::AssetIndex;
use crate::registry::Registry;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn tool_source(name: &str, desc: &str) -> String {
    format!(
        "--!desc {desc}\nlocal function {name}(): string\n\treturn '{desc}'\nend\nreturn {name}\n"
    )
}

/// Waits until `seen` holds for the registry's snapshot; panics with `what` after 20 s.
fn eventually(registry: &Registry, what: &str, seen: impl Fn(&AssetIndex) -> bool) {
    let started = Instant::now();
    while !seen(&registry.snapshot()) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "never saw: {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn description(index: &AssetIndex, identity: &str) -> Option<String> {
    index.tool(identity).map(|t| t.meta().description.clone())
}

#[test]
fn edits_of_every_kind_show_without_a_restart() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    write(
        &w.join("a.toolbox/one.tool/init.luau"),
        &tool_source("one", "One."),
    );
    write(
        &w.join("a.toolbox/two.tool/init.luau"),
        &tool_source("two", "Two."),
    );
    let registry = Arc::new(Registry::open(&w, &[], false).unwrap());
    let _watcher = registry.watch().unwrap();
    let two_before = registry.snapshot().tool("a.two").unwrap().clone();

    // Edit init.luau: the new version replaces the old; the other tool keeps its Arc.
    write(
        &w.join("a.toolbox/one.tool/init.luau"),
        &tool_source("one", "One, edited."),
    );
    eventually(&registry, "init.luau edit", |i| {
        description(i, "a.one").as_deref() == Some("One, edited.")
    });
    assert!(Arc::ptr_eq(
        registry.snapshot().tool("a.two").unwrap(),
        &two_before
    ));

    // .metadata: tags; then a malformed one makes the tool not callable.
    write(
        &w.join("a.toolbox/one.tool/.metadata"),
        r#"{"tags": ["fresh"]}"#,
    );
    eventually(&registry, ".metadata tags", |i| {
        i.tool("a.one").is_some_and(|t| t.meta().tags == ["fresh"])
    });
    write(&w.join("a.toolbox/one.tool/.metadata"), "{broken");
    eventually(&registry, "malformed .metadata", |i| {
        i.tool("a.one").is_some_and(|t| !t.is_registered())
    });
    std::fs::remove_file(w.join("a.toolbox/one.tool/.metadata")).unwrap();
    eventually(&registry, ".metadata removed", |i| {
        i.tool("a.one").is_some_and(|t| t.is_registered())
    });

    // README.md of a tool and of a toolbox; render.luau.
    write(
        &w.join("a.toolbox/one.tool/README.md"),
        "# one\n\nThe first tool.\n",
    );
    eventually(&registry, "tool README", |i| {
        i.tool("a.one")
            .and_then(|t| t.meta().purpose.clone())
            .as_deref()
            == Some("The first tool.")
    });
    write(&w.join("a.toolbox/README.md"), "# a\n\nToolbox A.\n");
    eventually(&registry, "toolbox README", |i| {
        i.toolbox("a").is_some_and(|f| f.purpose == "Toolbox A.")
    });
    write(
        &w.join("a.toolbox/one.tool/render.luau"),
        "return function(r) return tostring(r) end\n",
    );
    eventually(&registry, "render.luau", |i| {
        i.tool("a.one").is_some_and(|t| t.meta().has_render)
    });

    // Add a tool folder, rename it, delete it.
    let three = w.join("a.toolbox/three.tool");
    write(&three.join("init.luau"), &tool_source("three", "Three."));
    eventually(&registry, "new tool", |i| i.tool("a.three").is_some());
    std::fs::rename(&three, w.join("a.toolbox/four.tool")).unwrap();
    eventually(&registry, "renamed tool", |i| {
        i.tool("a.three").is_none() && i.tool("a.four").is_some()
    });
    std::fs::remove_dir_all(w.join("a.toolbox/four.tool")).unwrap();
    eventually(&registry, "deleted tool", |i| i.tool("a.four").is_none());

    // Add a toolbox, rename it, delete it.
    write(
        &w.join("b.toolbox/t.tool/init.luau"),
        &tool_source("t", "T."),
    );
    eventually(&registry, "new toolbox", |i| i.tool("b.t").is_some());
    std::fs::rename(w.join("b.toolbox"), w.join("c.toolbox")).unwrap();
    eventually(&registry, "renamed toolbox", |i| {
        i.tool("b.t").is_none() && i.tool("c.t").is_some() && !i.has_toolbox("b")
    });
    std::fs::remove_dir_all(w.join("c.toolbox")).unwrap();
    eventually(&registry, "deleted toolbox", |i| !i.has_toolbox("c"));

    // A package folder holding a toolbox, renamed as a whole.
    write(
        &w.join("p.package/d.toolbox/t.tool/init.luau"),
        &tool_source("t", "T."),
    );
    eventually(&registry, "toolbox in a package", |i| {
        i.tool("d.t").is_some()
    });
    std::fs::remove_dir_all(w.join("p.package")).unwrap();
    eventually(&registry, "package removed", |i| !i.has_toolbox("d"));

    assert!(Arc::ptr_eq(
        registry.snapshot().tool("a.two").unwrap(),
        &two_before
    ));
}

#[test]
fn library_folders_are_watched_and_the_world_shadows_them() {
    let world = tempfile::tempdir().unwrap();
    let lib = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    let l = lib.path().canonicalize().unwrap();
    write(
        &l.join("x.toolbox/t.tool/init.luau"),
        &tool_source("t", "From the library."),
    );
    let registry = Arc::new(Registry::open(&w, std::slice::from_ref(&l), false).unwrap());
    let _watcher = registry.watch().unwrap();
    write(
        &l.join("x.toolbox/t.tool/init.luau"),
        &tool_source("t", "Library, edited."),
    );
    eventually(&registry, "library edit", |i| {
        description(i, "x.t").as_deref() == Some("Library, edited.")
    });
    write(
        &w.join("x.toolbox/t.tool/init.luau"),
        &tool_source("t", "From the world."),
    );
    eventually(&registry, "world shadows library", |i| {
        description(i, "x.t").as_deref() == Some("From the world.")
    });
    std::fs::remove_dir_all(w.join("x.toolbox")).unwrap();
    eventually(&registry, "library shows again", |i| {
        description(i, "x.t").as_deref() == Some("Library, edited.")
    });
}

#[test]
fn incremental_updates_match_a_full_rebuild() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    for b in 0..3 {
        for t in 0..5 {
            write(
                &w.join(format!("b{b}.toolbox/t{t}.tool/init.luau")),
                &tool_source(&format!("t{t}"), "Tool."),
            );
        }
    }
    let registry = Registry::open(&w, &[], false).unwrap();
    let before = registry.snapshot();
    write(
        &w.join("b1.toolbox/t2.tool/init.luau"),
        &tool_source("t2", "Changed."),
    );
    std::fs::remove_dir_all(w.join("b2.toolbox/t0.tool")).unwrap();
    write(
        &w.join("b0.toolbox/new.tool/init.luau"),
        &tool_source("new", "New."),
    );
    // A stale temporary folder (a crash mid-create) is never read.
    write(
        &w.join("b0.toolbox/.codemode-tmp-1-0-ghost.tool/init.luau"),
        "broken(",
    );
    let changed = [
        w.join("b1.toolbox/t2.tool/init.luau"),
        w.join("b2.toolbox/t0.tool"),
        w.join("b0.toolbox/new.tool"),
        w.join("b0.toolbox/.codemode-tmp-1-0-ghost.tool"),
    ];
    let after = registry.apply_changes(&changed);
    registry.reload();
    let full = registry.snapshot();
    let ids = |i: &AssetIndex| i.tools.keys().cloned().collect::<Vec<_>>();
    assert_eq!(ids(&after), ids(&full));
    for (id, entry) in after.tools.iter() {
        assert_eq!(entry.meta(), full.tools[id].meta(), "{id}");
    }
    assert_eq!(description(&after, "b1.t2").as_deref(), Some("Changed."));
    assert!(Arc::ptr_eq(&before.tools["b1.t3"], &after.tools["b1.t3"]));
    assert!(!Arc::ptr_eq(&before.tools["b1.t2"], &after.tools["b1.t2"]));
}

#[test]
fn subscribers_see_a_swapped_snapshot_at_once() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    let registry = Registry::open(&w, &[], false).unwrap();
    let mut changes = registry.subscribe();
    assert!(!changes.has_changed().unwrap());
    let tool = w.join("a.toolbox/one.tool/init.luau");
    write(&tool, &tool_source("one", "One."));
    registry.apply_changes(&[tool]);
    assert!(
        changes.has_changed().unwrap(),
        "the swap itself signals, with no poll in between"
    );
    changes.mark_unchanged();
    registry.reload();
    assert!(changes.has_changed().unwrap(), "a full reload signals too");
}

#[test]
fn an_ignore_marker_added_or_removed_hides_or_shows_its_folder() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    write(
        &w.join("b.toolbox/t.tool/init.luau"),
        &tool_source("t", "Tool."),
    );
    write(
        &w.join("pkg/c.toolbox/u.tool/init.luau"),
        &tool_source("u", "Tool."),
    );
    let registry = Registry::open(&w, &[], false).unwrap();
    assert!(registry.snapshot().tool("b.t").is_some());
    for (marker, identity) in [
        (w.join("b.toolbox/.codemode-ignore"), "b.t"),
        (w.join("pkg/.codemode-ignore"), "c.u"),
    ] {
        write(&marker, "");
        let hidden = registry.apply_changes(std::slice::from_ref(&marker));
        assert!(hidden.tool(identity).is_none(), "{identity} still listed");
        std::fs::remove_file(&marker).unwrap();
        let shown = registry.apply_changes(std::slice::from_ref(&marker));
        assert!(shown.tool(identity).is_some(), "{identity} not back");
    }
}

#[test]
fn a_world_folder_moved_away_and_made_again_is_followed() {
    let parent = tempfile::tempdir().unwrap();
    let w = parent.path().canonicalize().unwrap().join("world");
    write(
        &w.join("a.toolbox/one.tool/init.luau"),
        &tool_source("one", "One."),
    );
    let registry = Arc::new(Registry::open(&w, &[], false).unwrap());
    let _watcher = registry.watch().unwrap();
    // Moved away: the path names no folder, so its tools are gone.
    std::fs::rename(&w, parent.path().join("world.old")).unwrap();
    eventually(&registry, "the world moved away", |i| {
        i.tool("a.one").is_none()
    });
    // Made again with other tools: they are read, and edits to them seen.
    write(
        &w.join("b.toolbox/two.tool/init.luau"),
        &tool_source("two", "Two."),
    );
    eventually(&registry, "the new world", |i| i.tool("b.two").is_some());
    write(
        &w.join("b.toolbox/two.tool/init.luau"),
        &tool_source("two", "Two, edited."),
    );
    eventually(&registry, "an edit in the new world", |i| {
        description(i, "b.two").as_deref() == Some("Two, edited.")
    });
}

/// A toolbox folder that appears inside a folder given to a local MCP server (the server
/// wrote it) stays out of the snapshot as the world changes, and comes in once it is moved
/// out of that folder.
#[test]
fn a_toolbox_written_into_a_servers_folder_stays_out_across_updates() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    write(
        &w.join(".codemode/mcp.json"),
        r#"{ "mcpServers": { "files": { "command": "srv", "args": ["./data"] } } }"#,
    );
    std::fs::create_dir(w.join("data")).unwrap();
    let registry = Registry::open(&w, &[], false).unwrap();
    registry.attach_upstreams(&[]);
    let planted = w.join("data/mine.toolbox/t.tool/init.luau");
    write(&planted, &tool_source("t", "Planted."));
    let after = registry.apply_changes(&[w.join("data/mine.toolbox")]);
    assert!(
        after.tool("mine.t").is_none(),
        "a server's write became a tool"
    );
    assert!(!after.has_toolbox("mine"));
    assert!(
        after
            .problems
            .iter()
            .any(|p| p.contains("mine.toolbox: this toolbox folder is inside data")),
        "{:?}",
        after.problems
    );
    std::fs::rename(w.join("data/mine.toolbox"), w.join("mine.toolbox")).unwrap();
    let moved = registry.apply_changes(&[w.join("data/mine.toolbox"), w.join("mine.toolbox")]);
    assert!(moved.tool("mine.t").is_some());
    assert!(moved.problems.is_empty(), "{:?}", moved.problems);
}
