//! The catalogue cache: each server's `tools/list` answer, kept under
//! `<world>/.codemode/cache/mcp/` so that listing, search and types never start a server.
//!
//! A file is named `<server>-<key>.json`, where the key is a hash of everything in the
//! server's configuration (command, arguments, environment, working directory, or URL and
//! headers): a changed configuration is a different file, so a stale answer is never used
//! for a new command line. Secrets enter only the hash; the file holds the server's name,
//! the key, the time, what the server said about itself at `initialize` (`about`: its
//! `serverInfo` and `instructions`; files written before it was kept have none, and
//! still load) and the raw tools, nothing from `env` or `headers`. Files are written
//! atomically (a hidden temporary file beside it, fsync, rename).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::about::ServerAbout;
use super::catalogue::{Catalogue, Listing};
use super::config::{ServerConfig, Transport};

/// Where the cache lives, relative to the world.
pub(crate) const CACHE_DIR: &str = ".codemode/cache/mcp";

/// The version of the way descriptions become tools (`crate::openapi`): a change makes
/// every API's catalogue be made again.
const OPENAPI_READER: u64 = 3;

/// Format of the files; a file of another version is ignored (as if never fetched).
const VERSION: u64 = 1;

/// Files larger than this are not read (a hostile server's answer must not fill memory
/// at every listing).
const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// The cache of one world.
#[derive(Debug, Clone)]
pub(crate) struct Cache {
    world: PathBuf,
    dir: PathBuf,
    /// Catalogues already parsed, by file, with the file's size and time when read: a
    /// script that lists or calls upstream tools reads each file once, not per call.
    parsed: Arc<Mutex<HashMap<PathBuf, Parsed>>>,
}

/// A catalogue as parsed from its file, with the file's size and modification time then.
type Parsed = (u64, Option<SystemTime>, Arc<Catalogue>);

impl Cache {
    /// The cache under `world`.
    pub(crate) fn new(world: &Path) -> Self {
        Self {
            world: world.to_path_buf(),
            dir: world.join(CACHE_DIR),
            parsed: Arc::default(),
        }
    }

    /// The folder holding the files.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds (or would hold) `server`'s catalogue.
    pub(crate) fn path(&self, server: &ServerConfig) -> PathBuf {
        self.dir
            .join(format!("{}-{}.json", server.name, key(server)))
    }

    /// The catalogue last fetched for this exact configuration, if any. Never starts the
    /// server. An unreadable or foreign file is treated as missing (and logged).
    pub(crate) fn read(&self, server: &ServerConfig) -> Option<Arc<Catalogue>> {
        let path = self.path(server);
        let meta = std::fs::metadata(&path).ok()?;
        let (size, modified) = (meta.len(), meta.modified().ok());
        let mut parsed = self.parsed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((s, m, known)) = parsed.get(&path) {
            if *s == size && *m == modified && modified.is_some() {
                return Some(known.clone());
            }
        }
        let catalogue = Arc::new(self.read_file(&path, server, size)?);
        parsed.insert(path, (size, modified, catalogue.clone()));
        Some(catalogue)
    }

