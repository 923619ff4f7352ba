//! The SQLite file behind the result cache.
//!
//! SQLite (bundled, so every build has the same one) rather than an embedded key-value
//! store: several codemode processes of one world share the file, and SQLite's file
//! locks and WAL journal let them read and write it at once without corrupting it,
//! where a store that takes the file for one process would leave the others uncached;
//! and its FTS5 index gives `tools.results.search` keyword matching and ranking.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};

/// The store's file name, under `<world>/.codemode/`.
pub(crate) const FILE: &str = "results.db";
/// The most bytes of results kept by default (64 MiB); the least recently used go first.
pub(crate) const DEFAULT_CAP_BYTES: u64 = 64 << 20;
/// How long a writer waits for another process's write before giving up (then the
/// call is simply not cached).
const BUSY_WAIT: Duration = Duration::from_millis(2000);
/// A hit refreshes its row's last use at most this often: most hits then read only.
const TOUCH_EVERY_MS: i64 = 60_000;
/// The schema this code reads and writes (`PRAGMA user_version`).
const SCHEMA: i64 = 2;

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StoreError {
    /// The file is not a database of ours (garbage, another format, a newer schema).
    #[error("{path} is not a result cache codemode can read ({reason}); delete it (`codemode cache clear` recreates it) to start an empty one")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        reason: String,
    },
    /// Another process held the file longer than the wait allows.
    #[error("{path} is locked by another process; results are not cached until it is free")]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// Anything else SQLite or the file system refused.
    #[error("{path}: {reason}; check that the folder is writable")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        reason: String,
    },
}

impl StoreError {
    /// True when waiting could help (another process holds the lock); otherwise the
    /// store is unusable until someone fixes or removes the file.
    pub(crate) fn is_transient(&self) -> bool {
        matches!(self, StoreError::Locked { .. })
    }
}

/// One stored result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// Its key.
    pub(crate) key: String,
    /// The tool that returned it.
    pub(crate) identity: String,
    /// JSON: for a contract, its `brief`; otherwise the array of returned values.
    pub(crate) brief: String,
    /// JSON of the contract's `raw`; `None` when the tool returned no contract.
    pub(crate) raw: Option<String>,
    /// The contract's `indexTerms`, one per line.
    pub(crate) terms: String,
    /// When it was stored and when it stops being returned (ms since the Unix epoch).
    pub(crate) created_ms: i64,
    /// See `created_ms`.
    pub(crate) expires_ms: i64,
}

/// A result to store.
#[derive(Debug, Clone)]
pub(crate) struct NewEntry<'a> {
    /// Its key.
    pub(crate) key: &'a str,
    /// Who may read it back: the fingerprint of the capabilities it was made with (see
    /// `Capabilities::fingerprint`); a run reads only rows of its own scope.
    pub(crate) scope: &'a str,
    /// The tool.
    pub(crate) identity: &'a str,
    /// See [`Entry::brief`].
    pub(crate) brief: &'a str,
    /// See [`Entry::raw`].
    pub(crate) raw: Option<&'a str>,
    /// See [`Entry::terms`].
    pub(crate) terms: &'a [String],
    /// Now, in ms since the Unix epoch.
    pub(crate) now_ms: i64,
    /// How long the result is returned.
    pub(crate) ttl: Duration,
}

/// What `codemode cache stats` shows.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(crate) struct Stats {
    /// The file.
    pub path: PathBuf,
    /// Rows still within their time to live.
    pub entries: u64,
    /// Rows past it (removed on the next write).
    pub expired: u64,
    /// Bytes of results held.
    pub bytes: u64,
    /// The most bytes held before the least recently used rows go.
    #[serde(rename = "capBytes")]
    pub cap_bytes: u64,
    /// Rows by tool, most first.
    pub tools: Vec<(String, u64)>,
}

