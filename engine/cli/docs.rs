//! `codemode docs --out DIR`: TOOL.md, SKILL.md and index.html for every tool.

use std::path::Path;
use std::process::ExitCode;

use super::globals::Globals;

/// Writes the docs and says where they are.
pub(crate) fn docs(cli: &Globals, out: &Path) -> anyhow::Result<ExitCode> {
    let registry = cli.unsearched_registry()?;
    let index = registry.snapshot();
    let title = registry
        .world()
        .file_name()
        .map_or_else(|| "world".to_string(), |n| n.to_string_lossy().to_string());
    let upstream = registry.upstream_views(&index);
    match crate::docs::write_docs(&index, &upstream, out, &title) {
        Ok(written) => {
            eprintln!(
                "wrote {} files ({} tools in {} toolboxes) to {}; open {}",
                written.files.len(),
                written.tools,
                written.toolboxes,
                out.display(),
                out.join("index.html").display()
            );
            if !written.removed.is_empty() {
                let n = written.removed.len();
                let pages = if n == 1 { "page" } else { "pages" };
                eprintln!("removed {n} {pages} of tools or toolboxes that are gone");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("codemode docs: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
