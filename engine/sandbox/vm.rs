//! One sandboxed Luau VM: standard libraries minus everything that reaches the host,
//! what the host's [`Linker`] hands it, and an interrupt that enforces the deadline.

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value, Variadic};

use super::bounded;
use super::compile::load_text;
use super::context::{with_run, Run, Slot};
use super::coroutines;
use super::deadline::{self, Cutoff, StopCheck};
use super::hosterror::HostError;
use super::json::{escaped_floor, escaped_len};
use super::linker::Linker;
use super::StopCause;

/// Registry key of the metatable of every environment (`__index` = the frozen globals).
const ENV_META: &str = "codemode.env";

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

/// A sandboxed VM with the deadline hooks of its runs.
pub(crate) struct Vm {
    /// The Luau state.
    pub lua: Lua,
    /// The metatable of every environment (`__index` = the read-only globals).
    env_meta: Table,
    /// `math.randomseed`, called with a fresh seed before every run.
    randomseed: Function,
}

/// What a finished run left: the sandbox's accounting, the host's data, and whether the
/// interrupt cut it off.
pub(crate) struct Finished<T> {
    /// What the sandbox counted (`None` if the run never started).
    pub run: Option<Run>,
    /// The host's data for the run.
    pub data: Option<T>,
    /// Whether and why the interrupt stopped the run.
    pub cutoff: Option<Cutoff>,
}

impl Vm {
    /// Builds a VM: safe libraries, the bounded builtins, what `linker` holds (globals,
    /// capabilities, the prelude), then the sandbox.
    pub(crate) fn new(linker: &Linker) -> mlua::Result<Vm> {
        let lua = Lua::new_with(libraries(), LuaOptions::default())?;
        // The same compiler settings as the index uses for tools.
        lua.set_compiler(crate::assets::compiler());
        let globals = lua.globals();
        for name in REMOVED_GLOBALS {
            globals.raw_set(name, Value::Nil)?;
        }
        install_tostring(&lua, &globals)?;
        install_print(&lua, &globals)?;
        install_loadstring(&lua, &globals)?;
        install_script_require(&lua, &globals)?;
        coroutines::install(&lua, &globals)?;
        bounded::install(&lua, &globals)?;
        let env_meta = lua.create_table()?;
        env_meta.raw_set("__index", globals.clone())?;
        env_meta.raw_set("__metatable", "locked")?;
        env_meta.set_readonly(true);
        lua.set_named_registry_value(ENV_META, env_meta.clone())?;
        linker.link(&lua);
        for (name, table) in linker.global_tables(&lua)? {
            globals.raw_set(name, table)?;
        }
        install_prelude(&lua, &globals, linker)?;
        lua.sandbox(true)?;

        deadline::install(&lua)?;
        let randomseed = globals.get::<Table>("math")?.get("randomseed")?;
        Ok(Vm {
            lua,
            env_meta,
            randomseed,
        })
    }

    /// Starts a run: reseeds the random generator, so that no run can set or learn the
    /// numbers the next one draws, and hands the run its accounting and the host's `data`.
    pub(crate) fn begin<T: Send + 'static>(&self, run: Run, data: T) -> mlua::Result<()> {
        self.randomseed.call::<()>(fresh_seed())?;
        self.lua.set_app_data(Slot {
            run,
            data: Box::new(data),
        });
        Ok(())
    }

    /// Arms the deadline and the stop check for a run (on the calling thread, where the
    /// run executes).
    pub(crate) fn arm(&self, timeout: std::time::Duration, stop: Option<StopCheck>) {
        deadline::arm(timeout, stop);
    }

    /// Ends a run: disarms the deadline and takes back what [`Vm::begin`] handed over.
    pub(crate) fn finish<T: 'static>(&self) -> Finished<T> {
        let cutoff = deadline::disarm();
        match self.lua.remove_app_data::<Slot>() {
            Some(Slot { run, data }) => Finished {
                run: Some(run),
                data: data.downcast::<T>().ok().map(|data| *data),
                cutoff,
            },
            None => Finished {
                run: None,
                data: None,
                cutoff,
            },
        }
    }

    /// A fresh environment for one script: its own globals, reading through to the shared ones.
    pub(crate) fn script_env(&self) -> mlua::Result<Table> {
        let env = self.lua.create_table()?;
        env.raw_set("_G", env.clone())?;
        env.set_metatable(Some(self.env_meta.clone()))?;
        Ok(env)
    }
}

