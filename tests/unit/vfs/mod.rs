//! What the handle-based walk allows and refuses, one case at a time (the concurrent swap
//! itself is raced in `tests/vfs_race.rs`).

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::*;

/// The default `Limits::max_file_bytes`.
const MAX: usize = 4 * 1024 * 1024;

struct World {
    _dir: tempfile::TempDir,
    _outside: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let outside_path = outside.path().canonicalize().unwrap();
        fs::write(outside_path.join("secret.txt"), "secret").unwrap();
        World {
            _dir: dir,
            _outside: outside,
            root,
            outside: outside_path,
        }
    }

    fn vfs(&self) -> Vfs {
        Vfs::new(self.root.clone(), Vec::new())
    }

    fn put(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn link(&self, rel: &str, target: impl AsRef<Path>) {
        symlink(target, self.root.join(rel)).unwrap();
    }
}

fn message(e: VfsError) -> String {
    e.to_string()
}

#[test]
fn symlinks_inside_the_world_are_followed() {
    let w = World::new();
    w.put("real/a.txt", "a");
    w.link("rel", "real");
    w.link("abs", w.root.join("real"));
    w.link("file.txt", "real/a.txt");
    w.link("up", "real/../real");
    let vfs = w.vfs();
    for path in [
        "real/a.txt",
        "rel/a.txt",
        "abs/a.txt",
        "file.txt",
        "up/a.txt",
    ] {
        assert_eq!(vfs.read(path, MAX).unwrap(), b"a", "{path}");
        assert!(vfs.exists(path).unwrap(), "{path}");
    }
    // Writing through a linked folder lands in the real folder, at its real path.
    let full = vfs.write("rel/new/b.txt", b"b", MAX).unwrap();
    assert_eq!(full, w.root.join("real/new/b.txt"));
    assert_eq!(
        fs::read_to_string(w.root.join("real/new/b.txt")).unwrap(),
        "b"
    );
    let names: Vec<String> = vfs
        .list("abs")
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["a.txt", "new"]);
    assert_eq!(vfs.list("").unwrap()[0].kind, "symlink");
    assert_eq!(vfs.resolve("rel/a.txt").unwrap(), w.root.join("real/a.txt"));
}

#[test]
fn a_write_to_a_symlink_replaces_the_link_and_a_removal_removes_only_the_link() {
    let w = World::new();
    w.put("real/a.txt", "a");
    w.link("file.txt", "real/a.txt");
    let vfs = w.vfs();
    vfs.write("file.txt", b"new", MAX).unwrap();
    assert!(!w.root.join("file.txt").is_symlink());
    assert_eq!(fs::read_to_string(w.root.join("real/a.txt")).unwrap(), "a");
    w.link("dir", "real");
    vfs.remove("dir").unwrap();
    assert!(w.root.join("real/a.txt").exists());
    assert!(!vfs.exists("dir").unwrap());
}

#[test]
fn symlinks_that_lead_out_of_the_world_are_refused_for_every_call() {
    let w = World::new();
    w.link("out", &w.outside);
    w.link("rel-out", "../../../../../../../../..");
    w.link("secret.txt", w.outside.join("secret.txt"));
    fs::create_dir(w.root.join("sub")).unwrap();
    w.link("sub/up", "..");
    w.link("sub/upup", "../..");
    let vfs = w.vfs();
    for path in [
        "out/secret.txt",
        "rel-out/etc/passwd",
        "secret.txt",
        "sub/upup/x.txt",
    ] {
        let read = message(vfs.read(path, MAX).unwrap_err());
        assert!(read.contains("leads out of the world"), "{path}: {read}");
        let write = message(vfs.write(path, b"x", MAX).unwrap_err());
        assert!(write.contains("leads out of the world"), "{path}: {write}");
        assert!(vfs.exists(path).is_err(), "{path}");
        assert!(vfs.remove(path).is_err(), "{path}");
    }
    assert!(vfs.list("out").is_err());
    assert!(vfs.publish_dir("out", "t.tool", &[], MAX).is_err());
    // `..` that stays inside is fine.
    vfs.write("sub/up/ok.txt", b"ok", MAX).unwrap();
    assert!(w.root.join("ok.txt").exists());
    assert_eq!(
        fs::read_dir(&w.outside).unwrap().count(),
        1,
        "something was written outside"
    );
    assert_eq!(
        fs::read_to_string(w.outside.join("secret.txt")).unwrap(),
        "secret"
    );
}

#[test]
fn symlinks_into_hidden_or_read_only_folders_are_refused() {
    let w = World::new();
    w.put(".git/config", "[core]\n");
    w.put("vendor/lib.toolbox/x.tool/init.luau", "return 1\n");
    w.link("notes", ".git");
    w.link("lib", "vendor/lib.toolbox");
    let vfs = Vfs::new(w.root.clone(), vec![w.root.join("vendor")]);
    let err = message(vfs.write("notes/config", b"evil", MAX).unwrap_err());
    assert!(err.contains("'.git/config' is hidden"), "{err}");
    let err = message(vfs.write("notes/new/x", b"evil", MAX).unwrap_err());
    assert!(err.contains("is hidden"), "{err}");
    assert!(
        !w.root.join(".git/new").exists(),
        "a folder was made in .git"
    );
    assert!(message(vfs.read("notes/config", MAX).unwrap_err()).contains("is hidden"));
    assert!(message(vfs.list("notes").unwrap_err()).contains("is hidden"));
    let err = message(
        vfs.write("lib/x.tool/init.luau", b"return 2", MAX)
            .unwrap_err(),
    );
    assert!(err.contains("read-only"), "{err}");
    let err = message(vfs.publish_dir("lib", "y.tool", &[], MAX).unwrap_err());
    assert!(err.contains("read-only"), "{err}");
    assert!(message(vfs.remove("lib/x.tool").unwrap_err()).contains("read-only"));
    assert_eq!(
        vfs.read("lib/x.tool/init.luau", MAX).unwrap(),
        b"return 1\n"
    );
}

