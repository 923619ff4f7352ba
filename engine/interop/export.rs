//! `codemode registry export`: the world's tools as a tools.json document.

use std::path::Path;

use crate::assets::{AssetIndex, ToolEntry};

use super::date::today;
use super::model::{ToolsJson, ToolsJsonEntry, ToolsJsonMeta, SCHEMA_VERSION};
use super::name::{collisions, kebab};
use super::paths::relative;
use super::InteropError;

/// The document and the tools left out of it, with why.
#[derive(Debug)]
pub(crate) struct Exported {
    /// The tools.json document.
    pub document: ToolsJson,
    /// One line per tool that was not exported (bundled, or broken while `ready`).
    pub skipped: Vec<String>,
}

/// Builds the tools.json of `index` for a file in directory `base` (absolute, canonical).
///
/// Exported: every tool found in a directory on disk (the world and `--library` folders);
/// bundled tools have no file to point at and are skipped, and so is a tool marked `ready`
/// that does not load (a tools.json reader would try to run it).
pub(crate) fn export(index: &AssetIndex, base: &Path) -> Result<Exported, InteropError> {
    let mut tools = Vec::new();
    let mut identities = Vec::new();
    let mut skipped = Vec::new();
    for entry in index.tools.values() {
        let Some(root_dir) = index.roots.get(entry.folder.0).and_then(|r| r.dir()) else {
            skipped.push(format!(
                "{}: bundled in the binary, no file to point at",
                entry.identity
            ));
            continue;
        };
        if entry.meta().status == "ready" && !entry.is_registered() {
            skipped.push(format!(
                "{}: does not load ({}); run `codemode check`",
                entry.identity,
                entry.reason().unwrap_or("unknown reason")
            ));
            continue;
        }
        let location = relative(base, &root_dir.join(entry_point(entry)));
        tools.push(entry_for(index, entry, location));
        identities.push(entry.identity.as_str());
    }
    let clashes = collisions(identities);
    if !clashes.is_empty() {
        return Err(InteropError::NameClash(
            clashes
                .iter()
                .map(|(name, ids)| format!("{name} <- {}", ids.join(", ")))
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    let world = index.roots.first().and_then(|r| r.dir());
    let meta = world.map(|dir| ToolsJsonMeta {
        repo: relative(base, dir),
        created: today(),
        purpose: world_purpose(index, dir),
    });
    Ok(Exported {
        document: ToolsJson {
            version: SCHEMA_VERSION.to_string(),
            tools,
            meta,
        },
        skipped,
    })
}

/// The tool's `init.luau`, relative to its root.
pub(crate) fn entry_point(entry: &ToolEntry) -> String {
    format!("{}/{}.tool/init.luau", entry.folder.1, entry.meta().name)
}

fn entry_for(index: &AssetIndex, entry: &ToolEntry, location: String) -> ToolsJsonEntry {
    let extras = Extras::read(index, entry);
    ToolsJsonEntry {
        name: kebab(&entry.identity),
        description: description(entry),
        location,
        status: entry.meta().status.clone(),
        capabilities: extras
            .capabilities
            .unwrap_or_else(|| vec![kebab(&entry.meta().name)]),
        languages: extras.languages,
        tags: tags(index, entry),
    }
}

/// What a tool says about itself, or the call it offers when it says nothing.
pub(crate) fn description(entry: &ToolEntry) -> String {
    let meta = &entry.meta();
    if !meta.description.trim().is_empty() {
        return meta.description.trim().to_string();
    }
    let sig = meta
        .signature
        .clone()
        .unwrap_or_else(|| format!("{}(...)", meta.name));
    format!(
        "Luau tool tools.{}.{sig} (no description yet: add --!desc lines to its init.luau).",
        meta.toolbox
    )
}

/// The tool's tags, then its toolbox's tags and name: lowercase, spaces and `_` as `-`.
pub(crate) fn tags(index: &AssetIndex, entry: &ToolEntry) -> Vec<String> {
    let folder_tags = index
        .folder(&entry.folder)
        .map(|f| f.tags.clone())
        .unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    let all = entry
        .meta()
        .tags
        .iter()
        .chain(folder_tags.iter())
        .cloned()
        .chain([kebab(&entry.meta().toolbox)]);
    for tag in all {
        let tag = tag
            .trim()
            .to_lowercase()
            .split(|c: char| c.is_whitespace() || c == '_')
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        if !tag.is_empty() && !out.contains(&tag) {
            out.push(tag);
        }
    }
    out
}

/// Optional `capabilities` and `languages` arrays of a tool's `.metadata`.
#[derive(Debug, Default)]
pub(crate) struct Extras {
    /// Declared capabilities, when the author listed some.
    pub(crate) capabilities: Option<Vec<String>>,
    /// Declared ISO 639-1 languages.
    pub(crate) languages: Vec<String>,
}

impl Extras {
    /// Reads the fields from the tool's `.metadata`; missing or malformed means none.
    pub(crate) fn read(index: &AssetIndex, entry: &ToolEntry) -> Extras {
        let rel = format!("{}/{}.tool/.metadata", entry.folder.1, entry.meta().name);
        let Some(value) = index
            .roots
            .get(entry.folder.0)
            .and_then(|root| root.read(&rel).ok())
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        else {
            return Extras::default();
        };
        let strings = |key: &str| -> Vec<String> {
            value
                .get(key)
                .and_then(|v| v.as_array())
                .map(|items| {
                    items
                        .iter()
                        .filter_map(|i| i.as_str())
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty())
                        .collect()
                })
                .unwrap_or_default()
        };
        let capabilities = strings("capabilities");
        Extras {
            capabilities: (!capabilities.is_empty()).then_some(capabilities),
            languages: strings("languages")
                .into_iter()
                .map(|l| l.to_lowercase())
                .collect(),
        }
    }
}

fn world_purpose(index: &AssetIndex, dir: &Path) -> String {
    let readme = index
        .roots
        .first()
        .and_then(|r| r.read("README.md").ok())
        .as_deref()
        .and_then(crate::assets::readme_purpose);
    readme.unwrap_or_else(|| {
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().to_string());
        format!(
            "Tools of the codemode world '{name}': each is a Luau function, called from a script as tools.<toolbox>.<tool>(...) or from a shell as codemode call <toolbox>.<tool>."
        )
    })
}
