//! Why a script could not be checked. None of these stops a run: the caller reports the
//! error as a diagnostic and runs the script unchecked.

/// The checker binary's name, looked for beside the running executable.
pub(crate) const CHECKER_PROGRAM: &str = "codemode-check";

/// The environment variable that names the checker binary elsewhere.
pub(crate) const CHECKER_ENV: &str = "CODEMODE_CHECKER";

/// A failure of the checker process, not of the script.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum CheckerError {
    /// The `codemode-check` binary is not where it is looked for.
    #[error("the type checker `{CHECKER_PROGRAM}` was not found beside {beside}; build it with `cargo build --bin {CHECKER_PROGRAM}` (or set {CHECKER_ENV} to its path); the script ran unchecked")]
    Missing {
        /// The folder it was looked for in.
        beside: String,
    },
    /// It could not be started, or its pipe broke (it crashed).
    #[error("the type checker failed ({0}); the script ran unchecked, and the checker is restarted for the next script")]
    Broken(String),
    /// It did not answer within its deadline; it was stopped.
    #[error("the type checker took longer than {0} ms and was stopped; the script ran unchecked")]
    Slow(u64),
    /// The declarations of the tools did not load.
    #[error("the tools' declarations did not load into the type checker ({0}); the script ran unchecked (run `codemode types` to see them)")]
    Declarations(String),
    /// Other scripts held the checker for the whole time a run may wait for it.
    #[error("the type checker was busy with other scripts for {0} ms, as long as a run waits for it; the script ran unchecked")]
    Busy(u64),
    /// The script is larger than the checker is asked to read.
    #[error("the script is {0} bytes, more than the type checker reads; it ran unchecked")]
    TooLarge(usize),
}

impl CheckerError {
    /// The message where a tool's source was being checked (`tools.create`), not a
    /// script's before its run: the tool is saved and callable either way.
    pub(crate) fn about_a_tool(&self) -> String {
        self.to_string()
            .replace(
                "the script ran unchecked",
                "the tool was not type-checked (it is saved and callable)",
            )
            .replace("the script is", "the tool's source is")
            .replace("it ran unchecked", "it was not type-checked")
    }
}