#[test]
fn loops_and_dangling_symlinks_are_refused_with_what_to_do() {
    let w = World::new();
    w.link("a", "b");
    w.link("b", "a");
    w.link("gone", "missing/folder");
    let vfs = w.vfs();
    let err = message(vfs.read("a/x.txt", MAX).unwrap_err());
    assert!(err.contains("more than 40 symlinks"), "{err}");
    let err = message(vfs.write("gone/x.txt", b"x", MAX).unwrap_err());
    assert!(
        err.contains("symlink 'gone'") && err.contains("does not exist"),
        "{err}"
    );
    assert!(!w.root.join("missing").exists());
}

#[test]
fn missing_paths_and_wrong_kinds_keep_their_messages() {
    let w = World::new();
    w.put("f.txt", "f");
    let vfs = w.vfs();
    let err = message(vfs.read("no/such.txt", MAX).unwrap_err());
    assert!(err.contains("does not exist; vfs.list('no')"), "{err}");
    assert!(!vfs.exists("no/such.txt").unwrap());
    assert!(!vfs.exists("f.txt/x").unwrap());
    assert!(vfs.exists("").unwrap());
    vfs.write("d/x.txt", b"x", MAX).unwrap();
    assert!(message(vfs.read("d", MAX).unwrap_err()).contains("is a folder; vfs.list('d')"));
    assert!(message(vfs.write("d", b"x", MAX).unwrap_err()).contains("is a folder"));
    assert!(message(vfs.write("", b"x", MAX).unwrap_err()).contains("the world itself"));
    assert!(message(vfs.remove(".").unwrap_err()).contains("the world itself"));
    assert!(vfs.list("f.txt").is_err());
    let err = message(vfs.publish_dir("", "d", &[], MAX).unwrap_err());
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn a_write_names_a_file_with_printable_names() {
    let w = World::new();
    let vfs = w.vfs();
    let err = message(vfs.write("notes/", b"x", MAX).unwrap_err());
    assert!(
        err.contains("ends with '/'") && err.contains("'notes/today.txt'"),
        "{err}"
    );
    for bad in ["a\nb.txt", "dir\n/x.txt", "tab\there", "esc\u{1b}[2J.txt"] {
        let err = message(vfs.write(bad, b"x", MAX).unwrap_err());
        assert!(err.contains("control character"), "{bad:?}: {err}");
    }
    // Nothing was made on the way.
    assert!(vfs.list("").unwrap().is_empty());
    vfs.write("notes/today 1.txt", b"x", MAX).unwrap();
    assert_eq!(vfs.read("notes/today 1.txt", MAX).unwrap(), b"x");
}

#[test]
fn a_pipe_is_refused_without_blocking() {
    let w = World::new();
    let fifo =
        std::ffi::CString::new(w.root.join("pipe").into_os_string().into_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let err = message(w.vfs().read("pipe", MAX).unwrap_err());
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn publish_and_remove_work_through_handles() {
    let w = World::new();
    let vfs = w.vfs();
    let files = vec![
        ("init.luau".to_string(), b"return 1\n".to_vec()),
        ("lib/deep/util.luau".to_string(), b"return {}\n".to_vec()),
        (".metadata".to_string(), b"{}".to_vec()),
    ];
    let full = vfs
        .publish_dir("box.toolbox", "t.tool", &files, MAX)
        .unwrap();
    assert_eq!(full, w.root.join("box.toolbox/t.tool"));
    assert_eq!(
        fs::read_to_string(full.join("lib/deep/util.luau")).unwrap(),
        "return {}\n"
    );
    let err = message(
        vfs.publish_dir("box.toolbox", "t.tool", &files, MAX)
            .unwrap_err(),
    );
    assert!(err.contains("already exists"), "{err}");
    // The engine's leftovers go with their folder; a hidden entry keeps it.
    w.put("box.toolbox/t.tool/.codemode-tmp-1-2-x/.y", "half");
    vfs.remove("box.toolbox/t.tool").unwrap();
    assert!(!full.exists());
    w.put("box.toolbox/keep/.env", "SECRET=1");
    let err = message(vfs.remove("box.toolbox").unwrap_err());
    assert!(err.contains("holds the hidden '.env'"), "{err}");
    assert!(w.root.join("box.toolbox/keep/.env").exists());
    fs::remove_file(w.root.join("box.toolbox/keep/.env")).unwrap();
    vfs.remove("box.toolbox").unwrap();
    let left: Vec<_> = fs::read_dir(&w.root).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_removal_does_not_follow_symlinks_inside_the_folder() {
    let w = World::new();
    w.put("d/a.txt", "a");
    w.link("d/out", &w.outside);
    w.vfs().remove("d").unwrap();
    assert!(!w.root.join("d").exists());
    assert!(w.outside.join("secret.txt").exists());
}
