//! The checker process: started on first use, kept for the next script, replaced when it
//! crashes or hangs. One request and one reply at a time, one JSON object per line (the
//! protocol is described in `engine/checker/main.rs`).

use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use super::{CheckerError, Diagnostic};

/// The checker binary's name, looked for beside the running executable.
pub const CHECKER_PROGRAM: &str = "codemode-check";

/// The environment variable that names the checker binary elsewhere.
pub const CHECKER_ENV: &str = "CODEMODE_CHECKER";

/// Scripts larger than this are run unchecked: agents' scripts are a few kilobytes, and
/// the checker's time grows with the text.
const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// How long loading a world's declarations may take (a fresh checker and every tool's
/// type; tens of milliseconds for the bundled world).
const DECLARATIONS_DEADLINE: Duration = Duration::from_secs(3);

/// After the checker fails to start or to load the declarations, scripts run unchecked
/// for this long before it is tried again, so a broken checker costs each run nothing.
const COOL_DOWN: Duration = Duration::from_secs(10);

/// Extra time the checker gets past its own timeout before it is stopped from outside:
/// its timeout is checked between steps of the solver, not during one.
const GRACE: Duration = Duration::from_millis(250);

/// How many sets of declarations the checker keeps loaded (`HELD` in
/// `engine/checker/main.rs`): a large world's scripts name a few toolbox sets in turn, and
/// each set loaded again costs a fresh checker (milliseconds, against a fraction of one
/// for a check).
const HELD: usize = 4;

/// Declarations to check against, with a key that tells one text from another without
/// sending it again.
#[derive(Debug, Clone)]
pub struct Declarations {
    text: Arc<str>,
    key: u64,
}

