//! What the virtual filesystem refuses, and why, in words that say what to do.

use std::io;

/// A refused or failed filesystem operation. Each message names the path and the fix.
#[derive(Debug, thiserror::Error)]
pub(crate) enum VfsError {
    /// The path is not a plain relative path (absolute, `..`, NUL, backslash, too long).
    #[error("path '{path}' is refused: {why}; use a path relative to the world with / between names, e.g. 'text.toolbox/README.md'")]
    BadPath {
        /// The path as given (cut to a readable length).
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// The path leads out of the world (through a symlink).
    #[error("path '{path}' leads out of the world (through a symlink); the engine reads and writes only inside the world")]
    OutsideWorld {
        /// The path as given.
        path: String,
    },
    /// The path names a hidden file or folder (`.git`, `.env`, `.cursor`).
    #[error("path '{path}' is refused: '{name}' is hidden; scripts never read or write hidden files or folders (version control, editor and agent settings, secrets live there; the operator, not a script, edits .codemode/: its policy, and the MCP servers in mcp.json). Keep data in plain folders, e.g. 'data/notes.txt'")]
    Hidden {
        /// The path as given.
        path: String,
        /// The hidden name in it.
        name: String,
    },
    /// The path is inside a read-only library folder.
    #[error("'{path}' is in a library folder, which is read-only; copy the toolbox into the world with tools.install('<box>') and edit the copy")]
    ReadOnly {
        /// The path as given.
        path: String,
    },
    /// Nothing exists at the path.
    #[error("'{path}' does not exist; vfs.list('{parent}') shows what is there")]
    NotFound {
        /// The path as given.
        path: String,
        /// Its parent, for the hint.
        parent: String,
    },
    /// Something already exists where a new folder was to be published.
    #[error("'{path}' already exists; nothing was overwritten (pick another name, or delete the old one first)")]
    Exists {
        /// The path as given.
        path: String,
    },
    /// The operation would take too long or too much memory for one host call.
    #[error("'{path}': {what} is over the limit of {limit}; {hint}")]
    TooLarge {
        /// The path as given.
        path: String,
        /// What was too large.
        what: String,
        /// The limit, with its unit.
        limit: String,
        /// What to do instead.
        hint: String,
    },
    /// The kind of entry is wrong for the operation (a file where a folder was needed, ...).
    #[error("'{path}' {why}")]
    WrongKind {
        /// The path as given.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The operating system refused.
    #[error("'{path}': {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The error from the operating system.
        source: io::Error,
    },
}

impl VfsError {
    /// Wraps an I/O error, turning "not found" into [`VfsError::NotFound`].
    pub(crate) fn io(path: &str, source: io::Error) -> VfsError {
        if source.kind() == io::ErrorKind::NotFound {
            let parent = path.rsplit_once('/').map_or("", |(p, _)| p).to_string();
            return VfsError::NotFound {
                path: path.to_string(),
                parent,
            };
        }
        VfsError::Io {
            path: path.to_string(),
            source,
        }
    }
}
