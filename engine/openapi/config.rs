//! `<world>/.codemode/apis.json`: the HTTP APIs a world uses, each with its OpenAPI
//! description.
//!
//! ```json
//! { "apis": {
//!     "github": { "spec": "specs/github.json", "baseUrl": "https://api.github.com",
//!                 "methods": ["GET", "POST"], "limits": { "timeoutMs": 10000 },
//!                 "cache": { "ttlSeconds": 60 } },
//!     "pets":   { "spec": "https://example.com/openapi.yaml", "baseUrl": "${PETS_URL}" } } }
//! ```
//!
//! Read as `mcp.json` is: the file is hidden from `vfs`, `${NAME}` and `${NAME:-default}`
//! take codemode's environment (a value taken is masked wherever text leaves), and each
//! API that cannot be used is a problem naming the file, the API and the fix while the
//! others still load. A relative `spec` is relative to the file's folder. A `spec` that is
//! a URL is read from its copy in `.codemode/cache/openapi/`, never from the network
//! while a script runs: `codemode api sync` fetches it (see `copy`). Credentials are not
//! written here: `.codemode/http.json` attaches them by host, as for `http.request`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// Where a world keeps its APIs, relative to the world.
pub(crate) const APIS_FILE: &str = ".codemode/apis.json";

/// Where the copies of descriptions given by URL are kept, relative to the world.
pub(crate) const FETCHED_DIR: &str = ".codemode/cache/openapi";

/// The methods an API allows when its entry lists none: reading only.
const DEFAULT_METHODS: [&str; 2] = ["GET", "HEAD"];

const METHODS: [&str; 8] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
];

/// How codemode reaches one API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Api {
    /// The description's file (the fetched copy when `spec_url` is set).
    pub spec: PathBuf,
    /// Where the description comes from, when `spec` is a URL.
    pub spec_url: Option<String>,
    /// Every request goes to a path below this URL (no trailing `/`).
    pub base_url: String,
    /// The HTTP methods of the operations offered, upper-case; others are left out.
    pub methods: Vec<String>,
    /// The description file's size and modification time when the file was read: a
    /// changed description is another catalogue.
    pub stamp: String,
    /// With `"response"`: each operation answers `{ status, headers, body }`, `headers`
    /// holding these (lower-case) names' values; without, the body alone.
    pub response: Option<Vec<String>>,
}

/// One usable entry of `apis.json`.
#[derive(Debug, Clone)]
pub(crate) struct ApiEntry {
    /// Its name in the file.
    pub original: String,
    /// The file it came from.
    pub file: PathBuf,
    /// How to reach it.
    pub api: Api,
    /// The whole entry, for the limits and cache settings read as an MCP server's are.
    pub fields: Map<String, Value>,
}

/// A file or an API that could not be used, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApiProblem {
    /// The file.
    pub file: PathBuf,
    /// The API's name in the file, when the problem is one API's.
    pub api: Option<String>,
    /// What is wrong and the fix.
    pub message: String,
}

/// Reads `<world>/.codemode/apis.json` when it exists: the usable APIs, and a problem for
/// each one (or the whole file) that is not.
pub(crate) fn read(world: &Path) -> (Vec<ApiEntry>, Vec<ApiProblem>) {
    let file = world.join(APIS_FILE);
    if !file.exists() {
        return (Vec::new(), Vec::new());
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => {
            let problem = ApiProblem {
                file,
                api: None,
                message: format!("cannot read it ({e}); check its permissions"),
            };
            return (Vec::new(), vec![problem]);
        }
    };
    parse(world, &file, &text)
}

