//! The `mcpServers` configuration that Claude Desktop, Cursor and Claude Code share:
//!
//! ```json
//! { "mcpServers": {
//!     "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "data"],
//!                "env": { "TOKEN": "..." }, "cwd": "/tmp" },
//!     "remote": { "type": "http", "url": "http://127.0.0.1:8080/mcp",
//!                 "headers": { "Authorization": "Bearer ..." } } } }
//! ```
//!
//! Read from `<world>/.codemode/mcp.json` (hidden, so no script can rewrite it through
//! `vfs`) and from any number of extra files. Reading never fails as a whole: each file
//! or server that cannot be used becomes a [`ConfigProblem`] naming the file, the server
//! and the fix, and the other servers are still returned. Fields other clients use
//! (`disabled`, `autoApprove`, `timeout`, ...) are ignored; `"disabled": true` leaves the
//! server out. As in Claude Code, `${NAME}` and `${NAME:-default}` in a string value are
//! replaced by codemode's environment variable `NAME`, so a token can stay out of the file.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::names::{is_identifier, luau_name};
use super::secret::{Redactor, Secret};
use crate::assets::names::RESERVED;

/// Where a world keeps its own server list, relative to the world.
pub(crate) const DEFAULT_CONFIG: &str = ".codemode/mcp.json";

/// Where a world keeps its HTTP APIs (`crate::openapi`), served as servers are.
pub(crate) use crate::openapi::APIS_FILE;

/// How codemode reaches one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Transport {
    /// A local process speaking MCP on its stdin and stdout.
    Stdio {
        /// The program (found on `PATH` if it has no slash).
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Added to the inherited environment. Secret: never shown.
        env: BTreeMap<String, Secret>,
        /// Its working directory (relative paths are relative to the config file's
        /// folder); the world when not given.
        cwd: Option<PathBuf>,
    },
    /// A remote server speaking streamable HTTP.
    Http {
        /// The endpoint, e.g. `https://mcp.example.com/mcp` or `http://127.0.0.1:3001/mcp`.
        url: String,
        /// Sent with every request. Secret: never shown.
        headers: BTreeMap<String, Secret>,
        /// The values of the variables `${NAME}` put into `url` (a token in a query
        /// string): masked wherever the URL is shown.
        url_secrets: Vec<Secret>,
    },
    /// An HTTP API with an OpenAPI description (`.codemode/apis.json`): its operations
    /// are the tools, a call is an HTTP request (see `crate::openapi`).
    OpenApi(crate::openapi::Api),
}

/// One usable server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServerConfig {
    /// Its toolbox name: a Luau identifier (`my-server` becomes `my_server`).
    pub name: String,
    /// Its name in the file.
    pub original_name: String,
    /// The file it came from.
    pub file: PathBuf,
    /// How to reach it.
    pub transport: Transport,
    /// Limits and the result cache of its tools.
    pub settings: super::settings::ServerSettings,
    /// `"allowWorldAccess": true`: its arguments may name the world's folder (see
    /// `guard.rs`).
    pub allow_world_access: bool,
    /// A local server's command and arguments as the file writes them, before `${NAME}`
    /// is replaced: what messages quote, so they never show a variable's value.
    pub(crate) written: Vec<String>,
}

impl ServerConfig {
    /// Masks this server's secrets in text that came back from it.
    pub(crate) fn redactor(&self) -> Redactor {
        match &self.transport {
            Transport::Stdio { env, .. } => Redactor::new(env.values()),
            Transport::Http {
                headers,
                url_secrets,
                ..
            } => Redactor::new(headers.values().chain(url_secrets)),
            // Its credentials live in http.json, remembered (and masked) as secrets there.
            Transport::OpenApi(_) => Redactor::new(std::iter::empty()),
        }
    }

    /// `stdio`, `http` or `openapi`, for messages.
    #[cfg(test)]
    pub(crate) fn kind(&self) -> &'static str {
        match self.transport {
            Transport::Stdio { .. } => "stdio",
            Transport::Http { .. } => "http",
            Transport::OpenApi(_) => "openapi",
        }
    }
}

/// A file or a server that could not be used, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConfigProblem {
    /// The file.
    pub file: PathBuf,
    /// The server's name in the file, when the problem is one server's.
    pub server: Option<String>,
    /// What is wrong and the fix.
    pub message: String,
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.server {
            Some(server) => write!(
                f,
                "{}: server '{server}': {}",
                self.file.display(),
                self.message
            ),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// What reading the configuration found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Configs {
    /// Usable servers, each toolbox name once (the world's file first; in a file, names
    /// that already are identifiers before mapped ones).
    pub servers: Vec<ServerConfig>,
    /// Everything that could not be used.
    pub problems: Vec<ConfigProblem>,
}

