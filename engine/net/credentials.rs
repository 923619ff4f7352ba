//! Credentials the host attaches to requests, from `<world>/.codemode/http.json`:
//!
//! ```json
//! { "credentials": {
//!     "api.example.com":   { "headers": { "Authorization": "Bearer ${EXAMPLE_TOKEN}" } },
//!     "*.internal.example": { "headers": { "X-Api-Key": "${INTERNAL_KEY}" } } } }
//! ```
//!
//! Keys are host patterns (as in the grant); `${NAME}` is replaced by the environment
//! variable of codemode's process. The file is hidden from `vfs`, and a value never
//! reaches a script: it is attached per hop, only to a host its pattern names (so never
//! to the target of a redirect to another host), and every value is remembered as a
//! secret when the file is read (`crate::secrets`), so the host masks it, in its
//! encoded forms too, in whatever comes back.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::allow::{Allow, Grant};
use super::error::NetError;

/// Where the credentials live, relative to the world.
pub(crate) const CREDENTIALS_FILE: &str = ".codemode/http.json";

/// The largest credentials file read.
const MAX_BYTES: u64 = 256 * 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    credentials: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[serde(default)]
    headers: BTreeMap<String, String>,
}

/// The credentials of a world, by host pattern, with their variables expanded. An entry
/// whose variable is not set holds the problem instead: it fails the requests to its
/// hosts only, never a request elsewhere.
#[derive(Default, Clone)]
pub(crate) struct Credentials {
    entries: Vec<(Allow, Headers)>,
}

/// An entry's headers by name, or why they cannot be sent.
type Headers = Result<Vec<(String, String)>, String>;

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a value.
        write!(f, "Credentials({} hosts)", self.entries.len())
    }
}

fn problem(why: impl Into<String>) -> NetError {
    NetError::Credentials {
        file: CREDENTIALS_FILE.to_string(),
        why: why.into(),
    }
}

impl Credentials {
    /// Reads the world's credentials file; none at all when it does not exist.
    pub(crate) fn load(world: &Path) -> Result<Credentials, NetError> {
        use std::io::Read;
        let path = world.join(CREDENTIALS_FILE);
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Credentials::default()),
            Err(e) => {
                return Err(problem(format!(
                    "cannot be read ({e}); check its permissions"
                )))
            }
        };
        let mut text = String::new();
        file.take(MAX_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| problem(format!("cannot be read as UTF-8 text ({e})")))?;
        if text.len() as u64 > MAX_BYTES {
            return Err(problem(format!(
                "is larger than {MAX_BYTES} bytes; keep only credentials in it"
            )));
        }
        Credentials::parse(&text, &|name| std::env::var(name).ok())
    }

    /// Reads credentials from `text`, expanding `${NAME}` with `env`.
    pub(crate) fn parse(
        text: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Credentials, NetError> {
        // serde's messages may quote a value (`invalid type: string "..."`): only the place
        // of the problem is shown.
        let file: File = serde_json::from_str(text).map_err(|e| {
            problem(format!(
                "is not valid (line {}, column {}); the shape is {{\"credentials\": {{\"host\": {{\"headers\": {{\"Name\": \"value or ${{ENV}}\"}}}}}}}}",
                e.line(),
                e.column()
            ))
        })?;
        let mut entries = Vec::new();
        for (pattern, entry) in file.credentials {
            super::allow::HostPattern::parse(&pattern).map_err(problem)?;
            let mut headers = Ok(Vec::new());
            for (name, value) in entry.headers {
                reqwest::header::HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                    problem(format!("'{name}' (for {pattern}) is not a header name"))
                })?;
                match (expand(&value, env), &mut headers) {
                    // A header carries visible ASCII: a server may read other bytes in
                    // another encoding and echo them in a form no mask knows.
                    (Ok(value), Ok(_)) if !value.bytes().all(|b| b == b'\t' || (b' '..=b'~').contains(&b)) => {
                        crate::secrets::remember(&value);
                        headers = Err(format!(
                            "the header {name} for {pattern} holds a character a header does not carry (only visible ASCII); encode the value as the API asks (Base64, percent-encoding)"
                        ))
                    }
                    (Ok(value), Ok(list)) => {
                        crate::secrets::remember(&value);
                        list.push((name, value))
                    }
                    (Err(var), Ok(_)) => {
                        headers = Err(format!(
                            "the header {name} for {pattern} uses ${{{var}}}, which is not set; set it in codemode's environment"
                        ))
                    }
                    (_, Err(_)) => {}
                }
            }
            entries.push((Allow::new(&[pattern]), headers));
        }
        Ok(Credentials { entries })
    }

    /// The headers to attach to a request for `host` on `port`; an error when an entry
    /// for that host names a variable that is not set (the request would go out without
    /// the credentials it needs).
    pub(crate) fn for_host(
        &self,
        host: &str,
        port: u16,
        default_port: u16,
    ) -> Result<Vec<(String, String)>, NetError> {
        let mut out = Vec::new();
        for (allow, headers) in &self.entries {
            if allow.grant(host, port, default_port) == Grant::No {
                continue;
            }
            out.extend(headers.as_ref().map_err(problem)?.iter().cloned());
        }
        Ok(out)
    }
}

/// `value` with every `${NAME}` replaced; the name of the first unset variable otherwise.
fn expand(value: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        out.push_str(&rest[..start]);
        let name = &rest[start + 2..start + 2 + len];
        out.push_str(&env(name).ok_or_else(|| name.to_string())?);
        rest = &rest[start + 3 + len..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
#[path = "../../tests/unit/net/credentials.rs"]
mod tests;
