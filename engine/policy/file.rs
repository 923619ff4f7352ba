//! `<world>/.codemode/policy.json`: named profiles, read once at start-up. Anything the
//! file does not say exactly (bad JSON, an unknown key or capability, a pattern that can
//! match nothing, a profile that is not there) stops start-up: a policy that is not
//! understood is never taken as allowing everything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};

use super::capabilities::Capabilities;
use super::glob::Pattern;
use super::rules::{ToolRules, Verdict};

/// Where the policy file lives, relative to the world. Hidden, so `vfs` refuses it to
/// scripts.
pub(crate) const POLICY_FILE: &str = ".codemode/policy.json";

/// The profile used when none is named.
pub(crate) const DEFAULT_PROFILE: &str = "default";

/// Larger policy files are refused: a policy is a few hundred bytes.
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 20;

/// The shape of the file, for the messages that show it.
const FORMAT: &str = r#"{ "profiles": { "<name>": { "default": "allow" | "deny", "allow": ["text.*"], "deny": ["*.delete*"], "capabilities": { "authoring": true, "vfsWrite": true, "http": ["api.example.com"], "shell": ["wc"], "shellNetwork": false, "shellUnconfined": false } } } }"#;

/// A policy file that cannot be used, or a profile it does not hold.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The file exists but cannot be read.
    #[error("{}: cannot read the policy file: {reason}; make it readable, or remove it to allow every tool", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why (shown in the message, not chained again).
        reason: std::io::Error,
    },
    /// The file is not JSON of the policy's shape.
    #[error("{}:{line}:{column}: {message}; fix that line (the format: {FORMAT})", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line serde_json stopped at (1-based).
        line: usize,
        /// The column on that line.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The profile asked for (or `default`, when none was) is not in the file.
    #[error("{}: no profile named '{name}' (profiles: {}); {}", path.display(), known.join(", "), fix(name, known))]
    UnknownProfile {
        /// The file.
        path: PathBuf,
        /// The profile asked for.
        name: String,
        /// The profiles the file holds.
        known: Vec<String>,
    },
    /// A profile was named but the world has no policy file.
    #[error("--profile {name}: the world has no policy file ({}); write one with a profile '{name}', or leave --profile out", path.display())]
    NoFile {
        /// The file that is missing.
        path: PathBuf,
        /// The profile asked for.
        name: String,
    },
}

fn fix(name: &str, known: &[String]) -> String {
    if name == DEFAULT_PROFILE {
        format!("add a profile '{DEFAULT_PROFILE}' (used when no --profile is given), or pass --profile NAME")
    } else if known.is_empty() {
        "add the profile to the file".to_string()
    } else {
        format!("pass one of them with --profile, or add '{name}' to the file")
    }
}

/// The profile a run gets: which tools it sees and which capabilities it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Profile {
    /// Which tools it may see and call.
    pub(crate) rules: ToolRules,
    /// What host capabilities it holds.
    pub capabilities: Capabilities,
}

impl Profile {
    /// The profile of a world without a policy file: every tool, the default capabilities.
    pub(crate) fn open() -> Profile {
        Profile {
            rules: ToolRules::open(DEFAULT_PROFILE),
            capabilities: Capabilities::default(),
        }
    }

    /// The profile's name.
    #[cfg(test)]
    pub(crate) fn name(&self) -> &str {
        &self.rules.profile
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    profiles: Profiles,
}

/// The profiles by name. JSON readers differ on a name given twice (most keep the last),
/// so a file that does is refused rather than read one way.
struct Profiles(BTreeMap<String, ProfileSpec>);

impl<'de> Deserialize<'de> for Profiles {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Profiles;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of profiles by name")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Profiles, A::Error> {
                let mut profiles = BTreeMap::new();
                while let Some(name) = map.next_key::<String>()? {
                    if profiles.contains_key(&name) {
                        return Err(serde::de::Error::custom(format!(
                            "profile \"{}\" is given twice; keep one (which would win is not obvious)",
                            name.escape_debug()
                        )));
                    }
                    let spec = map.next_value::<ProfileSpec>()?;
                    profiles.insert(name, spec);
                }
                Ok(Profiles(profiles))
            }
        }
        deserializer.deserialize_map(Visit)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileSpec {
    default: Verdict,
    #[serde(default)]
    allow: Vec<Pattern>,
    #[serde(default)]
    deny: Vec<Pattern>,
    #[serde(default)]
    capabilities: CapabilitySpec,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapabilitySpec {
    authoring: Option<bool>,
    vfs_write: Option<bool>,
    #[serde(default)]
    http: Vec<HostPattern>,
    #[serde(default)]
    shell: Vec<Command>,
    #[serde(default)]
    shell_network: bool,
    #[serde(default)]
    shell_unconfined: bool,
}

/// A host pattern of `capabilities.http`: `api.example.com`, `*.example.org`, with an
/// optional `:port`; no scheme, path or credentials.
struct HostPattern(String);

impl<'de> Deserialize<'de> for HostPattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        check_host(&text).map_err(serde::de::Error::custom)?;
        Ok(HostPattern(text))
    }
}

