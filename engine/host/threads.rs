//! The `threads` capability: the coroutines the engine drives itself (the functions of
//! `tools.parallel`, a cached tool call that misses), which scripts can neither resume
//! nor close (`engine/sandbox/coroutines.rs` guards the script-visible `coroutine`).

/// The Luau declarations of this capability (`threads.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("threads.d.luau");

use mlua::{Lua, Table};

/// Builds the read-only `threads` table (once per VM).
pub(crate) fn module(lua: &Lua) -> mlua::Result<Table> {
    crate::sandbox::engine_threads(lua)
}
