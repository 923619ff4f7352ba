//! Folder handles. Every call here names one entry inside an open folder (`openat`,
//! `mkdirat`, `renameat`, `unlinkat`, ...) and never follows a symlink at that entry, so
//! what it touches is always in the folder the handle refers to, whatever another
//! process renames or swaps meanwhile. Resolving a whole path is [`super::walk`]'s job.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

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
    fn of_mode(mode: libc::mode_t) -> Kind {
        match mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Symlink,
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

fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

/// `fstatat` without following a symlink at `name`.
fn stat_at(fd: RawFd, name: &OsStr) -> io::Result<libc::stat> {
    let name = c_name(name)?;
    // SAFETY: `stat` is plain data that fstatat fills in.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a folder descriptor, a NUL-terminated name and an output buffer.
    check(unsafe { libc::fstatat(fd, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) })?;
    Ok(st)
}

/// The folder flags: read-only, a folder or nothing, never through a symlink.
const DIR_FLAGS: libc::c_int =
    libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;

impl Dir {
    /// Opens the folder at `path` (the world itself, whose path is trusted).
    pub fn open(path: &Path) -> io::Result<Dir> {
        let path = c_name(path.as_os_str())?;
        // SAFETY: `path` is a valid NUL-terminated string; the result is checked.
        let fd = check(unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        })?;
        // SAFETY: `fd` was just opened and is owned by nobody else.
        Ok(Dir(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    fn fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }

    /// A second handle on the same folder.
    pub fn try_clone(&self) -> io::Result<Dir> {
        Ok(Dir(self.0.try_clone()?))
    }

    /// The descriptor itself, for a caller that acts in the folder (a process started in it).
    pub fn into_fd(self) -> OwnedFd {
        self.0
    }

    fn open_at(&self, name: &OsStr, flags: libc::c_int, mode: libc::c_uint) -> io::Result<OwnedFd> {
        let name = c_name(name)?;
        // SAFETY: a valid folder descriptor and NUL-terminated name; the result is checked.
        let fd = check(unsafe { libc::openat(self.fd(), name.as_ptr(), flags, mode) })?;
        // SAFETY: `fd` was just opened and is owned by nobody else.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    /// Opens the folder `name` inside this one; a symlink there fails (`ELOOP` or `ENOTDIR`).
    pub fn open_dir(&self, name: &OsStr) -> io::Result<Dir> {
        self.open_at(name, DIR_FLAGS, 0).map(Dir)
    }

    /// Opens the file `name` inside this one with `flags`; a symlink there fails (`ELOOP`).
    pub fn open_file(&self, name: &OsStr, flags: libc::c_int) -> io::Result<File> {
        let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NOCTTY;
        self.open_at(name, flags, 0).map(File::from)
    }

    /// Creates the new file `name` inside this one, for writing; fails if anything is there.
    pub fn create_new(&self, name: &OsStr) -> io::Result<File> {
        let flags = libc::O_WRONLY
            | libc::O_CREAT
            | libc::O_EXCL
            | libc::O_NOFOLLOW
            | libc::O_CLOEXEC
            | libc::O_NOCTTY;
        self.open_at(name, flags, 0o666).map(File::from)
    }

    fn stat_at(&self, name: &OsStr) -> io::Result<libc::stat> {
        stat_at(self.fd(), name)
    }

    /// What `name` inside this folder is (a symlink is reported, not followed).
    pub fn kind_of(&self, name: &OsStr) -> io::Result<Kind> {
        Ok(Kind::of_mode(self.stat_at(name)?.st_mode))
    }

    /// The device and inode of `name` inside this folder (not followed).
    pub fn identity_of(&self, name: &OsStr) -> io::Result<(libc::dev_t, libc::ino_t)> {
        let st = self.stat_at(name)?;
        Ok((st.st_dev, st.st_ino))
    }

    /// The device and inode of this folder.
    pub fn identity(&self) -> io::Result<(libc::dev_t, libc::ino_t)> {
        self.identity_of(OsStr::new("."))
    }

    /// The target of the symlink `name` inside this folder (`EINVAL` when it is not one).
    pub fn read_link(&self, name: &OsStr) -> io::Result<OsString> {
        let name = c_name(name)?;
        let mut buf = vec![0u8; 256];
        loop {
            // SAFETY: a valid folder descriptor and name; `buf` has `buf.len()` bytes.
            let n = unsafe {
                libc::readlinkat(self.fd(), name.as_ptr(), buf.as_mut_ptr().cast(), buf.len())
            };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            let n = n as usize;
            if n < buf.len() {
                buf.truncate(n);
                return Ok(OsString::from_vec(buf));
            }
            if buf.len() >= 1 << 16 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "a symlink's target is too long",
                ));
            }
            buf.resize(buf.len() * 4, 0);
        }
    }

    /// Creates the folder `name` inside this one.
    pub fn mkdir(&self, name: &OsStr) -> io::Result<()> {
        let name = c_name(name)?;
        // SAFETY: a valid folder descriptor and NUL-terminated name.
        check(unsafe { libc::mkdirat(self.fd(), name.as_ptr(), 0o777) }).map(drop)
    }

    /// Renames `from` to `to`, both inside this folder; replaces a file at `to`.
    pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let (from, to) = (c_name(from)?, c_name(to)?);
        // SAFETY: a valid folder descriptor and NUL-terminated names.
        check(unsafe { libc::renameat(self.fd(), from.as_ptr(), self.fd(), to.as_ptr()) }).map(drop)
    }

    /// Renames `from` to `to`, both inside this folder, only if nothing is at `to`
    /// (`AlreadyExists` otherwise). Where the system cannot say "no replace", a check
    /// before the rename stands in, and only an empty folder can be replaced in between.
    pub fn rename_new(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let exists = || io::Error::new(io::ErrorKind::AlreadyExists, "exists");
        let (c_from, c_to) = (c_name(from)?, c_name(to)?);
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            // SAFETY: a valid folder descriptor and NUL-terminated names.
            let rc = unsafe {
                libc::renameat2(
                    self.fd(),
                    c_from.as_ptr(),
                    self.fd(),
                    c_to.as_ptr(),
                    libc::RENAME_NOREPLACE,
                )
            };
            match check(rc) {
                Ok(_) => return Ok(()),
                Err(e) if e.raw_os_error() == Some(libc::EEXIST) => return Err(exists()),
                Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {}
                Err(e) => return Err(e),
            }
        }
        if self.kind_of(to).is_ok() {
            return Err(exists());
        }
        // SAFETY: a valid folder descriptor and NUL-terminated names.
        check(unsafe { libc::renameat(self.fd(), c_from.as_ptr(), self.fd(), c_to.as_ptr()) })
            .map(drop)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::EEXIST | libc::ENOTEMPTY) => exists(),
                _ => e,
            })
    }

    /// Removes the file or symlink `name` inside this folder.
    pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
        let name = c_name(name)?;
        // SAFETY: a valid folder descriptor and NUL-terminated name.
        check(unsafe { libc::unlinkat(self.fd(), name.as_ptr(), 0) }).map(drop)
    }

    /// Removes the empty folder `name` inside this folder.
    pub fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
        let name = c_name(name)?;
        // SAFETY: a valid folder descriptor and NUL-terminated name.
        check(unsafe { libc::unlinkat(self.fd(), name.as_ptr(), libc::AT_REMOVEDIR) }).map(drop)
    }

    /// The entries of this folder, without `.` and `..`, in the order the system gives.
    pub fn entries(&self) -> io::Result<Entries> {
        // A fresh open of "." has its own read position, and `fdopendir` takes it over.
        let fd = self.open_at(OsStr::new("."), DIR_FLAGS, 0)?.into_raw_fd();
        // SAFETY: `fd` is an open folder descriptor that the stream now owns.
        let dir = unsafe { libc::fdopendir(fd) };
        if dir.is_null() {
            let e = io::Error::last_os_error();
            // SAFETY: `fdopendir` failed, so `fd` is still ours to close.
            unsafe { libc::close(fd) };
            return Err(e);
        }
        Ok(Entries { dir })
    }

    /// Flushes the folder's entries to disk (best effort).
    pub fn sync(&self) {
        // SAFETY: a valid descriptor.
        unsafe { libc::fsync(self.fd()) };
    }
}

