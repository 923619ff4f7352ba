//! One sandboxed Luau VM: standard libraries minus everything that reaches the host,
//! the prelude installed, and an interrupt that enforces the deadline.

use std::sync::Arc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value, Variadic};

use super::bounded;
use super::compile::load_text;
use super::deadline;
use super::hosterror::HostError;
use super::state::with_state;
use super::StopCause;
use crate::assets::AssetIndex;
use crate::host;

/// Registry key of the prelude's private `run` table: per-run caches the runtime resets.
const RUN_TABLE: &str = "codemode.run";

/// A seed no script can predict: std's hash keys are random per thread, and each
/// `RandomState` differs from the one before.
fn fresh_seed() -> i32 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u8) as i32
}

/// The standard libraries scripts get: everything but `debug` (Luau's `os` is only the clock).
fn libraries() -> StdLib {
    StdLib::COROUTINE
        | StdLib::TABLE
        | StdLib::OS
        | StdLib::STRING
        | StdLib::UTF8
        | StdLib::BIT
        | StdLib::MATH
        | StdLib::BUFFER
        | StdLib::VECTOR
}

/// Globals removed before sandboxing: they reach outside the run or across runs.
const REMOVED_GLOBALS: [&str; 3] = ["getfenv", "setfenv", "require"];

/// The prelude modules, installed in order.
const PRELUDE: [(&str, &str); 2] = [
    ("error", include_str!("../../prelude/error.luau")),
    ("tools", include_str!("../../prelude/tools.luau")),
];

/// A sandboxed VM with the deadline hooks of its runs.
pub struct Vm {
    /// The Luau state.
    pub lua: Lua,
    /// The prelude's `run` table (see [`Vm::begin_run`]).
    run: Table,
    /// The metatable of every environment (`__index` = the read-only globals).
    env_meta: Table,
    /// The index whose toolbox names `run.boxes` holds.
    boxes_of: Option<Arc<AssetIndex>>,
    /// `math.randomseed`, called with a fresh seed before every run.
    randomseed: Function,
}

impl Vm {
    /// Builds a VM: safe libraries, host capabilities, the prelude, then the sandbox.
    pub fn new() -> mlua::Result<Vm> {
        let lua = Lua::new_with(libraries(), LuaOptions::default())?;
        // The same compiler settings as the index uses for tools.
        lua.set_compiler(crate::assets::compiler());
        let globals = lua.globals();
        for name in REMOVED_GLOBALS {
            globals.raw_set(name, Value::Nil)?;
        }
        install_print(&lua, &globals)?;
        install_loadstring(&lua, &globals)?;
        install_script_require(&lua, &globals)?;
        cap_coroutines(&lua, &globals)?;
        bounded::install(&lua, &globals)?;
        let run = lua.create_table()?;
        lua.set_named_registry_value(RUN_TABLE, run.clone())?;
        let env_meta = lua.create_table()?;
        env_meta.raw_set("__index", globals.clone())?;
        env_meta.raw_set("__metatable", "locked")?;
        env_meta.set_readonly(true);
        lua.set_app_data(host::instance::Factories::new(env_meta.clone()));
        // `vfs` is the one capability scripts get directly: files of the world only.
        globals.raw_set("vfs", host::vfs::module(&lua)?)?;
        install_prelude(&lua, &globals)?;
        lua.sandbox(true)?;

        deadline::install(&lua)?;
        let randomseed = globals.get::<Table>("math")?.get("randomseed")?;
        Ok(Vm {
            lua,
            run,
            env_meta,
            boxes_of: None,
            randomseed,
        })
    }

    /// Resets the prelude's per-run caches: `run.fns` (tool functions resolved in this run)
    /// and, when the index changed, `run.boxes` (the toolbox names), so the hot path of
    /// `tools.<box>.<name>` stays in Luau.
    pub fn begin_run(&mut self, index: &Arc<AssetIndex>) -> mlua::Result<()> {
        self.run.raw_set("fns", self.lua.create_table()?)?;
        self.run.raw_set("upstreamBoxes", Value::Nil)?;
        self.run.raw_set("parallel", Value::Nil)?;
        self.run.raw_set("raised", Value::Nil)?;
        // The generator's state lives in the VM: reseed it, so that no run can set or
        // learn the numbers the next one draws.
        self.randomseed.call::<()>(fresh_seed())?;
        if !self
            .boxes_of
            .as_ref()
            .is_some_and(|seen| Arc::ptr_eq(seen, index))
        {
            self.run.raw_set("boxes", toolbox_set(&self.lua, index)?)?;
            self.boxes_of = Some(index.clone());
        }
        Ok(())
    }

    /// Arms the deadline and the stop check for a run (on the calling thread, where the
    /// run executes).
    pub fn arm(&self, timeout: std::time::Duration, stop: Option<deadline::StopCheck>) {
        deadline::arm(timeout, stop);
    }

    /// Disarms the deadline; says whether and why it cut the run off.
    pub fn disarm(&self) -> Option<deadline::Cutoff> {
        deadline::disarm()
    }

    /// The last value other than a string that the run passed to `error`, if any.
    pub fn raised(&self) -> Option<Value> {
        self.run
            .raw_get::<Value>("raised")
            .ok()
            .filter(|v| !v.is_nil())
    }

    /// A fresh environment for one script: its own globals, reading through to the shared ones.
    pub fn script_env(&self) -> mlua::Result<Table> {
        let env = self.lua.create_table()?;
        env.raw_set("_G", env.clone())?;
        env.set_metatable(Some(self.env_meta.clone()))?;
        Ok(env)
    }
}

