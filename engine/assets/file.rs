//! Reading the text files a world's toolboxes hold (`README.md`, `.metadata`, Luau
//! sources): regular files only, and never more than a cap, so a FIFO cannot block a
//! listing and a file of gigabytes cannot exhaust memory. Anyone who can write a world
//! can put either there.
//!
//! A file is opened first and then asked where it is ([`open_within`]): what a tool reads
//! as its README is shown to every script, so it must not be a file out of the root or in
//! a hidden folder of it (`.codemode/` holds the credentials). A check of the path before
//! opening would leave a window in which a folder on the way is swapped for a symlink;
//! the kernel's answer for the open file has none.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::compile::{too_large, MAX_SOURCE_BYTES};

/// The longest `README.md` the index reads (a toolbox's or a tool's): its first line is
/// the purpose listings show, the rest (up to 20,000 characters) is searched.
pub(crate) const MAX_README_BYTES: usize = 128 * 1024;
/// The longest `.metadata` the index reads: a description, tags and a few settings.
pub(crate) const MAX_METADATA_BYTES: usize = 64 * 1024;

/// The most the index reads of a file named `name`.
fn cap(name: &str) -> usize {
    match name {
        "README.md" => MAX_README_BYTES,
        ".metadata" => MAX_METADATA_BYTES,
        _ => MAX_SOURCE_BYTES,
    }
}

/// Why a file over its cap is not read (after "<path> "): "is N KiB; ...".
fn over(name: &str, bytes: u64) -> String {
    let kib = bytes.div_ceil(1024);
    match name {
        "README.md" | ".metadata" => format!(
            "is {kib} KiB; a {name} may be at most {} KiB: shorten it",
            cap(name) >> 10
        ),
        // `too_large` says "is N KiB; ..." itself.
        _ => too_large(usize::try_from(bytes).unwrap_or(usize::MAX)),
    }
}

/// Reads the text file `rel` below the disk root `root` (named `name` in its folder) whole
/// when it is a regular file within its cap, and lies where [`open_within`] allows.
/// Errors: `PermissionDenied` for a file [`open_within`] refuses; `InvalidInput` for a
/// FIFO, device or socket (opened without blocking, never read); `FileTooLarge` over the
/// cap (at most cap + 1 bytes are read, so a file growing meanwhile is caught too);
/// `InvalidData` for text not UTF-8. Their messages read after "<path> cannot be read: "
/// or, for `FileTooLarge`, "<path> ".
pub(crate) fn read_text(root: &Path, rel: &str, name: &str) -> io::Result<String> {
    let file = open_within(root, rel)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a regular file (a FIFO, device or socket); the engine reads regular files only: replace it with one",
        ));
    }
    let cap = cap(name);
    if meta.len() > cap as u64 {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            over(name, meta.len()),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > cap {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            over(name, bytes.len() as u64),
        ));
    }
    let mut text = String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "it is not UTF-8 text; save it as UTF-8",
        )
    })?;
    // Some editors on Windows start UTF-8 files with a byte-order mark, which Luau and the
    // docstrings would read as a stray character.
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

/// The byte-order mark some editors put before UTF-8 text.
pub(crate) const BOM: char = '\u{feff}';

/// How a read error of the file at `path` reads to the author.
pub(crate) fn unreadable(path: &str, e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::FileTooLarge => format!("{path} {e}"),
        _ => format!("{path} cannot be read: {e}"),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/assets/file.rs"]
mod tests;

/// Opens `rel` below the disk root `root` (canonical) for reading, following symlinks, and
/// refuses the file opened unless it lies below `root` with no hidden folder on the way
/// and a name that is not hidden (but `.metadata`). Errors are `PermissionDenied`, their
/// messages read after "<path> cannot be read: ".
pub(crate) fn open_within(root: &Path, rel: &str) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(root.join(rel))?;
    let real = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).map_err(|e| {
        refused(format!(
            "where it leads cannot be told ({e}: is /proc mounted?), so it is not read"
        ))
    })?;
    match place(root, &real) {
        None => Ok(file),
        Some(why) => Err(refused(why)),
    }
}

/// Why the real path `real` of a file opened below `root` is not one to read, or `None`.
fn place(root: &Path, real: &Path) -> Option<String> {
    let Ok(below) = real.strip_prefix(root) else {
        return Some(format!(
            "it leads out of {} (to {}); tools must live inside it",
            root.display(),
            real.display()
        ));
    };
    let names: Vec<String> = below
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let (file, folders) = names.split_last()?;
    let hidden = folders
        .iter()
        .find(|n| n.starts_with('.'))
        .or((file.starts_with('.') && file != ".metadata").then_some(file));
    hidden.map(|name| {
        format!(
            "it leads into {} ({name} is hidden, as the engine's settings and credentials are); \
             keep what a tool reads outside hidden folders",
            PathBuf::from(root).join(below).display()
        )
    })
}

fn refused(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, why)
}