impl Configs {
    /// The server with this toolbox name.
    pub(crate) fn get(&self, name: &str) -> Option<&ServerConfig> {
        self.servers.iter().find(|s| s.name == name)
    }
}

/// The text of `file` when it is a regular file; a FIFO (which would hold every run at
/// its open) or a device is refused without waiting.
fn read_regular(file: &Path) -> std::io::Result<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut opened = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(file)?;
    if !opened.metadata()?.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, device or socket)",
        ));
    }
    let mut text = String::new();
    opened.read_to_string(&mut text)?;
    Ok(text)
}

/// Reads one file into `configs`.
pub(crate) fn read_file(file: &Path, configs: &mut Configs) {
    let problem = |message: String| ConfigProblem {
        file: file.to_path_buf(),
        server: None,
        message,
    };
    let text = match read_regular(file) {
        Ok(text) => text,
        Err(e) => {
            configs.problems.push(problem(format!(
                "cannot read it ({e}); check the path given with --mcp-config"
            )));
            return;
        }
    };
    let parsed = parse_text(file, &text);
    configs.problems.extend(parsed.problems);
    for server in parsed.servers {
        if let Some(earlier) = configs.get(&server.name) {
            configs.problems.push(ConfigProblem {
                file: file.to_path_buf(),
                server: Some(server.original_name.clone()),
                message: format!(
                    "its toolbox name '{}' is already used by server '{}' in {}; rename one of them",
                    server.name,
                    earlier.original_name,
                    earlier.file.display()
                ),
            });
        } else {
            configs.servers.push(server);
        }
    }
}

/// Parses one file's text (`file` is only used in messages and to resolve `cwd`).
pub(crate) fn parse_text(file: &Path, text: &str) -> Configs {
    let mut out = Configs::default();
    let problem = |server: Option<&str>, message: String| ConfigProblem {
        file: file.to_path_buf(),
        server: server.map(str::to_string),
        message,
    };
    let root: Value = match serde_json::from_str(text.trim_start_matches('\u{feff}')) {
        Ok(v) => v,
        Err(e) => {
            out.problems.push(problem(
                None,
                format!(
                    "not valid JSON at line {}, column {}: {e}; fix the file (a trailing comma or a missing quote is the usual cause)",
                    e.line(),
                    e.column()
                ),
            ));
            return out;
        }
    };
    // Claude Desktop, Cursor and Claude Code write `mcpServers`; VS Code writes `servers`.
    let servers = match root.get("mcpServers").or_else(|| root.get("servers")) {
        Some(Value::Object(servers)) => servers,
        Some(_) => {
            out.problems.push(problem(
                None,
                "\"mcpServers\" must be an object of servers by name: {\"mcpServers\": {\"name\": {\"command\": ...}}}".into(),
            ));
            return out;
        }
        None => {
            out.problems.push(problem(
                None,
                "no \"mcpServers\" object; write {\"mcpServers\": {\"name\": {\"command\": \"...\", \"args\": [...]}}}".into(),
            ));
            return out;
        }
    };
    // A name that already is an identifier keeps it; a mapped name that would take it
    // (`a-b` beside `a_b`) is the one reported.
    let mut parsed: Vec<ServerConfig> = Vec::new();
    for (original, entry) in servers {
        match server(file, original, entry) {
            Ok(Some(server)) => parsed.push(server),
            Ok(None) => {}
            Err(message) => out.problems.push(problem(Some(original), message)),
        }
    }
    parsed.sort_by_key(|s| s.name != s.original_name);
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for server in parsed {
        if let Some(other) = names.get(&server.name) {
            out.problems.push(problem(
                Some(&server.original_name),
                format!(
                    "its toolbox name '{}' is also the name of server '{other}' in this file; rename one of them",
                    server.name
                ),
            ));
            continue;
        }
        names.insert(server.name.clone(), server.original_name.clone());
        out.servers.push(server);
    }
    mask_problems(&mut out.problems);
    out
}

