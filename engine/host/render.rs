//! The `render` capability: load a tool's `render.luau` at call time.
//!
//! The file is read and compiled on every call, so an edit shows on the next call
//! without a reload. It runs like a tool: its own environment, `require` resolving
//! the toolbox's modules, the run's limits.

/// The Luau declarations of this capability (`render.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("render.d.luau");

use mlua::chunk::ChunkMode;
use mlua::{Lua, Value};

use crate::assets::compile;
use crate::sandbox::{Capability, Effect, HostError};

use super::instance::module_env;
use super::refusal::missing;
use super::state::with_state;

/// The `render` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("render").function("load", Effect::Read, load)
}

fn load(lua: &Lua, identity: String) -> mlua::Result<Value> {
    let index = with_state(lua, |s| s.index.clone())?;
    let Some(entry) = index.tool(&identity) else {
        let error = match identity.split_once('.') {
            Some((toolbox, tool)) => missing(&index, toolbox, tool),
            None => HostError::new(format!(
                "tools.render: '{identity}' is not a tool identity like \"text.slugify\""
            )),
        };
        return Err(error.into_lua());
    };
    let root = &index.roots[entry.folder.0];
    let rel = format!("{}/render.luau", entry.rel);
    let source = match root.read(&rel) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Value::Nil),
        Err(e) => {
            return Err(
                HostError::new(format!("{identity}/render.luau cannot be read: {e}")).into_lua(),
            )
        }
    };
    let bytecode = compile(&source).map_err(|e| {
        HostError::hinted(
            format!("{identity}/render.luau does not compile: {e}"),
            "fix the file; it is read again on the next call",
        )
        .into_lua()
    })?;
    let env = module_env(lua, &entry.folder)?;
    let module: Value = lua
        .load(&bytecode[..])
        .set_name(format!("={identity}/render.luau"))
        .set_mode(ChunkMode::Binary)
        .set_environment(env)
        .call(())?;
    match module {
        Value::Function(_) => Ok(module),
        other => Err(HostError::hinted(
            format!(
                "{identity}/render.luau returned a {}, not a function",
                other.type_name()
            ),
            "end render.luau with `return function(result) ... end` returning a string or { out, err?, exit? }",
        )
        .into_lua()),
    }
}
