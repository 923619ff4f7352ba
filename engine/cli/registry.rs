//! `codemode registry export|check`: tools.json interop.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::interop;
use anyhow::Context;
use clap::Subcommand;

use super::globals::Globals;

/// What `codemode registry` does.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum RegistryCommand {
    /// Write the world's tools as a tools.json (stdout unless --out); locations are
    /// relative to the file's folder (to the current directory on stdout)
    Export {
        /// Where to write the file
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Validate a tools.json: print every failing entry and why; exit 1 if any
    Check {
        /// The tools.json to check (locations resolve against its folder)
        file: PathBuf,
    },
}

/// Runs one `registry` subcommand.
pub(crate) fn registry(cli: &Globals, command: &RegistryCommand) -> anyhow::Result<ExitCode> {
    match command {
        RegistryCommand::Export { out } => export(cli, out.as_deref()),
        RegistryCommand::Check { file } => check(file),
    }
}

fn export(cli: &Globals, out: Option<&Path>) -> anyhow::Result<ExitCode> {
    let registry = cli.unsearched_registry()?;
    let index = registry.snapshot();
    let base = match out {
        Some(path) => {
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create folder {}", dir.display()))?;
            dir.canonicalize()
                .with_context(|| format!("cannot open folder {}", dir.display()))?
        }
        None => {
            std::env::current_dir().context("cannot read the current directory; use --out FILE")?
        }
    };
    let exported = match interop::export(&index, &base) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("codemode registry export: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    // An entry points at a tool's file; an MCP server's tools have none.
    for view in registry.upstream_views(&index) {
        if view.catalogue.is_none() {
            eprintln!(
                "skipped every tool of MCP server '{}' (tools.{}): MCP tools have no file to point at",
                view.original, view.name
            );
        }
        for tool in view.tools() {
            eprintln!(
                "skipped {}.{}: a tool of MCP server '{}', no file to point at",
                view.name, tool.name, view.original
            );
        }
    }
    for line in &exported.skipped {
        eprintln!("skipped {line}");
    }
    let mut text = serde_json::to_string_pretty(&exported.document)?;
    text.push('\n');
    super::types::write_to(out, &text)?;
    if let Some(path) = out {
        eprintln!(
            "wrote {} tools to {}",
            exported.document.tools.len(),
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn check(file: &Path) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(file).with_context(|| {
        format!(
            "cannot read {}; give the path of a tools.json",
            file.display()
        )
    })?;
    let base = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let report = interop::check(&text, &base);
    for finding in &report.findings {
        for error in &finding.errors {
            outln!("error: {}: {error}", finding.place)?;
        }
        for warning in &finding.warnings {
            outln!("warning: {}: {warning}", finding.place)?;
        }
    }
    let failed = report
        .findings
        .iter()
        .filter(|f| !f.errors.is_empty())
        .count();
    outln!(
        "{}: {} of {} entries valid, {failed} {} with errors",
        file.display(),
        report.valid_entries,
        report.entries,
        if failed == 1 { "place" } else { "places" }
    )?;
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