/// One entry of `mcpServers`; `Ok(None)` for a disabled one.
fn server(file: &Path, original: &str, entry: &Value) -> Result<Option<ServerConfig>, String> {
    let Value::Object(fields) = entry else {
        return Err("must be an object such as {\"command\": \"npx\", \"args\": [...]} or {\"url\": \"http://...\"}".into());
    };
    if fields.get("disabled") == Some(&Value::Bool(true)) {
        return Ok(None);
    }
    let name = toolbox_name(original)?;
    let command = string_field(fields, "command")?;
    let url = string_field(fields, "url")?;
    let kind = string_field(fields, "type")?;
    let kind = match kind.as_deref() {
        None => None,
        Some("stdio") => Some(Kind::Stdio),
        Some("http" | "streamable-http" | "streamableHttp" | "streamable_http") => Some(Kind::Http),
        Some("sse") => {
            return Err("uses the SSE transport (\"type\": \"sse\"), which codemode does not support; if the server also offers streamable HTTP (often at /mcp instead of /sse), set \"type\": \"http\" and that \"url\"".into())
        }
        Some(other) => {
            return Err(format!(
                "unknown \"type\": \"{other}\"; use \"stdio\" (with \"command\") or \"http\" (with \"url\")"
            ))
        }
    };
    let kind = match (command.is_some(), url.is_some(), kind) {
        (true, true, _) => {
            return Err("has both \"command\" and \"url\"; keep \"command\" for a local server or \"url\" for a remote one".into())
        }
        (false, false, Some(Kind::Http)) => {
            return Err("is \"type\": \"http\" but has no \"url\"; add \"url\": \"http://host:port/mcp\"".into())
        }
        (false, false, _) => {
            return Err("has no \"command\" (or \"url\"); add \"command\": \"program\" and \"args\": [...] for a local server, or \"url\" for a remote one".into())
        }
        (true, false, Some(Kind::Http)) => {
            return Err("is \"type\": \"http\" but has a \"command\"; give \"url\" instead, or set \"type\": \"stdio\"".into())
        }
        (false, true, Some(Kind::Stdio)) => {
            return Err("is \"type\": \"stdio\" but has a \"url\"; give \"command\" instead, or set \"type\": \"http\"".into())
        }
        (true, false, _) => Kind::Stdio,
        (false, true, _) => Kind::Http,
    };
    let transport = match kind {
        Kind::Stdio => {
            let command = command.unwrap_or_default();
            if command.trim().is_empty() {
                return Err("\"command\" is empty; name the program to run".into());
            }
            for field in ["url", "headers"] {
                if fields.contains_key(field) {
                    return Err(format!("\"{field}\" is for HTTP servers, but this one has a \"command\"; remove it"));
                }
            }
            let cwd = string_field(fields, "cwd")?.map(|cwd| {
                let cwd = PathBuf::from(cwd);
                match file.parent() {
                    Some(dir) if cwd.is_relative() => dir.join(cwd),
                    _ => cwd,
                }
            });
            Transport::Stdio {
                command,
                args: string_list(fields, "args")?,
                env: string_map(fields, "env")?,
                cwd,
            }
        }
        Kind::Http => {
            // Expanded again, noting the values taken: a token in a query string is masked
            // like a header's.
            let raw = fields
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let (url, used) = expand_noting(raw, "url", |name| std::env::var(name).ok())?;
            check_url(&url)?;
            for field in ["command", "args", "env", "cwd"] {
                if fields.contains_key(field) {
                    return Err(format!(
                        "\"{field}\" is for local servers, but this one has a \"url\"; remove it"
                    ));
                }
            }
            Transport::Http {
                url,
                headers: string_map(fields, "headers")?,
                url_secrets: used.into_iter().map(Secret::new).collect(),
            }
        }
    };
    let settings = super::settings::ServerSettings::read(fields)?;
    let allow_world_access = match fields.get("allowWorldAccess") {
        None => false,
        Some(Value::Bool(allow)) => *allow,
        Some(other) => {
            return Err(format!(
                "\"allowWorldAccess\" must be true or false, not {}",
                json_kind(other)
            ))
        }
    };
    let written = match &transport {
        Transport::Stdio { .. } => std::iter::once(fields.get("command"))
            .chain(match fields.get("args") {
                Some(Value::Array(items)) => items.iter().map(Some).collect(),
                _ => Vec::new(),
            })
            .map(|v| match v {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            })
            .collect(),
        Transport::Http { .. } | Transport::OpenApi(_) => Vec::new(),
    };
    Ok(Some(ServerConfig {
        name,
        original_name: original.to_string(),
        file: file.to_path_buf(),
        transport,
        settings,
        allow_world_access,
        written,
    }))
}

