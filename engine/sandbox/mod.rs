//! The sandbox: the lowest layer that runs Luau. A VM with the safe standard libraries,
//! the bounded builtins and the deadline interrupt ([`Vm`]); compiling under the run's
//! limits; the per-run context and its accounting of output, coroutines and writes
//! ([`Run`], [`with_context`]); the limits themselves and why a run stopped
//! ([`Limits`], [`StopCause`]); the errors host functions raise ([`HostError`]); the
//! engine's own coroutines, which scripts can neither resume nor close
//! (`coroutines.rs`); and the conversion of a returned value to bounded JSON.
//!
//! It knows nothing of capabilities, tools or registries: a host hands it a [`Linker`]
//! (its globals, capabilities and prelude) when a VM is built, and its data for each
//! run when the run begins. Every host function is registered with the linker under its
//! [`Effect`] class, and the linker wraps it in the run's deadline, the host's policy and
//! the check's gate (`linker.rs`). `tests/layers.rs` keeps it from importing anything
//! above it.

mod bounded;
mod compile;
mod context;
mod coroutines;
mod deadline;
mod from_json;
pub(crate) mod gate;
mod handoff;
mod hosterror;
mod json;
mod limits;
mod linker;
mod running;
mod stop;
mod vm;

pub(crate) use compile::load_text;
pub(crate) use context::with_run;
pub(crate) use context::{with_context, Context, Run};
#[cfg(test)]
pub(crate) use coroutines::is_raw_resume;
pub use deadline::StopCheck;
pub(crate) use deadline::{
    budget, check as check_deadline, disarm as disarm_deadline, remaining as deadline_remaining,
    stop_asked, Cutoff,
};
pub(crate) use from_json::from_json;
pub(crate) use handoff::{blocking, set_long_run_hook, set_wait_hook};
pub(crate) use hosterror::HostError;
pub(crate) use hosterror::{cut, find_host_error, MAX_HINT_BYTES, MAX_MESSAGE_BYTES};
pub(crate) use json::to_json;
pub use limits::Limits;
pub(crate) use linker::{hand_out, reach};
#[cfg(test)]
pub(crate) use linker::{linked, Declared, ENTERED};
pub(crate) use linker::{Capability, Effect, Linker, PreludeModule, Writes};
pub use stop::StopCause;
pub(crate) use vm::env_meta;
pub(crate) use vm::{Finished, Vm};
