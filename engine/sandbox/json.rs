//! Converting a Luau value into JSON, bounded in size and depth.
//!
//! Untrusted scripts return anything: cycles, functions, coroutines, huge tables.
//! The conversion never fails and never grows past its budget; what it cannot show
//! becomes a readable placeholder string.

use std::ffi::c_void;

use mlua::{Table, Value};
use serde_json::{Map, Number, Value as Json};

/// Marks where a string was cut.
const CUT_MARK: &str = "…";

/// Converts `value` to JSON, spending at most about `budget` bytes of serialized output.
/// Returns the JSON and whether anything was cut for size.
pub(crate) fn to_json(value: &Value, budget: usize, max_depth: usize) -> (Json, bool) {
    let mut conv = Converter {
        remaining: budget,
        truncated: false,
        cuts: 0,
        max_depth,
        path: Vec::new(),
    };
    let json = conv.convert(value, 0);
    (json, conv.truncated)
}

struct Converter {
    remaining: usize,
    truncated: bool,
    /// How many cuts were made so far: an element cut partway is told from a whole one.
    cuts: usize,
    max_depth: usize,
    /// Tables on the path from the root to the current value: a repeat is a cycle.
    path: Vec<*const c_void>,
}

impl Converter {
    fn spend(&mut self, bytes: usize) -> bool {
        if bytes > self.remaining {
            self.truncated = true;
            self.cuts += 1;
            self.remaining = 0;
            false
        } else {
            self.remaining -= bytes;
            true
        }
    }

    fn convert(&mut self, value: &Value, depth: usize) -> Json {
        match value {
            Value::Nil => Json::Null,
            Value::LightUserData(_) => Json::Null,
            Value::Boolean(b) => {
                self.spend(5);
                Json::Bool(*b)
            }
            Value::Integer(i) => {
                self.spend(8);
                Json::Number((*i).into())
            }
            Value::Number(n) => {
                self.spend(8);
                number(*n)
            }
            // Only what the budget can take is copied out of the VM (a value may be a
            // string of hundreds of megabytes, or the same one many times over).
            Value::String(s) => {
                let text = lossy_prefix(&s.as_bytes(), self.remaining + 1);
                self.string(&text)
            }
            Value::Table(t) => self.table(t, depth),
            Value::Function(_) => self.string("<function>"),
            Value::Thread(_) => self.string("<coroutine>"),
            Value::Buffer(b) => self.string(&format!("<buffer of {} bytes>", b.len())),
            Value::Vector(v) => {
                self.spend(24);
                Json::Array(vec![
                    number(v.x() as f64),
                    number(v.y() as f64),
                    number(v.z() as f64),
                ])
            }
            Value::Error(e) => self.string(&super::hosterror::caught_text(e)),
            _ => self.string("<userdata>"),
        }
    }

    /// `value` converted, and whether it is whole: false for a table that lost entries to
    /// the budget (a string cut shows its cut mark instead, and counts as whole).
    fn convert_whole(&mut self, value: &Value, depth: usize) -> (Json, bool) {
        let cuts = self.cuts;
        let json = self.convert(value, depth);
        let whole = self.cuts == cuts || !matches!(value, Value::Table(_));
        (json, whole)
    }

    fn string(&mut self, s: &str) -> Json {
        let cost = s.len() + 2;
        if cost <= self.remaining {
            self.remaining -= cost;
            return Json::String(s.to_string());
        }
        let keep = floor_char_boundary(s, self.remaining.saturating_sub(2 + CUT_MARK.len()));
        self.remaining = 0;
        self.truncated = true;
        self.cuts += 1;
        Json::String(format!("{}{CUT_MARK}", &s[..keep]))
    }

