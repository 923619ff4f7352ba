//! Starting allowed commands for scripts (the `shell` capability): which program a name
//! stands for ([`resolve`]: only listed commands, looked up on a fixed `PATH`), and the
//! run of one process ([`run`]): no shell in between, a clean environment, its working
//! folder an open handle inside the world, its output capped, and its whole process group
//! killed at its time limit or when the run stops; and the walls the kernel keeps around
//! it ([`Confinement`], Landlock): system folders to read, the world but `.codemode/` to
//! read and write, no network unless granted; and a seccomp filter: no change of any
//! file's mode or owner, no new session. Where the kernel cannot keep the walls, [`admit`]
//! refuses commands unless the profile opted in.
//!
//! Nothing here knows of Luau or runs: the host's `shell` module reads the run's grant and
//! limits, opens the working folder through `vfs` and calls [`run`].

mod command;
mod confine;
mod error;
mod process;
mod seccomp;
mod world;

#[cfg(test)]
pub(crate) use command::FIXED_PATH;
pub(crate) use command::{grantable, resolve};
pub(crate) use confine::{admit, support, Confinement};
pub(crate) use error::ShellError;
pub(crate) use process::{run, Spec};
pub(crate) use world::{Reach, WorldRules};
