//! Files under `<world>/.codemode/cache/` that let a new process skip work an earlier one
//! did: what each tool folder held (`assets`), and the search index (`search`).
//!
//! A file is a serde value in `postcard`'s form (compact, read back borrowing from the
//! file), after a header naming its kind, its schema and the engine's version, and before a
//! CRC-32 of everything before it: a file written by another version, cut short or damaged
//! reads as missing, and the work is done again. Each cache bumps its schema when the types
//! it stores change. Files are replaced whole: written beside the target under a hidden
//! temporary name, synced and renamed, so a reader in another process sees the old file or
//! the new one, never a mix.

use serde::{Deserialize, Serialize, Serializer};

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the caches live, relative to the world.
pub(crate) const CACHE_DIR: &str = ".codemode/cache";

/// The largest cache file read (the tool cache of a million tools is under this).
const MAX_FILE_BYTES: u64 = 2 << 30;

/// The engine's version: a cache written by another build is not trusted.
pub(crate) const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A world of at most this many tools on disk is read about as fast as its cache: it gets
/// no cache folder of its own (see [`wanted`]).
pub(crate) const MIN_TOOLS: usize = 64;

/// Whether `world`, holding `tools` tools on disk, should have caches written: when it
/// holds more than [`MIN_TOOLS`], or already has a `.codemode/` folder (where its owner
/// keeps configuration). So `codemode exec` run in any folder leaves nothing behind.
pub(crate) fn wanted(world: &Path, tools: usize) -> bool {
    tools > MIN_TOOLS || world.join(".codemode").is_dir()
}

/// Where one cache of `world` lives (it may not exist yet).
pub(crate) fn path(world: &Path, name: &str) -> PathBuf {
    world.join(CACHE_DIR).join(name)
}

/// The folder for one cache of `world` (created when missing), or `None` when it cannot
/// be created (a read-only world) or is not the world's own (see [`inside`]): callers
/// then work without a cache.
pub(crate) fn dir(world: &Path, name: &str) -> Option<PathBuf> {
    match inside(world, &format!("{CACHE_DIR}/{name}")) {
        Ok(dir) => Some(dir),
        Err(e) => {
            tracing::debug!("no index cache: {e}");
            None
        }
    }
}

/// `world/rel`, a folder for the engine's own files, created when missing, when every
/// folder on the way is a real folder of the world: a world (a cloned repository) may
/// ship `.codemode/cache` as a symbolic link to anywhere, and the engine writes only
/// inside the world. The error says which part is not a folder and what to do.
pub(crate) fn inside(world: &Path, rel: &str) -> std::io::Result<PathBuf> {
    let mut at = world.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(not_a_folder(&at)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match std::fs::create_dir(&at) {
                    Ok(()) => {}
                    // Made by another process meanwhile: looked at again.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        if !std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir()) {
                            return Err(not_a_folder(&at));
                        }
                    }
                    Err(e) => return Err(e),
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(at)
}

/// What stands at `world/rel`, looked at without creating or following anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// Some folder on the way, or the last, does not exist.
    Missing,
    /// A real folder, and every folder on the way is one too.
    Folder(PathBuf),
    /// This part of the way (the first that is not) is a symbolic link, a file or
    /// something else that is not a folder: nothing under it is the world's own.
    NotAFolder(PathBuf),
}

/// What stands at `world/rel` (see [`Place`]): for a reader or a remover that must neither
/// create folders nor go through a link a world shipped.
pub(crate) fn look(world: &Path, rel: &str) -> Place {
    let mut at = world.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Place::NotAFolder(at),
            Err(_) => return Place::Missing,
        }
    }
    Place::Folder(at)
}

/// The error for a part of the way that is not a folder.
pub(crate) fn not_a_folder(at: &Path) -> std::io::Error {
    std::io::Error::other(format!(
        "{} is not a folder (a symbolic link or a file): codemode writes its own files only inside the world; remove it and a folder is made",
        at.display()
    ))
}