/// The entries of an open folder, with their kinds (symlinks not followed).
pub(crate) struct Entries {
    dir: *mut libc::DIR,
}

impl Iterator for Entries {
    type Item = io::Result<(OsString, Kind)>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            // SAFETY: `dir` is an open stream used by this iterator alone. `readdir` fails
            // only on a bad stream, so a null result is taken as the end.
            let entry = unsafe { libc::readdir(self.dir) };
            if entry.is_null() {
                return None;
            }
            // SAFETY: a non-null result points to an entry valid until the next call.
            let (name, d_type) = unsafe {
                let entry = &*entry;
                let name = std::ffi::CStr::from_ptr(entry.d_name.as_ptr());
                (
                    OsStr::from_bytes(name.to_bytes()).to_os_string(),
                    entry.d_type,
                )
            };
            if name == "." || name == ".." {
                continue;
            }
            let kind = match d_type {
                libc::DT_REG => Kind::File,
                libc::DT_DIR => Kind::Dir,
                libc::DT_LNK => Kind::Symlink,
                libc::DT_UNKNOWN => {
                    // SAFETY: the stream's own descriptor, valid while the stream is open.
                    let fd = unsafe { libc::dirfd(self.dir) };
                    match stat_at(fd, &name) {
                        Ok(st) => Kind::of_mode(st.st_mode),
                        Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                        Err(e) => return Some(Err(e)),
                    }
                }
                _ => Kind::Other,
            };
            return Some(Ok((name, kind)));
        }
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        // SAFETY: `dir` was opened by `fdopendir` and is closed once, here.
        unsafe { libc::closedir(self.dir) };
    }
}
