//! Tests of `engine/assets/file.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn fifos_and_oversized_files_are_refused_without_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("README.md");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let e = read_text(&fifo, "README.md").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{e}");

    let big = dir.path().join(".metadata");
    File::create(&big).unwrap().set_len(1 << 30).unwrap();
    let e = read_text(&big, ".metadata").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
    assert_eq!(
        unreadable("a.toolbox/.metadata", &e),
        "a.toolbox/.metadata is 1048576 KiB; a .metadata may be at most 64 KiB: shorten it"
    );
    std::fs::write(&big, "{}").unwrap();
    assert_eq!(read_text(&big, ".metadata").unwrap(), "{}");
}
