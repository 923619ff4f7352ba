//! One run, as a value: the script, where its prints go, the environment it runs in, who
//! may stop it early, and when its check happens. Every front end (the command line, the
//! REPL, the MCP server, the pool) builds one and hands it to [`super::Runtime::run`].

use crate::sandbox::StopCheck;

/// When a run's type check happens (when the runtime has a checker at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Not checked: the run starts at once.
    Off,
    /// The verdict first; a refused script does not start.
    Wait,
    /// The script runs while it is checked, and every effect it has (a file written, a
    /// request sent, a tool of a server called) waits at the gate for the verdict; a
    /// refused run's envelope is the refusal. A run that prints as it goes, or a REPL
    /// entry (its globals outlive it), cannot hold back what it did, so it waits instead.
    Overlap,
}

/// A script to run, and how (see [`super::Runtime::run`]).
///
/// ```no_run
/// # fn demo(runtime: &mut codemode::Runtime) {
/// use codemode::{Check, Output, RunRequest};
///
/// let envelope = runtime.run(RunRequest::new("return 1 + 1"));
/// assert_eq!(envelope.value, Some(serde_json::json!(2)));
///
/// // Printed as it goes, with the verdict before the run.
/// let printed = runtime.run(
///     RunRequest::new("print('hi')")
///         .output(Output::Stream)
///         .check(Check::Wait),
/// );
/// assert!(printed.ok);
/// # }
/// ```
pub struct RunRequest<'a> {
    pub(crate) source: &'a str,
    pub(crate) output: Output,
    pub(crate) session: Option<&'a mut Session>,
    pub(crate) stop: Option<StopCheck>,
    pub(crate) check: Check,
}

impl<'a> RunRequest<'a> {
    /// `source`, its prints captured into the envelope, in a fresh environment, checked
    /// while it runs ([`Check::Overlap`]).
    pub fn new(source: &'a str) -> RunRequest<'a> {
        RunRequest {
            source,
            output: Output::Capture,
            session: None,
            stop: None,
            check: Check::Overlap,
        }
    }

    /// Where the script's prints go.
    pub fn output(mut self, output: Output) -> Self {
        self.output = output;
        self
    }

    /// Runs in `session`'s environment, so its globals persist to the next entry.
    pub fn session(mut self, session: &'a mut Session) -> Self {
        self.session = Some(session);
        self
    }

    /// Asks `stop` every few thousand instructions whether to stop early (its caller went
    /// away); a stopped run fails with kind `limit`.
    pub fn stop(mut self, stop: StopCheck) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Asks `stop` when there is one (see [`RunRequest::stop`]).
    pub(crate) fn stop_if(self, stop: Option<StopCheck>) -> Self {
        match stop {
            Some(stop) => self.stop(stop),
            None => self,
        }
    }

    /// When the check happens.
    pub fn check(mut self, check: Check) -> Self {
        self.check = check;
        self
    }

    /// When the check happens for this run: overlapping only where nothing the script
    /// does outlives a refusal.
    pub(crate) fn check_when(&self) -> Check {
        match self.check {
            Check::Overlap if self.output == Output::Stream || self.session.is_some() => {
                Check::Wait
            }
            check => check,
        }
    }
}

/// How a run treats `print`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Capture into the envelope's `stdout` (`exec`, MCP).
    Capture,
    /// Write straight to the process's stdout as the script prints (`run`).
    Stream,
}

/// An environment that lives across runs (a REPL session): what one entry assigns as a
/// global, the next entry reads. Built lazily in the runtime's VM; if the VM is replaced
/// (after a memory breach) the session starts over and [`Session::take_reset`] says so.
#[derive(Default)]
pub struct Session {
    pub(super) env: Option<(u64, mlua::Table)>,
    pub(super) reset: bool,
}

impl Session {
    /// A session with nothing in it yet.
    pub fn new() -> Session {
        Session::default()
    }

    /// True (once) when the session's environment was lost since the last call.
    pub(crate) fn take_reset(&mut self) -> bool {
        std::mem::take(&mut self.reset)
    }
}
