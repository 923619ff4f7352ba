//! A call's argument table made into an HTTP request by the operation's plan (written by
//! `operation` as `x-codemode-request`): path parameters percent-encoded into the path,
//! query parameters in OpenAPI's default styles (`form`, exploded: `tag=a&tag=b`;
//! `deepObject`: `filter[kind]=x`), header parameters as headers, and the body as JSON,
//! a form or text. What is sent goes through `crate::net` like any `http.request`.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{Map, Value};

use super::operation::media_is_json;

/// What is left as it is in a path segment or a query value (RFC 3986's unreserved).
const ENCODED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The parts of a request a plan makes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Made {
    pub method: String,
    /// The path below the base URL, with its query.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
}

/// Makes the request `plan` describes from `args` (checked against the tool's schema
/// already); an error names the missing or unusable argument.
pub(crate) fn make(plan: &Value, args: &Map<String, Value>) -> Result<Made, String> {
    let method = plan
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("GET")
        .to_string();
    let mut path = plan
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or("/")
        .to_string();
    let mut query: Vec<(String, String)> = Vec::new();
    let mut headers: Vec<(String, String)> = Vec::new();
    let params = plan.get("params").and_then(Value::as_array);
    for param in params.into_iter().flatten() {
        let field = |k: &str| param.get(k).and_then(Value::as_str).unwrap_or("");
        let (key, name, place) = (field("key"), field("name"), field("in"));
        let Some(value) = args.get(key).filter(|v| !v.is_null()) else {
            if place == "path" {
                return Err(format!("`{key}` is missing; the path {path} needs it"));
            }
            continue;
        };
        // Path and header parameters are of the `simple` style, unexploded by default.
        let exploded = param.get("explode").and_then(Value::as_bool) == Some(true);
        match place {
            "path" => {
                let items = scalar_list(value, key, exploded)?;
                let text = items.join(",");
                // A segment of dots is a step in the path, which every URL parser
                // resolves (`%2E%2E` too): the request would reach a path no operation
                // describes, with the API's credentials.
                if text.is_empty() || text.chars().all(|c| c == '.') {
                    return Err(format!(
                        "`{key}` is {text:?}: a path parameter cannot be empty, `.` or `..` (it would change the path {path})"
                    ));
                }
                // The commas between items are the style's own: each item is encoded.
                let encoded: Vec<String> = items
                    .iter()
                    .map(|item| utf8_percent_encode(item, ENCODED).to_string())
                    .collect();
                let encoded = encoded.join(",");
                path = path.replace(&format!("{{{name}}}"), &encoded);
            }
            "query" => {
                let style = field("style");
                let explode = param
                    .get("explode")
                    .and_then(Value::as_bool)
                    .unwrap_or(style.is_empty() || style == "form");
                match value {
                    Value::Object(map) if style == "deepObject" => {
                        for (k, v) in map {
                            query.push((format!("{name}[{k}]"), scalar(v, key)?));
                        }
                    }
                    Value::Object(map) if explode => {
                        for (k, v) in map {
                            query.push((k.clone(), scalar(v, key)?));
                        }
                    }
                    Value::Array(_) if explode => {
                        for item in scalar_list(value, key, false)? {
                            query.push((name.to_string(), item));
                        }
                    }
                    _ => {
                        let joiner = match style {
                            "spaceDelimited" => " ",
                            "pipeDelimited" => "|",
                            _ => ",",
                        };
                        let items = scalar_list(value, key, false)?;
                        query.push((name.to_string(), items.join(joiner)));
                    }
                }
            }
            _ => headers.push((
                name.to_string(),
                scalar_list(value, key, exploded)?.join(","),
            )),
        }
    }
    let mut body = None;
    if let Some(plan) = plan.get("body").filter(|b| b.is_object()) {
        let media = plan
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("application/json");
        let value = match plan.get("keys").and_then(Value::as_array) {
            Some(keys) => {
                let fields: Map<String, Value> = keys
                    .iter()
                    .filter_map(Value::as_str)
                    .filter_map(|k| Some((k.to_string(), args.get(k)?.clone())))
                    .collect();
                (!fields.is_empty()).then_some(Value::Object(fields))
            }
            None => plan
                .get("key")
                .and_then(Value::as_str)
                .and_then(|k| args.get(k))
                .cloned(),
        };
        if let Some(value) = value {
            let bytes = if media_is_json(media) {
                serde_json::to_vec(&value).map_err(|e| e.to_string())?
            } else if media == "application/x-www-form-urlencoded" {
                let Value::Object(map) = &value else {
                    return Err("the body must be a table of form fields".into());
                };
                let mut pairs = Vec::new();
                for (k, v) in map {
                    pairs.push((k.clone(), scalar(v, k)?));
                }
                encode_pairs(&pairs).into_bytes()
            } else {
                match &value {
                    Value::String(text) => text.clone().into_bytes(),
                    other => other.to_string().into_bytes(),
                }
            };
            headers.push(("Content-Type".into(), media.to_string()));
            body = Some(bytes);
        }
    }
    if !query.is_empty() {
        path.push('?');
        path.push_str(&encode_pairs(&query));
    }
    Ok(Made {
        method,
        target: path,
        headers,
        body,
    })
}

fn encode_pairs(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| {
            format!(
                "{}={}",
                utf8_percent_encode(k, ENCODED),
                utf8_percent_encode(v, ENCODED)
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A value as the text a URL or header carries.
fn scalar(value: &Value, key: &str) -> Result<String, String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => Ok(match n.as_f64() {
            // Luau has one number type: 3 arrives as 3.0 and is sent as 3.
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        }),
        other => Err(format!(
            "`{key}` must be a string, number or boolean here, not {}",
            match other {
                Value::Array(_) => "a list",
                Value::Object(_) => "a table",
                _ => "nil",
            }
        )),
    }
}

/// A value, each item of a list, or each field of an object as text, as OpenAPI's
/// `simple` and `form` styles lay them out: an object's fields as `key,value` pairs, or
/// as `key=value` when `exploded`.
fn scalar_list(value: &Value, key: &str, exploded: bool) -> Result<Vec<String>, String> {
    match value {
        Value::Array(items) => items.iter().map(|v| scalar(v, key)).collect(),
        Value::Object(fields) => {
            let mut out = Vec::with_capacity(fields.len() * 2);
            for (k, v) in fields {
                let v = scalar(v, key)?;
                if exploded {
                    out.push(format!("{k}={v}"));
                } else {
                    out.extend([k.clone(), v]);
                }
            }
            Ok(out)
        }
        other => Ok(vec![scalar(other, key)?]),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/openapi/request.rs"]
mod tests;
