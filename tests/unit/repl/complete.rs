//! Tests of `engine/repl/complete.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use std::path::Path;

#[test]
fn completes_members_toolboxes_and_tools() {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/cmdline");
    let registry = Arc::new(Registry::open(&world, &[], false).unwrap());
    let helper = ReplHelper::new(registry, vec!["list".into(), "get".into(), "render".into()]);
    assert_eq!(helper.candidates("too"), vec!["tools"]);
    assert_eq!(helper.candidates("tools.de"), vec!["tools.demo"]);
    assert_eq!(helper.candidates("tools.re"), vec!["tools.render"]);
    assert_eq!(helper.candidates("tools.demo.e"), vec!["tools.demo.echo"]);
    assert_eq!(helper.candidates("tools.demo.").len(), 5);
    // A whole word goes on to what follows it; a whole tool stays as it is.
    assert_eq!(
        helper.candidates("tools.demo"),
        helper.candidates("tools.demo.")
    );
    assert!(helper
        .candidates("tools")
        .contains(&"tools.demo".to_string()));
    assert!(helper
        .candidates("tools")
        .contains(&"tools.list".to_string()));
    assert_eq!(
        helper.candidates("tools.demo.echo"),
        vec!["tools.demo.echo"]
    );
    assert_eq!(helper.candidates("tools.list"), vec!["tools.list"]);
    assert!(helper.candidates("tools.nope.").is_empty());
}
