//! The vfs against a concurrent symlink swap: while another thread keeps exchanging a
//! folder of the world with a symlink to a folder outside it, no write, publish, removal
//! or read may ever reach the outside folder. (A path checked first and opened by path
//! afterwards loses this race; walking from a handle on the world does not.)
#![cfg(target_os = "linux")]

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::vfs::Vfs;

/// The default largest file (`Limits::max_file_bytes`).
const MAX: usize = 4 * 1024 * 1024;

/// How long each race runs at most, how many operations each worker tries at most, and
/// after how many successful ones it stops (writes, publishes and removals are slow).
const RACE_TIME: Duration = Duration::from_secs(4);
const OPS_PER_WORKER: usize = 6_000;
const WANTED_PER_WORKER: usize = 150;
const WORKERS: usize = 3;

struct Arena {
    _world: tempfile::TempDir,
    _outside: tempfile::TempDir,
    world: PathBuf,
    outside: PathBuf,
}

/// A world holding `d/` (a real folder) and `swap` (a symlink to a folder outside).
fn arena() -> Arena {
    let world_dir = tempfile::tempdir().unwrap();
    let outside_dir = tempfile::tempdir().unwrap();
    let world = world_dir.path().canonicalize().unwrap();
    let outside = outside_dir.path().canonicalize().unwrap();
    std::fs::create_dir(world.join("d")).unwrap();
    std::os::unix::fs::symlink(&outside, world.join("swap")).unwrap();
    Arena {
        _world: world_dir,
        _outside: outside_dir,
        world,
        outside,
    }
}

/// Like [`arena`], but `swap` is a symlink to the world's own hidden `.git` folder, and
/// `outside` names that folder.
fn hidden_arena() -> Arena {
    let world_dir = tempfile::tempdir().unwrap();
    let outside_dir = tempfile::tempdir().unwrap();
    let world = world_dir.path().canonicalize().unwrap();
    let outside = world.join(".git");
    std::fs::create_dir(world.join("d")).unwrap();
    std::fs::create_dir(&outside).unwrap();
    std::os::unix::fs::symlink(".git", world.join("swap")).unwrap();
    Arena {
        _world: world_dir,
        _outside: outside_dir,
        world,
        outside,
    }
}

/// Exchanges `world/d` and `world/swap` atomically (so `d` is always there: one moment a
/// real folder, the next a symlink out of the world) until `stop` is set.
fn swapper(world: &Path, stop: &AtomicBool, swaps: &AtomicUsize) {
    let a = CString::new(world.join("d").as_os_str().as_bytes()).unwrap();
    let b = CString::new(world.join("swap").as_os_str().as_bytes()).unwrap();
    while !stop.load(Ordering::Relaxed) {
        // SAFETY: two valid NUL-terminated paths; AT_FDCWD is ignored for absolute paths.
        let rc = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                a.as_ptr(),
                libc::AT_FDCWD,
                b.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        assert_eq!(rc, 0, "exchange: {}", std::io::Error::last_os_error());
        // Phases of swapping flat out alternate with phases where every other state is
        // held a little longer: the first make the windows, the second let operations
        // finish while the folder is real (at full speed nearly all are refused).
        let n = swaps.fetch_add(1, Ordering::Relaxed);
        if (n / 512) % 2 == 1 && n.is_multiple_of(2) {
            std::thread::yield_now();
        }
    }
    // Leave the real folder at `d`.
    if world.join("d").symlink_metadata().unwrap().is_symlink() {
        // SAFETY: as above.
        let rc = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                a.as_ptr(),
                libc::AT_FDCWD,
                b.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        assert_eq!(rc, 0);
    }
}

/// Every entry below `dir`, as paths relative to it, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    out.sort();
    out
}

/// Runs `op(vfs, worker, i)` on `WORKERS` threads while the swapper runs, until each
/// worker has had enough successes (or the time is spent, or its attempts are and it has
/// had one); returns how many
/// operations succeeded and how many swaps were made. Stops early once `escaped` reports
/// something outside. A refused operation yields the processor, so that the workers do
/// not spend all their attempts while the folder happens to be the symlink.
fn race(
    arena: &Arena,
    wanted: usize,
    op: impl Fn(&Vfs, usize, usize) -> bool + Sync,
    escaped: impl Fn() -> bool + Sync,
) -> (usize, usize) {
    let vfs = Vfs::new(arena.world.clone(), Vec::new());
    let stop = AtomicBool::new(false);
    let swaps = AtomicUsize::new(0);
    let succeeded = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| swapper(&arena.world, &stop, &swaps));
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (vfs, op, escaped, succeeded, stop) = (&vfs, &op, &escaped, &succeeded, &stop);
                s.spawn(move || {
                    let mut wins = 0;
                    // A worker without a success yet goes on past its attempts (within the
                    // time): on a loaded machine every attempt of a run can meet the symlink.
                    for i in 0.. {
                        if start.elapsed() > RACE_TIME
                            || stop.load(Ordering::Relaxed)
                            || wins == wanted
                            || (i >= OPS_PER_WORKER && wins > 0)
                        {
                            break;
                        }
                        if op(vfs, w, i) {
                            wins += 1;
                            succeeded.fetch_add(1, Ordering::Relaxed);
                        } else {
                            std::thread::yield_now();
                        }
                        if i % 50 == 49 && escaped() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
    });
    let (swaps, succeeded) = (swaps.into_inner(), succeeded.into_inner());
    eprintln!(
        "{succeeded} operations succeeded against {swaps} swaps in {:.1?}",
        start.elapsed()
    );
    (succeeded, swaps)
}

