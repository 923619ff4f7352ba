//! The local copy of a description given by URL (`"spec": "https://..."` in `apis.json`):
//! `codemode api sync` fetches it into `.codemode/cache/openapi/<name>.spec`, and only
//! then is the API's toolbox read from it. Nothing fetches a description while a script
//! runs: what the operations are, and so what requests carry the API's credentials, is
//! decided by the operator's command, not by whatever the URL serves at the time.
//!
//! The fetch is an HTTP request made by `crate::net`, as an operation's is: the URL's
//! host is the only one allowed (named exactly, so a loopback or private address the
//! operator wrote is reached), each redirect is checked again, the credentials
//! `.codemode/http.json` gives that host are attached, and the body is capped. What comes
//! back is checked as a description before it replaces the copy, which is written whole
//! or not at all: a failed fetch, an error page or a Swagger 2.0 file leaves the old copy.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::config::SpecUrl;

/// How long one fetch may take (GitHub's description is 13 MB).
const MAX_TIME: Duration = Duration::from_secs(300);

/// A description fetched and saved.
#[derive(Debug, Clone)]
pub(crate) struct Fetched {
    /// Where the copy is.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: usize,
    /// Its `openapi` version (`3.0.3`).
    pub version: String,
    /// How many operations it describes (every method, allowed or not).
    pub operations: usize,
}

/// Fetches the description of `spec` and saves it as its copy; the error says what went
/// wrong and what to do, secrets masked.
pub(crate) fn fetch(world: &std::path::Path, spec: &SpecUrl) -> Result<Fetched, String> {
    let masked = |text: String| crate::secrets::mask(&text).into_owned();
    let url = url::Url::parse(&spec.url)
        .map_err(|e| masked(format!("\"spec\" {} is not a URL ({e})", spec.url)))?;
    let host = match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        (None, _) => return Err(masked(format!("\"spec\" {} has no host", spec.url))),
    };
    let credentials = crate::net::Credentials::load(world).map_err(|e| masked(e.to_string()))?;
    let request = crate::net::Request {
        method: "GET".into(),
        url: spec.url.clone(),
        headers: vec![
            (
                "Accept".into(),
                "application/json, application/yaml;q=0.9, */*;q=0.8".into(),
            ),
            (
                "User-Agent".into(),
                concat!("codemode/", env!("CARGO_PKG_VERSION")).into(),
            ),
        ],
        body: None,
        timeout: MAX_TIME,
        max_body: super::spec::MAX_BYTES as usize,
    };
    let allow = crate::net::Allow::new(&[host]);
    let response =
        crate::net::fetch(request, &allow, &credentials, &|| false).map_err(|e| match e {
            crate::net::NetError::Refused { url, why, .. } => masked(format!(
                "fetching {url} was refused: {why}; only the host of \"spec\" in {} is reached (a redirect elsewhere is not followed): point \"spec\" at the description's final URL",
                super::APIS_FILE
            )),
            other => masked(format!("{other}; check the URL, or that the host answers")),
        })?;
    if !(200..300).contains(&response.status) {
        let body = String::from_utf8_lossy(&response.body);
        let body: String = body.chars().take(300).collect();
        return Err(masked(format!(
            "{} answered HTTP {}: {}; check the URL (the copy, if any, is unchanged)",
            spec.url,
            response.status,
            body.trim()
        )));
    }
    let text = String::from_utf8(response.body).map_err(|_| {
        masked(format!(
            "{} is not UTF-8 text, so not a description; check the URL",
            spec.url
        ))
    })?;
    let (document, _) = super::spec::parse(&text).map_err(|why| {
        masked(format!(
            "{} {why} (the copy, if any, is unchanged)",
            spec.url
        ))
    })?;
    let version = document
        .get("openapi")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let operations = operations(&document);
    let dir = spec.path.parent().unwrap_or(world);
    std::fs::create_dir_all(dir)
        .and_then(|()| crate::cache::replace(&spec.path, text.as_bytes(), ".tmp-", 0o644))
        .map_err(|e| {
            format!(
                "cannot write {} ({e}); check the folder's permissions",
                spec.path.display()
            )
        })?;
    Ok(Fetched {
        path: spec.path.clone(),
        bytes: text.len(),
        version,
        operations,
    })
}

/// How many operations `document` describes.
fn operations(document: &Value) -> usize {
    const METHODS: [&str; 8] = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    document
        .get("paths")
        .and_then(Value::as_object)
        .map_or(0, |paths| {
            paths
                .values()
                .filter_map(Value::as_object)
                .map(|item| {
                    item.keys()
                        .filter(|k| METHODS.contains(&k.as_str()))
                        .count()
                })
                .sum()
        })
}