/// The metatable of every environment: `__index` reads through to the VM's frozen
/// globals (a tool's and a module's environment use it too).
pub(crate) fn env_meta(lua: &Lua) -> mlua::Result<Table> {
    lua.named_registry_value(ENV_META)
}

/// `tostring` of an error a host function raised gives its message without the
/// Rust-side traceback (see [`caught_text`](super::hosterror::caught_text)); every other
/// value goes to Luau's own `tostring`, which this Luau frame calls directly.
fn install_tostring(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let original: Function = globals.get("tostring")?;
    let caught = lua.create_function(|_, e: Value| match e {
        Value::Error(e) => Ok(Some(super::hosterror::caught_text(&e))),
        _ => Ok(None),
    })?;
    let wrapper: Function = lua
        .load(
            "local original, caught, type = ...
             return function(v)
                 if type(v) == 'userdata' then
                     local text = caught(v)
                     if text then return text end
                 end
                 return original(v)
             end",
        )
        .set_name("=tostring")
        .call((original, caught, globals.get::<Function>("type")?))?;
    globals.raw_set("tostring", wrapper)
}

/// `print` appends to the run's output, up to the cap.
fn install_print(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let tostring: Function = globals.get("tostring")?;
    let print = lua.create_function(move |lua, args: Variadic<Value>| {
        // Stop building the line once it passes what the cap leaves: the line lives
        // outside the VM's heap, where the memory limit does not count it.
        let room = with_run(lua, |s| s.limits.max_output_bytes.saturating_sub(s.printed))?;
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
        let overflow = with_run(lua, |s| {
            // Counted as the envelope carries it (JSON-escaped), so a flood of quotes or
            // tabs cannot make a reply larger than the cap.
            let room = s.limits.max_output_bytes.saturating_sub(s.printed);
            let fits = escaped_len(&line) <= room;
            let cut = if fits {
                line.len()
            } else {
                escaped_floor(&line, room)
            };
            s.printed += escaped_len(&line[..cut]);
            if s.echo {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                // Streamed output leaves the engine here, not through an envelope.
                let shown = crate::secrets::mask(&line[..cut]);
                let written = out.write_all(shown.as_bytes()).and_then(|()| out.flush());
                // Whoever read the output has gone (`codemode run x | head -1`): the run
                // is cancelled, as when any caller goes away, instead of printing into
                // nothing until its deadline.
                if written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
                    s.stop = Some(StopCause::Cancelled);
                    return Some(Stopped::Closed);
                }
            } else {
                s.stdout.push_str(&line[..cut]);
            }
            if !fits {
                s.stop = Some(StopCause::Output);
            }
            (!fits).then_some(Stopped::Cap(s.limits.max_output_bytes))
        })?;
        match overflow {
            Some(Stopped::Cap(cap)) => Err(HostError::new(format!(
                "print output passed the cap of {cap} bytes"
            ))
            .into_lua()),
            Some(Stopped::Closed) => {
                Err(HostError::new("stdout was closed by its reader").into_lua())
            }
            None => Ok(()),
        }
    })?;
    globals.raw_set("print", print)
}

/// Why `print` stopped a run.
enum Stopped {
    /// The output passed this cap.
    Cap(usize),
    /// The process's stdout was closed while the run streamed to it.
    Closed,
}

/// `loadstring` that accepts text only and loads into the calling script's environment.
fn install_loadstring(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let f = lua.create_function(|lua, (source, _name): (mlua::LuaString, Option<String>)| {
        let (env, max_bytes) = with_run(lua, |s| (s.env.clone(), s.limits.compile_cap()))?;
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

/// Runs each prelude module in a private environment that holds the capabilities; a
/// module with a global name becomes that global.
fn install_prelude(lua: &Lua, globals: &Table, linker: &Linker) -> mlua::Result<()> {
    let caps = linker.capability_tables(lua)?;
    for module in &linker.prelude {
        let env = lua.create_table_with_capacity(0, caps.len())?;
        for (name, table) in &caps {
            env.raw_set(*name, table)?;
        }
        let meta = lua.create_table()?;
        meta.raw_set("__index", globals.clone())?;
        env.set_metatable(Some(meta))?;
        // Bytecode the engine compiled itself, never bytecode from a script.
        let value: Value = lua
            .load(module.bytecode)
            .set_name(format!("=prelude/{}", module.name))
            .set_mode(ChunkMode::Binary)
            .set_environment(env.clone())
            .call(MultiValue::new())?;
        env.set_readonly(true);
        if let Some(global) = module.global {
            globals.raw_set(global, value)?;
        }
    }
    Ok(())
}
