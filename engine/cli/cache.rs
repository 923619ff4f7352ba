//! `codemode cache stats|clear`: the world's result cache (`.codemode/results.db`); `clear`
//! also removes the index caches (`.codemode/cache/`), which the next command rebuilds.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::results::{foreign_files, Store, StoreError, DEFAULT_CAP_BYTES, FILE};
use anyhow::Context;
use clap::Subcommand;

use super::globals::Globals;

#[derive(Debug, Clone, Subcommand)]
pub(crate) enum CacheCommand {
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

/// Runs `codemode cache ...`.
pub(crate) fn cache(cli: &Globals, command: &CacheCommand) -> anyhow::Result<ExitCode> {
    let world = cli.world_dir()?;
    let path = world.join(".codemode").join(FILE);
    match command {
        CacheCommand::Stats { json } => stats(&path, *json),
        CacheCommand::Clear => {
            // The index caches are cleared even when the result store could not be.
            let cleared = clear(&path);
            clear_indexes(&world)?;
            cleared
        }
    }
}

/// `file`, named with what it is instead of the result store's plain file.
fn not_plain(file: &Path) -> String {
    let what = match std::fs::symlink_metadata(file) {
        Ok(m) if m.is_symlink() => "a symbolic link",
        Ok(m) if m.is_dir() => "a folder",
        _ => "a FIFO, a socket or a device",
    };
    format!(
        "{} (it is {what}, not the plain file a result store is)",
        file.display()
    )
}

/// Removes the index caches: the search index (in its turn) and the tool folder cache.
/// A link or a file where one of their folders goes is removed itself, never followed: a
/// world may ship `.codemode/cache` as a link to another world's, or to anywhere.
fn clear_indexes(world: &Path) -> anyhow::Result<()> {
    use crate::cache::{look, Place, CACHE_DIR};
    let cache = world.join(CACHE_DIR);
    let mut unlinked = false;
    for rel in ["", "/search", "/search/index", "/assets"] {
        if let Place::NotAFolder(at) = look(world, &format!("{CACHE_DIR}{rel}")) {
            // `.codemode` itself (a link or a file) is not the cache's to remove.
            if !at.starts_with(&cache) {
                return Ok(());
            }
            std::fs::remove_file(&at)
                .with_context(|| format!("cannot remove {}; remove it by hand", at.display()))?;
            outln!(
                "removed {} (not a folder: a symbolic link or a file; nothing it points to was touched)",
                at.display()
            )?;
            unlinked = true;
        }
    }
    // And a link or a FIFO where one of their files goes (the turn's lock among them).
    for rel in ["search/lock", "search/table", "assets/tools"] {
        let file = crate::cache::path(world, rel);
        if !crate::cache::plain_or_missing(&file) {
            std::fs::remove_file(&file)
                .with_context(|| format!("cannot remove {}; remove it by hand", file.display()))?;
            outln!("removed {} (not a plain file)", file.display())?;
            unlinked = true;
        }
    }
    let search = crate::search::clear_cache(world).with_context(|| {
        format!(
            "the search index under {} was not removed",
            crate::cache::path(world, "search").display()
        )
    })?;
    let assets = crate::cache::path(world, "assets");
    let tools = look(world, &format!("{CACHE_DIR}/assets")) == Place::Folder(assets.clone());
    if tools {
        std::fs::remove_dir_all(&assets)
            .with_context(|| format!("cannot remove {}; remove it by hand", assets.display()))?;
    }
    if search || tools || unlinked {
        outln!(
            "removed the index cache under {} (the next command rebuilds it)",
            world.join(crate::cache::CACHE_DIR).display()
        )?;
    }
    Ok(())
}

fn stats(path: &Path, json: bool) -> anyhow::Result<ExitCode> {
    // A store the world shipped as a link or a FIFO is neither followed nor waited on.
    if let Some(file) = foreign_files(path)?.first() {
        anyhow::bail!("{}; `codemode cache clear` removes it", not_plain(file));
    }
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
        // A folder may hold anything: its contents are not the engine's to delete.
        if std::fs::symlink_metadata(file).is_ok_and(|m| m.is_dir()) {
            anyhow::bail!("{}; remove it by hand", not_plain(file));
        }
        let said = not_plain(file);
        std::fs::remove_file(file)
            .with_context(|| format!("cannot remove {}; remove it by hand", file.display()))?;
        outln!("removed {said}")?;
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