/// True when `path`, if it exists, is a file the engine may open as its own: a regular
/// file, not a symbolic link (its target may be outside the world), a FIFO (opening one
/// waits for a writer forever) or a device.
pub(crate) fn plain_or_missing(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => meta.file_type().is_file(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

/// Opens `path` for reading without following a symbolic link and without waiting on a
/// FIFO; `None` unless it is a regular file of at most `max` bytes.
pub(crate) fn open_plain(path: &Path, max: u64) -> Option<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    (meta.file_type().is_file() && meta.len() <= max).then_some(file)
}

/// Gives memory freed by a large build (reading a world, indexing it) back to the system.
/// The allocator keeps freed pages for reuse, and building the index of 100,000 tools frees
/// hundreds of megabytes that a long-lived process (`serve`) would otherwise hold.
pub(crate) fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Asks the allocator to grow its heaps 64 MiB at a time, for a process that exits soon.
/// Reading a world of 100,000 tools allocates tens of megabytes on each indexing thread,
/// and growing a thread's heap page by page took one `mprotect` each (17,000 in one
/// process start), each holding the address-space lock the other threads' page faults
/// wait on. Only address space is taken ahead (pages are used as they are touched), but
/// up to that much freed memory is kept at the top of each heap until the next
/// [`release_freed_memory`]: long-lived processes do not ask.
pub(crate) fn grow_heaps_in_large_steps() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a tuning value of the allocator; called before any
    // thread is started.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

/// A cache file larger than this is mapped rather than read: copying 40 MB into fresh
/// memory (which the kernel zeroes first) was a sixth of a fresh process on a world of
/// 100,000 tools, and a mapping shares the pages the system already holds.
const MAP_FROM_BYTES: u64 = 1 << 20;

/// The bytes of a cache file: read into memory, or mapped.
#[derive(Debug)]
pub(crate) enum FileBytes {
    /// Read whole.
    Read(Vec<u8>),
    /// Mapped read-only.
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Read(data) => data,
            FileBytes::Mapped(map) => map,
        }
    }
}

/// A cache file read whole; [`Body::bytes`] is what follows its header.
pub(crate) struct Body {
    data: FileBytes,
    start: usize,
}

impl Body {
    /// The bytes after the header (the checksum left out).
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.data[self.start..self.data.len() - 4]
    }

    /// The whole file, where the body starts in it and where it ends (before the
    /// checksum): nothing is copied, so entries can keep ranges of it.
    pub(crate) fn into_parts(self) -> (FileBytes, std::ops::Range<usize>) {
        let end = self.data.len() - 4;
        (self.data, self.start..end)
    }

    /// The body as the value [`write`] stored, borrowing from the file.
    pub(crate) fn value<'a, T: Deserialize<'a>>(&'a self) -> Option<T> {
        decode(self.bytes())
    }
}

/// The 32 bytes of a SHA-256 written as 64 hexadecimal digits (an agent's token as the
/// agents file keeps it, declarations as the resident checker names them); `None` when
/// `hex` is not one.
pub(crate) fn digest_bytes(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(out)
}

/// The value `bytes` hold whole (nothing left over), borrowing from them; `None` when they
/// are not one.
pub(crate) fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Option<T> {
    match postcard::take_from_bytes(bytes) {
        Ok((value, [])) => Some(value),
        _ => None,
    }
}

/// `value` in the form [`decode`] reads.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Writing to memory fails only for a value serde cannot express (none of the caches').
    postcard::to_stdvec(value).unwrap_or_default()
}

/// Writes a byte run as one (`serialize_with`): serde would write a slice of bytes one
/// element at a time.
pub(crate) fn as_bytes<S: Serializer, B: AsRef<[u8]>>(
    bytes: &B,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes.as_ref())
}

