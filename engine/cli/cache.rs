//! `codemode cache stats|clear`: the world's result cache (`.codemode/results.db`); `clear`
//! also removes the index caches (`.codemode/cache/`), which the next command rebuilds.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use clap::Subcommand;
use codemode::results::{foreign_files, Store, StoreError, DEFAULT_CAP_BYTES, FILE};

use super::Cli;

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// How many results are kept, how many bytes, and of which tools
    Stats {
        /// Print the numbers as JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Remove every kept result (a store that cannot be read is deleted and starts empty)
    /// and the index caches under .codemode/cache/ (rebuilt by the next command)
    Clear,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn world(cli: &Cli) -> anyhow::Result<PathBuf> {
    match &cli.world {
        Some(w) => Ok(w.clone()),
        None => {
            std::env::current_dir().context("cannot read the current directory; pass --world DIR")
        }
    }
}

/// Runs `codemode cache ...`.
pub fn cache(cli: &Cli, command: &CacheCommand) -> anyhow::Result<ExitCode> {
    let world = world(cli)?;
    let path = world.join(".codemode").join(FILE);
    match command {
        CacheCommand::Stats { json } => stats(&path, *json),
        CacheCommand::Clear => {
            let code = clear(&path)?;
            clear_indexes(&world)?;
            Ok(code)
        }
    }
}

/// Removes the index caches: the search index (in its turn) and the tool folder cache.
fn clear_indexes(world: &Path) -> anyhow::Result<()> {
    let search = codemode::search::clear_cache(world).with_context(|| {
        format!(
            "the search index under {} was not removed",
            codemode::cache::path(world, "search").display()
        )
    })?;
    let assets = codemode::cache::path(world, "assets");
    let tools = assets.exists();
    if tools {
        std::fs::remove_dir_all(&assets)
            .with_context(|| format!("cannot remove {}; remove it by hand", assets.display()))?;
    }
    if search || tools {
        outln!(
            "removed the index cache under {} (the next command rebuilds it)",
            world.join(codemode::cache::CACHE_DIR).display()
        )?;
    }
    Ok(())
}

fn stats(path: &Path, json: bool) -> anyhow::Result<ExitCode> {
    if !path.exists() {
        if json {
            outln!(
                "{}",
                serde_json::json!({ "path": path, "entries": 0, "expired": 0, "bytes": 0, "capBytes": DEFAULT_CAP_BYTES, "tools": [] })
            )?;
        } else {
            outln!("no result cache yet at {} (0 results): tools with \"cache\" in their .metadata fill it", path.display())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // A store the world shipped as a link or a FIFO is neither followed nor waited on.
    if let Some(file) = foreign_files(path)?.first() {
        anyhow::bail!(
            "{} is not a plain file (a symbolic link, a FIFO or a device), so the result cache is not read; `codemode cache clear` removes it",
            file.display()
        );
    }
    let store = Store::open(path, DEFAULT_CAP_BYTES)?;
    let stats = store.stats(now_ms())?;
    if json {
        outln!("{}", serde_json::to_string(&stats)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("result cache: {}", stats.path.display())?;
    outln!(
        "  {} results ({} expired, removed on the next write), {} of {} bytes",
        stats.entries,
        stats.expired,
        stats.bytes,
        stats.cap_bytes
    )?;
    for (identity, count) in &stats.tools {
        outln!("  {identity}: {count}")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn clear(path: &Path) -> anyhow::Result<ExitCode> {
    // Links and FIFOs in the store's place are removed, never followed or opened (the
    // folder holding them is checked to be the world's own first).
    let foreign = foreign_files(path)?;
    for file in &foreign {
        std::fs::remove_file(file)
            .with_context(|| format!("cannot remove {}; remove it by hand", file.display()))?;
        outln!(
            "removed {} (not a plain file: a symbolic link, a FIFO or a device)",
            file.display()
        )?;
    }
    if !foreign.is_empty() && !path.exists() {
        return Ok(ExitCode::SUCCESS);
    }
    if !path.exists() {
        outln!("no result cache at {}: nothing to clear", path.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    match Store::open(path, DEFAULT_CAP_BYTES).and_then(|mut s| s.clear()) {
        Ok(removed) => {
            outln!("removed {removed} results from {}", path.display())?;
        }
        Err(e @ StoreError::Corrupt { .. }) => {
            // Nothing in it can be read: delete the file (and SQLite's side files).
            for suffix in ["", "-wal", "-shm"] {
                let file = PathBuf::from(format!("{}{suffix}", path.display()));
                if file.exists() {
                    std::fs::remove_file(&file).with_context(|| {
                        format!("cannot remove {}; remove it by hand", file.display())
                    })?;
                }
            }
            outln!(
                "deleted {} ({e}); the next cached call starts an empty one",
                path.display()
            )?;
        }
        Err(e) => return Err(e.into()),
    }
    Ok(ExitCode::SUCCESS)
}
