//! The Landlock rules for the world: what a command may do with each of its entries.
//!
//! Landlock rights are allow-lists that add up along a path: a right granted on a folder
//! holds for everything below it, and no rule deeper down can take it back. So an entry
//! that must get less than its folder (a hidden entry, a toolbox folder, a denied tool's
//! folder) is carved out by granting its folder's other entries one by one instead of the
//! folder whole, down to it. The folders on the way get only a listing.
//!
//! What each entry gets:
//! - hidden top-level entries (`.codemode/`, `.git/`, ...): nothing;
//! - the folder of a toolbox the profile hides, or of a tool it denies: nothing, as `vfs`
//!   reads them as missing;
//! - every other toolbox folder, found on disk when the command starts: read only. Tools
//!   change through the engine's own writers (`tools.create`, `tools.install`, `vfs`),
//!   which hold the profile's authoring and deny rules and write a tool whole or not at
//!   all. Where something is carved out whole, no folder above it gets a listing right
//!   (that right covers the whole tree below);
//! - the rest: read and write, or read only when the profile turns `vfsWrite` off; no
//!   new folder or symlink when it turns `authoring` off or hides anything (a tool is a
//!   folder: a command could otherwise make `data/ops.toolbox/`).

use std::fs::File;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use landlock::{AccessFs, BitFlags};

/// The world's settings folder, which commands never reach (nor any other hidden entry).
const HIDDEN: &str = ".codemode";

/// How deep carving goes: toolbox folders are found no deeper than this either.
const MAX_DEPTH: usize = 8;

/// What a command may do with one entry of the world (and all below it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Nothing.
    None,
    /// Read files, list folders.
    Read,
}

/// The world and the entries of it that get less than the rest.
#[derive(Debug, Clone)]
pub(crate) struct WorldRules {
    /// Whether the rest of the world may be written (`vfsWrite`).
    pub(crate) writes: bool,
    /// Whether folders and symlinks may be made (`authoring`, and nothing hidden): a tool
    /// is a folder, so a profile that may not add every tool gets commands that make none.
    pub(crate) folders: bool,
    /// Folder names toolboxes are never looked for in (`node_modules`): not walked.
    pub(crate) never_walked: &'static [&'static str],
    /// World-relative paths (`a/b.toolbox`) with what they get, besides the toolbox
    /// folders found on disk (read only); a deeper entry may be listed too (a denied tool
    /// inside a readable toolbox).
    pub(crate) carved: Vec<(String, Reach)>,
}

/// The rules for `world`: listing its top folder, and the entries below as the module
/// says. `handled` is every right the ruleset handles.
pub(crate) fn rules(
    world: &Path,
    given: &WorldRules,
    handled: BitFlags<AccessFs>,
) -> Result<Vec<(OwnedFd, BitFlags<AccessFs>)>, String> {
    let cannot =
        |e: std::io::Error| format!("cannot read the world's folder {}: {e}", world.display());
    let top = open_path(world).map_err(cannot)?;
    let hidden = std::fs::symlink_metadata(world.join(HIDDEN))
        .ok()
        .map(|m| (m.dev(), m.ino()));
    let read_dir = AccessFs::ReadFile | AccessFs::ReadDir;
    let mut writable = handled & !AccessFs::Execute;
    if !given.folders {
        writable &= !(AccessFs::MakeDir | AccessFs::MakeSym);
    }
    let (dir_rights, file_rights) = if given.writes {
        (
            writable,
            AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
        )
    } else {
        (read_dir, BitFlags::from(AccessFs::ReadFile))
    };
    // Toolbox folders as they are on disk now, not as the run's index saw them: one made
    // since (by the operator, another agent) is a toolbox all the same.
    let mut carved = given.carved.clone();
    for path in toolbox_folders(world, given.never_walked) {
        if !carved.iter().any(|(p, _)| *p == path) {
            carved.push((path, Reach::Read));
        }
    }
    // A listing right holds for the whole tree below: where something is carved out
    // whole (a denied tool, a hidden toolbox), no folder above it is listed either, so
    // its name does not show.
    let unseen: Vec<&str> = carved
        .iter()
        .filter(|(_, reach)| *reach == Reach::None)
        .map(|(p, _)| p.as_str())
        .collect();
    let walk = Walk {
        carved: &carved,
        unseen: &unseen,
        full: (dir_rights, file_rights),
        read: (read_dir, BitFlags::from(AccessFs::ReadFile)),
        hidden,
    };
    // Listing the top folder shows the names below it, `.codemode`'s too, never their
    // contents; Landlock never hides a name or its metadata anywhere (`stat` is free).
    let mut out = Vec::new();
    if unseen.is_empty() {
        out.push((
            top.try_clone().map_err(cannot)?,
            BitFlags::from(AccessFs::ReadDir),
        ));
    }
    walk.entries(&top, "", walk.full, 0, &mut out)
        .map_err(cannot)?;
    Ok(out)
}

