//! The mapping from Luau names to the lowercase-hyphen names of tools.json and skills.
//!
//! Tool identities are Luau identifiers (`text.wordCount`); tools.json wants
//! `text-word-count`. Each part is split at camelCase humps (`heck`'s word rules), underscores
//! and dots, then lowercased and joined with `-`. The mapping is not one-to-one (`word_count` and
//! `wordCount` meet), so every writer checks for collisions with `collisions`.

use std::collections::BTreeMap;

use heck::ToKebabCase;

/// `text.wordCount` -> `text-word-count`; `parseHTMLDoc` -> `parse-html-doc`.
pub(crate) fn kebab(identity: &str) -> String {
    identity.to_kebab_case()
}

/// True when `name` is lowercase and hyphen-separated (`^[a-z0-9]+(-[a-z0-9]+)*$`).
pub(crate) fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// Groups of identities that map to the same hyphen name (only groups of two or more).
pub(crate) fn collisions<'a>(
    identities: impl IntoIterator<Item = &'a str>,
) -> Vec<(String, Vec<String>)> {
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for id in identities {
        by_name.entry(kebab(id)).or_default().push(id.to_string());
    }
    by_name
        .into_iter()
        .filter(|(_, ids)| ids.len() > 1)
        .collect()
}

#[cfg(test)]
#[path = "../../tests/unit/interop/name.rs"]
mod tests;
