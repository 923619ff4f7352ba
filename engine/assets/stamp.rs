//! What a tool folder's files looked like when they were read: the index cache trusts an
//! entry while the folder and every file it read still look the same.

use std::hash::{BuildHasher, Hasher};

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use foldhash::fast::{FixedState, FoldHasher};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A file modified this shortly before it was read may change again within the same
/// timestamp tick (coarse clocks, filesystems with second granularity) and look unchanged:
/// such an entry is confirmed by content next time, never by its timestamps alone.
const RACY: Duration = Duration::from_secs(2);

/// The files of a tool folder the index reads, the only names a [`Stamp`] holds.
pub(crate) const STAMPED_FILES: [&str; 3] = [".metadata", "README.md", "init.luau"];

/// Size, modification time and change time of one file or folder.
///
/// The change time is what no one sets by hand: `cp -p`, `rsync -t`, `tar x` and
/// `touch -r` put an old modification time back on new content (a same-size edit would
/// then look unchanged), and `chmod` changes no modification time at all (a folder made
/// readable again would stay "cannot be read"); both set the change time to now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Seen {
    pub(crate) size: u64,
    /// Nanoseconds since the Unix epoch.
    pub(crate) mtime: i64,
    /// Nanoseconds since the Unix epoch.
    pub(crate) ctime: i64,
}

impl Seen {
    /// What `path` looks like now (following symlinks), or `None` when it cannot be read.
    pub(crate) fn of(path: &Path) -> Option<Seen> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        Some(Seen {
            size: if meta.is_dir() { 0 } else { meta.len() },
            mtime: nanos(meta.modified().ok()?),
            ctime: meta
                .ctime()
                .saturating_mul(1_000_000_000)
                .saturating_add(meta.ctime_nsec()),
        })
    }

    /// The later of its two times: when it last changed in any way.
    fn latest(&self) -> i64 {
        self.mtime.max(self.ctime)
    }
}

fn nanos(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i64,
        Err(e) => -(e.duration().as_nanos() as i64),
    }
}