/// After a run changed the world (tools.create, vfs.write), drops the prelude's caches so
/// the run's next `tools.<box>.<name>` sees the new files.
pub fn reset_run_caches(lua: &Lua, index: &AssetIndex) -> mlua::Result<()> {
    let run: Table = lua.named_registry_value(RUN_TABLE)?;
    run.raw_set("fns", lua.create_table()?)?;
    run.raw_set("boxes", toolbox_set(lua, index)?)
}

fn toolbox_set(lua: &Lua, index: &AssetIndex) -> mlua::Result<Table> {
    let boxes = lua.create_table()?;
    for name in index.toolbox_names() {
        boxes.raw_set(name, true)?;
    }
    Ok(boxes)
}

/// `print` appends to the run's output, up to the cap.
fn install_print(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let tostring: Function = globals.get("tostring")?;
    let print = lua.create_function(move |lua, args: Variadic<Value>| {
        // Stop building the line once it passes what the cap leaves: the line lives
        // outside the VM's heap, where the memory limit does not count it.
        let room = with_state(lua, |s| s.limits.max_output_bytes.saturating_sub(s.printed))?;
        let mut line = String::new();
        for (i, v) in args.iter().enumerate() {
            // Each argument may run a `__tostring`: look at the deadline between them.
            deadline::check()?;
            if i > 0 {
                line.push('\t');
            }
            let text: mlua::LuaString = tostring.call(v.clone())?;
            let text = text.as_bytes();
            let take = text.len().min(room.saturating_sub(line.len()) + 1);
            line.push_str(&String::from_utf8_lossy(&text[..take]));
            if line.len() > room {
                break;
            }
        }
        line.push('\n');
        let overflow = with_state(lua, |s| {
            let room = s.limits.max_output_bytes.saturating_sub(s.printed);
            let fits = line.len() <= room;
            let cut = if fits {
                line.len()
            } else {
                floor_boundary(&line, room)
            };
            s.printed += cut;
            if s.echo {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(&line.as_bytes()[..cut]);
                let _ = out.flush();
            } else {
                s.stdout.push_str(&line[..cut]);
            }
            if !fits {
                s.stop = Some(StopCause::Output);
            }
            (!fits).then_some(s.limits.max_output_bytes)
        })?;
        match overflow {
            Some(cap) => Err(
                HostError::new(format!("print output passed the cap of {cap} bytes")).into_lua(),
            ),
            None => Ok(()),
        }
    })?;
    globals.raw_set("print", print)
}

fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `loadstring` that accepts text only and loads into the calling script's environment.
fn install_loadstring(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let f = lua.create_function(|lua, (source, _name): (mlua::LuaString, Option<String>)| {
        let (env, max_bytes) = with_state(lua, |s| (s.env.clone(), s.limits.compile_cap()))?;
        // Past the deadline the run must stop, not get a `nil, message` to carry on with.
        match load_text(lua, &source.as_bytes(), "loadstring", env, max_bytes) {
            Ok(f) => Ok((Value::Function(f), Value::Nil)),
            Err(e) if deadline::check().is_err() => Err(e),
            Err(e) => Ok((Value::Nil, Value::String(lua.create_string(e.to_string())?))),
        }
    })?;
    globals.raw_set("loadstring", f)
}

/// Scripts have no file `require`; the message says what to use instead.
fn install_script_require(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let f = lua.create_function(|_, name: Value| -> mlua::Result<()> {
        let name = name.to_string().unwrap_or_else(|_| "?".into());
        Err(HostError::hinted(
            format!("require('{name}') is not available to scripts"),
            "call tools through tools.<box>.<name>(...); inside a tool, require('.shared') loads the toolbox's shared.module",
        )
        .into_lua())
    })?;
    globals.raw_set("require", f)
}

/// Wraps `coroutine.create` and `coroutine.wrap` to count coroutines per run.
fn cap_coroutines(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let coroutine: Table = globals.get("coroutine")?;
    for name in ["create", "wrap"] {
        let original: Function = coroutine.get(name)?;
        let wrapped = lua.create_function(move |lua, f: Function| {
            let over = with_state(lua, |s| {
                s.coroutines += 1;
                if s.coroutines > s.limits.max_coroutines {
                    s.stop = Some(StopCause::Coroutines);
                    Some(s.limits.max_coroutines)
                } else {
                    None
                }
            })?;
            if let Some(cap) = over {
                return Err(
                    HostError::new(format!("a run may create at most {cap} coroutines")).into_lua(),
                );
            }
            original.call::<Value>(f)
        })?;
        coroutine.raw_set(name, wrapped)?;
    }
    Ok(())
}

/// Runs each prelude module in a private environment that holds the capabilities;
/// a module headed `--!global NAME` becomes global `NAME`.
fn install_prelude(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let caps = host::capabilities(lua)?;
    let run: Table = lua.named_registry_value(RUN_TABLE)?;
    for (name, source) in PRELUDE {
        let env = lua.create_table()?;
        env.raw_set("run", run.clone())?;
        for pair in caps.pairs::<Value, Value>() {
            let (k, v) = pair?;
            env.raw_set(k, v)?;
        }
        let meta = lua.create_table()?;
        meta.raw_set("__index", globals.clone())?;
        env.set_metatable(Some(meta))?;
        let module: Value = lua
            .load(source)
            .set_name(format!("=prelude/{name}"))
            .set_mode(ChunkMode::Text)
            .set_environment(env.clone())
            .call(MultiValue::new())?;
        env.set_readonly(true);
        if let Some(global) = global_name(source) {
            globals.raw_set(global, module)?;
        }
    }
    Ok(())
}

/// The `NAME` of a `--!global NAME` header line.
fn global_name(source: &str) -> Option<&str> {
    source
        .lines()
        .take_while(|l| l.starts_with("--"))
        .find_map(|l| l.strip_prefix("--!global "))
        .map(str::trim)
}
