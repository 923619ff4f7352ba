//! Tests of `engine/assets/file.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn fifos_and_oversized_files_are_refused_without_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let fifo = root.join("README.md");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let e = read_text(&root, "README.md", "README.md").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{e}");

    let big = root.join(".metadata");
    File::create(&big).unwrap().set_len(1 << 30).unwrap();
    let e = read_text(&root, ".metadata", ".metadata").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
    assert_eq!(
        unreadable("a.toolbox/.metadata", &e),
        "a.toolbox/.metadata is 1048576 KiB; a .metadata may be at most 64 KiB: shorten it"
    );
    std::fs::write(&big, "{}").unwrap();
    assert_eq!(read_text(&root, ".metadata", ".metadata").unwrap(), "{}");
}

/// What a tool's files show every script must be a file of the root, not one a symlink
/// (on the way, or the file itself) leads to out of it or into a hidden folder of it.
#[test]
fn a_file_is_read_only_where_it_really_lies() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let root = base.join("world");
    for (path, text) in [
        ("world/.codemode/mcp.json", "TOKEN"),
        ("world/.env", "TOKEN"),
        ("outside/README.md", "TOKEN"),
        ("world/a.toolbox/t.tool/init.luau", "return 1"),
        ("world/a.toolbox/t.tool/.metadata", "{}"),
        ("world/a.toolbox/README.md", "A box."),
    ] {
        let path = base.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let tool = root.join("a.toolbox/t.tool");
    assert_eq!(
        read_text(&root, "a.toolbox/t.tool/init.luau", "init.luau").unwrap(),
        "return 1"
    );
    assert_eq!(
        read_text(&root, "a.toolbox/t.tool/.metadata", ".metadata").unwrap(),
        "{}"
    );
    // A symlink inside the root, to a file that is not hidden: read.
    symlink("../README.md", tool.join("README.md")).unwrap();
    assert_eq!(
        read_text(&root, "a.toolbox/t.tool/README.md", "README.md").unwrap(),
        "A box."
    );
    for (link, to) in [
        ("README.md", "../../.codemode/mcp.json"),
        ("README.md", "../../.env"),
        ("README.md", "../../../outside/README.md"),
    ] {
        std::fs::remove_file(tool.join(link)).unwrap();
        symlink(to, tool.join(link)).unwrap();
        let e = read_text(&root, "a.toolbox/t.tool/README.md", "README.md").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{to}: {e}");
        assert!(!e.to_string().contains("TOKEN"), "{e}");
    }
    // A folder on the way that is a symlink is judged by where the file really is.
    std::fs::create_dir_all(root.join("b.toolbox")).unwrap();
    symlink("../.codemode", root.join("b.toolbox/t.tool")).unwrap();
    let e = read_text(&root, "b.toolbox/t.tool/mcp.json", "README.md").unwrap_err();
    assert!(e.to_string().contains(".codemode is hidden"), "{e}");
    std::fs::remove_file(root.join("b.toolbox/t.tool")).unwrap();
    symlink(base.join("outside"), root.join("b.toolbox/t.tool")).unwrap();
    let e = read_text(&root, "b.toolbox/t.tool/README.md", "README.md").unwrap_err();
    assert!(e.to_string().contains("leads out of"), "{e}");
}
