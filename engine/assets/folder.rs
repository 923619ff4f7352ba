//! Reading one `<box>.toolbox/` folder (not its tools) into a [`ToolboxFolder`].

use std::sync::Arc;

use super::file::unreadable;
use super::metadata::{cut_to_cap, readme_purpose, Metadata, MAX_DESCRIPTION_CHARS};
use super::model::{BoxKind, Module, ToolboxFolder};
use super::names::check_toolbox_name;
use super::root::{link_problem, BoxFiles, Root};

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
    warnings.extend(files.unlisted.clone());
    for link in &files.links {
        warnings.push(link_problem(&format!("{rel}/{link}")));
    }
    // A file listed but gone by now (removed meanwhile) is as if it was never there.
    let mut read = |there: bool, file: &str| {
        let path = format!("{rel}/{file}");
        match there.then(|| root.read(&path))? {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                warnings.push(unreadable(&path, &e));
                None
            }
        }
    };
    let metadata_text = read(files.metadata, ".metadata");
    let readme = read(files.readme, "README.md");
    let metadata = match metadata_text {
        Some(text) => Metadata::parse(&text, &format!("{rel}/.metadata")).unwrap_or_else(|e| {
            warnings.push(e);
            Metadata::default()
        }),
        None => Metadata::default(),
    };
    let (purpose, from) = match readme.as_deref().and_then(readme_purpose) {
        Some(line) => (line, "README.md"),
        None => (
            metadata.description.clone().unwrap_or_default(),
            ".metadata",
        ),
    };
    let purpose = match cut_to_cap(&purpose) {
        Some(cut) => {
            warnings.push(format!(
                "{rel}/{from}: the description is {} characters; listings show the first {MAX_DESCRIPTION_CHARS}: make it a sentence or two",
                purpose.chars().count()
            ));
            cut
        }
        None => purpose,
    };
    let purpose = super::docstring::printable(&purpose).into_owned();
    let modules = files
        .modules
        .iter()
        .map(|dir| {
            let module = dir.trim_end_matches(".module").to_string();
            let path = format!("{rel}/{dir}/init.luau");
            let source = root
                .read(&path)
                .map(Arc::from)
                .map_err(|e| unreadable(&path, &e));
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
        unlisted: files.unlisted.clone(),
    }
}
