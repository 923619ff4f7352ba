//! Reading one `<box>.toolbox/` folder (not its tools) into a [`ToolboxFolder`].

use std::sync::Arc;

use super::metadata::{readme_purpose, Metadata};
use super::model::{BoxKind, Module, ToolboxFolder};
use super::names::check_toolbox_name;
use super::root::{BoxFiles, Root};

/// Reads a toolbox folder's README, `.metadata` and modules, those of them `files` says
/// are there. Never fails.
pub(crate) fn load_folder(
    root_index: usize,
    root: &Root,
    rel: &str,
    files: &BoxFiles,
) -> ToolboxFolder {
    let dir_name = rel.rsplit('/').next().unwrap_or(rel);
    let name = dir_name.trim_end_matches(".toolbox").to_string();
    let mut warnings = Vec::new();
    if let Err(e) = check_toolbox_name(&name) {
        warnings.push(format!("{rel}: {e}; rename the folder {rel}"));
    }
    let metadata = match files
        .metadata
        .then(|| root.read(&format!("{rel}/.metadata")))
    {
        Some(Ok(text)) => Metadata::parse(&text, &format!("{rel}/.metadata")).unwrap_or_else(|e| {
            warnings.push(e);
            Metadata::default()
        }),
        _ => Metadata::default(),
    };
    let purpose = files
        .readme
        .then(|| root.read(&format!("{rel}/README.md")).ok())
        .flatten()
        .as_deref()
        .and_then(readme_purpose)
        .or(metadata.description.clone())
        .unwrap_or_default();
    let modules = files
        .modules
        .iter()
        .map(|dir| {
            let module = dir.trim_end_matches(".module").to_string();
            let path = format!("{rel}/{dir}/init.luau");
            let source = root
                .read(&path)
                .map(Arc::from)
                .map_err(|e| format!("{path} cannot be read: {e}"));
            if let Err(e) = &source {
                warnings.push(e.clone());
            }
            Module::new(module, path, source)
        })
        .collect();
    ToolboxFolder {
        name,
        root: root_index,
        path: rel.to_string(),
        origin: root.origin,
        purpose,
        tags: metadata.tags,
        kind: if metadata.kind.as_deref() == Some("workflow") {
            BoxKind::Workflow
        } else {
            BoxKind::Toolbox
        },
        modules,
        warnings,
    }
}
