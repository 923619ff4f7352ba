//! What an answer becomes for the script: a 2xx answer's body decoded (JSON when it says
//! so or reads as JSON, text otherwise, nothing when empty), and any other status an
//! error quoting the API's own error body. Secrets are masked in both (`crate::secrets`),
//! after `crate::net` decoded a compressed body.

use serde_json::Value;

use super::operation::media_is_json;
use super::schema::cut;
use crate::net::Response;

/// Most characters of an error body quoted in the error.
const MAX_ERROR_BODY: usize = 2000;

/// The value of `response` to `call` (`METHOD /path`), or the error a script sees.
pub(crate) fn decode(call: &str, response: &Response) -> Result<Value, String> {
    let media = response
        .headers
        .iter()
        .find(|(name, _)| name == "content-type")
        .map_or("", |(_, value)| value.as_str());
    let text = String::from_utf8_lossy(&response.body);
    let json = if media_is_json(media) || media.is_empty() {
        serde_json::from_str::<Value>(&text).ok()
    } else {
        None
    };
    if !(200..300).contains(&response.status) {
        let body = match &json {
            Some(value) => value.to_string(),
            None => text.trim().to_string(),
        };
        let body = crate::secrets::mask(&body);
        let body = cut(&body, MAX_ERROR_BODY);
        let reason = http::StatusCode::from_u16(response.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("");
        return Err(format!(
            "{call} answered HTTP {} {reason}{}",
            response.status,
            if body.is_empty() {
                String::new()
            } else {
                format!(": {body}")
            }
        ));
    }
    let mut value = match json {
        Some(value) => value,
        None if text.trim().is_empty() => Value::Null,
        None => Value::String(text.into_owned()),
    };
    crate::secrets::mask_json(&mut value);
    Ok(value)
}

/// The answer of an API with `"response"` in `apis.json`: `{ status, headers, body }`
/// (no `body` when the answer had none),
/// `headers` holding the values of the names `answer` lists (`{"headers": [...]}`) that
/// came back, secrets masked.
pub(crate) fn whole(response: &Response, answer: &Value, body: Value) -> Value {
    let mut headers = serde_json::Map::new();
    let wanted = answer.get("headers").and_then(Value::as_array);
    for name in wanted.into_iter().flatten().filter_map(Value::as_str) {
        if let Some((_, value)) = response.headers.iter().find(|(n, _)| n == name) {
            let value = crate::secrets::mask(value).into_owned();
            headers.insert(name.to_string(), Value::String(value));
        }
    }
    let mut whole = serde_json::json!({ "status": response.status, "headers": headers });
    // An empty body is left out (nil), as the body alone would be.
    if !body.is_null() {
        whole["body"] = body;
    }
    whole
}
