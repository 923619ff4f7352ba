//! Folder handles. Every call here names one entry inside an open folder (`openat`,
//! `mkdirat`, `renameat`, `unlinkat`, ...) and never follows a symlink at that entry, so
//! what it touches is always in the folder the handle refers to, whatever another
//! process renames or swaps meanwhile. Resolving a whole path is [`super::walk`]'s job.
//! The system calls are `rustix`'s.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RenameFlags, Stat};

/// What an entry is, without following a symlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    /// A device, pipe or socket.
    Other,
}

impl Kind {
    fn of(file_type: FileType) -> Kind {
        match file_type {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            _ => Kind::Other,
        }
    }
}

/// An open folder.
#[derive(Debug)]
pub(crate) struct Dir(OwnedFd);

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a name contains a NUL byte"))
}

/// `fstatat` without following a symlink at `name`.
fn stat_at(fd: impl AsFd, name: &OsStr) -> io::Result<Stat> {
    Ok(rustix::fs::statat(
        fd,
        c_name(name)?,
        AtFlags::SYMLINK_NOFOLLOW,
    )?)
}

/// The folder flags: read-only, a folder or nothing, never through a symlink.
const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

impl Dir {
    /// Opens the folder at `path` (the world itself, whose path is trusted).
    pub(crate) fn open(path: &Path) -> io::Result<Dir> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rustix::fs::open(c_name(path.as_os_str())?, flags, Mode::empty())?;
        Ok(Dir(fd))
    }

    /// A second handle on the same folder.
    pub(crate) fn try_clone(&self) -> io::Result<Dir> {
        Ok(Dir(self.0.try_clone()?))
    }

    /// The descriptor itself, for a caller that acts in the folder (a process started in it).
    pub(crate) fn into_fd(self) -> OwnedFd {
        self.0
    }

    fn open_at(&self, name: &OsStr, flags: OFlags, mode: u32) -> io::Result<OwnedFd> {
        let mode = Mode::from_raw_mode(mode);
        Ok(rustix::fs::openat(&self.0, c_name(name)?, flags, mode)?)
    }

    /// Opens the folder `name` inside this one; a symlink there fails (`ELOOP` or `ENOTDIR`).
    pub(crate) fn open_dir(&self, name: &OsStr) -> io::Result<Dir> {
        self.open_at(name, DIR_FLAGS, 0).map(Dir)
    }

    /// Opens the file `name` inside this one with `flags` (`libc::O_*`); a symlink there
    /// fails (`ELOOP`).
    pub(crate) fn open_file(&self, name: &OsStr, flags: libc::c_int) -> io::Result<File> {
        let flags = OFlags::from_bits_retain(flags as _)
            | OFlags::NOFOLLOW
            | OFlags::CLOEXEC
            | OFlags::NOCTTY;
        self.open_at(name, flags, 0).map(File::from)
    }

    /// Creates the new file `name` inside this one, for writing; fails if anything is there.
    pub(crate) fn create_new(&self, name: &OsStr) -> io::Result<File> {
        let flags = OFlags::WRONLY
            | OFlags::CREATE
            | OFlags::EXCL
            | OFlags::NOFOLLOW
            | OFlags::CLOEXEC
            | OFlags::NOCTTY;
        self.open_at(name, flags, 0o666).map(File::from)
    }

    /// What `name` inside this folder is (a symlink is reported, not followed).
    pub(crate) fn kind_of(&self, name: &OsStr) -> io::Result<Kind> {
        let st = stat_at(&self.0, name)?;
        Ok(Kind::of(FileType::from_raw_mode(st.st_mode)))
    }

    /// The device and inode of `name` inside this folder (not followed).
    pub(crate) fn identity_of(&self, name: &OsStr) -> io::Result<(u64, u64)> {
        let st = stat_at(&self.0, name)?;
        Ok((st.st_dev, st.st_ino))
    }

    /// The device and inode of this folder.
    pub(crate) fn identity(&self) -> io::Result<(u64, u64)> {
        self.identity_of(OsStr::new("."))
    }

    /// The target of the symlink `name` inside this folder (`EINVAL` when it is not one).
    pub(crate) fn read_link(&self, name: &OsStr) -> io::Result<OsString> {
        let target = rustix::fs::readlinkat(&self.0, c_name(name)?, Vec::new())?;
        Ok(OsString::from_vec(target.into_bytes()))
    }

    /// Creates the folder `name` inside this one.
    pub(crate) fn mkdir(&self, name: &OsStr) -> io::Result<()> {
        let mode = Mode::from_raw_mode(0o777);
        Ok(rustix::fs::mkdirat(&self.0, c_name(name)?, mode)?)
    }

    /// Renames `from` to `to`, both inside this folder; replaces a file at `to`.
    pub(crate) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let (from, to) = (c_name(from)?, c_name(to)?);
        Ok(rustix::fs::renameat(&self.0, from, &self.0, to)?)
    }

    /// Renames `from` to `to`, both inside this folder, only if nothing is at `to`
    /// (`AlreadyExists` otherwise). Where the system cannot say "no replace", a check
    /// before the rename stands in, and only an empty folder can be replaced in between.
    pub(crate) fn rename_new(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let exists = || io::Error::new(io::ErrorKind::AlreadyExists, "exists");
        let (c_from, c_to) = (c_name(from)?, c_name(to)?);
        let no_replace = RenameFlags::NOREPLACE;
        match rustix::fs::renameat_with(&self.0, &c_from, &self.0, &c_to, no_replace) {
            Ok(()) => return Ok(()),
            Err(rustix::io::Errno::EXIST) => return Err(exists()),
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {}
            Err(e) => return Err(e.into()),
        }
        if self.kind_of(to).is_ok() {
            return Err(exists());
        }
        match rustix::fs::renameat(&self.0, &c_from, &self.0, &c_to) {
            Ok(()) => Ok(()),
            Err(rustix::io::Errno::EXIST | rustix::io::Errno::NOTEMPTY) => Err(exists()),
            Err(e) => Err(e.into()),
        }
    }

    /// Removes the file or symlink `name` inside this folder.
    pub(crate) fn remove_file(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.0,
            c_name(name)?,
            AtFlags::empty(),
        )?)
    }

    /// Removes the empty folder `name` inside this folder.
    pub(crate) fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.0,
            c_name(name)?,
            AtFlags::REMOVEDIR,
        )?)
    }

    /// The entries of this folder, without `.` and `..`, in the order the system gives.
    pub(crate) fn entries(&self) -> io::Result<Entries> {
        // Read through a fresh open of ".", which has its own read position.
        Ok(Entries {
            dir: rustix::fs::Dir::read_from(&self.0)?,
            folder: self.0.try_clone()?,
        })
    }

    /// Flushes the folder's entries to disk (best effort).
    pub(crate) fn sync(&self) {
        let _ = rustix::fs::fsync(&self.0);
    }
}

/// The entries of an open folder, with their kinds (symlinks not followed).
pub(crate) struct Entries {
    dir: rustix::fs::Dir,
    /// The folder, to look at an entry whose kind the listing does not give.
    folder: OwnedFd,
}

impl Iterator for Entries {
    type Item = io::Result<(OsString, Kind)>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let entry = match self.dir.read()? {
                Ok(entry) => entry,
                Err(e) => return Some(Err(e.into())),
            };
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => match stat_at(&self.folder, name) {
                    Ok(st) => Kind::of(FileType::from_raw_mode(st.st_mode)),
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    Err(e) => return Some(Err(e)),
                },
                known => Kind::of(known),
            };
            return Some(Ok((name.to_os_string(), kind)));
        }
    }
}