    fn table(&mut self, table: &Table, depth: usize) -> Json {
        let mark = json_mark(table);
        if mark.as_deref() == Some("null") {
            self.spend(4);
            return Json::Null;
        }
        let ptr = table.to_pointer();
        if self.path.contains(&ptr) {
            return self.string("<cycle>");
        }
        if depth >= self.max_depth {
            return self.string(&format!("<nested deeper than {} levels>", self.max_depth));
        }
        self.path.push(ptr);
        self.spend(2);
        // Every element costs at least two bytes, so this bounds the walk of huge tables.
        let most = self.remaining / 2 + 1;
        let mut entries: Vec<(Value, Value)> = Vec::new();
        for pair in table.pairs::<Value, Value>() {
            let Ok(pair) = pair else { break };
            if entries.len() == most {
                self.truncated = true;
                self.cuts += 1;
                break;
            }
            entries.push(pair);
        }
        let empty_object = entries.is_empty() && mark.as_deref() == Some("object");
        let json = if is_array(&entries) && !empty_object {
            entries.sort_by_key(|(k, _)| array_index(k));
            let mut items = Vec::with_capacity(entries.len());
            for (_, v) in &entries {
                if !self.spend(1) {
                    break;
                }
                let (item, whole) = self.convert_whole(v, depth + 1);
                // A table cut partway would pass for one without the fields it lost: the
                // list ends before it (unless it is the only one, to show something).
                if !whole && !items.is_empty() {
                    break;
                }
                items.push(item);
            }
            Json::Array(items)
        } else {
            // Sorted by the keys' bytes as they are; each key is copied only when its
            // entry is spent, and no further than the budget reaches.
            entries.sort_by(|a, b| with_key_bytes(&a.0, |x| with_key_bytes(&b.0, |y| x.cmp(y))));
            let mut map = Map::new();
            for (k, v) in &entries {
                let key = with_key_bytes(k, |bytes| lossy_prefix(bytes, self.remaining + 1));
                if !self.spend(key.len() + 4) {
                    break;
                }
                let (converted, whole) = self.convert_whole(v, depth + 1);
                if !whole && !map.is_empty() {
                    break;
                }
                map.insert(key, converted);
            }
            Json::Object(map)
        };
        self.path.pop();
        json
    }
}

/// The `__json` field of a table's metatable: `"null"` marks a null sentinel (such as
/// `tools.json.null()`), `"object"` an empty table that stands for `{}` rather than `[]`.
fn json_mark(table: &Table) -> Option<String> {
    let meta = table.metatable()?;
    meta.raw_get::<Option<String>>("__json").ok().flatten()
}

/// A finite number as JSON (whole numbers without a fraction); NaN and infinities become null.
fn number(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Json::Number((n as i64).into())
    } else {
        Number::from_f64(n).map_or(Json::Null, Json::Number)
    }
}

/// A table is an array when its keys are exactly 1..n (an empty table counts as one).
fn is_array(entries: &[(Value, Value)]) -> bool {
    let mut seen = vec![false; entries.len()];
    for (key, _) in entries {
        match array_index(key) {
            Some(i) if i >= 1 && i <= entries.len() && !seen[i - 1] => seen[i - 1] = true,
            _ => return false,
        }
    }
    true
}

fn array_index(key: &Value) -> Option<usize> {
    match key {
        Value::Integer(i) if *i >= 1 => Some(*i as usize),
        Value::Number(n) if *n >= 1.0 && n.fract() == 0.0 && *n < 9.0e15 => Some(*n as usize),
        _ => None,
    }
}

/// Up to `max` bytes of `bytes` as text (invalid UTF-8 replaced).
fn lossy_prefix(bytes: &[u8], max: usize) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(max)]).into_owned()
}

/// Calls `f` with a key's bytes: a string's own (borrowed, not copied), or the text of
/// any other key.
fn with_key_bytes<R>(key: &Value, f: impl FnOnce(&[u8]) -> R) -> R {
    match key {
        Value::String(s) => f(&s.as_bytes()),
        other => f(key_string(other).as_bytes()),
    }
}

fn key_string(key: &Value) -> String {
    match key {
        Value::String(s) => s.to_string_lossy(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => match number(*n) {
            Json::Number(num) => num.to_string(),
            _ => n.to_string(),
        },
        Value::Boolean(b) => b.to_string(),
        other => format!("<{}>", other.type_name()),
    }
}

fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
#[path = "../../tests/unit/sandbox/json.rs"]
mod tests;

/// The length of `s` inside a JSON string, as the envelope carries it: `"`, `\\` and the
/// control characters with a short escape take two bytes, other control characters six.
pub(crate) fn escaped_len(s: &str) -> usize {
    s.chars().map(escaped_char_len).sum()
}

/// The longest prefix of `s` (its end, a byte index on a character boundary) whose
/// escaped length is at most `room`.
pub(crate) fn escaped_floor(s: &str, room: usize) -> usize {
    let mut used = 0;
    for (at, c) in s.char_indices() {
        used += escaped_char_len(c);
        if used > room {
            return at;
        }
    }
    s.len()
}

fn escaped_char_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}
