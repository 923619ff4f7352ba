//! Bound arguments as Luau values: the last step of a call bound in Rust.

use mlua::{Lua, Value};
use serde_json::Value as Json;

/// Values nested deeper than this are refused: the conversion recurses on the host's
/// stack. JSON parsed by `serde_json` stops at 128 levels, so only a value built in code
/// comes near.
pub(crate) const MAX_DEPTH: usize = 256;

/// A JSON value as a Luau value: `null` is `nil`, numbers are floats, arrays are
/// sequences and objects are tables keyed by string.
pub(crate) fn lua_value(lua: &Lua, json: &Json) -> mlua::Result<Value> {
    convert(lua, json, 0)
}

/// Bound slots (one per parameter, `None` when not given) as the values of a call.
pub(crate) fn lua_args(lua: &Lua, slots: &[Option<Json>]) -> mlua::Result<Vec<Value>> {
    slots
        .iter()
        .map(|slot| slot.as_ref().map_or(Ok(Value::Nil), |j| lua_value(lua, j)))
        .collect()
}

fn convert(lua: &Lua, json: &Json, depth: usize) -> mlua::Result<Value> {
    if depth > MAX_DEPTH {
        return Err(mlua::Error::runtime(format!(
            "the arguments nest deeper than {MAX_DEPTH} levels; send flatter data"
        )));
    }
    Ok(match json {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::String(lua.create_string(s)?),
        Json::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, convert(lua, item, depth + 1)?)?;
            }
            Value::Table(t)
        }
        Json::Object(map) => {
            let t = lua.create_table_with_capacity(0, map.len())?;
            for (k, v) in map {
                t.raw_set(k.as_str(), convert(lua, v, depth + 1)?)?;
            }
            Value::Table(t)
        }
    })
}
