//! `codemode agent add|list|revoke`: the agents that may call `codemode serve --http`,
//! each with a profile of the world's policy file and a bearer token.

use std::process::ExitCode;

use crate::auth::{AgentsFile, AGENTS_FILE};
use clap::Subcommand;

use super::globals::Globals;

#[derive(Debug, Clone, Subcommand)]
pub(crate) enum AgentCommand {
    /// Add an agent: prints its bearer token once (only a hash of it is kept)
    Add {
        /// The agent's name (letters, digits, '-', '_', '.')
        name: String,
        /// The profile of .codemode/policy.json its runs get
        #[arg(long, value_name = "P")]
        profile: String,
    },
    /// The agents: name, profile, when added (never a token or its hash)
    List {
        /// Print them as JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Remove an agent: its token stops working at once, also on a running server
    Revoke {
        /// The agent's name
        name: String,
    },
}

/// Runs `codemode agent ...`.
pub(crate) fn agent(cli: &Globals, command: &AgentCommand) -> anyhow::Result<ExitCode> {
    let world = cli.world_dir()?;
    if !world.is_dir() {
        anyhow::bail!(
            "world {} is not a directory; pass an existing one with --world DIR",
            world.display()
        );
    }
    let mut file = AgentsFile::load(&world)?;
    match command {
        AgentCommand::Add { name, profile } => {
            // A profile the policy file lacks would leave the agent unable to run anything.
            crate::policy::load(&world, Some(profile)).map_err(|e| {
                anyhow::anyhow!("{e}; agent '{name}' was not added (define the profile first, or pick one of those)")
            })?;
            let token = file.add(name, profile)?;
            file.save(&world)?;
            eprintln!(
                "codemode: added agent '{name}' (profile '{profile}') to {}; its token is below, shown this once (send it as Authorization: Bearer TOKEN)",
                world.join(AGENTS_FILE).display()
            );
            outln!("{token}")?;
        }
        AgentCommand::List { json } => {
            if *json {
                let rows: Vec<_> = file
                    .agents
                    .iter()
                    .map(|(name, a)| {
                        serde_json::json!({"name": name, "profile": a.profile, "created": a.created})
                    })
                    .collect();
                outln!("{}", serde_json::Value::Array(rows))?;
            } else if file.agents.is_empty() {
                eprintln!("codemode: no agents; codemode agent add NAME --profile P adds one");
            } else {
                for (name, a) in &file.agents {
                    outln!("{name}\t{}\t{}", a.profile, a.created)?;
                }
            }
        }
        AgentCommand::Revoke { name } => {
            file.revoke(name)?;
            file.save(&world)?;
            eprintln!("codemode: revoked agent '{name}'; its token no longer works");
        }
    }
    Ok(ExitCode::SUCCESS)
}
