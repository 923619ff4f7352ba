//! Resolving a world-relative path without a window between the check and the use.
//!
//! A walk starts from a handle on the world folder and opens one name at a time, relative
//! to the folder handle before it, never following a symlink in the system call
//! ([`Dir`]). A symlink met on the way is followed here, by hand: its target is read,
//! must stay inside the world (an absolute target must name a place in it, `..` may not
//! climb above it), and is walked the same way, at most [`MAX_LINKS`] links per path.
//! Each step knows the real names from the world down to where it stands, so hidden and
//! read-only folders are refused by their real path, before anything is created, opened
//! as a file or changed. Whatever the caller then does acts on the handles the walk
//! returns, so a folder swapped for a symlink meanwhile cannot redirect it: the swap
//! replaces a name, and the walk holds the folder itself.
//!
//! Not `cap-std`: its `Dir` keeps a path beneath the folder too, but resolves links itself
//! and hands back only the file, so the real path a link leads to, by which hidden and
//! read-only folders are refused, is never known here; and it has no rename that refuses
//! to replace (`rename_new`), which publishing a folder relies on when two writers race.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::dir::{Dir, Kind};
use super::error::VfsError;
use super::path::{refuse_hidden, shorten};

/// Most symlinks followed while resolving one path.
pub(crate) const MAX_LINKS: usize = 40;

/// How often one name is looked at again when it changes between two system calls.
const MAX_RETRIES: usize = 16;

/// A place inside the world: open handles from the world folder down, with the real names.
pub(crate) struct At {
    /// `dirs[0]` is the world; `dirs.len() == real.len() + 1`.
    dirs: Vec<Dir>,
    real: Vec<OsString>,
}

impl At {
    /// The folder the walk stands in.
    pub(crate) fn dir(&self) -> &Dir {
        self.dirs.last().expect("the world handle is never popped")
    }

    /// The real names from the world down to that folder.
    pub(crate) fn real(&self) -> &[OsString] {
        &self.real
    }

    /// The real names of `name` inside that folder.
    pub(crate) fn real_of(&self, name: &OsStr) -> Vec<OsString> {
        let mut real = self.real.clone();
        real.push(name.to_os_string());
        real
    }

    /// Another set of handles on the same place, to walk on from without moving this one.
    pub(crate) fn try_clone(&self) -> io::Result<At> {
        Ok(At {
            dirs: self
                .dirs
                .iter()
                .map(Dir::try_clone)
                .collect::<io::Result<_>>()?,
            real: self.real.clone(),
        })
    }

    fn push(&mut self, name: OsString, dir: Dir) {
        self.dirs.push(dir);
        self.real.push(name);
    }

    fn pop(&mut self) -> bool {
        if self.real.pop().is_none() {
            return false;
        }
        self.dirs.pop();
        true
    }

    fn back_to_root(&mut self) {
        self.dirs.truncate(1);
        self.real.clear();
    }
}

/// One name still to walk.
enum Item {
    /// A name; `true` when it comes from a symlink's target rather than the caller's path.
    Name(OsString, bool),
    /// `..` in a symlink's target.
    Up,
}

/// How the last name of the path is treated.
#[derive(Clone, Copy)]
pub(crate) enum Last {
    /// Followed when it is a symlink. A folder is entered (the walk ends in it); a regular
    /// file is opened with the given flags when there are some.
    Follow(Option<libc::c_int>),
    /// Reported as it is, symlink or not (for changing or replacing the entry itself).
    Entry,
}

/// Where a walk ended.
pub(crate) enum Outcome {
    /// In a folder: the handle's own (`At::dir`).
    Folder,
    /// At an entry of the handle's folder (opened, for [`Last::Follow`] with flags and a
    /// regular file).
    Entry {
        name: OsString,
        kind: Kind,
        file: Option<File>,
    },
    /// Nothing is at `name` in the handle's folder; `rest` are the names of the path below
    /// it that were not reached.
    Missing { name: OsString, rest: Vec<OsString> },
}

/// One resolution of a world-relative path.
pub(crate) struct Walker<'a> {
    world: &'a Path,
    /// The path as the caller gave it, for messages.
    rel: &'a str,
    /// When set, the walk is for a change, and these folders may not be changed.
    read_only: Option<&'a [PathBuf]>,
    links: usize,
    /// The real path of the last symlink followed, for messages.
    last_link: String,
}

