//! `codemode audit`: the last lines of the world's audit log, for a person in a hurry
//! (or as written, `--json`); and the `--audit` setting with which the commands that run
//! scripts (`exec`, `run`, `call`, `repl`, `serve`) open the log.

use std::path::Path;
use std::process::ExitCode;

use crate::audit::{tail, Kind, Line, Log};
use crate::registry::Registry;

use super::globals::Globals;

/// The `audit` flags.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct AuditArgs {
    /// How many lines to show, the newest last
    #[arg(short = 'n', long = "lines", default_value_t = 20, value_name = "N")]
    lines: usize,

    /// Print the lines as written: one JSON object each
    #[arg(long)]
    json: bool,

    /// Only the lines of this agent (`local` for the command line)
    #[arg(long, value_name = "NAME")]
    agent: Option<String>,
}

impl Globals {
    /// Opens the audit log `--audit` asks for on `registry`, for runs of the front end
    /// `front`. `auto` (the default) writes `<world>/.codemode/audit.jsonl` when the
    /// world has a `.codemode/` folder (where an operator keeps its policy and servers)
    /// or `--mcp-config` names servers; a bare folder of tools gets no log, so a script run
    /// there leaves nothing behind.
    pub(crate) fn open_audit(&self, registry: &Registry, front: &str) {
        let world = registry.world();
        let log = match self.audit.as_str() {
            "off" => return,
            "stderr" => Log::stderr(front),
            "file" => Log::file(world, front, self.audit_max_bytes),
            _ if operated(world) || !self.mcp_config.is_empty() => {
                Log::file(world, front, self.audit_max_bytes)
            }
            _ => return,
        };
        registry.set_audit(log);
    }
}

/// True when `world` has a real `.codemode/` folder.
fn operated(world: &Path) -> bool {
    std::fs::symlink_metadata(world.join(".codemode")).is_ok_and(|m| m.is_dir())
}

/// Prints the last lines of the log. Exit 0, or 2 when it cannot be read.
pub(crate) fn audit(cli: &Globals, args: &AuditArgs) -> anyhow::Result<ExitCode> {
    let world = cli.world_dir()?;
    let wanted = args.agent.as_deref();
    let found = tail(&world, args.lines, |line| {
        wanted.is_none_or(|agent| line.agent == agent)
    })?;
    if args.json {
        for (raw, _) in &found.lines {
            outln!("{raw}")?;
        }
    } else if found.lines.is_empty() {
        let path = world.join(".codemode").join(crate::audit::FILE);
        let whose = wanted.map_or(String::new(), |a| format!(" of agent '{a}'"));
        eprintln!(
            "codemode audit: no lines{whose} in {} (commands that run scripts write it when the world has a .codemode/ folder, or with --audit file)",
            path.display()
        );
    } else {
        for row in table(found.lines.iter().map(|(_, line)| line)) {
            outln!("{}", row.trim_end())?;
        }
    }
    if found.unreadable > 0 {
        eprintln!(
            "codemode audit: {} lines of the log are not audit lines (edited by hand, or cut short) and were skipped",
            found.unreadable
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The lines as aligned columns: time, agent, profile, what ran (calls indented under
/// their run), outcome, duration, bytes, and `cached` or a run's count of calls.
fn table<'a>(lines: impl Iterator<Item = &'a Line<'static>>) -> Vec<String> {
    let cells: Vec<[String; 8]> = lines
        .map(|line| {
            let what = match line.kind {
                Kind::Run => line.identity.to_string(),
                Kind::Call => format!("  {}", line.identity),
            };
            let note = match (line.kind, line.calls) {
                (Kind::Run, Some(1)) => "1 call".to_string(),
                (Kind::Run, Some(n)) => format!("{n} calls"),
                _ if line.cached => "cached".to_string(),
                _ => String::new(),
            };
            [
                shown_time(&line.time),
                line.agent.to_string(),
                line.profile.to_string(),
                what,
                shouted(&line.outcome),
                format!("{:.1} ms", line.ms),
                bytes(line.bytes),
                note,
            ]
            .map(|cell| printable(&cell))
        })
        .collect();
    let mut widths = [0usize; 8];
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    cells
        .iter()
        .map(|row| {
            row.iter()
                .zip(widths)
                .enumerate()
                .map(|(i, (cell, w))| match i {
                    // Numbers right-aligned, text left.
                    5 | 6 => format!("{cell:>w$}"),
                    _ => format!("{cell:<w$}"),
                })
                .collect::<Vec<_>>()
                .join("  ")
        })
        .collect()
}

/// `cell` with its control characters escaped (`\n`, `\u{1b}`): an identity a script
/// named, or a JWT's subject, may hold a newline, which would show as a row of its own.
fn printable(cell: &str) -> String {
    cell.chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// `2026-01-02T03:04:05.678Z` as `2026-01-02 03:04:05Z`: seconds are enough to read.
fn shown_time(time: &str) -> String {
    match time.split_once('.') {
        Some((seconds, _)) => format!("{}Z", seconds.replacen('T', " ", 1)),
        None => time.replacen('T', " ", 1),
    }
}

/// Bytes in the unit a person reads fastest.
fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / 1_048_576.0),
    }
}

/// An outcome other than `ok` stands out in capitals.
fn shouted(outcome: &str) -> String {
    match outcome {
        "ok" => outcome.to_string(),
        failed => failed.to_uppercase(),
    }
}
