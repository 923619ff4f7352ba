//! Upstream names as Luau identifiers. Server names become toolbox names and tool names
//! become member names (`tools.my_server.read_file`), so both must be identifiers of at
//! most 64 characters that are not keywords; the original is kept for the wire.

use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

use crate::assets::names::{is_plain_name, KEYWORDS, MAX_NAME_LEN};

/// True if `name` is usable as is: `^[A-Za-z_][A-Za-z0-9_]*$`, at most 64 bytes, not a
/// Luau keyword.
pub(crate) fn is_identifier(name: &str) -> bool {
    is_plain_name(name) && name.len() <= MAX_NAME_LEN
}

/// The identifier an upstream name is known by: every other character becomes `_`
/// (`my-server` → `my_server`, `files.read` → `files_read`), a leading digit gets a `_`
/// before it, a keyword gets one after it (`end` → `end_`). A name still too long keeps
/// its first 55 characters and a hash of the whole, so two long names stay apart.
pub(crate) fn luau_name(name: &str) -> String {
    if is_identifier(name) {
        return name.to_string();
    }
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    if out.len() > MAX_NAME_LEN {
        let digest = Sha256::digest(name.as_bytes());
        let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
        out.truncate(MAX_NAME_LEN - 9);
        out.push('_');
        out.push_str(&hash);
    }
    out
}

/// Hands out identifiers for a list of upstream names, in order. A name that already is
/// an identifier always gets itself; a mapped name that is taken gets `_2`, `_3`, ...
/// and the collision is reported.
#[derive(Default)]
pub(crate) struct NameMap {
    taken: BTreeSet<String>,
}

impl NameMap {
    /// Reserves every name that is already an identifier, so mapped names never take one.
    pub(crate) fn new<'a>(originals: impl IntoIterator<Item = &'a str>) -> Self {
        let mut taken = BTreeSet::new();
        for name in originals {
            if is_identifier(name) {
                taken.insert(name.to_string());
            }
        }
        Self { taken }
    }

    /// The identifier for `original`, and a note when it collided with another name.
    pub(crate) fn assign(&mut self, original: &str) -> (String, Option<String>) {
        if is_identifier(original) {
            return (original.to_string(), None);
        }
        let mapped = luau_name(original);
        if self.taken.insert(mapped.clone()) {
            return (mapped, None);
        }
        let mut n = 2;
        loop {
            let suffix = format!("_{n}");
            let mut candidate = mapped.clone();
            candidate.truncate(MAX_NAME_LEN - suffix.len());
            candidate.push_str(&suffix);
            if self.taken.insert(candidate.clone()) {
                let note = format!(
                    "'{original}' maps to '{mapped}', which another tool already has; it is '{candidate}' instead"
                );
                return (candidate, Some(note));
            }
            n += 1;
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/names.rs"]
mod tests;