impl<'a> Walker<'a> {
    pub(crate) fn new(
        world: &'a Path,
        rel: &'a str,
        read_only: Option<&'a [PathBuf]>,
    ) -> Walker<'a> {
        Walker {
            world,
            rel,
            read_only,
            links: 0,
            last_link: String::new(),
        }
    }

    /// A handle on the world folder.
    pub(crate) fn start(&self) -> Result<At, VfsError> {
        let root = Dir::open(self.world).map_err(|e| self.io(e))?;
        Ok(At {
            dirs: vec![root],
            real: Vec::new(),
        })
    }

    /// An I/O error about the caller's path.
    pub(crate) fn io(&self, e: io::Error) -> VfsError {
        VfsError::io(self.rel, e)
    }

    /// The error for a path whose entries keep being swapped under the walk.
    pub(crate) fn changed(&self) -> VfsError {
        self.io(io::Error::other(
            "it kept changing while the engine opened it (another program is renaming it); try again",
        ))
    }

    fn outside(&self) -> VfsError {
        VfsError::OutsideWorld {
            path: shorten(self.rel),
        }
    }

    /// Refuses a real path (names below the world) that is hidden, or read-only when the
    /// walk is for a change.
    pub(crate) fn check(&self, real: &[OsString]) -> Result<(), VfsError> {
        let inside: Vec<_> = real.iter().map(|n| n.to_string_lossy()).collect();
        let inside = inside.join("/");
        refuse_hidden(&inside).map_err(|_| VfsError::Hidden {
            path: shorten(self.rel),
            name: shorten(&inside),
        })?;
        if let Some(libraries) = self.read_only {
            let full = self.path_of(real);
            if libraries.iter().any(|lib| full.starts_with(lib)) {
                return Err(VfsError::ReadOnly {
                    path: shorten(self.rel),
                });
            }
        }
        Ok(())
    }

    /// The path on disk of real names below the world.
    pub(crate) fn path_of(&self, real: &[OsString]) -> PathBuf {
        let mut full = self.world.to_path_buf();
        full.extend(real);
        full
    }

    /// Walks `names` from `at`: every name but the last must be a folder (or a symlink to
    /// one); the last is treated as `last` says. With `create`, missing folders on the way
    /// are created (after the check), never through a symlink. `at` is left in the folder
    /// that holds the outcome (or in the folder itself, for [`Outcome::Folder`]).
    pub(crate) fn walk(
        &mut self,
        at: &mut At,
        names: &[&OsStr],
        last: Last,
        create: bool,
    ) -> Result<Outcome, VfsError> {
        let mut queue: VecDeque<Item> = names
            .iter()
            .map(|n| Item::Name(n.to_os_string(), false))
            .collect();
        while let Some(item) = queue.pop_front() {
            let (name, from_link) = match item {
                Item::Up => {
                    if !at.pop() {
                        return Err(self.outside());
                    }
                    continue;
                }
                Item::Name(name, from_link) => (name, from_link),
            };
            if let Some(outcome) = self.step(at, &mut queue, name, from_link, last, create)? {
                return Ok(outcome);
            }
        }
        self.check(at.real())?;
        Ok(Outcome::Folder)
    }

    /// One name: enters a folder or follows a symlink (then returns `None`), or ends the walk.
    fn step(
        &mut self,
        at: &mut At,
        queue: &mut VecDeque<Item>,
        name: OsString,
        from_link: bool,
        last: Last,
        create: bool,
    ) -> Result<Option<Outcome>, VfsError> {
        let is_last = queue.is_empty();
        for _ in 0..MAX_RETRIES {
            let kind = match at.dir().kind_of(&name) {
                Ok(kind) => Some(kind),
                Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                Err(e) => return Err(self.io(e)),
            };
            match kind {
                None if from_link => return Err(self.dangling()),
                None if create && !is_last => {
                    let mut prospect = at.real_of(&name);
                    prospect.extend(lexical_rest(queue));
                    self.check(&prospect)?;
                    match at.dir().mkdir(&name) {
                        Ok(()) => {}
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(self.io(e)),
                    }
                }
                None => {
                    let rest = lexical_rest(queue);
                    let mut prospect = at.real_of(&name);
                    prospect.extend(rest.iter().cloned());
                    self.check(&prospect)?;
                    return Ok(Some(Outcome::Missing { name, rest }));
                }
                Some(kind) if is_last && matches!(last, Last::Entry) => {
                    self.check(&at.real_of(&name))?;
                    return Ok(Some(Outcome::Entry {
                        name,
                        kind,
                        file: None,
                    }));
                }
                Some(Kind::Symlink) => match at.dir().read_link(&name) {
                    Ok(target) => {
                        self.follow(at, &name, target, queue)?;
                        return Ok(None);
                    }
                    // No longer a symlink, or gone: look again.
                    Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOENT)) => {}
                    Err(e) => return Err(self.io(e)),
                },
                Some(Kind::Dir) => match at.dir().open_dir(&name) {
                    Ok(dir) => {
                        at.push(name, dir);
                        return Ok(None);
                    }
                    // Swapped for something else since the look: look again.
                    Err(e)
                        if matches!(
                            e.raw_os_error(),
                            Some(libc::ELOOP | libc::ENOTDIR | libc::ENOENT)
                        ) => {}
                    Err(e) => return Err(self.io(e)),
                },
                Some(_) if !is_last => {
                    return Err(self.io(io::Error::from_raw_os_error(libc::ENOTDIR)))
                }
                Some(kind) => {
                    self.check(&at.real_of(&name))?;
                    let flags = match (kind, last) {
                        (Kind::File, Last::Follow(Some(flags))) => flags,
                        _ => {
                            return Ok(Some(Outcome::Entry {
                                name,
                                kind,
                                file: None,
                            }))
                        }
                    };
                    match at.dir().open_file(&name, flags) {
                        // Still the regular file that was checked (not a pipe swapped in).
                        Ok(file) if file.metadata().is_ok_and(|m| m.is_file()) => {
                            return Ok(Some(Outcome::Entry {
                                name,
                                kind,
                                file: Some(file),
                            }));
                        }
                        Ok(_) => {}
                        Err(e)
                            if matches!(
                                e.raw_os_error(),
                                Some(libc::ELOOP | libc::ENOENT | libc::EISDIR | libc::ENXIO)
                            ) => {}
                        Err(e) => return Err(self.io(e)),
                    }
                }
            }
        }
        Err(self.changed())
    }

    /// Queues the target of the symlink `name` (in `at`'s folder), checking that it stays
    /// inside the world.
    fn follow(
        &mut self,
        at: &mut At,
        name: &OsStr,
        target: OsString,
        queue: &mut VecDeque<Item>,
    ) -> Result<(), VfsError> {
        self.links += 1;
        self.last_link = at
            .real_of(name)
            .iter()
            .map(|n| n.to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if self.links > MAX_LINKS {
            return Err(VfsError::WrongKind {
                path: shorten(self.rel),
                why: format!(
                    "goes through more than {MAX_LINKS} symlinks (do links point at each other?); point the links at real files or folders"
                ),
            });
        }
        let target = PathBuf::from(target);
        let inside = if target.is_absolute() {
            // An absolute target must name a place in the world. When it does not spell
            // the world's own path (a link made through another name for the same folder),
            // the system's reading of it decides; that reading only yields names, which are
            // then walked and checked like any others.
            let inside = match target.strip_prefix(self.world) {
                Ok(inside) => inside.to_path_buf(),
                Err(_) => match target.canonicalize() {
                    Ok(real) => match real.strip_prefix(self.world) {
                        Ok(inside) => inside.to_path_buf(),
                        Err(_) => return Err(self.outside()),
                    },
                    Err(_) => return Err(self.outside()),
                },
            };
            at.back_to_root();
            inside
        } else {
            target
        };
        let items: Vec<Item> = inside
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(Item::Name(n.to_os_string(), true)),
                Component::ParentDir => Some(Item::Up),
                _ => None,
            })
            .collect();
        for item in items.into_iter().rev() {
            queue.push_front(item);
        }
        Ok(())
    }

    fn dangling(&self) -> VfsError {
        VfsError::WrongKind {
            path: shorten(self.rel),
            why: format!(
                "goes through the symlink '{}', whose target does not exist; point it at a file or folder inside the world",
                shorten(&self.last_link)
            ),
        }
    }
}

/// The names still queued, as a path below the current place (`..` taken lexically).
fn lexical_rest(queue: &VecDeque<Item>) -> Vec<OsString> {
    let mut rest = Vec::new();
    for item in queue {
        match item {
            Item::Name(n, _) => rest.push(n.clone()),
            Item::Up => {
                rest.pop();
            }
        }
    }
    rest
}