/// One carving walk: the carved paths and the rights (folder, file) of each reach.
struct Walk<'a> {
    carved: &'a [(String, Reach)],
    /// The carved paths that get nothing: no folder above them is listed.
    unseen: &'a [&'a str],
    full: (BitFlags<AccessFs>, BitFlags<AccessFs>),
    read: (BitFlags<AccessFs>, BitFlags<AccessFs>),
    /// `.codemode`'s device and inode: a top-level entry opened by name after the listing
    /// is checked not to be it renamed.
    hidden: Option<(u64, u64)>,
}

impl Walk<'_> {
    /// Rules for each entry of the folder `dir` (world-relative `rel`, "" for the top),
    /// each getting `rights` unless carved.
    fn entries(
        &self,
        dir: &OwnedFd,
        rel: &str,
        rights: (BitFlags<AccessFs>, BitFlags<AccessFs>),
        depth: usize,
        out: &mut Vec<(OwnedFd, BitFlags<AccessFs>)>,
    ) -> std::io::Result<()> {
        let listing = File::from(reopen_dir(dir)?);
        let names: Vec<std::ffi::OsString> = read_names(listing)?;
        for name in names {
            if rel.is_empty() && name.as_bytes().starts_with(b".") {
                continue;
            }
            let Some(fd) = open_at(dir, &name) else {
                continue;
            };
            let Ok(meta) = File::from(fd.try_clone()?).metadata() else {
                continue;
            };
            if rel.is_empty() && self.hidden == Some((meta.dev(), meta.ino())) {
                continue;
            }
            // Symlinks, sockets, FIFOs, devices: not granted.
            if !meta.is_dir() && !meta.is_file() {
                continue;
            }
            let path = match rel {
                "" => name.to_string_lossy().into_owned(),
                _ => format!("{rel}/{}", name.to_string_lossy()),
            };
            let mut here = rights;
            if let Some((_, reach)) = self.carved.iter().find(|(p, _)| *p == path) {
                match reach {
                    Reach::None => continue,
                    Reach::Read => here = self.read,
                }
            }
            let below = |p: &str| {
                p.len() > path.len() && p.starts_with(&path) && p.as_bytes()[path.len()] == b'/'
            };
            let deeper = self.carved.iter().any(|(p, _)| below(p));
            if meta.is_dir() && deeper && depth < MAX_DEPTH {
                if !self.unseen.iter().any(|p| below(p)) {
                    out.push((fd.try_clone()?, BitFlags::from(AccessFs::ReadDir)));
                }
                self.entries(&fd, &path, here, depth + 1, out)?;
            } else if meta.is_dir() {
                out.push((fd, here.0));
            } else {
                out.push((fd, here.1));
            }
        }
        Ok(())
    }
}

/// World-relative paths of every `*.toolbox` folder on disk, as deep as toolboxes are
/// looked for: not inside hidden folders or the ones never walked (`node_modules`), but
/// inside folders a marker file keeps from the index (a command could remove the marker).
fn toolbox_folders(world: &Path, never_walked: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut walk = walkdir::WalkDir::new(world)
        .min_depth(1)
        .max_depth(MAX_DEPTH)
        .into_iter();
    while let Some(entry) = walk.next() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if name.starts_with('.') || never_walked.contains(&name.as_ref()) {
            walk.skip_current_dir();
            continue;
        }
        if name.ends_with(".toolbox") {
            if let Ok(rel) = entry.path().strip_prefix(world) {
                found.push(rel.to_string_lossy().into_owned());
            }
            walk.skip_current_dir();
        }
    }
    found
}

fn read_names(listing: File) -> std::io::Result<Vec<std::ffi::OsString>> {
    // A folder opened by descriptor is listed through /proc/self/fd: std has no fdopendir.
    let path = format!("/proc/self/fd/{}", listing.as_raw_fd());
    let names = std::fs::read_dir(&path)?
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    Ok(names)
}

/// A readable handle of the folder behind the `O_PATH` handle `dir`.
fn reopen_dir(dir: &OwnedFd) -> std::io::Result<OwnedFd> {
    let at = c".";
    // SAFETY: openat on a descriptor this function borrows and a NUL-terminated name.
    let fd = unsafe {
        libc::openat(
            dir.as_fd().as_raw_fd(),
            at.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a descriptor just opened, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// An `O_PATH` handle of `path`, following links (the world may be one, and so may a
/// system folder such as `/lib`).
pub(super) fn open_path(path: &Path) -> std::io::Result<OwnedFd> {
    use std::os::unix::fs::OpenOptionsExt;
    File::options()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_CLOEXEC)
        .open(path)
        .map(OwnedFd::from)
}

/// `name` in the folder `dir`, without following a symlink.
fn open_at(dir: &OwnedFd, name: &std::ffi::OsStr) -> Option<OwnedFd> {
    let c_name = std::ffi::CString::new(name.as_bytes()).ok()?;
    // SAFETY: openat on a descriptor this function borrows and a NUL-terminated name.
    let fd = unsafe {
        libc::openat(
            dir.as_fd().as_raw_fd(),
            c_name.as_ptr(),
            libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    // SAFETY: a descriptor just opened, owned by nothing else.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
}