/// The body of a cache file of `kind` and `schema`, when the file is whole and was
/// written by this engine; `None` otherwise.
pub(crate) fn read(path: &Path, kind: &[u8; 4], schema: u32) -> Option<Body> {
    // A world can ship any file here: a link, a FIFO, or one larger than a real cache is
    // not read.
    let Some(mut file) = open_plain(path, MAX_FILE_BYTES) else {
        tracing::debug!(
            "{}: missing, not a plain file or too large; rebuilt",
            path.display()
        );
        return None;
    };
    let len = file.metadata().ok()?.len();
    let data = if len > MAP_FROM_BYTES {
        // SAFETY: the engine never changes a cache file in place: a new one is written
        // under another name and renamed over it (see `write`), which leaves this mapping
        // on the old file. Only a process that truncated the file in place (no engine
        // does) could change the bytes under the map, as with the search index's own
        // mapped files in the same folder.
        FileBytes::Mapped(unsafe { memmap2::Mmap::map(&file) }.ok()?)
    } else {
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut data).ok()?;
        FileBytes::Read(data)
    };
    let Some(start) = checked(&data, kind, schema) else {
        tracing::debug!(
            "{}: not this engine's cache, or damaged; rebuilt",
            path.display()
        );
        return None;
    };
    Some(Body { data, start })
}

/// The header of every cache file: its kind, schema and the engine's version.
type Header<'a> = ([u8; 4], u32, &'a str);

/// Where the body starts when the header and checksum are right.
fn checked(data: &[u8], kind: &[u8; 4], schema: u32) -> Option<usize> {
    let (content, sum) = data.split_at_checked(data.len().checked_sub(4)?)?;
    if crc32fast::hash(content).to_le_bytes() != sum {
        return None;
    }
    let (header, body): (Header, &[u8]) = postcard::take_from_bytes(content).ok()?;
    (header == (*kind, schema, ENGINE_VERSION)).then(|| content.len() - body.len())
}

/// Writes `value` to `path` atomically, as a file of `kind` and `schema`, with its checksum.
pub(crate) fn write<T: Serialize + ?Sized>(
    path: &Path,
    kind: &[u8; 4],
    schema: u32,
    value: &T,
) -> std::io::Result<()> {
    replace_with(path, &framed(kind, schema, value)?, ".tmp-", 0o666, true)
}

/// Like [`write`], without waiting for the disk: for a small file whose loss (a crash
/// leaves it empty or cut short, and its checksum fails) costs only work done again,
/// where a sync would cost each writer milliseconds.
pub(crate) fn write_unsynced<T: Serialize + ?Sized>(
    path: &Path,
    kind: &[u8; 4],
    schema: u32,
    value: &T,
) -> std::io::Result<()> {
    replace_with(path, &framed(kind, schema, value)?, ".tmp-", 0o666, false)
}

/// `value` after the header, followed by the checksum of both.
fn framed<T: Serialize + ?Sized>(
    kind: &[u8; 4],
    schema: u32,
    value: &T,
) -> std::io::Result<Vec<u8>> {
    let header: Header = (*kind, schema, ENGINE_VERSION);
    let mut data = postcard::to_extend(&header, Vec::new())
        .and_then(|data| postcard::to_extend(value, data))
        .map_err(std::io::Error::other)?;
    let sum = crc32fast::hash(&data);
    data.extend_from_slice(&sum.to_le_bytes());
    Ok(data)
}

/// Replaces the file at `path` with `bytes` whole: a new file beside it, named `prefix`
/// and random letters, created with `mode` (less the umask; never opened through a link
/// planted under its name), synced and renamed over `path`. A reader sees the old file or
/// the new one; a failed write leaves nothing behind.
pub(crate) fn replace(path: &Path, bytes: &[u8], prefix: &str, mode: u32) -> std::io::Result<()> {
    replace_with(path, bytes, prefix, mode, true)
}

fn replace_with(
    path: &Path,
    bytes: &[u8],
    prefix: &str,
    mode: u32,
    sync: bool,
) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(prefix)
        .permissions(std::fs::Permissions::from_mode(mode))
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    if sync {
        temp.as_file().sync_data()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
#[path = "../../tests/unit/cache/mod.rs"]
mod tests;
