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
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "s3cret".to_string())
    }

    #[test]
    fn headers_are_expanded_and_given_to_their_hosts_only() {
        let c = Credentials::parse(
            r#"{"credentials": {"api.example.com": {"headers": {"Authorization": "Bearer ${TOKEN}"}},
                "127.0.0.1:8080": {"headers": {"X-Key": "k-${TOKEN}-${TOKEN}"}}}}"#,
            &env,
        )
        .unwrap();
        let for_host = |host, port, default| c.for_host(host, port, default).unwrap();
        assert_eq!(
            for_host("api.example.com", 443, 443),
            [("Authorization".to_string(), "Bearer s3cret".to_string())]
        );
        assert!(for_host("other.example.com", 443, 443).is_empty());
        assert!(for_host("api.example.com", 8443, 443).is_empty());
        assert_eq!(for_host("127.0.0.1", 8080, 80)[0].1, "k-s3cret-s3cret");
        assert!(!format!("{c:?}").contains("s3cret"));
    }

    #[test]
    fn problems_name_the_file_and_never_a_value() {
        // An unset variable fails the requests to its own hosts only.
        let c = Credentials::parse(
            r#"{"credentials": {"a.com": {"headers": {"X": "${NOPE}"}},
                "b.com": {"headers": {"Y": "${TOKEN}"}}}}"#,
            &env,
        )
        .unwrap();
        let e = c.for_host("a.com", 443, 443).unwrap_err().to_string();
        assert!(
            e.contains(".codemode/http.json") && e.contains("${NOPE}") && e.contains("not set"),
            "{e}"
        );
        assert_eq!(c.for_host("b.com", 443, 443).unwrap()[0].1, "s3cret");
        assert!(c.for_host("c.com", 443, 443).unwrap().is_empty());
        // A value that is not visible ASCII is refused for its hosts, never quoted.
        let c = Credentials::parse(
            r#"{"credentials": {"a.com": {"headers": {"X": "s3crét"}}}}"#,
            &env,
        )
        .unwrap();
        let e = c.for_host("a.com", 443, 443).unwrap_err().to_string();
        assert!(
            e.contains("only visible ASCII") && !e.contains("s3cr"),
            "{e}"
        );
        let e = Credentials::parse(r#"{"credentials": {"a.com": {"header": {}}}}"#, &env)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("is not valid") && e.contains("the shape is"),
            "{e}"
        );
        let e = Credentials::parse(r#"{"credentials": {"a.com": "Bearer s3cret"}}"#, &env)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1") && !e.contains("s3cret"), "{e}");
        let e = Credentials::parse(r#"{"credentials": {"a b": {"headers": {}}}}"#, &env)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a host pattern"), "{e}");
        let e = Credentials::parse(
            r#"{"credentials": {"a.com": {"headers": {"Bad Name": "s3cret"}}}}"#,
            &env,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("not a header name") && !e.contains("s3cret"),
            "{e}"
        );
    }
}
