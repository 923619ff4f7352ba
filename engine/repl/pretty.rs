//! Showing a returned value the way it would be written in Luau.

use serde_json::Value as Json;

/// Width under which a table stays on one line.
const LINE: usize = 72;

/// A Luau-looking rendering of a value: `{ a = 1, b = { "x" } }`, over several lines when long.
pub(crate) fn pretty(value: &Json) -> String {
    let mut out = String::new();
    write(value, 0, &mut out);
    out
}

fn write(value: &Json, indent: usize, out: &mut String) {
    let flat = flat(value);
    if flat.len() <= LINE || !matches!(value, Json::Array(_) | Json::Object(_)) {
        out.push_str(&flat);
        return;
    }
    let pad = "\t".repeat(indent + 1);
    out.push_str("{\n");
    match value {
        Json::Array(items) => {
            for item in items {
                out.push_str(&pad);
                write(item, indent + 1, out);
                out.push_str(",\n");
            }
        }
        Json::Object(map) => {
            for (k, v) in map {
                out.push_str(&pad);
                out.push_str(&key(k));
                out.push_str(" = ");
                write(v, indent + 1, out);
                out.push_str(",\n");
            }
        }
        _ => {}
    }
    out.push_str(&"\t".repeat(indent));
    out.push('}');
}

fn flat(value: &Json) -> String {
    match value {
        Json::Null => "nil".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => format!("{s:?}"),
        Json::Array(items) if items.is_empty() => "{}".into(),
        Json::Object(map) if map.is_empty() => "{}".into(),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(flat).collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Json::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), flat(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
    }
}

fn key(k: &str) -> String {
    let ident = k
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        k.to_string()
    } else {
        format!("[{k:?}]")
    }
}

#[cfg(test)]
#[path = "../../tests/unit/repl/pretty.rs"]
mod tests;
