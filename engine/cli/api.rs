//! `codemode api sync [NAME]`: fetch the descriptions `.codemode/apis.json` gives by URL
//! into `.codemode/cache/openapi/`, printing what came back per API. The toolboxes are
//! read from those copies; nothing fetches a description while a script runs.

use std::process::ExitCode;

use crate::openapi;
use anyhow::Context;
use clap::Subcommand;

use super::globals::Globals;

/// What `codemode api` does.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum ApiCommand {
    /// Fetch the descriptions .codemode/apis.json gives by URL (or one API's) into
    /// .codemode/cache/openapi/; exit 1 if any failed
    Sync {
        /// Only this API (as apis.json names it)
        api: Option<String>,
    },
}

/// Runs one `api` subcommand.
pub(crate) fn api(cli: &Globals, command: &ApiCommand) -> anyhow::Result<ExitCode> {
    match command {
        ApiCommand::Sync { api } => sync(cli, api.as_deref()),
    }
}

fn sync(cli: &Globals, only: Option<&str>) -> anyhow::Result<ExitCode> {
    let world = match &cli.world {
        Some(w) => w.clone(),
        None => std::env::current_dir()
            .context("cannot read the current directory; pass --world DIR")?,
    };
    let (urls, problems) = openapi::spec_urls(&world);
    let mut failed = false;
    for problem in &problems {
        let api = problem
            .api
            .as_deref()
            .map_or(String::new(), |a| format!(": API '{a}'"));
        eprintln!(
            "problem: {}{api}: {}",
            problem.file.display(),
            problem.message
        );
        failed = true;
    }
    let chosen: Vec<_> = urls
        .iter()
        .filter(|u| only.is_none_or(|name| u.api == name))
        .collect();
    if chosen.is_empty() {
        let file = world.join(openapi::APIS_FILE);
        match only {
            Some(name) => {
                let known: Vec<&str> = urls.iter().map(|u| u.api.as_str()).collect();
                outln!(
                    "no API '{name}' with a description given by URL in {}{}",
                    file.display(),
                    if known.is_empty() {
                        String::new()
                    } else {
                        format!("; those given by URL: {}", known.join(", "))
                    }
                )?;
                return Ok(ExitCode::from(1));
            }
            None => outln!(
                "no API in {} gives its description by URL (\"spec\": \"https://...\"); nothing to fetch",
                file.display()
            )?,
        }
    }
    for spec in chosen {
        match openapi::copy::fetch(&world, spec) {
            Ok(got) => outln!(
                "{}: {} bytes from {} saved as {} (OpenAPI {}, {} operations)",
                spec.api,
                got.bytes,
                spec.url,
                got.path.display(),
                got.version,
                got.operations
            )?,
            Err(message) => {
                outln!("{}: failed: {message}", spec.api)?;
                failed = true;
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