impl Declarations {
    /// The declarations `text` (what `codemode types` writes).
    pub fn new(text: impl Into<Arc<str>>) -> Declarations {
        let text = text.into();
        let mut hasher = foldhash::fast::FixedState::with_seed(0x0C0D_E30D).build_hasher();
        hasher.write(text.as_bytes());
        Declarations {
            key: hasher.finish(),
            text,
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// A client of the `codemode-check` process, shared by the runs of one engine.
pub struct Checker {
    program: Result<PathBuf, String>,
    timeout: Duration,
    process: Mutex<Option<Process>>,
    /// When the checker last failed on its own (not on a script), and why.
    failed: Mutex<Option<(Instant, String)>>,
    /// True while a check starts the checker or loads declarations.
    loading: AtomicBool,
}

/// Sets a flag while it lives.
struct Loading<'a>(&'a AtomicBool);

impl<'a> Loading<'a> {
    fn new(flag: &'a AtomicBool) -> Loading<'a> {
        flag.store(true, Ordering::Relaxed);
        Loading(flag)
    }
}

impl Drop for Loading<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// A running checker.
struct Process {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
    /// The keys of the declarations it holds, most recently used last (it keeps
    /// [`HELD`]; one it let go is loaded again when it says so).
    loaded: Vec<u64>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One reply from the checker.
#[derive(Deserialize)]
struct Reply {
    ok: bool,
    #[serde(default)]
    error: Option<String>,
    #[serde(default, rename = "timedOut")]
    timed_out: bool,
    #[serde(default)]
    diagnostics: Vec<Diagnostic>,
    /// True when the checker no longer holds the declarations a check named.
    #[serde(default)]
    unloaded: bool,
}

/// What one check found.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// The diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// True when the checker's own timeout cut the check short (what it found so far is
    /// still reported).
    pub timed_out: bool,
    /// The timeout the check was given.
    pub limit: Duration,
}

impl Checker {
    /// A checker found as [`Checker::locate`] says, giving each script at most `timeout`.
    pub fn new(timeout: Duration) -> Checker {
        Checker::with_program(Checker::locate(), timeout)
    }

    /// A checker that runs `program` (or reports why there is none).
    pub fn with_program(program: Result<PathBuf, String>, timeout: Duration) -> Checker {
        Checker {
            program,
            timeout,
            process: Mutex::new(None),
            failed: Mutex::new(None),
            loading: AtomicBool::new(false),
        }
    }

    /// Where the checker binary is: `$CODEMODE_CHECKER`, else beside the running
    /// executable, else one folder up (a test binary runs from `target/<profile>/deps/`).
    /// The error names the folder it was looked for in.
    pub fn locate() -> Result<PathBuf, String> {
        if let Some(path) = std::env::var_os(CHECKER_ENV) {
            return Ok(PathBuf::from(path));
        }
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let beside = exe.parent().unwrap_or(Path::new("."));
        let name = format!("{CHECKER_PROGRAM}{}", std::env::consts::EXE_SUFFIX);
        [beside.join(&name), beside.join("..").join(&name)]
            .into_iter()
            .find(|path| path.is_file())
            .ok_or_else(|| beside.display().to_string())
    }

    /// Starts the checker process now without waiting for it, so it readies itself while
    /// the caller does other work (a fresh process reading its index). Does nothing when
    /// it runs already, failed lately or cannot be found: the first check says why.
    pub fn prestart(&self) {
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if failed
            .as_ref()
            .is_some_and(|(at, _)| at.elapsed() < COOL_DOWN)
        {
            return;
        }
        drop(failed);
        let Ok(mut slot) = self.process.try_lock() else {
            return;
        };
        if slot.is_none() {
            *slot = self.start().ok();
        }
    }

    /// The longest one script's check may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Checks `source` against `declarations`, loading them first when the checker holds
    /// others. Never blocks past the timeout (plus a short grace): a checker that does
    /// not answer is stopped, and the next check starts a new one.
    pub fn check(
        &self,
        declarations: &Declarations,
        source: &str,
    ) -> Result<Checked, CheckerError> {
        self.check_within(declarations, source, self.timeout)
    }

    /// Like [`Checker::check`], waiting at most `budget` in all (or the timeout, when that
    /// is shorter): the time spent waiting for other scripts' checks comes out of it, and
    /// when it runs out before the checker is free the error says so.
    pub fn check_within(
        &self,
        declarations: &Declarations,
        source: &str,
        budget: Duration,
    ) -> Result<Checked, CheckerError> {
        let budget = budget.min(self.timeout);
        let asked = Instant::now();
        if source.len() > MAX_SOURCE_BYTES {
            return Err(CheckerError::TooLarge(source.len()));
        }
        if let Some((at, why)) = self
            .failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            if at.elapsed() < COOL_DOWN {
                return Err(CheckerError::Broken(format!(
                    "{why}; it is tried again {} s after that",
                    COOL_DOWN.as_secs()
                )));
            }
        }
        // While the checker starts or loads declarations (a server's warm-up, a new
        // snapshot), other scripts run unchecked rather than wait for it.
        let mut slot = match self.process.try_lock() {
            Ok(slot) => slot,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) if self.loading.load(Ordering::Relaxed) => {
                return Err(CheckerError::Loading);
            }
            Err(TryLockError::WouldBlock) => self.wait_for(budget)?,
        };
        // What is left of the budget after the wait; the checker's own timeout is that.
        let timeout = budget.saturating_sub(asked.elapsed());
        if timeout.is_zero() {
            return Err(CheckerError::Busy(budget.as_millis() as u64));
        }
        let loading = Loading::new(&self.loading);
        if slot.is_none() {
            match self.start() {
                Ok(process) => *slot = Some(process),
                // Looking for the binary again costs nothing; a start that fails does.
                Err(e @ CheckerError::Missing { .. }) => return Err(e),
                Err(e) => return Err(self.cool_down(e)),
            }
        }
        let Some(process) = slot.as_mut() else {
            return Err(CheckerError::Broken("it is not running".into()));
        };
        if process.loaded.contains(&declarations.key) {
            drop(loading);
        }
        let outcome = self.check_in(process, declarations, source, timeout);
        let loaded = process.loaded.contains(&declarations.key);
        if let Err(e) = &outcome {
            if matches!(e, CheckerError::Broken(_) | CheckerError::Slow(_)) {
                // Dropping the process kills it; the next check starts afresh.
                *slot = None;
                // A checker that cannot even take the declarations is broken whatever
                // the script; one stopped on a script is the script's doing.
                if !loaded {
                    return Err(self.cool_down(e.clone()));
                }
            }
        }
        outcome
    }

    /// The process slot, once the check that holds it ends, or [`CheckerError::Busy`]
    /// when that takes longer than `budget`: one script written to make the checker slow
    /// must not make every other session's runs wait for it in turn. (A lock that waits
    /// with a deadline would do this without polling; the standard one has none.)
    fn wait_for(
        &self,
        budget: Duration,
    ) -> Result<std::sync::MutexGuard<'_, Option<Process>>, CheckerError> {
        const POLL: Duration = Duration::from_millis(2);
        let until = Instant::now() + budget;
        loop {
            match self.process.try_lock() {
                Ok(slot) => return Ok(slot),
                Err(TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
                Err(TryLockError::WouldBlock) if Instant::now() >= until => {
                    return Err(CheckerError::Busy(budget.as_millis() as u64));
                }
                Err(TryLockError::WouldBlock) => std::thread::sleep(POLL),
            }
        }
    }

    /// Remembers `error` so scripts run unchecked for a while, and returns it.
    fn cool_down(&self, error: CheckerError) -> CheckerError {
        *self.failed.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((Instant::now(), error.to_string()));
        error
    }

    fn check_in(
        &self,
        process: &mut Process,
        declarations: &Declarations,
        source: &str,
        timeout: Duration,
    ) -> Result<Checked, CheckerError> {
        if !process.loaded.contains(&declarations.key) {
            process.load(declarations)?;
        }
        let millis = (timeout.as_millis() as u64).max(1);
        let request =
            json!({ "check": source, "key": declarations.key, "timeoutMs": millis }).to_string();
        let mut reply = process.ask(&request, timeout + GRACE)?;
        if reply.unloaded {
            process.load(declarations)?;
            reply = process.ask(&request, timeout + GRACE)?;
        }
        if !reply.ok {
            return Err(CheckerError::Broken(reply.error.unwrap_or_default()));
        }
        Ok(Checked {
            diagnostics: reply.diagnostics,
            timed_out: reply.timed_out,
            limit: timeout,
        })
    }

    fn start(&self) -> Result<Process, CheckerError> {
        let program = self
            .program
            .as_ref()
            .map_err(|beside| CheckerError::Missing {
                beside: beside.clone(),
            })?;
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                CheckerError::Broken(format!("cannot start {}: {e}", program.display()))
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(CheckerError::Broken("its pipes could not be opened".into()));
        };
        let (send, replies) = mpsc::channel();
        // A thread reads the replies, so the caller can wait for one with a deadline.
        std::thread::Builder::new()
            .name("codemode-check-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if send.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| CheckerError::Broken(format!("cannot start its reader thread: {e}")))?;
        Ok(Process {
            child,
            stdin,
            replies,
            loaded: Vec::new(),
        })
    }
}

impl Process {
    /// Loads `declarations` into the checker, under their key.
    fn load(&mut self, declarations: &Declarations) -> Result<(), CheckerError> {
        self.loaded.retain(|k| *k != declarations.key);
        let reply = self.ask(
            &json!({ "defs": declarations.text(), "key": declarations.key }).to_string(),
            DECLARATIONS_DEADLINE,
        )?;
        if !reply.ok {
            return Err(CheckerError::Declarations(reply.error.unwrap_or_default()));
        }
        self.loaded.push(declarations.key);
        if self.loaded.len() > HELD {
            self.loaded.remove(0);
        }
        Ok(())
    }

    /// Sends one request and waits at most `deadline` for its reply.
    fn ask(&mut self, request: &str, deadline: Duration) -> Result<Reply, CheckerError> {
        // A reply left over from an earlier request would answer the wrong question.
        while self.replies.try_recv().is_ok() {}
        writeln!(self.stdin, "{request}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| CheckerError::Broken(format!("cannot write to it: {e}")))?;
        match self.replies.recv_timeout(deadline) {
            Ok(line) => serde_json::from_str(&line)
                .map_err(|e| CheckerError::Broken(format!("its reply is not understood: {e}"))),
            Err(RecvTimeoutError::Timeout) => Err(CheckerError::Slow(deadline.as_millis() as u64)),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string());
                Err(CheckerError::Broken(format!("it exited: {status}")))
            }
        }
    }
}
