//! The `audit` capability, the prelude's only: a line in the run's audit trail for each
//! tool call (see `crate::audit`). The prelude wraps every tool function it hands out,
//! folder or upstream, in one function that times the call and reports how it ended
//! here (`prelude/tools.luau`, `audited`), so a call made directly, through
//! `tools.parallel`, from another tool or answered from the result cache is recorded the
//! same way. A call refused before there is a function to wrap (a tool the profile
//! denies) is recorded where it is refused, with [`denied`].

/// The Luau declarations of this capability (`audit.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("audit.d.luau");

use std::time::Duration;

use mlua::{Lua, MultiValue, Value};

use crate::sandbox::{find_host_error, with_run, Capability, Effect, StopCause};

use super::state::with_state;

/// Values a call's size walks at most: the size of a result of a million rows is about.
const MAX_VISITS: usize = 10_000;

/// Tables nested deeper than this count as a placeholder.
const MAX_DEPTH: usize = 32;

/// The `audit` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("audit")
        .function("on", Effect::None, |lua, ()| {
            with_state(lua, |s| s.audit.is_some())
        })
        .function(
            "call",
            Effect::None,
            |lua, (identity, seconds, ok, rest): (mlua::LuaString, f64, bool, MultiValue)| {
                let identity = identity.to_str()?;
                let elapsed = Duration::from_secs_f64(seconds.max(0.0));
                let (outcome, bytes) = match ok {
                    true => ("ok", rest.iter().map(size).sum()),
                    false => (failure(lua, rest.front()), 0),
                };
                with_state(lua, |s| {
                    let cached = std::mem::take(&mut s.answered_from_cache);
                    if let Some(trail) = &mut s.audit {
                        trail.call(&identity, outcome, elapsed, bytes, cached);
                    }
                })
            },
        )
}

/// Records a call of `identity` that the run's profile refused, when running code asked
/// for it (see [`reached_by_code`]).
pub(crate) fn denied(lua: &Lua, identity: &str) -> mlua::Result<()> {
    if !reached_by_code(lua) {
        return Ok(());
    }
    with_state(lua, |s| {
        if let Some(trail) = &mut s.audit {
            trail.call(identity, "denied", Duration::ZERO, 0, false);
        }
    })
}

/// True when running code reached the tool: the first frame above the prelude's is a
/// Luau function (a script's, a tool's, a `tools.parallel` function). Luau also looks up
/// a chunk's `tools.<box>.<tool>` paths while it loads the chunk, ahead of running it (an
/// optimisation whose errors it ignores), from no Luau frame: that is no call, and code
/// that never runs must not leave a refused call in the log.
fn reached_by_code(lua: &Lua) -> bool {
    for level in 1..MAX_PRELUDE_FRAMES {
        let frame = lua.inspect_stack(level, |d| {
            let source = d.source();
            let prelude = source
                .source
                .as_deref()
                .is_some_and(|s| s.trim_start_matches(['=', '@']).starts_with("prelude/"));
            (source.what, prelude)
        });
        match frame {
            Some((_, true)) => continue,
            Some(("C", false)) | None => return false,
            Some(_) => return true,
        }
    }
    false
}

/// Prelude frames between a host function and the code that called into the prelude.
const MAX_PRELUDE_FRAMES: usize = 16;

/// The envelope's kind for the error a call raised: a limit the run reached, a refusal,
/// a tool's own timeout, or the tool's own error (`runtime`).
fn failure(lua: &Lua, error: Option<&Value>) -> &'static str {
    if let Ok(Some(cause)) = with_run(lua, |r| r.stop) {
        return stopped(cause);
    }
    match error {
        Some(Value::Error(e)) => match (find_host_error(e), StopCause::from_luau_error(e)) {
            (Some(h), _) if h.denied => "denied",
            (Some(h), _) if h.timed_out => "timeout",
            (_, Some(cause)) => stopped(cause),
            _ => "runtime",
        },
        Some(Value::String(s)) if s.to_str().is_ok_and(|s| s.contains("not enough memory")) => {
            "memory"
        }
        _ => "runtime",
    }
}

/// The envelope's kind for a limit that stopped the run (as the runtime reports it).
fn stopped(cause: StopCause) -> &'static str {
    match cause {
        StopCause::Deadline => "timeout",
        StopCause::Memory => "memory",
        StopCause::Output => "output",
        StopCause::Cancelled | StopCause::Coroutines | StopCause::Stack => "limit",
    }
}

/// About how many bytes `value` takes as JSON, walking at most [`MAX_VISITS`] values.
fn size(value: &Value) -> u64 {
    let mut visits = MAX_VISITS;
    measure(value, &mut visits, 0)
}

fn measure(value: &Value, visits: &mut usize, depth: usize) -> u64 {
    if *visits == 0 {
        return 0;
    }
    *visits -= 1;
    match value {
        Value::Nil => 4,
        Value::Boolean(b) => 5 - u64::from(*b),
        Value::Integer(i) => i.to_string().len() as u64,
        Value::Number(n) => n.to_string().len() as u64,
        Value::String(s) => s.as_bytes().len() as u64 + 2,
        Value::Table(t) if depth < MAX_DEPTH => {
            let mut total = 2;
            let _ = t.for_each(|k: Value, v: Value| {
                total += measure(&k, visits, depth + 1) + measure(&v, visits, depth + 1) + 2;
                Ok(())
            });
            total
        }
        // A function, a coroutine, a buffer, a table too deep: the placeholder the
        // envelope shows in its place.
        _ => 16,
    }
}
