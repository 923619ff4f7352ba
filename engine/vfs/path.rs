//! Checking a world-relative path: its names, and the hidden ones among them. Turning it
//! into a place on disk is [`super::walk`]'s job.

use super::error::VfsError;

/// Longest path accepted, in bytes.
pub(crate) const MAX_PATH_BYTES: usize = 1024;

/// Most names a path may have.
pub(crate) const MAX_COMPONENTS: usize = 32;

/// The names of a relative path, checked: no `..`, no absolute path, no NUL, no backslash.
/// `""` and `"."` name the world itself (an empty list).
pub(crate) fn components(path: &str) -> Result<Vec<&str>, VfsError> {
    let refuse = |why: &str| VfsError::BadPath {
        path: shorten(path),
        why: why.to_string(),
    };
    if path.len() > MAX_PATH_BYTES {
        return Err(refuse(&format!("it is longer than {MAX_PATH_BYTES} bytes")));
    }
    if path.contains('\0') {
        return Err(refuse("it contains a NUL byte"));
    }
    if path.contains('\\') {
        return Err(refuse("it contains a backslash"));
    }
    if path.starts_with('/') || path.as_bytes().get(1) == Some(&b':') {
        return Err(refuse("it is absolute"));
    }
    let names: Vec<&str> = path
        .split('/')
        .filter(|n| !n.is_empty() && *n != ".")
        .collect();
    if names.contains(&"..") {
        return Err(refuse("it contains '..'"));
    }
    if names.len() > MAX_COMPONENTS {
        return Err(refuse(&format!("it has more than {MAX_COMPONENTS} names")));
    }
    Ok(names)
}

/// Refuses a path with a hidden name in it (`.git/config`, `.env`): in a world that is
/// also a project folder, writing there could make git or an editor run commands, and
/// reading there could leak secrets. The engine's own hidden files are the exceptions:
/// the `.metadata` of a tool or toolbox, and the world's `.luaurc` (lint settings).
pub(crate) fn refuse_hidden(path: &str) -> Result<(), VfsError> {
    if engine_file(path) {
        return Ok(());
    }
    let hidden = path
        .split('/')
        .find(|n| n.starts_with('.') && *n != "." && *n != "..");
    match hidden {
        Some(name) => Err(VfsError::Hidden {
            path: shorten(path),
            name: shorten(name),
        }),
        None => Ok(()),
    }
}

/// True for the hidden files the engine itself reads: `<x>.tool/.metadata`,
/// `<x>.toolbox/.metadata` and the world's `.luaurc`.
pub(crate) fn engine_file(path: &str) -> bool {
    let names: Vec<&str> = path
        .split('/')
        .filter(|n| !n.is_empty() && *n != ".")
        .collect();
    match names.as_slice() {
        [".luaurc"] => true,
        [folders @ .., parent, ".metadata"] => {
            (parent.ends_with(".tool") || parent.ends_with(".toolbox"))
                && !folders.iter().chain([parent]).any(|n| n.starts_with('.'))
        }
        _ => false,
    }
}

/// Checks one folder or file name (no separators, no `..`).
pub(crate) fn check_entry_name(name: &str) -> Result<(), VfsError> {
    let names = components(name)?;
    if names.len() != 1 || names[0] != name {
        return Err(VfsError::BadPath {
            path: shorten(name),
            why: "a name may not contain '/' or be '.' or empty".into(),
        });
    }
    Ok(())
}

/// Checks a path a write may create files and folders along: it names a file (no
/// trailing `/`, which would be dropped and the folder meant made a file), and no name in
/// it holds a control character (a newline or an escape in a name breaks listings,
/// terminals and every tool that reads names a line at a time).
pub(crate) fn check_new_path(path: &str) -> Result<(), VfsError> {
    let refuse = |why: String| VfsError::BadPath {
        path: shorten(path),
        why,
    };
    if path.ends_with('/') {
        return Err(refuse(
            "it ends with '/', which names a folder: give the file's name after it (such as 'notes/today.txt'); a write makes the folders on the way".into(),
        ));
    }
    if let Some(c) = path.chars().find(|c| c.is_control()) {
        return Err(refuse(format!(
            "it holds the control character {c:?}: a name with one breaks listings and line-based tools; use letters, digits, spaces, '-', '_' and '.'"
        )));
    }
    Ok(())
}

/// The path cut to a length fit for a message.
pub(crate) fn shorten(path: &str) -> String {
    let clean: String = path
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    match clean.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &clean[..at]),
        None => clean,
    }
}

#[cfg(test)]
#[path = "../../tests/unit/vfs/path.rs"]
mod tests;
