//! `codemode types [--out FILE]`: the `.d.luau` definitions for luau-lsp.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use super::globals::Globals;

/// Writes the definitions to `out`, or stdout.
pub(crate) fn types(cli: &Globals, out: Option<&Path>) -> anyhow::Result<ExitCode> {
    let registry = cli.unsearched_registry()?;
    let index = registry.snapshot();
    let text = crate::host::definitions_granted(
        &index,
        &registry.upstream_views(&index),
        &registry.capabilities(),
    );
    write_to(out, &text)?;
    if let Some(path) = out {
        eprintln!(
            "wrote {}; point luau-lsp at it with --definitions=@codemode={}",
            path.display(),
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `text` to `path` (creating its folder), or to stdout when there is no path.
pub(crate) fn write_to(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match path {
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .context("cannot write to stdout"),
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create folder {}", dir.display()))?;
            }
            std::fs::write(path, text).with_context(|| {
                format!(
                    "cannot write {}; check the path and permissions",
                    path.display()
                )
            })
        }
    }
}
