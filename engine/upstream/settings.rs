//! What a server's entry in `mcp.json` says about calling its tools, beyond how to reach
//! it: limits and the result cache, for the whole server and per tool.
//!
//! ```json
//! "time": { "command": "uvx", "args": ["mcp-server-time"],
//!           "limits": { "timeoutMs": 5000, "maxOutputBytes": 65536 },
//!           "cache": { "ttlSeconds": 300, "readOnlyHints": true },
//!           "tools": { "convert_time": { "limits": { "timeoutMs": 1000 },
//!                                        "cache": { "ttlSeconds": 60 } } } }
//! ```
//!
//! A tool's own entry wins field by field over the server's limits, and as a whole over
//! its cache. With `"readOnlyHints": true`, the server's cache applies only to tools the
//! server annotates as both `readOnlyHint` and `idempotentHint` (a tool's own `cache`
//! applies regardless).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::assets::{parse_cache, parse_limits, CachePolicy, ToolLimits};

/// One tool's own entry under `"tools"`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ToolSettings {
    /// Its limits (each field given overrides the server's).
    pub limits: ToolLimits,
    /// Its cache.
    pub cache: Option<CachePolicy>,
}

/// The limits and cache of one server's tools.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ServerSettings {
    /// Limits of every tool of the server.
    pub limits: ToolLimits,
    /// The cache of every tool of the server.
    pub cache: Option<CachePolicy>,
    /// The server's cache only for tools annotated read-only and idempotent.
    pub read_only_hints: bool,
    /// Per-tool entries, by the tool's name on the server.
    pub tools: BTreeMap<String, ToolSettings>,
}

impl ServerSettings {
    /// Reads `limits`, `cache` and `tools` of a server's entry.
    pub(crate) fn read(fields: &Map<String, Value>) -> Result<ServerSettings, String> {
        let mut settings = ServerSettings::default();
        if let Some(limits) = fields.get("limits") {
            settings.limits = parse_limits(limits, "")?;
        }
        if let Some(cache) = fields.get("cache") {
            settings.cache = Some(parse_cache(cache, "", &["readOnlyHints"])?);
            settings.read_only_hints = match cache.get("readOnlyHints") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("cache.readOnlyHints must be true or false".to_string()),
            };
        }
        match fields.get("tools") {
            None | Some(Value::Null) => {}
            Some(Value::Object(tools)) => {
                for (name, entry) in tools {
                    let at = format!("tools.{name}");
                    let Value::Object(own) = entry else {
                        return Err(format!(
                            "{at} must be an object such as {{\"limits\": {{\"timeoutMs\": 1000}}, \"cache\": {{\"ttlSeconds\": 60}}}}"
                        ));
                    };
                    if let Some(unknown) = own.keys().find(|k| !matches!(k.as_str(), "limits" | "cache")) {
                        return Err(format!(
                            "{at} has no field \"{unknown}\"; a tool's entry has \"limits\" and \"cache\""
                        ));
                    }
                    let mut tool = ToolSettings::default();
                    if let Some(limits) = own.get("limits") {
                        tool.limits = parse_limits(limits, &at)?;
                    }
                    if let Some(cache) = own.get("cache") {
                        tool.cache = Some(parse_cache(cache, &at, &[])?);
                    }
                    settings.tools.insert(name.clone(), tool);
                }
            }
            Some(_) => {
                return Err(
                    "\"tools\" must be an object of tool names, e.g. {\"tools\": {\"get_time\": {\"cache\": {\"ttlSeconds\": 60}}}}"
                        .to_string(),
                )
            }
        }
        Ok(settings)
    }

    /// The limits and cache of the server's tool `original` (its name on the server),
    /// which scripts call `name`, given the annotations the server sent for it. Its entry
    /// under `"tools"` may use either name.
    pub(crate) fn of(
        &self,
        original: &str,
        name: &str,
        annotations: Option<&Value>,
    ) -> (ToolLimits, Option<CachePolicy>) {
        let own = self.tools.get(original).or_else(|| self.tools.get(name));
        let limits = ToolLimits {
            timeout_ms: own
                .and_then(|t| t.limits.timeout_ms)
                .or(self.limits.timeout_ms),
            max_output_bytes: own
                .and_then(|t| t.limits.max_output_bytes)
                .or(self.limits.max_output_bytes),
        };
        let hinted = |hint: &str| {
            annotations
                .and_then(|a| a.get(hint))
                .and_then(Value::as_bool)
                .unwrap_or(false)
        };
        let cache = match own.and_then(|t| t.cache) {
            Some(cache) => Some(cache),
            None if !self.read_only_hints => self.cache,
            None if hinted("readOnlyHint") && hinted("idempotentHint") => self.cache,
            None => None,
        };
        (limits, cache)
    }

    /// The keys under `"tools"` that name none of `tools` (by the server's name or the
    /// script's), each with what the user may have meant: such an entry does nothing.
    pub(crate) fn unmatched(&self, tools: &[super::UpstreamTool]) -> Vec<String> {
        let names = || {
            tools
                .iter()
                .flat_map(|t| [t.original.as_str(), t.name.as_str()])
        };
        self.tools
            .keys()
            .filter(|key| !names().any(|n| n == key.as_str()))
            .map(|key| {
                let near = crate::assets::names::nearest(key, names());
                match near.first() {
                    Some(best) => format!(
                        "\"tools\" entry '{key}' in mcp.json names no tool of this server, so its limits and cache do nothing; did you mean '{best}'?"
                    ),
                    None => format!(
                        "\"tools\" entry '{key}' in mcp.json names no tool of this server, so its limits and cache do nothing"
                    ),
                }
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/settings.rs"]
mod tests;
