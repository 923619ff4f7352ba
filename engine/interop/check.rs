//! `codemode registry check`: validates a tools.json by the rules of the registry format.
//!
//! Rules: the file is a JSON object with a semantic `version` string and a `tools` array
//! (and, optionally, a `meta` object of strings with an ISO 8601 `created`). Each entry has
//! `name` (lowercase, hyphen-separated, unique), `description` (non-empty), `location`
//! (an existing file, relative to the directory holding tools.json), `status` (`ready`,
//! `planned`, `deprecated`), `capabilities` and `tags` (non-empty arrays of non-empty
//! strings) and optionally `languages` (ISO 639-1 codes). Fields the format does not know,
//! and tags that are not lowercase and hyphenated, are warnings, not failures.

use std::collections::BTreeMap;
use std::path::Path;

use isolang::Language;
use serde_json::{Map, Value};

use super::date::is_iso_date;
use super::model::STATUSES;
use super::name::is_kebab;
use crate::assets::json_kind;

const ENTRY_FIELDS: [&str; 7] = [
    "name",
    "description",
    "location",
    "status",
    "capabilities",
    "languages",
    "tags",
];

/// Problems found in one place of the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding {
    /// Where: `top level`, `meta` or `tools[3] "name"`.
    pub place: String,
    /// Every reason this place fails (empty when it only has warnings).
    pub errors: Vec<String>,
    /// Things worth fixing that do not fail the file.
    pub warnings: Vec<String>,
}

/// The result of checking one file.
#[derive(Debug, Clone, Default)]
pub(crate) struct CheckReport {
    /// Places with errors or warnings, in file order.
    pub findings: Vec<Finding>,
    /// How many tool entries the file holds.
    pub entries: usize,
    /// How many of them pass.
    pub valid_entries: usize,
}

impl CheckReport {
    /// True when nothing failed.
    pub(crate) fn ok(&self) -> bool {
        self.findings.iter().all(|f| f.errors.is_empty())
    }
}

/// Checks the text of a tools.json whose directory is `base` (locations resolve there).
pub(crate) fn check(text: &str, base: &Path) -> CheckReport {
    let mut report = CheckReport::default();
    if text.starts_with('\u{feff}') {
        report.findings.push(failure(
            "file",
            "starts with a byte-order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without BOM".into(),
        ));
        return report;
    }
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            report
                .findings
                .push(failure("file", format!("not valid JSON: {e}")));
            return report;
        }
    };
    let Some(root) = root.as_object() else {
        report.findings.push(failure(
            "top level",
            "must be a JSON object with \"version\" and \"tools\"".into(),
        ));
        return report;
    };
    report.findings.push(check_top(root));
    if let Some(meta) = root.get("meta") {
        report.findings.push(check_meta(meta));
    }
    if let Some(Value::Array(entries)) = root.get("tools") {
        report.entries = entries.len();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let finding = check_entry(i, entry, base, &mut seen);
            if finding.errors.is_empty() {
                report.valid_entries += 1;
            }
            report.findings.push(finding);
        }
    }
    report
        .findings
        .retain(|f| !f.errors.is_empty() || !f.warnings.is_empty());
    report
}

fn failure(place: &str, reason: String) -> Finding {
    Finding {
        place: place.to_string(),
        errors: vec![reason],
        warnings: Vec::new(),
    }
}

