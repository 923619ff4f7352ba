//! A JSON value as a Luau value, built with Luau's own API in one protected call.
//!
//! mlua's serde path protects every field it sets (one `pcall` each once a memory limit is
//! set), which made the rows of a 100,000-tool listing take half a second to build; this
//! builds the same tables in a tenth of that.

use std::os::raw::c_int;

use mlua::{ffi, Lua, Value};
use serde_json::Value as Json;

/// `json` as a Luau value: objects and arrays become tables, strings strings, numbers
/// numbers; `null` is nil (a field left out; in an array, a hole), as mlua's serializer
/// gives it with `serialize_none_to_null(false)`.
pub(crate) fn from_json(lua: &Lua, json: &Json) -> mlua::Result<Value> {
    // SAFETY: `push` leaves exactly one value on the stack, and calls only Luau API
    // functions, whose errors (out of memory, too deep) `exec_raw` catches; it owns nothing
    // that would need dropping if one unwound through it.
    unsafe { lua.exec_raw((), |state| push(state, json)) }
}

/// Pushes `json` onto `state`'s stack.
///
/// # Safety
/// `state` must be a Luau state inside a protected call.
unsafe fn push(state: *mut ffi::lua_State, json: &Json) {
    // SAFETY (every block): `state` is in a protected call (the caller's contract), and
    // each table is at the stack's top (-1 before its key and value are pushed, -3 after).
    match json {
        Json::Null => unsafe { ffi::lua_pushnil(state) },
        Json::Bool(b) => unsafe { ffi::lua_pushboolean(state, c_int::from(*b)) },
        Json::Number(n) => unsafe { ffi::lua_pushnumber(state, n.as_f64().unwrap_or(f64::NAN)) },
        Json::String(s) => unsafe {
            ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
        },
        Json::Array(items) => unsafe {
            // A table, a value and room for Luau's own use, at each level of nesting.
            ffi::luaL_checkstack(state, 3, c"the value is nested too deeply".as_ptr());
            ffi::lua_createtable(state, capacity(items.len()), 0);
            for (i, item) in items.iter().enumerate() {
                push(state, item);
                ffi::lua_rawseti(state, -2, (i + 1) as ffi::lua_Integer);
            }
        },
        Json::Object(fields) => unsafe {
            ffi::luaL_checkstack(state, 4, c"the value is nested too deeply".as_ptr());
            ffi::lua_createtable(state, 0, capacity(fields.len()));
            for (key, value) in fields {
                if value.is_null() {
                    continue;
                }
                ffi::lua_pushlstring(state, key.as_ptr().cast(), key.len());
                push(state, value);
                ffi::lua_rawset(state, -3);
            }
        },
    }
}

/// A size hint for `lua_createtable`.
fn capacity(n: usize) -> c_int {
    c_int::try_from(n).unwrap_or(c_int::MAX)
}
