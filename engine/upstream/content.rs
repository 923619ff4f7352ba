//! A `tools/call` result as a script sees it: `structuredContent` as a value; otherwise a
//! single text item as a string; otherwise the list of content items
//! (`{ type, text | mimeType, data?, ... }`). `isError` becomes a tool error carrying the
//! server's text. What a server answers is masked (`crate::secrets`) before a script
//! sees it: a server may echo a token it was started with.

use serde_json::Value;

use super::error::{cut, UpstreamError, MAX_MESSAGE_BYTES};
use super::secret::Redactor;

/// Converts a raw `CallToolResult` (as JSON), secrets masked. `call` is `server.tool`,
/// for errors.
pub(crate) fn convert(
    call: &str,
    result: &Value,
    redactor: &Redactor,
) -> Result<Value, UpstreamError> {
    let mut value = shape(call, result, redactor)?;
    crate::secrets::mask_json(&mut value);
    Ok(value)
}

/// The value a result stands for, or the tool's error.
fn shape(call: &str, result: &Value, redactor: &Redactor) -> Result<Value, UpstreamError> {
    let content: Vec<Value> = match result.get("content") {
        Some(Value::Array(items)) => items.iter().map(item).collect(),
        _ => Vec::new(),
    };
    if result.get("isError") == Some(&Value::Bool(true)) {
        let texts: Vec<&str> = content
            .iter()
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect();
        let message = if !texts.is_empty() {
            texts.join("\n")
        } else if let Some(structured) = result.get("structuredContent") {
            structured.to_string()
        } else {
            "the tool reported an error without a message".to_string()
        };
        return Err(UpstreamError::Tool {
            call: call.to_string(),
            message: cut(&redactor.redact(&message), MAX_MESSAGE_BYTES),
        });
    }
    if let Some(structured) = result.get("structuredContent") {
        return Ok(structured.clone());
    }
    match content.as_slice() {
        [] => Ok(Value::Null),
        [single] if single.get("type").and_then(Value::as_str) == Some("text") => Ok(single
            .get("text")
            .cloned()
            .unwrap_or(Value::String(String::new()))),
        _ => Ok(Value::Array(content)),
    }
}

/// One content item, without the protocol's `_meta`.
fn item(value: &Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .filter(|(k, _)| k.as_str() != "_meta")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/content.rs"]
mod tests;
