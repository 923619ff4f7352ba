//! Tests of `engine/upstream/names.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn maps_names_to_identifiers() {
    assert_eq!(luau_name("my-server"), "my_server");
    assert_eq!(luau_name("files.read"), "files_read");
    assert_eq!(luau_name("2fa"), "_2fa");
    assert_eq!(luau_name("end"), "end_");
    assert_eq!(luau_name("ok_name"), "ok_name");
    assert_eq!(luau_name(""), "_");
    let long = "x-".repeat(50);
    let mapped = luau_name(&long);
    assert_eq!(mapped.len(), 64);
    assert!(is_identifier(&mapped));
    assert_ne!(mapped, luau_name(&"x-".repeat(51)));
}

#[test]
fn collisions_get_a_suffix_and_a_note() {
    let names = ["get-file", "get_file", "get.file"];
    let mut map = NameMap::new(names);
    let (a, note_a) = map.assign("get-file");
    let (b, note_b) = map.assign("get_file");
    let (c, note_c) = map.assign("get.file");
    assert_eq!(b, "get_file");
    assert!(note_b.is_none());
    assert_eq!(a, "get_file_2");
    assert!(note_a.unwrap().contains("'get-file' maps to 'get_file'"));
    assert_eq!(c, "get_file_3");
    assert!(note_c.is_some());
}
