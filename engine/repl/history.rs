//! Where the REPL keeps its history: `$CODEMODE_HISTORY`, else the user's data directory.

use std::path::PathBuf;

/// The history file path, when one can be named.
pub(crate) fn history_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CODEMODE_HISTORY").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    data_dir().map(|d| d.join("codemode").join("history"))
}

fn data_dir() -> Option<PathBuf> {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if cfg!(windows) {
        return env("APPDATA");
    }
    if cfg!(target_os = "macos") {
        return env("HOME").map(|h| h.join("Library/Application Support"));
    }
    env("XDG_DATA_HOME").or_else(|| env("HOME").map(|h| h.join(".local/share")))
}
