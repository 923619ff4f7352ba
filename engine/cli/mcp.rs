//! `codemode mcp sync [SERVER]`: start the configured MCP servers, fetch their tools and
//! store them in the catalogue cache, printing what came back per server.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::upstream::{self, UpstreamOptions, Upstreams};
use clap::Subcommand;

use super::globals::Globals;

/// What `codemode mcp` does.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum McpCommand {
    /// Start the configured MCP servers (or one), fetch their tools and update the cache
    /// in .codemode/cache/mcp/; exit 1 if any server failed
    Sync {
        /// Only this server (as mcp.json names it, or its toolbox name)
        server: Option<String>,
    },
}

/// Runs one `mcp` subcommand.
pub(crate) fn mcp(cli: &Globals, command: &McpCommand) -> anyhow::Result<ExitCode> {
    match command {
        McpCommand::Sync { server } => sync(cli, server.as_deref(), &cli.mcp_config),
    }
}

fn sync(cli: &Globals, server: Option<&str>, extra: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let world = cli.world_dir()?;
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
        let default = world.join(upstream::config::DEFAULT_CONFIG);
        let mut read: Vec<String> = extra.iter().map(|f| f.display().to_string()).collect();
        if default.exists() || read.is_empty() {
            read.insert(0, default.display().to_string());
        }
        outln!(
            "no MCP servers configured in {}; add them under \"mcpServers\" (or VS Code's \"servers\") there",
            read.join(", ")
        )?;
        // Asked for one server by name, there is none of that name: that is a failure.
        return Ok(if server.is_some() {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    // A server may be named as its file writes it (`odd-server`) or by its toolbox name.
    let server = match server {
        None => None,
        Some(name) => match configs
            .servers
            .iter()
            .find(|s| s.name == name)
            .or_else(|| configs.servers.iter().find(|s| s.original_name == name))
        {
            Some(found) => Some(found.name.as_str()),
            None => {
                let known: Vec<String> = configs
                    .servers
                    .iter()
                    .map(|s| {
                        if s.name == s.original_name {
                            s.name.clone()
                        } else {
                            format!("{} (toolbox {})", s.original_name, s.name)
                        }
                    })
                    .collect();
                eprintln!(
                    "codemode mcp sync: no MCP server named '{name}' is configured; the configured ones are {}",
                    known.join(", ")
                );
                return Ok(ExitCode::from(1));
            }
        },
    };
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
                let entry = configs.servers.iter().find(|s| s.name == report.server);
                for problem in entry
                    .map(|s| s.settings.unmatched(&catalogue.tools))
                    .unwrap_or_default()
                {
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
