//! Starting allowed commands for scripts (the `shell` capability): which program a name
//! stands for ([`resolve`]: only listed commands, looked up on a fixed `PATH`), and the
//! run of one process ([`run`]): no shell in between, a clean environment, its working
//! folder an open handle inside the world, its output capped, and its whole process group
//! killed at its time limit or when the run stops.
//!
//! Nothing here knows of Luau or runs: the host's `shell` module reads the run's grant and
//! limits, opens the working folder through `vfs` and calls [`run`].

mod command;
mod error;
mod process;

pub use command::{grantable, resolve, FIXED_PATH};
pub use error::ShellError;
pub use process::{run, Finished, Spec};
