//! Rendered docs: a TOOL.md per tool, a SKILL.md per toolbox and a searchable `index.html`.
//!
//! Layout under the output folder (names lowercase-hyphenated as in tools.json):
//!
//! ```text
//! index.html                 every tool on one page, with live search
//! <toolbox>/SKILL.md         what an agent's skill loader picks up
//! <toolbox>/<tool>/TOOL.md   the contract of one tool
//! ```

mod gather;
mod html;
mod scan;
mod skill_md;
mod tool_md;

use std::path::{Path, PathBuf};

use crate::assets::AssetIndex;

pub use html::escape;
pub use scan::{scan, SourceFacts};

/// Why the docs could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DocsError {
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
pub struct Written {
    /// Every file written, in order.
    pub files: Vec<PathBuf>,
    /// How many tools are documented.
    pub tools: usize,
    /// How many toolboxes.
    pub toolboxes: usize,
}

/// Writes the docs of every toolbox and tool of `index` into `out`; `title` heads the page.
pub fn write_docs(index: &AssetIndex, out: &Path, title: &str) -> Result<Written, DocsError> {
    let boxes = gather::gather(index).map_err(DocsError::Clash)?;
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
    write(
        &mut written,
        &out.join("index.html"),
        &html::render(title, &boxes),
    )?;
    Ok(written)
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