/// How one tool folder looked when read, and a hash of what was read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    /// The folder itself (its time changes when a file is added, removed or renamed);
    /// `None` for bundled tools, which are told apart by content only.
    pub(crate) dir: Option<Seen>,
    /// The files read, by name (one of [`STAMPED_FILES`]; the index of it in the cache).
    #[serde(with = "by_index")]
    pub(crate) files: SmallVec<[(&'static str, Seen); STAMPED_FILES.len()]>,
    /// Hash of the folder's path and every file's name and content.
    pub(crate) hash: u64,
    /// True when nothing was modified shortly before it was read (see [`RACY`]).
    pub(crate) settled: bool,
}

/// Builds a [`Stamp`] while a tool folder is read.
pub(crate) struct Stamper {
    started: SystemTime,
    hasher: FoldHasher<'static>,
    stamp: Stamp,
}

impl Stamper {
    /// Starts with the folder (`dir` is `None` for bundled tools).
    pub(crate) fn new(rel: &str, dir: Option<&Path>) -> Stamper {
        // Fixed seed: stamps are compared across processes.
        let mut hasher = FixedState::with_seed(0).build_hasher();
        hasher.write(rel.as_bytes());
        hasher.write_u8(0xff);
        Stamper {
            started: SystemTime::now(),
            hasher,
            stamp: Stamp {
                dir: dir.and_then(Seen::of),
                ..Stamp::default()
            },
        }
    }

    /// Notes a file name the folder holds (what is there, not its content).
    pub(crate) fn name(&mut self, name: &str) {
        self.hasher.write(name.as_bytes());
        self.hasher.write_u8(0xfe);
    }

    /// Notes a file about to be read: call before reading, so a change during the read
    /// shows as a new time next time.
    pub(crate) fn before_read(&mut self, name: &'static str, path: Option<&Path>) {
        if let Some(seen) = path.and_then(Seen::of) {
            self.stamp.files.push((name, seen));
        }
    }

    /// Adds what a file held (or that it could not be read).
    pub(crate) fn content(&mut self, name: &str, text: Option<&str>) {
        self.hasher.write(name.as_bytes());
        self.hasher.write_u8(0xfd);
        if let Some(text) = text {
            self.hasher.write(text.as_bytes());
        }
        self.hasher.write_u8(0xfc);
    }

    /// The stamp.
    pub(crate) fn finish(mut self) -> Stamp {
        let limit = nanos(self.started) - RACY.as_nanos() as i64;
        self.stamp.settled = self.stamp.dir.is_none_or(|d| d.latest() < limit)
            && self.stamp.files.iter().all(|(_, s)| s.latest() < limit);
        self.stamp.hash = self.hasher.finish();
        self.stamp
    }
}

/// True when `seen`, looked at after `started`, was not modified within the racy window
/// before it (see [`RACY`]): its time alone then tells whether it changed.
pub(crate) fn settled(seen: Seen, started: SystemTime) -> bool {
    seen.latest() < nanos(started) - RACY.as_nanos() as i64
}

impl Stamp {
    /// True when the tool folder `name` of `toolbox` and the files read still look as they
    /// did: same folder time, same size and time for each file.
    pub(crate) fn unchanged_on_disk(&self, toolbox: &Folder, name: &str) -> bool {
        let Some(dir) = self.dir else {
            return false;
        };
        if toolbox.seen(name) != Some(dir) {
            return false;
        }
        let mut path = String::with_capacity(name.len() + 12);
        path.push_str(name);
        path.push('/');
        let base = path.len();
        self.files.iter().all(|(file, seen)| {
            path.truncate(base);
            path.push_str(file);
            toolbox.seen(&path) == Some(*seen)
        })
    }
}

/// An open toolbox folder: its tools' files are looked at relative to it, so a check costs
/// one short path lookup, not a walk from the filesystem's root.
pub(crate) struct Folder {
    fd: rustix::fd::OwnedFd,
}

impl Folder {
    /// Opens a folder on disk.
    pub(crate) fn open(path: &Path) -> Option<Folder> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rustix::fs::open(path, flags, Mode::empty()).ok()?;
        Some(Folder { fd })
    }

    /// What the folder itself looks like now (one `fstat` of the open folder).
    pub(crate) fn seen_self(&self) -> Option<Seen> {
        let st = rustix::fs::fstat(&self.fd).ok()?;
        Some(seen_of(&st, 0))
    }

    /// What `rel` (below the folder, symlinks followed) looks like now.
    pub(crate) fn seen(&self, rel: &str) -> Option<Seen> {
        let st = rustix::fs::statat(&self.fd, rel, rustix::fs::AtFlags::empty()).ok()?;
        let is_dir = rustix::fs::FileType::from_raw_mode(st.st_mode).is_dir();
        Some(seen_of(&st, if is_dir { 0 } else { st.st_size as u64 }))
    }
}

/// A [`Seen`] of what `fstat` or `statat` returned, of size `size`.
// The time fields are `i64` on some targets and narrower on others.
#[allow(clippy::unnecessary_cast)]
fn seen_of(st: &rustix::fs::Stat, size: u64) -> Seen {
    let time = |secs: i64, nsec: i64| secs.saturating_mul(1_000_000_000).saturating_add(nsec);
    Seen {
        size,
        mtime: time(st.st_mtime as i64, st.st_mtime_nsec as i64),
        ctime: time(st.st_ctime as i64, st.st_ctime_nsec as i64),
    }
}

/// A stamp's files in the cache: each name as its place in [`STAMPED_FILES`], so a name
/// read back is one of them.
mod by_index {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use smallvec::SmallVec;

    use super::{Seen, STAMPED_FILES};

    type Files = SmallVec<[(&'static str, Seen); STAMPED_FILES.len()]>;

    pub(super) fn serialize<S: Serializer>(files: &Files, s: S) -> Result<S::Ok, S::Error> {
        // Past the end for a name that is not one (none is): it reads back as damage.
        let index = |name: &str| {
            STAMPED_FILES
                .iter()
                .position(|known| *known == name)
                .unwrap_or(STAMPED_FILES.len())
        };
        s.collect_seq(files.iter().map(|(name, seen)| (index(name), seen)))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Files, D::Error> {
        let read = SmallVec::<[(usize, Seen); STAMPED_FILES.len()]>::deserialize(d)?;
        read.into_iter()
            .map(|(at, seen)| match STAMPED_FILES.get(at) {
                Some(name) => Ok((*name, seen)),
                None => Err(D::Error::custom("not a stamped file")),
            })
            .collect()
    }
}