fn check_top(root: &Map<String, Value>) -> Finding {
    let mut f = Finding {
        place: "top level".into(),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    match root.get("version") {
        None => f
            .errors
            .push("missing required field \"version\" (e.g. \"1.0.0\")".into()),
        Some(Value::String(v)) if is_semver(v) => {}
        Some(Value::String(v)) => f.errors.push(format!(
            "\"version\" is \"{v}\", not a semantic version like \"1.0.0\""
        )),
        Some(other) => f.errors.push(format!(
            "\"version\" must be a string, got {}",
            json_kind(other)
        )),
    }
    match root.get("tools") {
        None => f
            .errors
            .push("missing required field \"tools\" (an array of tool entries)".into()),
        Some(Value::Array(_)) => {}
        Some(other) => f.errors.push(format!(
            "\"tools\" must be an array, got {}",
            json_kind(other)
        )),
    }
    for key in root
        .keys()
        .filter(|k| !["version", "tools", "meta"].contains(&k.as_str()))
    {
        f.warnings.push(format!(
            "unknown field \"{key}\" (the format knows version, tools, meta)"
        ));
    }
    f
}

fn check_meta(meta: &Value) -> Finding {
    let mut f = Finding {
        place: "meta".into(),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let Some(meta) = meta.as_object() else {
        f.errors.push(format!(
            "\"meta\" must be an object, got {}",
            json_kind(meta)
        ));
        return f;
    };
    for (key, value) in meta {
        match (key.as_str(), value) {
            ("repo" | "purpose", Value::String(_)) => {}
            ("created", Value::String(date)) if is_iso_date(date) => {}
            ("created", Value::String(date)) => f.errors.push(format!(
                "\"created\" is \"{date}\", not an ISO 8601 date like \"2026-05-09\""
            )),
            ("repo" | "purpose" | "created", other) => f.errors.push(format!(
                "\"{key}\" must be a string, got {}",
                json_kind(other)
            )),
            _ => f.warnings.push(format!(
                "unknown field \"{key}\" (meta knows repo, created, purpose)"
            )),
        }
    }
    f
}

fn check_entry(
    i: usize,
    entry: &Value,
    base: &Path,
    seen: &mut BTreeMap<String, usize>,
) -> Finding {
    let name = entry.get("name").and_then(Value::as_str);
    let mut f = Finding {
        place: match name {
            Some(n) => format!("tools[{i}] \"{n}\""),
            None => format!("tools[{i}]"),
        },
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let Some(obj) = entry.as_object() else {
        f.errors
            .push(format!("must be an object, got {}", json_kind(entry)));
        return f;
    };
    let errors = &mut f.errors;
    if let Some(name) = string_field(obj, "name", errors) {
        if !is_kebab(name) {
            errors.push(format!(
                "name \"{name}\" is not lowercase and hyphen-separated (e.g. \"torrent-finder\")"
            ));
        }
        if let Some(first) = seen.get(name) {
            errors.push(format!(
                "name \"{name}\" is already used by tools[{first}]; names must be unique"
            ));
        } else {
            seen.insert(name.to_string(), i);
        }
    }
    string_field(obj, "description", errors);
    if let Some(location) = string_field(obj, "location", errors) {
        check_location(location, base, errors);
    }
    if let Some(status) = string_field(obj, "status", errors) {
        if !STATUSES.contains(&status) {
            errors.push(format!(
                "status \"{status}\" is not one of \"ready\", \"planned\", \"deprecated\""
            ));
        }
    }
    string_list(obj, "capabilities", true, errors);
    if let Some(tags) = string_list(obj, "tags", true, errors) {
        for tag in tags
            .iter()
            .filter(|t| t.to_lowercase() != **t || t.contains(char::is_whitespace))
        {
            f.warnings.push(format!(
                "tag \"{tag}\" should be lowercase and hyphen-separated"
            ));
        }
    }
    let errors = &mut f.errors;
    if obj.contains_key("languages") {
        if let Some(langs) = string_list(obj, "languages", false, errors) {
            for lang in langs.iter().filter(|l| Language::from_639_1(l).is_none()) {
                errors.push(format!(
                    "language \"{lang}\" is not an ISO 639-1 code (e.g. \"en\", \"es\")"
                ));
            }
        }
    }
    for key in obj.keys().filter(|k| !ENTRY_FIELDS.contains(&k.as_str())) {
        f.warnings.push(format!("unknown field \"{key}\""));
    }
    f
}

/// A required non-empty string field; records why when it is not one.
fn string_field<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    errors: &mut Vec<String>,
) -> Option<&'a str> {
    match obj.get(key) {
        None => errors.push(format!("missing required field \"{key}\"")),
        Some(Value::String(s)) if s.trim().is_empty() => errors.push(format!("\"{key}\" is empty")),
        Some(Value::String(s)) => return Some(s),
        Some(other) => errors.push(format!(
            "\"{key}\" must be a string, got {}",
            json_kind(other)
        )),
    }
    None
}

/// A list of non-empty strings (required and non-empty when `required`).
fn string_list<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    required: bool,
    errors: &mut Vec<String>,
) -> Option<Vec<&'a str>> {
    let items = match obj.get(key) {
        None if required => {
            errors.push(format!(
                "missing required field \"{key}\" (a non-empty array of strings)"
            ));
            return None;
        }
        None => return None,
        Some(Value::Array(items)) => items,
        Some(other) => {
            errors.push(format!(
                "\"{key}\" must be an array of strings, got {}",
                json_kind(other)
            ));
            return None;
        }
    };
    if required && items.is_empty() {
        errors.push(format!("\"{key}\" is empty; list at least one"));
        return None;
    }
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::String(s) if !s.trim().is_empty() => out.push(s.as_str()),
            Value::String(_) => errors.push(format!("\"{key}\" holds an empty string")),
            other => errors.push(format!(
                "\"{key}\" must hold strings, found {}",
                json_kind(other)
            )),
        }
    }
    Some(out)
}

fn check_location(location: &str, base: &Path, errors: &mut Vec<String>) {
    let path = base.join(location);
    if Path::new(location).is_absolute() {
        errors.push(format!(
            "location \"{location}\" is absolute; write it relative to the tools.json file"
        ));
    } else if !path.exists() {
        errors.push(format!(
            "location \"{location}\" does not exist (looked for {}); locations are relative to the tools.json file",
            path.display()
        ));
    } else if !path.is_file() {
        errors.push(format!(
            "location \"{location}\" is not a file; point at the tool's entry point"
        ));
    }
}

/// `MAJOR.MINOR.PATCH` with an optional `-pre` or `+build` suffix.
fn is_semver(text: &str) -> bool {
    let core = text.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars().all(|c| c.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
        })
}

#[cfg(test)]
#[path = "../../tests/unit/interop/check.rs"]
mod tests;
