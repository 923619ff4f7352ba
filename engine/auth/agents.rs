//! The agents file, `<world>/.codemode/agents.json`: each agent's name, profile, when it
//! was added and the SHA-256 of its token (never the token). Written whole to a new file
//! that replaces the old one (readers never see half a file), readable by its owner only.
//! A server checks the file's stamp (inode, size, modification time) at every request and
//! reads it again when that changed, so `agent revoke` needs no restart. A file that
//! cannot be read lets nobody in until it is fixed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use super::token::{hash_token, new_token};
use super::{Agent, AuthError};
use crate::cache::digest_bytes;

/// Where the agents file lives, under the world.
pub(crate) const AGENTS_FILE: &str = ".codemode/agents.json";

/// The most bytes an agents file may hold (a few thousand agents).
const MAX_FILE_BYTES: u64 = 4 << 20;

/// One agent as the file keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct AgentEntry {
    /// The profile of `.codemode/policy.json` its runs get.
    pub profile: String,
    /// When it was added, as an HTTP date (UTC).
    pub created: String,
    /// The SHA-256 of its token, lower-case hex.
    pub(crate) token_sha256: String,
}

/// The whole file: agents by name.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct AgentsFile {
    /// Every agent, by name.
    pub agents: BTreeMap<String, AgentEntry>,
}

impl AgentsFile {
    /// The file of `world`; empty when there is none.
    pub(crate) fn load(world: &Path) -> Result<AgentsFile, AuthError> {
        let path = world.join(AGENTS_FILE);
        match read(&path)? {
            Some(file) => Ok(file),
            None => Ok(AgentsFile::default()),
        }
    }

    /// Adds agent `name` with `profile`; returns its token, which is shown once and kept
    /// nowhere. The caller saves the file.
    pub(crate) fn add(&mut self, name: &str, profile: &str) -> Result<String, AuthError> {
        check_name(name)?;
        if self.agents.contains_key(name) {
            return Err(AuthError::Exists(name.into()));
        }
        let token = new_token().map_err(|e| AuthError::File {
            path: AGENTS_FILE.into(),
            reason: format!("cannot make a random token: {e}"),
        })?;
        self.agents.insert(
            name.into(),
            AgentEntry {
                profile: profile.into(),
                created: httpdate::fmt_http_date(std::time::SystemTime::now()),
                token_sha256: hash_token(&token),
            },
        );
        Ok(token)
    }

    /// Removes agent `name`. The caller saves the file.
    pub(crate) fn revoke(&mut self, name: &str) -> Result<(), AuthError> {
        self.agents
            .remove(name)
            .map(|_| ())
            .ok_or_else(|| AuthError::Unknown(name.into()))
    }

    /// Writes the file under `world`: to a new file (owner read/write only) that then
    /// replaces the old one, so a server never reads half of it.
    pub(crate) fn save(&self, world: &Path) -> Result<(), AuthError> {
        let path = world.join(AGENTS_FILE);
        let failed = |e: std::io::Error| AuthError::File {
            path: path.display().to_string(),
            reason: format!("cannot write it ({e})"),
        };
        let dir = path.parent().unwrap_or(world);
        std::fs::create_dir_all(dir).map_err(failed)?;
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        crate::cache::replace(&path, text.as_bytes(), ".agents.json.", 0o600).map_err(failed)
    }
}

/// 1 to 64 letters, digits, `-`, `_`, `.`: a name that reads the same in a log line.
fn check_name(name: &str) -> Result<(), AuthError> {
    let fits = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    match fits {
        true => Ok(()),
        false => Err(AuthError::BadName(name.chars().take(80).collect())),
    }
}

/// The file at `path`, `None` when there is none.
fn read(path: &Path) -> Result<Option<AgentsFile>, AuthError> {
    use std::io::Read;
    let bad = |reason: String| AuthError::File {
        path: path.display().to_string(),
        reason,
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(bad(format!("cannot read it ({e})"))),
    };
    let mut text = String::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| bad(format!("cannot read it ({e})")))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(bad(format!("larger than {MAX_FILE_BYTES} bytes")));
    }
    serde_json::from_str(&text).map(Some).map_err(|e| {
        bad(format!(
            "not an agents file ({e}); fix it, or remove it and add the agents again with codemode agent add"
        ))
    })
}

/// What identifies one version of the file: a rewrite (a new inode), an edit in place (a
/// new size or time), or its removal.
type Stamp = Option<(u64, u64, i64, i64)>;

fn stamp(path: &Path) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.ino(), meta.len(), meta.mtime(), meta.mtime_nsec()))
}

/// The agents of a world as a running server sees them: re-read whenever the file changed.
#[derive(Debug)]
pub(crate) struct Agents {
    path: PathBuf,
    known: Mutex<(Stamp, Arc<Known>)>,
}

/// The agents last read; `Err` when the file could not be used (nobody gets in).
type Known = Result<Vec<([u8; 32], Agent)>, String>;

impl Agents {
    /// The agents of `world`, read now and again whenever the file changes.
    pub(crate) fn new(world: &Path) -> Agents {
        let path = world.join(AGENTS_FILE);
        let now = stamp(&path);
        let known = Arc::new(load_known(&path));
        Agents {
            path,
            known: Mutex::new((now, known)),
        }
    }

    /// The agent holding `token`, if any. Every agent's hash is compared, in constant time.
    pub(crate) fn verify(&self, token: &str) -> Option<Agent> {
        let known = self.current();
        let entries = known.as_ref().as_ref().ok()?;
        let digest = digest_bytes(&hash_token(token))?;
        let mut found = None;
        for (hash, agent) in entries {
            if bool::from(hash.ct_eq(&digest)) {
                found = Some(agent);
            }
        }
        found.cloned()
    }

    /// How many agents can log in now, or why none can.
    pub(crate) fn count(&self) -> Result<usize, String> {
        self.current()
            .as_ref()
            .as_ref()
            .map(Vec::len)
            .map_err(Clone::clone)
    }

    fn current(&self) -> Arc<Known> {
        let now = stamp(&self.path);
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.0 != now {
            let fresh = Arc::new(load_known(&self.path));
            if let Err(why) = fresh.as_ref() {
                tracing::warn!("{why}; no agent token is accepted until it is fixed");
            }
            *known = (now, fresh);
        }
        known.1.clone()
    }
}

fn load_known(path: &Path) -> Known {
    let file = read(path).map_err(|e| e.to_string())?.unwrap_or_default();
    let mut entries = Vec::new();
    for (name, entry) in file.agents {
        let Some(digest) = digest_bytes(&entry.token_sha256) else {
            return Err(format!(
                "{}: agent '{name}' has no valid tokenSha256; revoke and add it again",
                path.display()
            ));
        };
        entries.push((
            digest,
            Agent {
                name,
                profile: entry.profile,
            },
        ));
    }
    Ok(entries)
}

#[cfg(test)]
#[path = "../../tests/unit/auth/agents.rs"]
mod tests;
