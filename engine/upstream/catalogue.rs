//! A server's tools as codemode knows them: its `tools/list` answer, with each tool's
//! name mapped to a Luau identifier (the original is kept for the call), and what the
//! server said about itself at `initialize` ([`ServerAbout`]).

use std::sync::Arc;

use serde_json::Value;

use super::about::ServerAbout;
use super::names::NameMap;
use super::tool::UpstreamTool;

/// One configured server as listings, search, types and docs show it: never started
/// for that, so its tools are those of the cache.
#[derive(Debug, Clone)]
pub(crate) struct ServerView {
    /// Its toolbox name (`tools.<name>`).
    pub name: String,
    /// Its name in the configuration file.
    pub original: String,
    /// Its tools as last synced; `None` until `codemode mcp sync` fetched them.
    pub catalogue: Option<Arc<Catalogue>>,
    /// True for an HTTP API read from its OpenAPI description (a file the operator
    /// keeps), not a running server: fetching its tools reads a file and starts nothing,
    /// and its catalogue is exact, not a copy that may have gone stale.
    pub description: bool,
}

impl ServerView {
    /// One line saying what the toolbox is for, in the server's words (see
    /// [`ServerAbout::purpose`]), or how to fetch its tools when they are not.
    pub(crate) fn purpose(&self) -> String {
        match &self.catalogue {
            Some(c) => match c.about.purpose(&c.tools) {
                line if line.is_empty() => format!("tools of the MCP server '{}'", self.original),
                line => line,
            },
            None => format!(
                "tools of the MCP server '{}' (not fetched yet: a script's first call, tools.list or tools.search fetches them; from a shell, codemode mcp sync {})",
                self.original, self.name
            ),
        }
    }

    /// One number for the state of `views`' catalogues: it changes when a server's tools
    /// are fetched or refreshed, or a server comes or goes.
    pub(crate) fn stamp(views: &[ServerView]) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for view in views {
            view.name.hash(&mut hasher);
            match &view.catalogue {
                Some(c) => (c.fetched_at_ms, c.tools.len()).hash(&mut hasher),
                None => u64::MAX.hash(&mut hasher),
            }
        }
        hasher.finish()
    }

    /// Its tools (none until synced).
    pub(crate) fn tools(&self) -> &[UpstreamTool] {
        self.catalogue
            .as_deref()
            .map_or(&[], |c| c.tools.as_slice())
    }

    /// What the server said about itself when last synced (nothing until then).
    pub(crate) fn about(&self) -> Option<&ServerAbout> {
        self.catalogue.as_deref().map(|c| &c.about)
    }

    /// `mcp:<name>`, the `from` of its rows.
    pub(crate) fn from(&self) -> String {
        format!("mcp:{}", self.name)
    }
}

/// A server's tools, as last fetched.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Catalogue {
    /// The server's toolbox name.
    pub server: String,
    /// When `tools/list` was answered, in milliseconds since the Unix epoch.
    pub fetched_at_ms: u64,
    /// The tools, in the server's order.
    pub tools: Vec<UpstreamTool>,
    /// Tools left out (no name, not an object) and names that collided.
    pub problems: Vec<String>,
    /// What the server said about itself at `initialize`.
    pub about: ServerAbout,
}

/// What one sync of a server brings back: what it said at `initialize`, and the raw
/// `tools` of every page of its `tools/list` answer.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
    /// Its `serverInfo` and `instructions`.
    pub about: ServerAbout,
    /// The raw tools, in the server's order.
    pub tools: Vec<Value>,
}

impl Catalogue {
    /// Builds the catalogue from the raw `tools` array of one or more `tools/list` pages.
    pub(crate) fn from_raw(server: &str, fetched_at_ms: u64, raw: &[Value]) -> Self {
        Self::from_owned(server, fetched_at_ms, raw.to_vec())
    }

