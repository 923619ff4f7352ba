//! Why a command was refused or did not finish.

use std::time::Duration;

/// What the profile's grant is called, for the fixes refusals suggest.
pub(crate) const GRANT: &str = "capabilities.shell of the profile in .codemode/policy.json";

/// Where the profile's capabilities are, for the fixes refusals suggest.
pub(crate) const GRANT_PLACE: &str = "the capabilities of the profile in .codemode/policy.json";

/// Why `shell.run` returned no result.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ShellError {
    /// The command is not on the allowed list (or not found where it may be looked up).
    #[error("shell.run refused '{cmd}': {why}; {fix}")]
    Refused {
        /// The command as given.
        cmd: String,
        /// The rule that refused it.
        why: String,
        /// What to change.
        fix: String,
    },
    /// The kernel cannot (fully) confine commands and the profile did not opt in to
    /// commands it cannot confine.
    #[error("shell.run refused '{cmd}': {why}; run codemode on a kernel with Landlock (Linux 6.12 or later, Landlock enabled), or set \"shellUnconfined\": true in {GRANT_PLACE} to start commands anyway, with codemode's own rights")]
    Unconfined {
        /// The command.
        cmd: String,
        /// What the kernel lacks.
        why: String,
    },
    /// The request is malformed.
    #[error("shell.run: {0}")]
    Invalid(String),
    /// The process could not be started.
    #[error("shell.run could not start '{cmd}': {why}")]
    Start {
        /// The command.
        cmd: String,
        /// Why.
        why: String,
    },
    /// The command's own `timeoutMs` passed; its process group was killed.
    #[error("shell.run: '{cmd}' ran longer than its timeoutMs of {} ms and was killed with its process group; raise timeoutMs or give it less to do", .after.as_millis())]
    Timeout {
        /// The command.
        cmd: String,
        /// The time it was given.
        after: Duration,
    },
    /// The run stopped (its deadline or its caller) while the command ran; it was killed.
    #[error("shell.run: '{cmd}' was killed with its process group: the run stopped")]
    Stopped {
        /// The command.
        cmd: String,
    },
}
