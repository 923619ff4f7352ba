//! Instantiating tools and toolbox modules for the current run.
//!
//! Bytecode is compiled once per file version (by the index); each run gets its own
//! instance of every tool it touches, with its own environment, so nothing a tool
//! keeps at module level survives into the next run.

use std::collections::HashMap;
use std::sync::Arc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Table, Value};

use crate::assets::{Bytecode, FolderKey, Registration};
use crate::sandbox::{env_meta, HostError};

use super::refusal::{missing, missing_toolbox};
use super::state::with_state;

/// The function behind `tools.<toolbox>.<tool>` for this run.
pub(crate) fn load_tool(lua: &Lua, toolbox: &str, tool: &str) -> mlua::Result<Function> {
    let identity = format!("{toolbox}.{tool}");
    let (cached, index) = with_state(lua, |s| (s.tools.get(&identity).cloned(), s.index.clone()))?;
    if let Some(f) = cached {
        return Ok(f);
    }
    let Some(entry) = index.tool(&identity) else {
        return Err(missing(&index, toolbox, tool).into_lua());
    };
    let bytecode = match entry.registration() {
        Registration::Registered(code) => code.clone(),
        Registration::Unregistered(reason) => {
            return Err(HostError::hinted(
                format!("tool {identity} is not callable: {reason}"),
                format!("fix the tool's files, then check with `codemode check`; tools.get('{identity}') shows what was read"),
            )
            .into_lua())
        }
    };
    let value = instantiate(lua, &bytecode, &identity, &entry.folder)?;
    let Value::Function(function) = value else {
        return Err(HostError::hinted(
            format!(
                "tool {identity}: init.luau returned {}, not a function",
                match value.type_name() {
                    "nil" => "nil".to_string(),
                    t @ ("integer" | "userdata") => format!("an {t}"),
                    t => format!("a {t}"),
                }
            ),
            "end the tool's init.luau with `return <the tool's function>`",
        )
        .into_lua());
    };
    with_state(lua, |s| s.tools.insert(identity, function.clone()))?;
    Ok(function)
}

/// Loaded chunks and `require` functions kept for the life of a VM (made on first use).
/// Only code is kept: every run still runs each chunk afresh in a new environment.
struct Factories {
    /// Chunk functions by the address of their bytecode (the `Arc` keeps it unique).
    chunks: HashMap<usize, (Bytecode, Function)>,
    /// One `require` per toolbox folder.
    requires: HashMap<FolderKey, Function>,
    /// The sandbox's metatable of every environment, looked up once.
    env_meta: Table,
}

/// The VM's factories, made empty on first use.
fn factories(lua: &Lua) -> mlua::Result<mlua::AppDataRefMut<'_, Factories>> {
    if let Some(factories) = lua.app_data_mut::<Factories>() {
        return Ok(factories);
    }
    lua.set_app_data(Factories {
        chunks: HashMap::new(),
        requires: HashMap::new(),
        env_meta: env_meta(lua)?,
    });
    lua.app_data_mut::<Factories>()
        .ok_or_else(|| mlua::Error::runtime("the VM's tool factories were dropped"))
}

/// Beyond this many cached chunks (edits pile up old versions), start over.
const MAX_FACTORIES: usize = 4096;

/// Runs a compiled chunk in a fresh environment whose `require` resolves in `folder`.
fn instantiate(
    lua: &Lua,
    bytecode: &Bytecode,
    name: &str,
    folder: &FolderKey,
) -> mlua::Result<Value> {
    let env = module_env(lua, folder)?;
    let chunk = factory(lua, bytecode, name)?.deep_clone()?;
    chunk.set_environment(env)?;
    chunk.call(())
}