#[derive(Clone, Copy)]
enum Kind {
    Stdio,
    Http,
}

/// The toolbox name for a server name, or why there is none.
pub(crate) fn toolbox_name(original: &str) -> Result<String, String> {
    if original.trim().is_empty() {
        return Err("the server's name is empty; give it a name such as \"files\"".into());
    }
    let name = if is_identifier(original) {
        original.to_string()
    } else {
        luau_name(original)
    };
    if !name.chars().any(|c| c.is_ascii_alphanumeric()) {
        return Err(
            "its name has no letter or digit to make a toolbox name from; rename it (e.g. \"server1\")"
                .to_string(),
        );
    }
    if RESERVED.contains(&name.as_str()) {
        return Err(format!(
            "its toolbox name '{name}' is taken by tools.{name}; rename the server (e.g. \"{name}_server\")"
        ));
    }
    Ok(name)
}

fn check_url(url: &str) -> Result<(), String> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(format!(
            "\"url\": \"{}\" is not a URL; write it as https://host/path or http://host:port/path",
            crate::upstream::error::cut(url, 200)
        ));
    };
    let scheme = scheme.to_ascii_lowercase();
    match scheme.as_str() {
        "http" | "https" if !rest.is_empty() && !rest.starts_with('/') => Ok(()),
        "http" | "https" => Err(format!(
            "\"url\" names no host; write it as {scheme}://host/path"
        )),
        _ => Err(format!(
            "\"url\" has the scheme '{scheme}'; codemode reaches MCP servers over https:// or http://"
        )),
    }
}

fn string_field(
    fields: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => expand(s, key).map(Some),
        Some(other) => Err(format!(
            "\"{key}\" must be a string, not {}",
            json_kind(other)
        )),
    }
}

fn string_list(fields: &serde_json::Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => expand(s, &format!("{key}[{i}]")),
                Value::Number(n) => Ok(n.to_string()),
                Value::Bool(b) => Ok(b.to_string()),
                other => Err(format!(
                    "\"{key}\"[{i}] must be a string, not {}",
                    json_kind(other)
                )),
            })
            .collect(),
        Some(other) => Err(format!(
            "\"{key}\" must be a list of strings, not {}",
            json_kind(other)
        )),
    }
}

/// An object of string values (`env`, `headers`). Numbers and booleans are taken as their
/// text, as other clients do; the values are secrets, so no message quotes one.
fn string_map(
    fields: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<BTreeMap<String, Secret>, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    Value::String(s) => expand(s, &format!("{key}.{k}"))?,
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    other => {
                        return Err(format!(
                            "\"{key}\".\"{k}\" must be a string, not {}",
                            json_kind(other)
                        ))
                    }
                };
                if k.is_empty() || k.contains(['=', '\0']) && key == "env" {
                    return Err(format!(
                        "\"{key}\" has a variable name that is empty or holds '=' or NUL; fix the name"
                    ));
                }
                if value.contains('\0') {
                    return Err(format!("\"{key}\".\"{k}\" holds a NUL character; remove it"));
                }
                crate::secrets::remember(&value);
                Ok((k.clone(), Secret::new(value)))
            })
            .collect(),
        Some(other) => Err(format!(
            "\"{key}\" must be an object of names to strings, not {}",
            json_kind(other)
        )),
    }
}

/// Replaces `${NAME}` and `${NAME:-default}` with codemode's environment (see
/// [`crate::secrets::expand`]); every value taken is masked from then on.
fn expand(text: &str, field: &str) -> Result<String, String> {
    expand_with(text, field, |name| std::env::var(name).ok())
}

fn expand_with(
    text: &str,
    field: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    expand_noting(text, field, lookup).map(|(out, _)| out)
}

/// [`expand_with`], and the values it took from the environment (`lookup`).
fn expand_noting(
    text: &str,
    field: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<(String, Vec<String>), String> {
    // Whatever field it lands in (an argument such as `--key=${KEY}` too), a value taken
    // from the environment is masked wherever text leaves.
    crate::secrets::expand(text, field, lookup, |_| true)
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The problems' messages with every secret masked: a refusal quotes the argument it
/// refuses, and an argument may hold an expanded `${NAME}`.
pub(crate) fn mask_problems(problems: &mut [ConfigProblem]) {
    for problem in problems {
        if let std::borrow::Cow::Owned(masked) = crate::secrets::mask(&problem.message) {
            problem.message = masked;
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/config.rs"]
mod tests;
