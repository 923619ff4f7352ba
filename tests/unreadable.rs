//! Folders the user running codemode may not read: each is a problem named with its fix,
//! and the tools around it stay listed and callable.
//!
//! The tests run as root in CI, and root reads every folder; so, as root, the engine is
//! started through `setpriv` without the two capabilities that let it (`dac_override`,
//! `dac_read_search`), and reads folders as any other user would.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

use common::World;

const HI: &str = "--!desc Says hi.\nreturn function(): string return \"hi\" end\n";

/// `codemode --no-bundled --world W ARGS`, with the permissions of an ordinary user.
fn unprivileged(world: &Path, args: &[&str], stdin: &str) -> Output {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let mut command = if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("setpriv");
        c.arg("--bounding-set=-dac_override,-dac_read_search")
            .arg("--")
            .arg(common::bin());
        c
    } else {
        Command::new(common::bin())
    };
    command
        .env_remove("CODEMODE_WORLD")
        .env_remove("CODEMODE_CHECK")
        .env_remove("CODEMODE_CHECKER")
        .args(["--no-bundled", "--world"])
        .arg(world)
        .args(args);
    common::output(&mut command, stdin)
}

fn lock(path: &Path) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000)).unwrap();
}

#[test]
fn a_folder_the_walk_cannot_list_is_a_problem_and_hides_no_other_toolbox() {
    let w = World::new();
    w.tool("a.x", HI)
        .file("pkg/b.toolbox/y.tool/init.luau", HI)
        .file("quiet/.codemode-ignore", "")
        .file("quiet/inner/c.toolbox/z.tool/init.luau", HI);
    lock(&w.path().join("pkg"));
    lock(&w.path().join("quiet/inner"));

    let list = unprivileged(w.path(), &["list", "1"], "");
    assert_eq!(common::text(&list.stdout), "a (1): x\n");
    assert!(
        common::text(&list.stderr).contains("note: 1 problem in the world's toolboxes"),
        "{}",
        common::text(&list.stderr)
    );
    let check = unprivileged(w.path(), &["check"], "");
    let said = common::text(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{said}");
    assert!(
        said.contains("pkg cannot be listed (Permission denied (os error 13)): no toolbox in it is seen; give the user running codemode read access to it, or put a .codemode-ignore file in it to leave it out"),
        "{said}"
    );
    // A folder left out by its marker is not looked into, so not reported.
    assert!(!said.contains("inner"), "{said}");

    let run = unprivileged(w.path(), &["exec", "-"], "return tools.a.x()");
    let envelope = common::envelope(&run);
    assert_eq!(envelope["value"], "hi", "{envelope}");
}

#[test]
fn a_toolbox_folder_that_cannot_be_listed_names_why_its_tools_are_missing() {
    let w = World::new();
    w.tool("a.x", HI).tool("c.z", HI);
    lock(&w.path().join("c.toolbox"));

    let run = unprivileged(w.path(), &["exec", "-"], "return tools.c.z()");
    let envelope = common::envelope(&run);
    let hint = envelope["error"]["hint"].as_str().unwrap_or_default();
    assert!(
        hint.starts_with("c.toolbox cannot be listed (Permission denied (os error 13)): its tools are left out; give the user running codemode read access to the folder"),
        "{envelope}"
    );
    let call = unprivileged(w.path(), &["call", "c.z"], "");
    let said = common::text(&call.stderr);
    assert!(said.contains("c.toolbox cannot be listed"), "{said}");
    let ok = unprivileged(w.path(), &["call", "a.x"], "");
    assert_eq!(common::text(&ok.stdout).trim(), "\"hi\"");
}