/// The loaded chunk for `bytecode`, loading it on first use in this VM.
fn factory(lua: &Lua, bytecode: &Bytecode, name: &str) -> mlua::Result<Function> {
    let key = Arc::as_ptr(bytecode) as *const u8 as usize;
    let cached = factories(lua)?.chunks.get(&key).map(|(_, f)| f.clone());
    if let Some(f) = cached {
        return Ok(f);
    }
    let f = lua
        .load(&bytecode[..])
        .set_name(format!("={name}"))
        .set_mode(ChunkMode::Binary)
        .into_function()?;
    let mut cache = factories(lua)?;
    if cache.chunks.len() >= MAX_FACTORIES {
        cache.chunks.clear();
    }
    cache.chunks.insert(key, (bytecode.clone(), f.clone()));
    Ok(f)
}

/// A tool's or module's environment: reads through to the globals, with its own `require`.
pub(crate) fn module_env(lua: &Lua, folder: &FolderKey) -> mlua::Result<Table> {
    let (require, meta) = {
        let factories = factories(lua)?;
        let require = factories.requires.get(folder).cloned();
        (require, factories.env_meta.clone())
    };
    let require = match require {
        Some(f) => f,
        None => require_for(lua, folder)?,
    };
    let env = lua.create_table_with_capacity(0, 1)?;
    env.raw_set("require", require)?;
    env.set_metatable(Some(meta))?;
    Ok(env)
}

/// The `require` of a toolbox folder, made once per VM.
fn require_for(lua: &Lua, folder: &FolderKey) -> mlua::Result<Function> {
    let key = folder.clone();
    let f = crate::sandbox::hand_out(lua, "asset", "require", move |lua, name: String| {
        require(lua, &key, &name)
    })?;
    factories(lua)?.requires.insert(folder.clone(), f.clone());
    Ok(f)
}

/// `require(".shared")` and `require(".<module>")`: the toolbox's own `<module>.module/`.
fn require(lua: &Lua, folder: &FolderKey, name: &str) -> mlua::Result<Value> {
    let module = name
        .strip_prefix("./")
        .or_else(|| name.strip_prefix('.'))
        .unwrap_or("");
    let (index, cached) = with_state(lua, |s| {
        (
            s.index.clone(),
            s.modules
                .get(&(folder.clone(), module.to_string()))
                .cloned(),
        )
    })?;
    match cached {
        Some(Some(value)) => return Ok(value),
        Some(None) => {
            return Err(HostError::hinted(
                format!("require('{name}') is a cycle: the module is still loading"),
                "move what both modules need into a third module",
            )
            .into_lua())
        }
        None => {}
    }
    let Some(toolbox) = index.folder(folder) else {
        return Err(missing_toolbox(&index, &[], &folder.1).into_lua());
    };
    let available: Vec<String> = toolbox
        .modules
        .iter()
        .map(|m| format!("'.{}'", m.name))
        .collect();
    let found = toolbox
        .modules
        .iter()
        .find(|m| m.name == module && !module.is_empty());
    let Some(found) = found else {
        return Err(HostError::hinted(
            format!("require('{name}'): toolbox '{}' has no such module", toolbox.name),
            format!(
                "require resolves only the toolbox's own <name>.module/ folders ({}); other tools are called through tools.<box>.<name>",
                if available.is_empty() { "this toolbox has none".to_string() } else { available.join(", ") }
            ),
        )
        .into_lua());
    };
    let code = found.bytecode().map_err(|e| HostError::new(e).into_lua())?;
    let key = (folder.clone(), module.to_string());
    with_state(lua, |s| s.modules.insert(key.clone(), None))?;
    let loaded = instantiate(lua, &code, &format!("{}/{module}", toolbox.name), folder);
    let value = match loaded {
        Ok(Value::Nil) => Value::Boolean(true),
        Ok(v) => v,
        Err(e) => {
            with_state(lua, |s| s.modules.remove(&key))?;
            return Err(e);
        }
    };
    with_state(lua, |s| s.modules.insert(key, Some(value.clone())))?;
    Ok(value)
}
