//! A read-only view of a value being checked: JSON (from a command line) or Luau.
//!
//! The checker walks the value along the type, never the other way round, so a
//! cyclic Luau table cannot loop it, and it reads tables raw, so no script code
//! (`__index`, `__pairs`) runs inside the host call.

use mlua::Value as LuaValue;
use serde_json::Value as Json;

/// What kind of value this is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// `nil` (and JSON `null`).
    Nil,
    /// A boolean.
    Boolean(bool),
    /// A number.
    Number,
    /// A string.
    String(String),
    /// A table (JSON array or object).
    Table,
    /// A function.
    Function,
    /// Anything else, by Luau type name.
    Other(&'static str),
}

/// A key of a table entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    /// An integer key from 1.
    Index(usize),
    /// A string key.
    Name(String),
    /// Any other key, by type name.
    Other(&'static str),
}

/// A value the checker can read.
pub(crate) trait Shape: Sized {
    /// The kind of the value.
    fn kind(&self) -> Kind;
    /// A table's field by name, `None` when absent or nil.
    fn field(&self, name: &str) -> Option<Self>;
    /// Up to `limit` entries of a table, in any order.
    fn entries(&self, limit: usize) -> Vec<(Key, Self)>;
}

/// The Luau type name of a kind, for messages.
pub(crate) fn type_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Nil => "nil",
        Kind::Boolean(_) => "boolean",
        Kind::Number => "number",
        Kind::String(_) => "string",
        Kind::Table => "table",
        Kind::Function => "function",
        Kind::Other(name) => name,
    }
}

impl Shape for Json {
    fn kind(&self) -> Kind {
        match self {
            Json::Null => Kind::Nil,
            Json::Bool(b) => Kind::Boolean(*b),
            Json::Number(_) => Kind::Number,
            Json::String(s) => Kind::String(s.clone()),
            Json::Array(_) | Json::Object(_) => Kind::Table,
        }
    }

    fn field(&self, name: &str) -> Option<Json> {
        self.as_object()?
            .get(name)
            .filter(|v| !v.is_null())
            .cloned()
    }

    fn entries(&self, limit: usize) -> Vec<(Key, Json)> {
        match self {
            Json::Array(items) => items
                .iter()
                .take(limit)
                .enumerate()
                .map(|(i, v)| (Key::Index(i + 1), v.clone()))
                .collect(),
            Json::Object(map) => map
                .iter()
                .filter(|(_, v)| !v.is_null())
                .take(limit)
                .map(|(k, v)| (Key::Name(k.clone()), v.clone()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The longest string the checker copies out of the VM whole.
const MAX_TEXT_BYTES: usize = 4096;

/// A Luau string as text for the checker: longer ones are cut, with a mark no literal type
/// or field name can equal, so a value the script reuses thousands of times is never
/// copied whole thousands of times.
fn bounded_text(s: &mlua::LuaString) -> String {
    let bytes = s.as_bytes();
    if bytes.len() <= MAX_TEXT_BYTES {
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    let mut text = String::from_utf8_lossy(&bytes[..MAX_TEXT_BYTES]).into_owned();
    text.push_str("\u{0}…");
    text
}

impl Shape for LuaValue {
    fn kind(&self) -> Kind {
        match self {
            LuaValue::Nil => Kind::Nil,
            LuaValue::LightUserData(p) if p.0.is_null() => Kind::Nil,
            LuaValue::Boolean(b) => Kind::Boolean(*b),
            LuaValue::Integer(_) | LuaValue::Number(_) => Kind::Number,
            LuaValue::String(s) => Kind::String(bounded_text(s)),
            LuaValue::Table(_) => Kind::Table,
            LuaValue::Function(_) => Kind::Function,
            other => Kind::Other(other.type_name()),
        }
    }

    fn field(&self, name: &str) -> Option<LuaValue> {
        let LuaValue::Table(t) = self else {
            return None;
        };
        let v: LuaValue = t.raw_get(name).ok()?;
        (v.kind() != Kind::Nil).then_some(v)
    }

    fn entries(&self, limit: usize) -> Vec<(Key, LuaValue)> {
        let LuaValue::Table(t) = self else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // `for_each` reads raw (lua_next): no metamethod runs here.
        let _ = t.for_each(|k: LuaValue, v: LuaValue| {
            if out.len() >= limit {
                return Err(mlua::Error::runtime("enough"));
            }
            let key = match &k {
                LuaValue::Integer(i) if *i >= 1 => Key::Index(*i as usize),
                LuaValue::Number(n) if n.fract() == 0.0 && *n >= 1.0 => Key::Index(*n as usize),
                LuaValue::String(s) => Key::Name(bounded_text(s)),
                other => Key::Other(other.type_name()),
            };
            out.push((key, v));
            Ok(())
        });
        out
    }
}

/// The name Luau's `typeof` gives a value (mlua says "integer" for some numbers).
pub(crate) fn luau_type(value: &LuaValue) -> &'static str {
    match value {
        LuaValue::Integer(_) | LuaValue::Number(_) => "number",
        other => other.type_name(),
    }
}