    fn read_file(&self, path: &Path, server: &ServerConfig, size: u64) -> Option<Catalogue> {
        if size > MAX_FILE_BYTES {
            tracing::warn!(
                "{}: {size} bytes, over the cache's limit; ignored",
                path.display()
            );
            return None;
        }
        // Not through a link, and not a FIFO (whose read would wait forever).
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut crate::cache::open_plain(path, MAX_FILE_BYTES)?,
            &mut text,
        )
        .ok()?;
        let mut parsed: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(
                    "{}: not JSON ({e}); run `codemode mcp sync` again",
                    path.display()
                );
                return None;
            }
        };
        if parsed.get("version").and_then(Value::as_u64) != Some(VERSION)
            || parsed.get("key").and_then(Value::as_str) != Some(key(server).as_str())
        {
            return None;
        }
        let fetched = parsed
            .get("fetchedAtMs")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let Some(Value::Array(tools)) = parsed.get_mut("tools").map(Value::take) else {
            return None;
        };
        Some(Catalogue {
            about: ServerAbout::from_json(parsed.get("about")),
            ..Catalogue::from_owned(&server.name, fetched, tools)
        })
    }

    /// Stores `listing` (what the server said at `initialize` and its raw `tools/list`
    /// items) for `server` and removes the files of its earlier configurations. Returns
    /// the catalogue as a reader will see it.
    pub(crate) fn write(
        &self,
        server: &ServerConfig,
        listing: &Listing,
    ) -> std::io::Result<Catalogue> {
        let tools = &listing.tools;
        // Only inside the world: `.codemode/cache` may be a link a cloned world ships.
        crate::cache::inside(&self.world, CACHE_DIR)?;
        let fetched = now_ms();
        let key = key(server);
        let body = json!({
            "version": VERSION,
            "server": server.name,
            "key": key,
            "fetchedAtMs": fetched,
            "about": listing.about.to_json(),
            "tools": tools,
        });
        let bytes = serde_json::to_vec(&body).map_err(std::io::Error::other)?;
        let name = format!("{}-{key}.json", server.name);
        // The temporary name carries the pid, so a later write can tell an abandoned one.
        let temp = format!("{}{}-", crate::vfs::atomic::TEMP_PREFIX, std::process::id());
        crate::cache::replace(&self.dir.join(&name), &bytes, &temp, 0o666)?;
        self.remove_others(server, &name);
        // As a reader will see it: the same bounds on what the server said.
        let catalogue = Catalogue {
            about: ServerAbout::from_json(Some(&listing.about.to_json())),
            ..Catalogue::from_raw(&server.name, fetched, tools)
        };
        // Readers in this process see the new catalogue at once, whatever the file
        // system's timestamp granularity.
        if let Ok(meta) = std::fs::metadata(self.dir.join(&name)) {
            self.parsed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(
                    self.dir.join(&name),
                    (
                        meta.len(),
                        meta.modified().ok(),
                        Arc::new(catalogue.clone()),
                    ),
                );
        }
        Ok(catalogue)
    }

    /// Removes `server`'s files other than `keep` (earlier configurations).
    fn remove_others(&self, server: &ServerConfig, keep: &str) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let prefix = format!("{}-", server.name);
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if abandoned(name) {
                let _ = std::fs::remove_file(entry.path());
                continue;
            }
            // `<server>-<32 hex>.json` exactly: another server's name may extend this one's.
            let Some(rest) = name.strip_prefix(&prefix) else {
                continue;
            };
            let is_ours = rest.len() == 37
                && rest.ends_with(".json")
                && rest[..32].bytes().all(|b| b.is_ascii_hexdigit());
            if is_ours && name != keep {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// True for a temporary file a process that is gone left half-written: one that exits
/// while a server's refreshed catalogue is being written never renames it in.
fn abandoned(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(crate::vfs::atomic::TEMP_PREFIX) else {
        return false;
    };
    let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
        return false;
    };
    pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
}

/// A hash of the whole configuration (secrets included, so a changed token is a new
/// key), as 32 hex digits. Only the hash is ever written.
pub(crate) fn key(server: &ServerConfig) -> String {
    let canonical = match &server.transport {
        Transport::Stdio {
            command,
            args,
            env,
            cwd,
        } => json!({
            "name": server.name,
            "stdio": {
                "command": command,
                "args": args,
                "env": env.iter().map(|(k, v)| (k.clone(), Value::from(v.expose()))).collect::<serde_json::Map<_, _>>(),
                "cwd": cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
            }
        }),
        Transport::Http { url, headers, .. } => json!({
            "name": server.name,
            "http": {
                "url": url,
                "headers": headers.iter().map(|(k, v)| (k.to_ascii_lowercase(), Value::from(v.expose()))).collect::<serde_json::Map<_, _>>(),
            }
        }),
        // The description's size and time are in the key: an edited description is
        // parsed again, an unchanged one never.
        Transport::OpenApi(api) => json!({
            "name": server.name,
            "openapi": {
                "spec": api.spec.to_string_lossy(),
                "stamp": api.stamp,
                "baseUrl": api.base_url,
                "methods": api.methods,
                "response": api.response,
                "reader": OPENAPI_READER,
            }
        }),
    };
    let mut hasher = Sha256::new();
    hasher.update(b"codemode-mcp-catalogue-v1\0");
    hasher.update(canonical.to_string().as_bytes());
    hasher.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/cache.rs"]
mod tests;