#[test]
fn writes_never_land_outside_the_world_while_a_folder_is_swapped_for_a_symlink() {
    let arena = arena();
    let (written, swaps) = race(
        &arena,
        WANTED_PER_WORKER,
        |vfs, w, i| match i % 2 {
            0 => vfs.write(&format!("d/w{w}-{i}.txt"), b"x", MAX).is_ok(),
            _ => vfs.write(&format!("d/sub{w}/n{i}.txt"), b"y", MAX).is_ok(),
        },
        || !tree(&arena.outside).is_empty(),
    );
    let outside = tree(&arena.outside);
    assert!(
        outside.is_empty(),
        "{} entries were written outside the world: {:?}",
        outside.len(),
        &outside[..outside.len().min(10)]
    );
    assert!(written > 0, "no write succeeded at all");
    assert!(swaps > 100, "the swapper hardly ran");
}

#[test]
fn writes_never_land_in_a_hidden_folder_while_a_folder_is_swapped_for_a_symlink_to_it() {
    let arena = hidden_arena();
    let (written, swaps) = race(
        &arena,
        WANTED_PER_WORKER,
        |vfs, w, i| vfs.write(&format!("d/sub{w}/config{i}"), b"x", MAX).is_ok(),
        || !tree(&arena.outside).is_empty(),
    );
    let hidden = tree(&arena.outside);
    assert!(
        hidden.is_empty(),
        "{} entries were written into .git: {:?}",
        hidden.len(),
        &hidden[..hidden.len().min(10)]
    );
    assert!(written > 0, "no write succeeded at all");
    assert!(swaps > 100, "the swapper hardly ran");
}

#[test]
fn published_folders_never_land_outside_the_world_while_a_folder_is_swapped() {
    let arena = arena();
    let files = vec![
        ("init.luau".to_string(), b"return 1\n".to_vec()),
        ("lib/util.luau".to_string(), b"return {}\n".to_vec()),
    ];
    let (published, swaps) = race(
        &arena,
        WANTED_PER_WORKER,
        |vfs, w, i| {
            vfs.publish_dir("d/box.toolbox", &format!("t{w}x{i}.tool"), &files, MAX)
                .is_ok()
        },
        || !tree(&arena.outside).is_empty(),
    );
    let outside = tree(&arena.outside);
    assert!(
        outside.is_empty(),
        "{} entries were published outside the world: {:?}",
        outside.len(),
        &outside[..outside.len().min(10)]
    );
    assert!(published > 0, "no publish succeeded at all");
    assert!(swaps > 100, "the swapper hardly ran");
}

#[test]
fn removals_never_reach_outside_the_world_while_a_folder_is_swapped() {
    let arena = arena();
    let n = 3_000;
    for i in 0..n {
        std::fs::write(arena.outside.join(format!("f{i}.txt")), "keep").unwrap();
        std::fs::write(arena.world.join("d").join(format!("f{i}.txt")), "mine").unwrap();
    }
    std::fs::create_dir(arena.outside.join("dir")).unwrap();
    std::fs::write(arena.outside.join("dir/keep.txt"), "keep").unwrap();
    let before = tree(&arena.outside);
    let (removed, swaps) = race(
        &arena,
        WANTED_PER_WORKER,
        |vfs, w, i| {
            let _ = vfs.remove("d/dir");
            let _ = std::fs::create_dir_all(arena.world.join("d/dir"));
            vfs.remove(&format!("d/f{}.txt", (w * n / WORKERS + i) % n))
                .is_ok()
        },
        || tree(&arena.outside) != before,
    );
    let after = tree(&arena.outside);
    let gone: Vec<&String> = before.iter().filter(|e| !after.contains(e)).collect();
    let moved: Vec<&String> = after.iter().filter(|e| !before.contains(e)).collect();
    assert!(
        gone.is_empty() && moved.is_empty(),
        "outside the world, {} entries were removed ({:?}) and {} appeared ({:?})",
        gone.len(),
        &gone[..gone.len().min(10)],
        moved.len(),
        &moved[..moved.len().min(10)]
    );
    assert!(removed > 0, "no removal succeeded at all");
    assert!(swaps > 100, "the swapper hardly ran");
}

#[test]
fn reads_never_see_outside_the_world_while_a_folder_is_swapped() {
    let arena = arena();
    std::fs::write(arena.outside.join("secret.txt"), "SECRET").unwrap();
    std::fs::write(arena.world.join("d/secret.txt"), "inside").unwrap();
    let leaked = AtomicUsize::new(0);
    let (read, swaps) = race(
        &arena,
        // Reads are cheap: they use all their attempts.
        OPS_PER_WORKER,
        |vfs, _, _| match vfs.read("d/secret.txt", MAX) {
            Ok(bytes) => {
                if bytes == b"SECRET" {
                    leaked.fetch_add(1, Ordering::Relaxed);
                }
                true
            }
            Err(_) => false,
        },
        || leaked.load(Ordering::Relaxed) > 0,
    );
    assert_eq!(
        leaked.load(Ordering::Relaxed),
        0,
        "a read returned a file from outside the world"
    );
    assert!(read > 0, "no read succeeded at all");
    assert!(swaps > 100, "the swapper hardly ran");
}
