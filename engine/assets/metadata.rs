//! The `.metadata` JSON of toolboxes and tools.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Tags one `.metadata` may give: they are words for search, and everything that reads
/// them (search, docs, export) compares them with each other.
pub(crate) const MAX_TAGS: usize = 32;
/// The longest tag.
pub(crate) const MAX_TAG_CHARS: usize = 64;
/// The longest description `tools.createToolbox` and `tools.create` write, and the most of
/// a toolbox's description (its README's first line, or `.metadata`) a listing shows: one
/// huge description would otherwise fill a listing's output cap and hide what follows it.
pub(crate) const MAX_DESCRIPTION_CHARS: usize = 2000;

/// Why `text` is too long for a description, or `None`.
pub(crate) fn description_problem(text: &str) -> Option<String> {
    let chars = text.chars().count();
    (chars > MAX_DESCRIPTION_CHARS).then(|| {
        format!(
            "description is {chars} characters; give at most {MAX_DESCRIPTION_CHARS}, a sentence or two (details go in README.md)"
        )
    })
}

/// `text` cut to [`MAX_DESCRIPTION_CHARS`] characters and an ellipsis, when it is longer:
/// what listings show of a description, so one cannot fill a listing's output cap.
pub(crate) fn cut_to_cap(text: &str) -> Option<String> {
    let (cut, _) = text.char_indices().nth(MAX_DESCRIPTION_CHARS)?;
    Some(format!("{}…", &text[..cut]))
}

/// The fields of `.metadata` the engine reads; others are kept by the author and ignored.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Metadata {
    /// Toolbox description (used when the README has no purpose line).
    pub(crate) description: Option<String>,
    /// Tags for search.
    pub(crate) tags: Vec<String>,
    /// `ready` | `planned` | `deprecated`.
    pub(crate) status: Option<String>,
    /// `"workflow"` marks a workflow toolbox.
    pub(crate) kind: Option<String>,
    /// `{"timeoutMs": N, "maxOutputBytes": N}`: the tool's own budget per call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) limits: Option<Value>,
    /// `{"ttlSeconds": N}`: results of the tool are kept and reused for that long.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cache: Option<Value>,
}

/// The budget one tool's calls are held to, on top of the run's own limits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolLimits {
    /// A call that runs longer fails with `timeout`, naming the tool and this limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) timeout_ms: Option<u64>,
    /// A result larger than this (as JSON) is cut, as the envelope cuts a value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max_output_bytes: Option<u64>,
}

/// How long a tool's results are reused (the result cache).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CachePolicy {
    /// Seconds a stored result is returned instead of running the tool again.
    pub(crate) ttl_seconds: u64,
}

/// The longest per-tool timeout: an hour (the run's deadline usually ends a call first).
pub(crate) const MAX_TOOL_TIMEOUT_MS: u64 = 3_600_000;
/// The longest a result may be kept: 30 days.
pub(crate) const MAX_TTL_SECONDS: u64 = 30 * 24 * 3600;

/// `"<path>: "` before a message about the file at `path`; nothing when the caller
/// names the file itself.
fn prefix(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

/// A whole number in `1..=max` at `field`, or a message naming `path` and the fix.
fn positive(
    object: &serde_json::Map<String, Value>,
    field: &str,
    max: u64,
    path: &str,
    what: &str,
) -> Result<Option<u64>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) if (1..=max).contains(&v) => Ok(Some(v)),
            _ => Err(format!(
                "{}{what}.{field} is {n}; give a whole number from 1 to {max}",
                prefix(path)
            )),
        },
        Some(other) => Err(format!(
            "{}{what}.{field} must be a number, not {}; e.g. {{\"{what}\": {{\"{field}\": 1000}}}}",
            prefix(path),
            json_kind(other)
        )),
    }
}

