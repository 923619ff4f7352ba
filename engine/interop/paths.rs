//! Relative paths between directories, for `location` fields.

use std::path::{Component, Path, PathBuf};

/// The path of `target` seen from directory `base`, with `/` separators (`../lib/x.luau`).
/// Both paths should be absolute and canonical; a path on another prefix (drive) stays absolute.
pub(crate) fn relative(base: &Path, target: &Path) -> String {
    let base: Vec<Component> = base.components().collect();
    let target_parts: Vec<Component> = target.components().collect();
    if base.first() != target_parts.first() {
        return target.display().to_string();
    }
    let common = base
        .iter()
        .zip(&target_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in common..base.len() {
        out.push("..");
    }
    for part in &target_parts[common..] {
        out.push(part.as_os_str());
    }
    let text = out.to_string_lossy().replace('\\', "/");
    if text.is_empty() {
        ".".to_string()
    } else {
        text
    }
}

#[cfg(test)]
#[path = "../../tests/unit/interop/paths.rs"]
mod tests;