/// An open result cache file.
pub(crate) struct Store {
    path: PathBuf,
    conn: Connection,
    cap_bytes: u64,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// Opens (creating if needed) the store at `path`, holding at most `cap_bytes`.
    pub(crate) fn open(path: &Path, cap_bytes: u64) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Io {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            // The database file itself is never reached through a link.
            | OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| error(path, e))?;
        let store = Store {
            path: path.to_path_buf(),
            conn,
            cap_bytes,
        };
        store.prepare().map_err(|e| error(path, e))?;
        Ok(store)
    }

    fn prepare(&self) -> rusqlite::Result<()> {
        self.conn.busy_timeout(BUSY_WAIT)?;
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_NOTADB),
                Some(format!("written by a newer codemode (schema {version})")),
            ));
        }
        // WAL: readers never wait for a writer, and a crash mid-write loses only that write.
        self.conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0))?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        if version < SCHEMA {
            // Another process may be preparing the same file: decide again under the
            // write lock, so one that finds it done leaves it (and its rows) alone.
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
            let prepared = (|| -> rusqlite::Result<()> {
                let now: i64 = self
                    .conn
                    .query_row("PRAGMA user_version", [], |r| r.get(0))?;
                if now >= SCHEMA {
                    return Ok(());
                }
                if now >= 1 {
                    // Rows of schema 1 carry no scope: they are dropped, not guessed at (a
                    // cache loses nothing it cannot recompute).
                    self.conn.execute_batch(
                        "DROP TABLE IF EXISTS results; DROP TABLE IF EXISTS results_terms;",
                    )?;
                }
                self.conn.execute_batch(
                    "CREATE TABLE IF NOT EXISTS results (
                         id INTEGER PRIMARY KEY,
                         key TEXT NOT NULL UNIQUE,
                         scope TEXT NOT NULL,
                         identity TEXT NOT NULL,
                         brief TEXT NOT NULL,
                         raw TEXT,
                         terms TEXT NOT NULL,
                         created INTEGER NOT NULL,
                         expires INTEGER NOT NULL,
                         used INTEGER NOT NULL,
                         bytes INTEGER NOT NULL);
                     CREATE INDEX IF NOT EXISTS results_used ON results(used);
                     CREATE INDEX IF NOT EXISTS results_expires ON results(expires);
                     CREATE VIRTUAL TABLE IF NOT EXISTS results_terms
                         USING fts5(identity, terms, tokenize = 'unicode61');
                     PRAGMA user_version = 2;",
                )
            })();
            match prepared {
                Ok(()) => self.conn.execute_batch("COMMIT")?,
                Err(e) => {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// The row of `key` stored in `scope`, unless it expired.
    pub(crate) fn get(
        &self,
        key: &str,
        scope: &str,
        now_ms: i64,
    ) -> Result<Option<Entry>, StoreError> {
        let found = self
            .conn
            .prepare_cached(
                "SELECT key, identity, brief, raw, terms, created, expires, used
                 FROM results WHERE key = ?1 AND expires > ?2 AND scope = ?3",
            )
            .and_then(|mut s| {
                s.query_row(params![key, now_ms, scope], |r| {
                    Ok((entry(r)?, r.get::<_, i64>(7)?))
                })
                .optional()
            })
            .map_err(|e| error(&self.path, e))?;
        let Some((entry, used)) = found else {
            return Ok(None);
        };
        if now_ms - used > TOUCH_EVERY_MS {
            // Recency for eviction; a busy file only makes it less exact.
            let _ = self
                .conn
                .prepare_cached("UPDATE results SET used = ?2 WHERE key = ?1")
                .and_then(|mut s| s.execute(params![key, now_ms]));
        }
        Ok(Some(entry))
    }

    /// Stores `new` (replacing a row of the same key), then removes expired rows and the
    /// least recently used ones beyond the cap. A result larger than a quarter of the cap
    /// is not kept. Returns whether it was stored.
    pub(crate) fn put(&mut self, new: &NewEntry) -> Result<bool, StoreError> {
        let terms = new.terms.join("\n");
        let bytes = (new.brief.len() + new.raw.map_or(0, str::len) + terms.len() + 128) as u64;
        if bytes > self.cap_bytes / 4 {
            return Ok(false);
        }
        let expires = new
            .now_ms
            .saturating_add(new.ttl.as_millis().min(i64::MAX as u128) as i64);
        let cap = self.cap_bytes as i64;
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| error(&path, e))?;
        let run = || -> rusqlite::Result<()> {
            let old: Option<i64> = tx
                .query_row("SELECT id FROM results WHERE key = ?1", [new.key], |r| {
                    r.get(0)
                })
                .optional()?;
            if let Some(id) = old {
                tx.execute("DELETE FROM results_terms WHERE rowid = ?1", [id])?;
                tx.execute("DELETE FROM results WHERE id = ?1", [id])?;
            }
            tx.execute(
                "INSERT INTO results (key, scope, identity, brief, raw, terms, created, expires, used, bytes)
                 VALUES (?1, ?9, ?2, ?3, ?4, ?5, ?6, ?7, ?6, ?8)",
                params![new.key, new.identity, new.brief, new.raw, terms, new.now_ms, expires, bytes as i64, new.scope],
            )?;
            let id = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO results_terms (rowid, identity, terms) VALUES (?1, ?2, ?3)",
                params![id, new.identity.replace('.', " "), terms],
            )?;
            tx.execute(
                "DELETE FROM results_terms WHERE rowid IN (SELECT id FROM results WHERE expires <= ?1)",
                [new.now_ms],
            )?;
            tx.execute("DELETE FROM results WHERE expires <= ?1", [new.now_ms])?;
            let mut total: i64 =
                tx.query_row("SELECT COALESCE(SUM(bytes), 0) FROM results", [], |r| {
                    r.get(0)
                })?;
            while total > cap {
                let oldest: Option<(i64, i64)> = tx
                    .query_row(
                        "SELECT id, bytes FROM results ORDER BY used, id LIMIT 1",
                        [],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .optional()?;
                let Some((id, size)) = oldest else { break };
                tx.execute("DELETE FROM results_terms WHERE rowid = ?1", [id])?;
                tx.execute("DELETE FROM results WHERE id = ?1", [id])?;
                total -= size;
            }
            Ok(())
        };
        run().map_err(|e| error(&path, e))?;
        tx.commit().map_err(|e| error(&path, e))?;
        Ok(true)
    }

    /// Rows of `scope` whose tool name or index terms match words of `query`, best first
    /// (an empty query: the most recent), at most `limit`, and no more rows once they hold
    /// `max_bytes` (the first row always comes, whatever its size): what a search reads
    /// into memory stays bounded however large the store is.
    pub(crate) fn search(
        &self,
        query: &str,
        scope: &str,
        limit: usize,
        max_bytes: usize,
        now_ms: i64,
    ) -> Result<Vec<Entry>, StoreError> {
        let words: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(32)
            .map(|w| format!("\"{w}\""))
            .collect();
        let limit = limit as i64;
        let collect = |rows: rusqlite::MappedRows<'_, _>| -> rusqlite::Result<Vec<Entry>> {
            let mut out: Vec<Entry> = Vec::new();
            let mut bytes = 0usize;
            for row in rows {
                let row: Entry = row?;
                bytes += row.brief.len() + row.raw.as_ref().map_or(0, String::len);
                if !out.is_empty() && bytes > max_bytes {
                    break;
                }
                out.push(row);
            }
            Ok(out)
        };
        let rows = if words.is_empty() {
            self.conn
                .prepare_cached(
                    "SELECT key, identity, brief, raw, terms, created, expires FROM results
                     WHERE expires > ?1 AND scope = ?3 ORDER BY created DESC, id DESC LIMIT ?2",
                )
                .and_then(|mut s| collect(s.query_map(params![now_ms, limit, scope], entry)?))
        } else {
            self.conn
                .prepare_cached(
                    "SELECT r.key, r.identity, r.brief, r.raw, r.terms, r.created, r.expires
                     FROM results_terms JOIN results r ON r.id = results_terms.rowid
                     WHERE results_terms MATCH ?1 AND r.expires > ?2 AND r.scope = ?4
                     ORDER BY bm25(results_terms), r.created DESC LIMIT ?3",
                )
                .and_then(|mut s| {
                    collect(s.query_map(params![words.join(" OR "), now_ms, limit, scope], entry)?)
                })
        };
        rows.map_err(|e| error(&self.path, e))
    }

    /// How many rows and bytes the store holds, and whose.
    pub(crate) fn stats(&self, now_ms: i64) -> Result<Stats, StoreError> {
        let run = || -> rusqlite::Result<Stats> {
            let (entries, bytes): (i64, i64) = self.conn.query_row(
                "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM results WHERE expires > ?1",
                [now_ms],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let expired: i64 = self.conn.query_row(
                "SELECT COUNT(*) FROM results WHERE expires <= ?1",
                [now_ms],
                |r| r.get(0),
            )?;
            let mut by_tool = self.conn.prepare(
                "SELECT identity, COUNT(*) AS n FROM results WHERE expires > ?1
                 GROUP BY identity ORDER BY n DESC, identity",
            )?;
            let tools = by_tool
                .query_map([now_ms], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Stats {
                path: self.path.clone(),
                entries: entries as u64,
                expired: expired as u64,
                bytes: bytes as u64,
                cap_bytes: self.cap_bytes,
                tools,
            })
        };
        run().map_err(|e| error(&self.path, e))
    }

    /// Removes every row; returns how many there were.
    pub(crate) fn clear(&mut self) -> Result<u64, StoreError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| error(&path, e))?;
        let removed = tx
            .execute("DELETE FROM results", [])
            .and_then(|n| tx.execute("DELETE FROM results_terms", []).map(|_| n))
            .map_err(|e| error(&path, e))?;
        tx.commit().map_err(|e| error(&path, e))?;
        Ok(removed as u64)
    }

    /// Runs SQLite's own consistency check; `Ok` when the file is sound.
    #[cfg(test)]
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let verdict: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| error(&self.path, e))?;
        if verdict == "ok" {
            Ok(())
        } else {
            Err(StoreError::Corrupt {
                path: self.path.clone(),
                reason: verdict,
            })
        }
    }
}

fn entry(r: &rusqlite::Row) -> rusqlite::Result<Entry> {
    Ok(Entry {
        key: r.get(0)?,
        identity: r.get(1)?,
        brief: r.get(2)?,
        raw: r.get(3)?,
        terms: r.get(4)?,
        created_ms: r.get(5)?,
        expires_ms: r.get(6)?,
    })
}

/// A SQLite error as what it means for the store.
fn error(path: &Path, e: rusqlite::Error) -> StoreError {
    let path = path.to_path_buf();
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Locked { path },
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            path,
            reason: e.to_string(),
        },
        _ => StoreError::Io {
            path,
            reason: e.to_string(),
        },
    }
}

#[cfg(test)]
#[path = "../../tests/unit/results/store.rs"]
mod tests;