/// Reads the text of an `apis.json` (`file` names it in problems and anchors `spec`).
pub(crate) fn parse(world: &Path, file: &Path, text: &str) -> (Vec<ApiEntry>, Vec<ApiProblem>) {
    let problem = |api: Option<&str>, message: String| ApiProblem {
        file: file.to_path_buf(),
        api: api.map(str::to_string),
        message: crate::secrets::mask(&message).into_owned(),
    };
    let root: Value = match serde_json::from_str(text.trim_start_matches('\u{feff}')) {
        Ok(root) => root,
        Err(e) => {
            return (
                Vec::new(),
                vec![problem(
                    None,
                    format!(
                        "not valid JSON at line {}, column {}; fix the file (a trailing comma or a missing quote is the usual cause)",
                        e.line(),
                        e.column()
                    ),
                )],
            )
        }
    };
    let Some(Value::Object(apis)) = root.get("apis") else {
        return (
            Vec::new(),
            vec![problem(
                None,
                "no \"apis\" object; write {\"apis\": {\"name\": {\"spec\": \"openapi.json\", \"baseUrl\": \"https://api.example.com\"}}}".into(),
            )],
        );
    };
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for (name, entry) in apis {
        match read_entry(world, file, name, entry) {
            Ok(Some(api)) => entries.push(ApiEntry {
                original: name.clone(),
                file: file.to_path_buf(),
                api,
                fields: entry.as_object().cloned().unwrap_or_default(),
            }),
            Ok(None) => {}
            Err(message) => problems.push(problem(Some(name), message)),
        }
    }
    (entries, problems)
}

/// One entry; `Ok(None)` when it is `"disabled": true`.
fn read_entry(world: &Path, file: &Path, name: &str, entry: &Value) -> Result<Option<Api>, String> {
    let Value::Object(fields) = entry else {
        return Err("must be an object such as {\"spec\": \"openapi.json\", \"baseUrl\": \"https://api.example.com\"}".into());
    };
    if fields.get("disabled") == Some(&Value::Bool(true)) {
        return Ok(None);
    }
    for key in fields.keys() {
        if !matches!(
            key.as_str(),
            "spec" | "baseUrl" | "methods" | "response" | "limits" | "cache" | "tools" | "disabled"
        ) {
            return Err(format!(
                "has no field \"{key}\"; an API has \"spec\", \"baseUrl\", \"methods\", \"response\", \"limits\", \"cache\", \"tools\" and \"disabled\" (credentials go in .codemode/http.json)"
            ));
        }
    }
    let spec = text_field(fields, "spec")?
        .ok_or("has no \"spec\"; add \"spec\": the path of its OpenAPI description (JSON or YAML), or its URL")?;
    let base_url = text_field(fields, "baseUrl")?.ok_or(
        "has no \"baseUrl\"; add \"baseUrl\": the URL its paths are below, e.g. \"https://api.example.com\"",
    )?;
    let base = url::Url::parse(&base_url)
        .map_err(|e| format!("\"baseUrl\" is not a URL ({e}); write it as https://host/path"))?;
    if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
        return Err("\"baseUrl\" must be an http:// or https:// URL with a host".into());
    }
    if base.query().is_some() || base.fragment().is_some() {
        return Err(
            "\"baseUrl\" must not have a query or a fragment; write only scheme, host and path"
                .into(),
        );
    }
    let methods = match fields.get("methods") {
        None | Some(Value::Null) => DEFAULT_METHODS.iter().map(|m| m.to_string()).collect(),
        Some(Value::Array(list)) => {
            let mut methods = Vec::new();
            for item in list {
                let method = item.as_str().map(str::to_ascii_uppercase);
                match method {
                    Some(m) if METHODS.contains(&m.as_str()) => methods.push(m),
                    _ => {
                        return Err(format!(
                        "\"methods\" holds {item}, which is not an HTTP method; list some of {}",
                        METHODS.join(", ")
                    ))
                    }
                }
            }
            methods
        }
        Some(_) => return Err("\"methods\" must be a list such as [\"GET\", \"POST\"]".into()),
    };
    let response = match fields.get("response") {
        None | Some(Value::Null) => None,
        Some(Value::Object(response)) => {
            let wrong = || {
                "\"response\" takes {\"headers\": [\"link\", \"etag\"]}: the answer's headers to keep beside its status".to_string()
            };
            if response.keys().any(|k| k != "headers") {
                return Err(wrong());
            }
            let names = match response.get("headers") {
                None => Vec::new(),
                Some(Value::Array(names)) => names
                    .iter()
                    .map(|n| n.as_str().map(str::to_ascii_lowercase).ok_or_else(wrong))
                    .collect::<Result<Vec<_>, _>>()?,
                Some(_) => return Err(wrong()),
            };
            Some(names)
        }
        Some(_) => {
            return Err("\"response\" must be an object such as {\"headers\": [\"link\"]}".into())
        }
    };
    let is_url = spec.starts_with("http://") || spec.starts_with("https://");
    let (path, spec_url) = if is_url {
        (fetched_path(world, name), Some(spec.clone()))
    } else {
        let path = PathBuf::from(&spec);
        let path = match file.parent() {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path,
        };
        (path, None)
    };
    let meta = match std::fs::metadata(&path) {
        Ok(meta) if meta.is_file() => meta,
        Ok(_) => return Err(format!("\"spec\" {} is not a file; point it at the description", path.display())),
        Err(_) if is_url => {
            return Err(format!(
                "its description at {spec} is not fetched yet (codemode never fetches one while scripts run); run codemode api sync {name}, which saves it as {}",
                path.display()
            ))
        }
        Err(e) => {
            return Err(format!(
                "cannot read \"spec\" {} ({e}); fix the path (a relative one is relative to {})",
                path.display(),
                file.parent().unwrap_or(Path::new(".")).display()
            ))
        }
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Ok(Some(Api {
        spec: path,
        spec_url,
        base_url: base_url.trim_end_matches('/').to_string(),
        methods,
        stamp: format!("{}-{modified}", meta.len()),
        response,
    }))
}

