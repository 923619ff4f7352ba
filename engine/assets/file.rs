//! Reading the text files a world's toolboxes hold (`README.md`, `.metadata`, Luau
//! sources): regular files only, and never more than a cap, so a FIFO cannot block a
//! listing and a file of gigabytes cannot exhaust memory. Anyone who can write a world
//! can put either there.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

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

/// Reads the text file at `path` (named `name` in its folder) whole when it is a regular
/// file within its cap. Errors: `InvalidInput` for a FIFO, device or socket (opened
/// without blocking, never read); `FileTooLarge` over the cap (at most cap + 1 bytes are
/// read, so a file growing meanwhile is caught too); `InvalidData` for text not UTF-8.
/// Their messages read after "<path> cannot be read: " or, for `FileTooLarge`, "<path> ".
pub(crate) fn read_text(path: &Path, name: &str) -> io::Result<String> {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
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
