//! The per-run context: what the sandbox counts for one run, and the data its host
//! handed to that run. A host function reaches both through one accessor,
//! [`with_context`]; the sandbox's own functions (print, coroutines, loadstring) see only
//! the [`Run`].

use std::any::Any;
use std::ops::{Deref, DerefMut};

use mlua::{Lua, Table};

use super::{Limits, StopCause};

/// What the sandbox keeps for one run: its limits and what was counted against them.
pub(crate) struct Run {
    /// The run's limits.
    pub limits: Limits,
    /// The script's own environment (for `loadstring`).
    pub env: Option<Table>,
    /// Captured `print` output.
    pub stdout: String,
    /// Write `print` output straight to the process's stdout instead of capturing it.
    pub echo: bool,
    /// Bytes printed so far (echoed or not).
    pub printed: usize,
    /// Coroutines created so far.
    pub coroutines: usize,
    /// The limit that stopped the run, recorded where it tripped (the deadline and the
    /// stop check are recorded by the interrupt instead).
    pub stop: Option<StopCause>,
    /// What the run's deadline ended a wait for (an upstream call), the first such wait:
    /// the envelope names it even when the error that ended the run is a later one (code
    /// after a `pcall` around the call, which the deadline stops too).
    pub waited: Option<String>,
}

impl Run {
    /// A run held to `limits`; `echo` streams its prints instead of capturing them.
    pub(crate) fn new(limits: &Limits, echo: bool) -> Run {
        Run {
            limits: limits.clone(),
            env: None,
            stdout: String::new(),
            echo,
            printed: 0,
            coroutines: 0,
            stop: None,
            waited: None,
        }
    }
}

/// One run as a host function sees it: the sandbox's [`Run`], and the host's data `T`
/// (which the context dereferences to).
pub(crate) struct Context<'a, T> {
    /// The sandbox's accounting of the run.
    pub run: &'a mut Run,
    data: &'a mut T,
}

impl<T> Deref for Context<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.data
    }
}

impl<T> DerefMut for Context<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.data
    }
}

/// What a VM holds while a run goes on: the sandbox's accounting and the host's data, in
/// one place, so a host function reaches both with one lookup.
pub(crate) struct Slot {
    pub(crate) run: Run,
    pub(crate) data: Box<dyn Any + Send>,
}

fn not_running() -> mlua::Error {
    mlua::Error::runtime("no script is running")
}

/// Runs `f` with the current run's context, whose host data is a `T`; errors when called
/// outside a run (or in a run whose host data is not a `T`).
pub(crate) fn with_context<T: 'static, R>(
    lua: &Lua,
    f: impl FnOnce(&mut Context<'_, T>) -> R,
) -> mlua::Result<R> {
    let mut slot = lua.app_data_mut::<Slot>().ok_or_else(not_running)?;
    let Slot { run, data } = &mut *slot;
    let data = data.downcast_mut::<T>().ok_or_else(not_running)?;
    Ok(f(&mut Context { run, data }))
}

/// Runs `f` with the current run's sandbox accounting; errors when called outside a run.
pub(crate) fn with_run<R>(lua: &Lua, f: impl FnOnce(&mut Run) -> R) -> mlua::Result<R> {
    let mut slot = lua.app_data_mut::<Slot>().ok_or_else(not_running)?;
    Ok(f(&mut slot.run))
}