/// An API whose description is given by URL, and where its copy is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SpecUrl {
    /// Its name in the file.
    pub api: String,
    /// The description's URL (`${NAME}` replaced).
    pub url: String,
    /// Where its copy is kept (see [`fetched_path`]).
    pub path: PathBuf,
}

/// The APIs of `<world>/.codemode/apis.json` whose `spec` is a URL (disabled ones left
/// out), whether fetched or not, and a problem for each entry (or the file) not read.
pub(crate) fn spec_urls(world: &Path) -> (Vec<SpecUrl>, Vec<ApiProblem>) {
    let file = world.join(APIS_FILE);
    let problem = |api: Option<&String>, message: String| ApiProblem {
        file: file.clone(),
        api: api.cloned(),
        message: crate::secrets::mask(&message).into_owned(),
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), Vec::new()),
        Err(e) => {
            let message = format!("cannot read it ({e}); check its permissions");
            return (Vec::new(), vec![problem(None, message)]);
        }
    };
    let root: Value = match serde_json::from_str(text.trim_start_matches('\u{feff}')) {
        Ok(root) => root,
        Err(e) => {
            let message = format!("not valid JSON ({e}); fix the file");
            return (Vec::new(), vec![problem(None, message)]);
        }
    };
    let empty = Map::new();
    let apis = root
        .get("apis")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let (mut urls, mut problems) = (Vec::new(), Vec::new());
    for (name, entry) in apis {
        let Some(fields) = entry.as_object() else {
            continue;
        };
        if fields.get("disabled") == Some(&Value::Bool(true)) {
            continue;
        }
        match text_field(fields, "spec") {
            Ok(Some(url)) if url.starts_with("http://") || url.starts_with("https://") => urls
                .push(SpecUrl {
                    api: name.clone(),
                    url,
                    path: fetched_path(world, name),
                }),
            Ok(_) => {}
            Err(message) => problems.push(problem(Some(name), message)),
        }
    }
    (urls, problems)
}

/// Where the copy of the description of the API named `name` is kept.
pub(crate) fn fetched_path(world: &Path, name: &str) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    world.join(FETCHED_DIR).join(format!("{safe}.spec"))
}

/// A string field, `${NAME}` replaced.
fn text_field(fields: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        // A bare origin (`https://api.example.com:8443`) is where the API is, not a
        // secret: masked, every link the API returns would be cut. A token in a URL's
        // path, query or user part is masked as any value is.
        Some(Value::String(s)) => {
            let env = |name: &str| std::env::var(name).ok();
            crate::secrets::expand(s, key, env, |v| !is_bare_origin(v)).map(|(s, _)| Some(s))
        }
        Some(_) => Err(format!("\"{key}\" must be a string")),
    }
}

/// True for `scheme://host[:port][/]` and nothing more.
fn is_bare_origin(value: &str) -> bool {
    let Ok(url) = url::Url::parse(value) else {
        return false;
    };
    matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && value.trim_end_matches('/').len() == url.origin().ascii_serialization().len()
}

#[cfg(test)]
#[path = "../../tests/unit/openapi/config.rs"]
mod tests;