    /// [`Catalogue::from_raw`] of tools the caller gives up: a large catalogue (an API's
    /// thousand operations, read from the cache by every process) is not copied.
    pub(crate) fn from_owned(server: &str, fetched_at_ms: u64, mut raw: Vec<Value>) -> Self {
        // A server may quote a secret it was given (a description naming its key): masked
        // before anything reads it, listings and the search index alike, whose scores
        // would otherwise tell a script's right guess of it from a wrong one.
        for tool in &mut raw {
            crate::secrets::mask_json(tool);
        }
        let mut problems = Vec::new();
        let originals: Vec<Option<&str>> = raw
            .iter()
            .map(|t| t.get("name").and_then(Value::as_str))
            .collect();
        let mut names = NameMap::new(originals.iter().flatten().copied());
        // Names that collide are handed out in the order of the server's names, not of its
        // listing: `get-env` is `get_env` and `get.env` is `get_env_2` however the server
        // orders them, so a policy rule naming one keeps meaning that one.
        let mut sorted: Vec<&str> = originals.iter().flatten().copied().collect();
        sorted.sort_unstable();
        sorted.dedup();
        let assigned: std::collections::HashMap<&str, (String, Option<String>)> = sorted
            .into_iter()
            .filter(|n| !n.is_empty())
            .map(|n| (n, names.assign(n)))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        let mut tools = Vec::new();
        // The names are the tools' own: owned here, so each tool can be taken apart below.
        let originals: Vec<Option<String>> =
            originals.iter().map(|o| o.map(str::to_string)).collect();
        drop(names);
        let assigned: std::collections::HashMap<String, (String, Option<String>)> = assigned
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        for (i, (mut tool, original)) in raw.into_iter().zip(&originals).enumerate() {
            let original = original.as_deref();
            let Some(original) = original.filter(|n| !n.is_empty()) else {
                problems.push(format!("tool #{} has no name; left out", i + 1));
                continue;
            };
            if !seen.insert(original) {
                problems.push(format!(
                    "the server lists '{original}' twice; the first one is used"
                ));
                continue;
            }
            let (name, note) = assigned[&original.to_string()].clone();
            problems.extend(note);
            let text = |key: &str| {
                tool.get(key)
                    .and_then(Value::as_str)
                    .map(|t| crate::assets::printable(t).into_owned())
            };
            let (title, description) = (text("title"), text("description").unwrap_or_default());
            // MCP requires an object schema. Without one the tool is still offered, taking
            // one table that nothing is checked against (as `{"type": "object"}` says),
            // so a tool that takes no arguments stays callable.
            let mut take = |key: &str| tool.as_object_mut().and_then(|t| t.remove(key));
            let input = take("inputSchema");
            let output = take("outputSchema");
            let annotations = take("annotations");
            let request = take("x-codemode-request");
            let input_schema = match input {
                Some(schema @ Value::Object(_)) => printable_words(schema),
                other => {
                    problems.push(format!(
                        "'{original}' has {}; it takes any arguments, unchecked",
                        if other.is_none() {
                            "no inputSchema".to_string()
                        } else {
                            "an inputSchema that is not an object".to_string()
                        }
                    ));
                    serde_json::json!({ "type": "object" })
                }
            };
            tools.push(UpstreamTool {
                name,
                original: original.to_string(),
                title,
                description,
                input_schema,
                output_schema: output.filter(|s| s.is_object()).map(printable_words),
                annotations: annotations.filter(|a| a.is_object()),
                request: request.filter(|r| r.is_object()),
            });
        }
        Self {
            server: server.to_string(),
            fetched_at_ms,
            tools,
            problems,
            about: ServerAbout::default(),
        }
    }

    /// The tool scripts call `name` (the mapped identifier).
    #[cfg(test)]
    pub(crate) fn tool(&self, name: &str) -> Option<&UpstreamTool> {
        self.tools.iter().find(|t| t.name == name)
    }
}

/// `schema` with the control characters of its descriptions and titles escaped (see
/// [`crate::assets::printable`]); its names, which the server is sent back, are kept.
fn printable_words(mut schema: Value) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match v {
                        Value::String(text) if key == "description" || key == "title" => {
                            if let std::borrow::Cow::Owned(clean) = crate::assets::printable(text) {
                                *text = clean;
                            }
                        }
                        other => walk(other),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut schema);
    schema
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/catalogue.rs"]
mod tests;
