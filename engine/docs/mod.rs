//! Rendered docs: a TOOL.md per tool, a SKILL.md per toolbox and a searchable `index.html`.
//!
//! Layout under the output folder (names lowercase-hyphenated as in tools.json):
//!
//! ```text
//! index.html                 every tool on one page, with live search
//! <toolbox>/SKILL.md         what an agent's skill loader picks up
//! <toolbox>/<tool>/TOOL.md   the contract of one tool
//! .codemode-docs             the files the last run wrote, one per line
//! ```
//!
//! A later run into the same folder removes the pages of tools and toolboxes that are
//! gone (only files the list names: nothing else in the folder is touched).

mod escape;
mod gather;
mod html;
mod scan;
mod skill_md;
mod tool_md;
mod upstream;

use std::path::{Path, PathBuf};

use crate::assets::AssetIndex;
use crate::upstream::ServerView;

/// Why the docs could not be written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DocsError {
    /// Two toolboxes or tools map to the same folder name.
    #[error("{0}")]
    Clash(String),
    /// A file or folder could not be written.
    #[error("cannot write {path}: {source}; check the --out folder and its permissions")]
    Write {
        /// The path that failed.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What was written.
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// Every file written, in order.
    pub files: Vec<PathBuf>,
    /// How many tools are documented.
    pub tools: usize,
    /// How many toolboxes.
    pub toolboxes: usize,
    /// Pages of an earlier run whose tool or toolbox is gone, removed.
    pub removed: Vec<PathBuf>,
}

/// The list of files the last run wrote, inside the output folder.
const MANIFEST: &str = ".codemode-docs";

/// Writes the docs of every toolbox and tool of `index`, and of the `upstream` servers'
/// cached tools, into `out`; `title` heads the page.
pub(crate) fn write_docs(
    index: &AssetIndex,
    upstream: &[ServerView],
    out: &Path,
    title: &str,
) -> Result<Written, DocsError> {
    let boxes = gather::gather(index).map_err(DocsError::Clash)?;
    let servers = upstream::gather(upstream, boxes.iter().map(|b| b.slug.clone()));
    let mut written = Written::default();
    for b in &boxes {
        write(
            &mut written,
            &out.join(&b.slug).join("SKILL.md"),
            &skill_md::render(b),
        )?;
        for t in &b.tools {
            write(
                &mut written,
                &out.join(&b.slug).join(&t.slug).join("TOOL.md"),
                &tool_md::render(t, b),
            )?;
        }
        written.toolboxes += 1;
        written.tools += b.tools.len();
    }
    for s in &servers {
        write(
            &mut written,
            &out.join(&s.slug).join("SKILL.md"),
            &upstream::skill_md(s),
        )?;
        for (tool, slug, types) in &s.tools {
            write(
                &mut written,
                &out.join(&s.slug).join(slug).join("TOOL.md"),
                &upstream::tool_md(s, tool, types),
            )?;
        }
        written.toolboxes += 1;
        written.tools += s.tools.len();
    }
    write(
        &mut written,
        &out.join("index.html"),
        &html::render(title, &boxes, &servers),
    )?;
    remove_stale(out, &mut written);
    let listed: Vec<String> = written
        .files
        .iter()
        .filter_map(|f| f.strip_prefix(out).ok())
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let manifest = out.join(MANIFEST);
    std::fs::write(&manifest, listed.join("\n") + "\n").map_err(|source| DocsError::Write {
        path: manifest,
        source,
    })?;
    Ok(written)
}

/// Removes the files the last run listed and this one did not write, and the folders
/// that leaves empty. A list entry that leads out of `out` is ignored.
fn remove_stale(out: &Path, written: &mut Written) {
    let Ok(old) = std::fs::read_to_string(out.join(MANIFEST)) else {
        return;
    };
    for line in old.lines().filter(|l| !l.is_empty()) {
        let rel = Path::new(line);
        let safe = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        let path = out.join(rel);
        if !safe || written.files.contains(&path) || std::fs::remove_file(&path).is_err() {
            continue;
        }
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| *d != out && d.starts_with(out)) {
            if std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
        written.removed.push(path);
    }
}

fn write(written: &mut Written, path: &Path, text: &str) -> Result<(), DocsError> {
    let fail = |source| DocsError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    std::fs::write(path, text).map_err(fail)?;
    written.files.push(path.to_path_buf());
    Ok(())
}
