//! JSON values written as Luau literals, so arguments from a client reach a script as data.
//!
//! Arguments are never spliced into code as text: every string is escaped byte by byte,
//! every key is a bracketed string, so no input can close a literal and inject code.

use serde_json::Value;

/// Nesting beyond this is refused: the Luau parser has its own recursion limit.
const MAX_DEPTH: usize = 100;

/// Why a value cannot be written as a literal.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("arguments nest deeper than {MAX_DEPTH} levels; send flatter data")]
pub struct TooDeep;

/// `value` as a Luau expression. JSON `null` becomes `nil`.
pub fn luau_literal(value: &Value) -> Result<String, TooDeep> {
    let mut out = String::new();
    write(&mut out, value, 0)?;
    Ok(out)
}

fn write(out: &mut String, value: &Value, depth: usize) -> Result<(), TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    match value {
        Value::Null => out.push_str("nil"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && !f.is_finite() => out.push_str("(0/0)"),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            out.push('{');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(out, item, depth + 1)?;
            }
            out.push('}');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('[');
                string(out, k);
                out.push_str("] = ");
                write(out, v, depth + 1)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A double-quoted Luau string: printable ASCII as is, everything else as `\ddd` bytes.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for &b in s.as_bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03}")),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_cannot_break_out() {
        let text = luau_literal(&json!("a\"]] .. os.exit() --\n\\")).unwrap();
        assert_eq!(text, r#""a\"]] .. os.exit() --\010\\""#);
    }

    #[test]
    fn tables_use_bracketed_keys() {
        let text = luau_literal(&json!({"end": [1, null, true], "x y": 2.5})).unwrap();
        assert_eq!(text, r#"{["end"] = {1, nil, true}, ["x y"] = 2.5}"#);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let mut v = json!(1);
        for _ in 0..200 {
            v = json!([v]);
        }
        assert_eq!(luau_literal(&v), Err(TooDeep));
    }
}
