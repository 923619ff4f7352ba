//! Reading one OpenAPI description: JSON or YAML, checked as OpenAPI 3.0 (the `openapiv3`
//! crate) or 3.1 (`oas3`) before anything is taken from it; Swagger 2.0 is refused with
//! the way to convert it. What is read is the document as JSON, walked by `operation`.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

/// The largest description read (GitHub's is 13 MB as JSON).
pub(crate) const MAX_BYTES: u64 = 128 * 1024 * 1024;

/// Which OpenAPI a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// 3.0.x: `nullable`, schemas a subset of JSON Schema draft 5.
    V30,
    /// 3.1.x: schemas are JSON Schema 2020-12 (`type: [T, "null"]`).
    V31,
}

/// Reads the description at `path`: the document and its version, or what is wrong with
/// it and the fix.
pub(crate) fn read(path: &Path) -> Result<(Value, Version), String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read {} ({e})", path.display()))?;
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{} is {} bytes, more than the {MAX_BYTES} read",
            path.display(),
            meta.len()
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {} as UTF-8 text ({e})", path.display()))?;
    parse(&text).map_err(|why| format!("{}: {why}", path.display()))
}

/// Parses a description's text (JSON when it starts with `{`, YAML otherwise).
pub(crate) fn parse(text: &str) -> Result<(Value, Version), String> {
    let text = text.trim_start_matches('\u{feff}');
    let document: Value = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| {
            format!(
                "not valid JSON at line {}, column {} ({e})",
                e.line(),
                e.column()
            )
        })?
    } else {
        yaml_serde::from_str(text).map_err(|e| format!("not valid YAML or JSON ({e})"))?
    };
    if !document.is_object() {
        return Err("not an OpenAPI description (the document is not an object)".into());
    }
    if let Some(swagger) = document.get("swagger") {
        return Err(format!(
            "is a Swagger {} description, which codemode does not read; convert it to OpenAPI 3 (the swagger2openapi converter does: `npx swagger2openapi spec.json -o openapi.json`) and point \"spec\" at the result",
            swagger.as_str().unwrap_or("2.0")
        ));
    }
    let version = match document.get("openapi").and_then(Value::as_str) {
        Some(v) if v.starts_with("3.0") => Version::V30,
        Some(v) if v.starts_with("3.1") => Version::V31,
        Some(v) => {
            return Err(format!(
                "is OpenAPI {v}; codemode reads OpenAPI 3.0 and 3.1"
            ))
        }
        None => {
            return Err("has no \"openapi\" version field; is it an OpenAPI description?".into())
        }
    };
    // The crates check the whole document's shape; their message says where it is wrong.
    let checked = match version {
        Version::V30 => openapiv3::OpenAPI::deserialize(&document).map(drop),
        Version::V31 => oas3::Spec::deserialize(&document).map(drop),
    };
    checked.map_err(|e| {
        format!(
            "is not a valid OpenAPI {} description: {e}; fix the description",
            if version == Version::V30 {
                "3.0"
            } else {
                "3.1"
            }
        )
    })?;
    Ok((document, version))
}

#[cfg(test)]
#[path = "../../tests/unit/openapi/spec.rs"]
mod tests;
