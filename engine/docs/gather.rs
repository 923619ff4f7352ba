//! Everything the rendered docs say about a toolbox and its tools, gathered once.

use std::sync::Arc;

use crate::assets::{AssetIndex, BoxKind, ToolEntry, ToolboxFolder};
use crate::interop::{entry_point, name::kebab, tags};

use super::scan::{scan, SourceFacts};

/// One tool, with what its folder and source show.
#[derive(Debug, Clone)]
pub(crate) struct ToolDoc {
    /// The indexed tool.
    pub(crate) entry: Arc<ToolEntry>,
    /// Folder name in the docs (`word-count`).
    pub(crate) slug: String,
    /// `init.luau` relative to its root (`text.toolbox/wordCount.tool/init.luau`).
    pub(crate) source_path: String,
    /// Calls, requires and raised errors found in the source.
    pub(crate) facts: SourceFacts,
    /// Tags (the tool's, then its toolbox's and the toolbox name).
    pub(crate) tags: Vec<String>,
}

/// One toolbox with its tools.
#[derive(Debug, Clone)]
pub(crate) struct BoxDoc {
    /// The toolbox name.
    pub(crate) name: String,
    /// Folder and skill name in the docs (`my-box`).
    pub(crate) slug: String,
    /// What it is for.
    pub(crate) purpose: String,
    /// Toolbox or workflow.
    pub(crate) kind: BoxKind,
    /// Its `<m>.module` names.
    pub(crate) modules: Vec<String>,
    /// Tags from its `.metadata`.
    pub(crate) tags: Vec<String>,
    /// Its tools, by name.
    pub(crate) tools: Vec<ToolDoc>,
}

/// Gathers every toolbox of the index; the error names clashing doc folder names.
pub(crate) fn gather(index: &AssetIndex) -> Result<Vec<BoxDoc>, String> {
    let mut boxes = Vec::new();
    for name in index.toolbox_names() {
        let folder: Option<&Arc<ToolboxFolder>> = index.toolbox(name);
        let tools: Vec<ToolDoc> = index.tools_in(name).map(|e| tool_doc(index, e)).collect();
        check_unique(
            tools
                .iter()
                .map(|t| (t.slug.as_str(), t.entry.identity.as_str())),
        )?;
        boxes.push(BoxDoc {
            name: name.to_string(),
            slug: kebab(name),
            purpose: folder.map(|f| f.purpose.clone()).unwrap_or_default(),
            kind: folder.map_or(BoxKind::Toolbox, |f| f.kind),
            modules: folder
                .map(|f| f.modules.iter().map(|m| m.name.clone()).collect())
                .unwrap_or_default(),
            tags: folder.map(|f| f.tags.clone()).unwrap_or_default(),
            tools,
        });
    }
    check_unique(boxes.iter().map(|b| (b.slug.as_str(), b.name.as_str())))?;
    Ok(boxes)
}

fn tool_doc(index: &AssetIndex, entry: &Arc<ToolEntry>) -> ToolDoc {
    let source_path = entry_point(entry);
    let source = index
        .roots
        .get(entry.folder.0)
        .and_then(|root| root.read(&source_path).ok())
        .unwrap_or_default();
    ToolDoc {
        entry: entry.clone(),
        slug: kebab(&entry.meta().name),
        source_path,
        facts: scan(&source),
        tags: tags(index, entry),
    }
}

pub(super) fn check_unique<'a>(
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<(), String> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (slug, name) in pairs {
        if let Some((_, other)) = seen.iter().find(|(s, _)| *s == slug) {
            return Err(format!(
                "{other} and {name} would both be written to the folder '{slug}'; rename one"
            ));
        }
        seen.push((slug, name));
    }
    Ok(())
}

/// The first sentence of a description, without its final period.
pub(crate) fn first_sentence(description: &str) -> &str {
    crate::assets::first_sentence(description).trim_end_matches('.')
}
