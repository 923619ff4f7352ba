//! Policy profiles kept by a registry: snapshots after edits and reloads.

use std::collections::BTreeSet;

use super::World;

#[path = "../common/policy_world.rs"]
mod policy_world;

use policy_world::{tool, world};

#[test]
fn snapshots_after_edits_and_reloads_keep_the_profile() {
    use crate::registry::Registry;
    let w = world();
    let profile = crate::policy::load(w.path(), Some("agent")).unwrap();
    let registry = Registry::open(w.path(), &[], false)
        .unwrap()
        .with_profile(profile);
    let ids = |registry: &Registry| -> BTreeSet<String> {
        registry.snapshot().tools.keys().cloned().collect()
    };
    let first = ids(&registry);
    assert!(
        first.contains("text.slugify") && !first.contains("text.shout"),
        "{first:?}"
    );

    // A tool written later (an editor, git) that the profile denies stays out; one it
    // allows comes in.
    tool(&w, "files.delete_old", "Delete old files.");
    tool(&w, "files.size", "Size of a file.");
    let touched = [
        w.path().join("files.toolbox/delete_old.tool"),
        w.path().join("files.toolbox/size.tool"),
    ];
    let index = registry.apply_changes(&touched);
    assert!(index.tool("files.size").is_some());
    assert!(index.tool("files.delete_old").is_none());
    assert!(index.denial("files.delete_old").is_some());

    registry.reload();
    let reloaded = ids(&registry);
    assert!(reloaded.contains("files.size"), "{reloaded:?}");
    for denied in [
        "text.shout",
        "files.delete_all",
        "files.delete_old",
        "github.merge_pr",
        "secret.launch",
    ] {
        assert!(
            !reloaded.contains(denied),
            "{denied} came back after a reload"
        );
    }
    assert!(!registry.snapshot().toolbox_names().contains(&"secret"));
}
