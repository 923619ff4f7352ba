//! Compiling scripts and `loadstring` chunks under the run's limits.
//!
//! Luau's compiler is one C++ call that no interrupt reaches, and its time and memory
//! (allocated outside the VM's heap) grow faster than the source: a few hundred KiB of
//! hostile source took seconds. So a source is first held to a size that the memory
//! limit pays for, and anything but a small source is compiled on a thread of its own
//! while the run waits on its deadline (and stop check). A compile the deadline gives up
//! on runs to its end on that thread, bounded by the size limit; at most
//! [`MAX_COMPILING`] such threads exist at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Table};

use super::deadline;
use super::hosterror::HostError;
use crate::assets::compiler;

/// Sources up to this size compile on the calling thread: even hostile ones take about a
/// millisecond, less than a thread hop would cost to save.
const INLINE_BYTES: usize = 16 * 1024;

/// Compile threads alive at once (including ones whose run gave up on them).
const MAX_COMPILING: usize = 4;

/// How often a waiting run looks at its deadline and stop check.
const POLL: Duration = Duration::from_millis(5);

/// Stack of a compile thread (Luau's parser stops at 1,000 levels of recursion).
const COMPILE_STACK_BYTES: usize = 16 << 20;

static COMPILING: AtomicUsize = AtomicUsize::new(0);

/// Compiles `source` (Luau text, never bytecode) as the chunk `name` in `env`, under the
/// run's deadline, refusing sources over `max_bytes` before compiling.
pub(crate) fn load_text(
    lua: &Lua,
    source: &[u8],
    name: &str,
    env: Option<Table>,
    max_bytes: usize,
) -> mlua::Result<Function> {
    if let Some(problem) = crate::assets::nul_problem(source) {
        return Err(mlua::Error::SyntaxError {
            message: format!("{name}:{problem}"),
            incomplete_input: false,
        });
    }
    if source.len() > max_bytes {
        return Err(HostError::hinted(
            format!(
                "{name} is {} KiB of source; a run may compile at most {} KiB at once",
                source.len() >> 10,
                max_bytes >> 10
            ),
            "send a shorter script: keep data out of the source (read it with vfs.read) or raise the memory limit, which sets this cap",
        )
        .into_lua());
    }
    let chunk = if source.len() <= INLINE_BYTES {
        lua.load(source).set_mode(ChunkMode::Text)
    } else {
        let bytecode = compile_waiting(source, name)?;
        // Bytecode this engine's compiler just produced; never bytecode from a script.
        lua.load(bytecode).set_mode(ChunkMode::Binary)
    };
    let chunk = chunk.set_name(format!("={name}"));
    match env {
        Some(env) => chunk.set_environment(env).into_function(),
        None => chunk.into_function(),
    }
}

/// Compiles on a thread of its own while the run's deadline runs.
fn compile_waiting(source: &[u8], name: &str) -> mlua::Result<Vec<u8>> {
    while COMPILING
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < MAX_COMPILING).then_some(n + 1)
        })
        .is_err()
    {
        deadline::check()?;
        std::thread::sleep(POLL);
    }
    let (tx, rx) = mpsc::channel();
    let text = source.to_vec();
    let spawned = std::thread::Builder::new()
        .name("codemode-compile".into())
        .stack_size(COMPILE_STACK_BYTES)
        .spawn(move || {
            let _ = tx.send(compiler().compile(&text));
            COMPILING.fetch_sub(1, Ordering::AcqRel);
        });
    if let Err(e) = spawned {
        COMPILING.fetch_sub(1, Ordering::AcqRel);
        return Err(mlua::Error::runtime(format!(
            "cannot start a compile thread: {e}"
        )));
    }
    loop {
        match rx.recv_timeout(POLL) {
            Ok(Ok(bytecode)) => return Ok(bytecode),
            Ok(Err(mlua::Error::SyntaxError {
                message,
                incomplete_input,
            })) => {
                return Err(mlua::Error::SyntaxError {
                    message: format!("{name}:{message}"),
                    incomplete_input,
                })
            }
            Ok(Err(other)) => return Err(other),
            Err(mpsc::RecvTimeoutError::Timeout) => deadline::check()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(mlua::Error::runtime(
                    "the compiler stopped without a result",
                ))
            }
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/sandbox/compile.rs"]
mod tests;
