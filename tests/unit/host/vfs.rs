//! Tests of `engine/host/vfs.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_write_is_refused_before_the_disk_runs_out_of_bytes_or_inodes() {
    let gib = 1 << 30;
    let roomy = Disk {
        free_bytes: 10 * gib,
        inodes: 1_000_000,
        free_inodes: 500_000,
    };
    assert!(roomy.refusal(1 << 20, gib).is_none());
    let full = Disk {
        free_bytes: gib + 10,
        ..roomy
    };
    let why = full.refusal(100, gib).unwrap().to_string();
    assert!(why.contains("1024 MiB free"), "{why}");
    let no_inodes = Disk {
        free_inodes: 9_999,
        ..roomy
    };
    let why = no_inodes.refusal(1, gib).unwrap().to_string();
    assert!(why.contains("only 9999 more files and folders"), "{why}");
    let uncounted = Disk {
        inodes: 0,
        free_inodes: 0,
        ..roomy
    };
    assert!(uncounted.refusal(1, gib).is_none());
}
