//! Coroutines: the per-run cap on how many a script creates, and the engine's own.
//!
//! The engine runs some code in coroutines it drives itself: each function of
//! `tools.parallel` (its scheduler resumes it with the answer of the upstream call it
//! waits for) and each cached tool call that misses (so that what the call returns is
//! what the tool returned, not a value someone resumed it with). A script can hold such a
//! coroutine (`coroutine.running()` inside it, passed along in a table), so holding one
//! must give no power over it: the engine's coroutines are recorded in a weak table in
//! the Lua registry, which no script reaches, and the script-visible `coroutine.resume`
//! and `coroutine.close` refuse every coroutine recorded there, whoever calls them (a
//! script, a nested coroutine, a `pcall`, a tool's own code). `coroutine.wrap` takes a
//! function and makes a coroutine of its own, so it never reaches one of the engine's.
//! Only the prelude gets the unchecked `resume`, through [`engine_threads`] and [`add_resume`].

use mlua::{Function, Lua, Table, Value};

use super::context::with_run;
use super::hosterror::HostError;
use super::linker::{Capability, Effect, Linker};
use super::StopCause;

/// Registry key of the weak set of the engine's coroutines.
const ENGINE: &str = "codemode.engine_coroutines";
/// Registry keys of Luau's own `coroutine.create` and `coroutine.resume`.
const RAW_CREATE: &str = "codemode.coroutine_create";
const RAW_RESUME: &str = "codemode.coroutine_resume";

/// The script-visible `resume` and `close`: each refuses the engine's coroutines. Luau,
/// so that resuming stays a Luau call (the resumed coroutine may yield back as usual).
const GUARDS: &str = r#"
local engine, resume, close, error = ...
local REFUSED = "%s: this coroutine is the engine's (a function tools.parallel runs, or a tool call it drives); only the engine resumes or closes it"
return function(co, ...)
	if engine[co] then
		error(string.format(REFUSED, "coroutine.resume"), 2)
	end
	return resume(co, ...)
end, function(co)
	if engine[co] then
		error(string.format(REFUSED, "coroutine.close"), 2)
	end
	return close(co)
end
"#;

/// Counts `coroutine.create` and `coroutine.wrap` against the run's cap, and guards
/// `coroutine.resume` and `coroutine.close` (before the globals are frozen).
pub(crate) fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let coroutine: Table = globals.get("coroutine")?;
    let engine = lua.create_table()?;
    let weak = lua.create_table()?;
    weak.raw_set("__mode", "k")?;
    engine.set_metatable(Some(weak))?;
    lua.set_named_registry_value(ENGINE, engine.clone())?;
    let create: Function = coroutine.get("create")?;
    let resume: Function = coroutine.get("resume")?;
    lua.set_named_registry_value(RAW_CREATE, create)?;
    lua.set_named_registry_value(RAW_RESUME, resume.clone())?;
    let (guarded_resume, guarded_close): (Function, Function) =
        lua.load(GUARDS).set_name("=coroutine").call((
            engine,
            resume,
            coroutine.get::<Function>("close")?,
            globals.get::<Function>("error")?,
        ))?;
    coroutine.raw_set("resume", guarded_resume)?;
    coroutine.raw_set("close", guarded_close)?;
    for name in ["create", "wrap"] {
        let original: Function = coroutine.get(name)?;
        let counted = lua.create_function(move |lua, f: Function| {
            count(lua)?;
            original.call::<Value>(f)
        })?;
        coroutine.raw_set(name, counted)?;
    }
    Ok(())
}

/// Counts one coroutine against the run's cap.
fn count(lua: &Lua) -> mlua::Result<()> {
    let over = with_run(lua, |s| {
        s.coroutines += 1;
        if s.coroutines > s.limits.max_coroutines {
            s.stop = Some(StopCause::Coroutines);
            Some(s.limits.max_coroutines)
        } else {
            None
        }
    })?;
    match over {
        Some(cap) => {
            Err(HostError::new(format!("a run may create at most {cap} coroutines")).into_lua())
        }
        None => Ok(()),
    }
}

/// The prelude's `threads` capability: `spawn(f, counted)` makes a coroutine of the
/// engine's (counted against the run's cap when `counted`: what a script asked for, such
/// as a function of `tools.parallel`), and `outOfMemory()` raises the memory error such a
/// coroutine ended with. Its table also gets `resume`, Luau's own ([`add_resume`]).
fn engine_threads(name: &'static str) -> Capability {
    Capability::new(name)
        .function(
            "spawn",
            Effect::None,
            |lua, (f, counted): (Function, bool)| {
                if counted {
                    count(lua)?;
                }
                let create: Function = lua.named_registry_value(RAW_CREATE)?;
                let co: Value = create.call(f)?;
                let engine: Table = lua.named_registry_value(ENGINE)?;
                engine.raw_set(co.clone(), true)?;
                Ok(co)
            },
        )
        // A coroutine that ran out of memory answers its resume with the text of the
        // error; raised again as text, its handling needs the memory that is not there.
        // This raises it as what it was, a memory error, which stops the run as one.
        .function("outOfMemory", Effect::None, |_, ()| -> mlua::Result<()> {
            Err(mlua::Error::MemoryError("not enough memory".into()))
        })
}

impl Linker {
    /// Gives the prelude (only) the engine's coroutines as `name`.
    pub(crate) fn threads(self, name: &'static str) -> Linker {
        self.extended(engine_threads(name), add_resume)
    }
}

/// Adds Luau's own `coroutine.resume`, which resumes the engine's coroutines too, to the
/// `threads` table (a builtin of Luau's, not a host function).
fn add_resume(lua: &Lua, threads: &Table) -> mlua::Result<()> {
    threads.raw_set("resume", lua.named_registry_value::<Function>(RAW_RESUME)?)
}

/// True when `f` is Luau's own `coroutine.resume`.
#[cfg(test)]
pub(crate) fn is_raw_resume(lua: &Lua, f: &Function) -> bool {
    lua.named_registry_value::<Function>(RAW_RESUME)
        .is_ok_and(|resume| resume == *f)
}
