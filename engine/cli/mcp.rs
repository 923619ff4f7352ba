//! `codemode mcp sync [SERVER]`: start the configured MCP servers, fetch their tools and
//! store them in the catalogue cache, printing what came back per server.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use codemode::upstream::{self, UpstreamOptions, Upstreams};

use super::Cli;

/// What `codemode mcp` does.
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Start the configured MCP servers (or one), fetch their tools and update the cache
    /// in .codemode/cache/mcp/; exit 1 if any server failed
    Sync {
        /// Only this server (its toolbox name)
        server: Option<String>,
    },
}

/// Runs one `mcp` subcommand.
pub fn mcp(cli: &Cli, command: &McpCommand) -> anyhow::Result<ExitCode> {
    match command {
        McpCommand::Sync { server } => sync(cli, server.as_deref(), &cli.mcp_config),
    }
}

fn sync(cli: &Cli, server: Option<&str>, extra: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let world = match &cli.world {
        Some(w) => w.clone(),
        None => std::env::current_dir()
            .context("cannot read the current directory; pass --world DIR")?,
    };
    let configs = upstream::load(&world, extra);
    let mut failed = false;
    for problem in &configs.problems {
        eprintln!("problem: {problem}");
        failed = true;
    }
    if configs.servers.is_empty() {
        // With problems above, the servers are there but none could be read: say that.
        if failed {
            outln!("no MCP server could be read; fix the problems above")?;
            return Ok(ExitCode::from(1));
        }
        outln!(
            "no MCP servers configured; add them under \"mcpServers\" in {}",
            world.join(upstream::config::DEFAULT_CONFIG).display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let upstreams = Upstreams::new(&world, &configs, UpstreamOptions::default())?;
    for report in upstreams.sync(server) {
        match report.result {
            Ok(catalogue) => {
                let names: Vec<&str> = catalogue.tools.iter().map(|t| t.name.as_str()).collect();
                outln!(
                    "{}: {} tool{}: {}",
                    report.server,
                    names.len(),
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                )?;
                for problem in &catalogue.problems {
                    outln!("  note: {problem}")?;
                }
            }
            Err(error) => {
                failed = true;
                outln!("{}: failed", report.server)?;
                eprintln!("{}: {error}", report.server);
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
