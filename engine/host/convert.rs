//! Host values handed to scripts as Luau values.

use mlua::{Lua, Value};
use serde::Serialize;

/// `value` as a Luau value, leaving absent fields out (not `null`).
pub(crate) fn to_lua<T: Serialize>(lua: &Lua, value: &T) -> mlua::Result<Value> {
    let json = serde_json::to_value(value).map_err(mlua::Error::external)?;
    crate::sandbox::from_json(lua, &json)
}
