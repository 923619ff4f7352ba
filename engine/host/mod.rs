//! Capabilities handed to Luau: each module builds one read-only table.
//!
//! Capabilities are given to the prelude only (through its private environment);
//! scripts reach them through the `tools` surface the prelude builds.

pub mod asset;
pub mod author;
pub mod bind;
pub mod install;
pub mod instance;
pub mod render;
pub mod search;
pub mod upstream;
pub mod vfs;

use mlua::{Lua, Table};

/// Builds the table of capabilities the prelude sees as globals.
pub fn capabilities(lua: &Lua) -> mlua::Result<Table> {
    let caps = lua.create_table()?;
    caps.raw_set("asset", asset::module(lua)?)?;
    caps.raw_set("author", author::module(lua)?)?;
    caps.raw_set("vfs", vfs::module(lua)?)?;
    caps.raw_set("bind", bind::module(lua)?)?;
    caps.raw_set("render", render::module(lua)?)?;
    caps.raw_set("search", search::module(lua)?)?;
    caps.raw_set("install", install::module(lua)?)?;
    caps.raw_set("upstream", upstream::module(lua)?)?;
    caps.set_readonly(true);
    Ok(caps)
}