/// How a JSON value's type reads in an error message ("a string", "an array").
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The fields of `value` (an object), refusing any other name than `known`.
fn fields<'a>(
    value: &'a Value,
    known: &[&str],
    path: &str,
    what: &str,
    example: &str,
) -> Result<&'a serde_json::Map<String, Value>, String> {
    let Value::Object(object) = value else {
        return Err(format!(
            "{}\"{what}\" must be an object, not {}; e.g. {example}",
            prefix(path),
            json_kind(value)
        ));
    };
    if let Some(unknown) = object.keys().find(|k| !known.contains(&k.as_str())) {
        let shown: String = unknown.chars().take(40).collect();
        return Err(format!(
            "{}\"{what}\" has no field \"{shown}\"; its fields are {}",
            prefix(path),
            known
                .iter()
                .map(|k| format!("\"{k}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(object)
}

/// Reads a `"limits"` object (of a tool's `.metadata`, or of a server in `mcp.json`);
/// the error names `path` and the fix.
pub(crate) fn parse_limits(value: &Value, path: &str) -> Result<ToolLimits, String> {
    let example = "{\"limits\": {\"timeoutMs\": 2000, \"maxOutputBytes\": 65536}}";
    let object = fields(
        value,
        &["timeoutMs", "maxOutputBytes"],
        path,
        "limits",
        example,
    )?;
    Ok(ToolLimits {
        timeout_ms: positive(object, "timeoutMs", MAX_TOOL_TIMEOUT_MS, path, "limits")?,
        max_output_bytes: positive(object, "maxOutputBytes", 1 << 30, path, "limits")?,
    })
}

/// Reads a `"cache"` object; `extra` names further fields the caller reads itself (a
/// server's `"readOnlyHints"`).
pub(crate) fn parse_cache(
    value: &Value,
    path: &str,
    extra: &[&str],
) -> Result<CachePolicy, String> {
    let example = "{\"cache\": {\"ttlSeconds\": 300}}";
    let mut known = vec!["ttlSeconds"];
    known.extend_from_slice(extra);
    let object = fields(value, &known, path, "cache", example)?;
    match positive(object, "ttlSeconds", MAX_TTL_SECONDS, path, "cache")? {
        Some(ttl_seconds) => Ok(CachePolicy { ttl_seconds }),
        None => Err(format!(
            "{}\"cache\" needs \"ttlSeconds\", how long a result is reused; e.g. {example}",
            prefix(path)
        )),
    }
}

impl Metadata {
    /// Parses `.metadata` text; the error says which file and how to fix it.
    pub(crate) fn parse(text: &str, path: &str) -> Result<Metadata, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            format!("{path}: invalid JSON ({e}); expected e.g. {{\"tags\": [\"text\"], \"status\": \"ready\"}}")
        })?;
        if let Some((key, known)) = misspelt_key(&value) {
            return Err(format!(
                "{path}: \"{key}\" is not a field the engine reads; did you mean \"{known}\"? \
                 (fields: {})",
                KNOWN_FIELDS.join(", ")
            ));
        }
        let meta: Metadata = serde_json::from_value(value).map_err(|e| {
            format!("{path}: {e}; expected e.g. {{\"tags\": [\"text\"], \"status\": \"ready\"}}")
        })?;
        if meta.tags.len() > MAX_TAGS {
            return Err(format!(
                "{path}: {} tags; give at most {MAX_TAGS}, the words a search for this should match",
                meta.tags.len()
            ));
        }
        if let Some(long) = meta.tags.iter().find(|t| t.chars().count() > MAX_TAG_CHARS) {
            let shown: String = long.chars().take(24).collect();
            return Err(format!(
                "{path}: the tag \"{shown}…\" is longer than {MAX_TAG_CHARS} characters; a tag is a word or two"
            ));
        }
        if let Some(limits) = &meta.limits {
            parse_limits(limits, path)?;
        }
        if let Some(cache) = &meta.cache {
            parse_cache(cache, path, &[])?;
        }
        if let Some(status) = &meta.status {
            if !matches!(status.as_str(), "ready" | "planned" | "deprecated") {
                return Err(format!(
                    "{path}: status \"{status}\" is not one of \"ready\", \"planned\", \"deprecated\""
                ));
            }
        }
        if let Some(kind) = &meta.kind {
            if kind != "workflow" && kind != "toolbox" {
                return Err(format!(
                    "{path}: kind \"{kind}\" is not \"workflow\" or \"toolbox\"; write \"workflow\" \
                     for a workflow toolbox, or leave kind out"
                ));
            }
        }
        Ok(meta)
    }
}

/// The fields of `.metadata` the engine reads.
const KNOWN_FIELDS: [&str; 6] = ["description", "tags", "status", "kind", "limits", "cache"];

/// A top-level key of `.metadata` that is not a field the engine reads but reads as a
/// misspelling of one (one or two edits, or the same but for case), with that field: its
/// value would be ignored without a word (`"stauts": "planned"` leaves the tool callable).
/// Other keys are the author's own and kept.
fn misspelt_key(value: &Value) -> Option<(&str, &'static str)> {
    value.as_object()?.keys().find_map(|key| {
        if KNOWN_FIELDS.contains(&key.as_str()) {
            return None;
        }
        let lower = key.to_lowercase();
        KNOWN_FIELDS
            .iter()
            .find(|known| lower == **known || strsim::damerau_levenshtein(&lower, known) <= 2)
            .map(|known| (key.as_str(), *known))
    })
}

/// The purpose of a README: its first descriptive line (not a heading, badge or comment).
pub(crate) fn readme_purpose(text: &str) -> Option<String> {
    let mut in_front_matter = false;
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if i == 0 && line == "---" {
            in_front_matter = true;
            continue;
        }
        if in_front_matter {
            in_front_matter = line != "---";
            continue;
        }
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let skip = in_fence
            || line.is_empty()
            || line.starts_with('#')
            || line.starts_with("![")
            || line.starts_with("[![")
            || line.starts_with("<!--")
            || line.starts_with('<')
            || line.chars().all(|c| matches!(c, '-' | '=' | '*' | '_'));
        if !skip {
            return Some(line.trim_start_matches(['>', ' ']).to_string());
        }
    }
    None
}

#[cfg(test)]
#[path = "../../tests/unit/assets/metadata.rs"]
mod tests;