fn check_host(text: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("http host \"{}\" {why}", text.escape_debug()));
    if text.is_empty() {
        return bad("is empty; give a host name like \"api.example.com\"");
    }
    if text.contains("://") || text.contains(['/', '@', '?', '#']) {
        return bad("is not a host: give the host alone (\"api.example.com\" or \"api.example.com:8443\"), without scheme, path or credentials");
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("has a space or control character");
    }
    // The port follows the last colon outside an IPv6 literal's brackets.
    let after_brackets = text.rfind(']').map_or(0, |at| at + 1);
    if let Some(colon) = text[after_brackets..].rfind(':') {
        let port = &text[after_brackets + colon + 1..];
        if port.parse::<u16>().map_or(true, |p| p == 0) {
            return bad("has a port that is not a number from 1 to 65535");
        }
    }
    // What `http.request` will match against: refused here rather than skipped there.
    crate::net::HostPattern::parse(text)
        .map(|_| ())
        .map_err(|e| format!("http host {e}"))
}

/// A command of `capabilities.shell`: one name looked up on the fixed PATH, or an
/// absolute path.
struct Command(String);

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let fix = |why: &str| {
            serde::de::Error::custom(format!(
                "shell command \"{}\" {why}: give one command name like \"wc\" or an absolute path like \"/usr/bin/wc\", without arguments",
                text.escape_debug()
            ))
        };
        // What `shell.run` suggests adding is what this takes: one rule for both.
        crate::shell::grantable(&text).map_err(fix)?;
        Ok(Command(text))
    }
}

/// Reads `world`'s policy file and returns the profile `requested` (or `default`). A
/// world without the file gets [`Profile::open`], unless a profile was asked for.
pub(crate) fn load(world: &Path, requested: Option<&str>) -> Result<Profile, PolicyError> {
    let path = world.join(POLICY_FILE);
    let text = match read(&path) {
        Ok(text) => text,
        // `.codemode` may be a file, which holds no policy either.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return match requested {
                None => Ok(Profile::open()),
                Some(name) => Err(PolicyError::NoFile {
                    path,
                    name: name.to_string(),
                }),
            }
        }
        Err(reason) => return Err(PolicyError::Read { path, reason }),
    };
    parse(&path, &text, requested)
}

fn read(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: a FIFO planted here would otherwise hold every run at its open.
    let mut file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, device or socket); make it a JSON file",
        ));
    }
    let size = meta.len();
    if size > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "{size} bytes, more than the {MAX_FILE_BYTES} a policy file may hold"
        )));
    }
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

/// The profile `requested` (or `default`) of the policy text read from `path`.
pub(crate) fn parse(
    path: &Path,
    text: &str,
    requested: Option<&str>,
) -> Result<Profile, PolicyError> {
    let file: PolicyFile = serde_json::from_str(text).map_err(|e| PolicyError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: without_position(&e.to_string()),
    })?;
    let name = requested.unwrap_or(DEFAULT_PROFILE);
    let Some(spec) = file.profiles.0.get(name) else {
        return Err(PolicyError::UnknownProfile {
            path: path.to_path_buf(),
            name: name.to_string(),
            known: file.profiles.0.keys().cloned().collect(),
        });
    };
    let defaults = Capabilities::default();
    let caps = &spec.capabilities;
    Ok(Profile {
        rules: ToolRules {
            profile: name.to_string(),
            default: spec.default,
            allow: spec.allow.clone(),
            deny: spec.deny.clone(),
        },
        capabilities: Capabilities {
            authoring: caps.authoring.unwrap_or(defaults.authoring),
            vfs_write: caps.vfs_write.unwrap_or(defaults.vfs_write),
            http: caps.http.iter().map(|h| h.0.clone()).collect(),
            shell: caps.shell.iter().map(|c| c.0.clone()).collect(),
            shell_network: caps.shell_network,
            shell_unconfined: caps.shell_unconfined,
        },
    })
}

/// serde_json's message without its " at line L column C" tail (the error names both).
fn without_position(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    };
    // serde names Rust types where the file has the wrong shape (`[]` for the object):
    // say it in the file's terms.
    if message.contains("struct PolicyFile") {
        return "the file must be one JSON object with \"profiles\"".to_string();
    }
    message.replace("struct ProfileSpec", "a profile object")
}

#[cfg(test)]
#[path = "../../tests/unit/policy/file.rs"]
mod tests;
