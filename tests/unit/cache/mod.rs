//! Tests of `engine/cache/mod.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_file_reads_back_and_a_damaged_or_foreign_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    write(&path, b"TEST", 1, "hello").unwrap();
    let body = read(&path, b"TEST", 1).unwrap();
    assert_eq!(body.value::<&str>(), Some("hello"));
    assert_eq!(body.value::<(&str, u8)>(), None, "not the value written");
    assert!(read(&path, b"TEST", 2).is_none(), "another schema");
    assert!(read(&path, b"OTHR", 1).is_none(), "another kind");
    let mut data = std::fs::read(&path).unwrap();
    let mid = data.len() / 2;
    data[mid] ^= 1;
    std::fs::write(&path, &data).unwrap();
    assert!(read(&path, b"TEST", 1).is_none(), "a flipped bit");
    std::fs::write(&path, &data[..3]).unwrap();
    assert!(read(&path, b"TEST", 1).is_none(), "cut short");
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}
