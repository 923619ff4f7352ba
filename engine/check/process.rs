//! The checker process: started on first use, kept for the next script, replaced when it
//! crashes or hangs. One request and one reply at a time, one JSON object per line (the
//! protocol is described in `engine/checker/main.rs`).

use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use parking_lot::lock_api::ArcMutexGuard;
use parking_lot::RawMutex;
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::error::{CHECKER_ENV, CHECKER_PROGRAM};
use super::{CheckerError, Diagnostic, Kind};
use crate::assets::Seen;

/// Scripts larger than this are run unchecked: agents' scripts are a few kilobytes, and
/// the checker's time grows with the text.
const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// How long one script's check may take unless told otherwise (`--check-timeout-ms`):
/// past it the script runs unchecked.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_millis(500);

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

/// The longest reply line read from the checker: its replies are a few diagnostics, and a
/// checker that writes without end is stopped rather than followed.
const MAX_REPLY_BYTES: usize = 16 << 20;

/// Declarations to check against, with a key that tells one text from another without
/// sending it again.
#[derive(Debug, Clone)]
pub(crate) struct Declarations {
    /// `None` for declarations the resident checker holds and was asked for by name (see
    /// [`Checker::held_by_name`]): this process never built them.
    text: Option<Arc<str>>,
    key: u64,
    len: usize,
    /// SHA-256 of the text, worked out once (kept replies are filed under it).
    digest: Arc<OnceLock<[u8; 32]>>,
    /// What they were built from, as a name the resident may hand them out by.
    named: Option<Arc<str>>,
}

impl Declarations {
    /// The declarations `text` (what `codemode types` writes).
    pub(crate) fn new(text: impl Into<Arc<str>>) -> Declarations {
        let text: Arc<str> = text.into();
        let mut hasher = foldhash::fast::FixedState::with_seed(0x0C0D_E30D).build_hasher();
        hasher.write(text.as_bytes());
        Declarations {
            key: hasher.finish(),
            len: text.len(),
            text: Some(text),
            digest: Arc::default(),
            named: None,
        }
    }

    /// The same, named by what they were built from (see [`Checker::held_by_name`]).
    pub(crate) fn named(mut self, name: &str) -> Declarations {
        self.named = Some(Arc::from(name));
        self
    }

    /// The name of what they were built from, when they have one.
    pub(crate) fn name(&self) -> Option<&str> {
        self.named.as_deref()
    }

    /// The text, unless the resident holds it and this process never built it.
    pub(crate) fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// True when `other` is this very set (not only an equal text).
    pub(crate) fn is(&self, other: &Declarations) -> bool {
        Arc::ptr_eq(&self.digest, &other.digest)
    }

    /// What tells this text from another (as the checker knows it: see
    /// `engine/checker/main.rs`): its key and length.
    pub(crate) fn mark(&self) -> (u64, usize) {
        (self.key, self.len)
    }

    /// SHA-256 of the text.
    pub(crate) fn digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| {
            Sha256::digest(self.text.as_deref().unwrap_or_default().as_bytes()).into()
        })
    }
}

/// A client of the `codemode-check` process, shared by the runs of one engine.
pub(crate) struct Checker {
    program: Result<PathBuf, String>,
    timeout: Duration,
    /// The socket of the resident checker this one asks (see [`Checker::resident`]).
    resident: Option<PathBuf>,
    /// The running checker; a pending check owns the lock until its reply is read (the
    /// run it belongs to may go on meanwhile: see [`PendingCheck`]).
    process: Arc<parking_lot::Mutex<Option<Process>>>,
    /// When the checker last failed on its own (not on a script), and why.
    failed: Failed,
}

/// When a checker last failed on its own, and why: shared with the pending checks, which
/// may outlive the borrow of their checker.
type Failed = Arc<Mutex<Option<(Instant, String)>>>;

/// Remembers `error` in `failed` so scripts run unchecked for a while, and returns it.
fn cool_down(failed: &Failed, error: CheckerError) -> CheckerError {
    *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), error.to_string()));
    error
}

/// The checker's slot, held: by a check from its request to its reply.
type Slot = ArcMutexGuard<RawMutex, Option<Process>>;

/// A running checker.
struct Process {
    /// The checker started for this engine; `None` for a connection to the resident,
    /// whose child serving it ends when the connection closes.
    child: Option<Child>,
    /// Requests one way and replies the other. Replies are read on the asking thread: a
    /// reader thread between the pipe and the caller cost each check a second wake-up.
    link: Link,
    /// What was read past the last whole reply line.
    unread: Vec<u8>,
    /// The keys of the declarations it holds, most recently used last (it keeps
    /// [`HELD`]; one it let go is loaded again when it says so).
    loaded: Vec<u64>,
}

/// How requests reach a checker.
enum Link {
    /// The pipes of a checker started for this engine.
    Pipes(ChildStdin, ChildStdout),
    /// A connection to the resident checker.
    Socket(UnixStream),
}

impl Link {
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Link::Pipes(stdin, _) => stdin.write_all(bytes),
            Link::Socket(stream) => stream.write_all(bytes),
        }
    }

    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Link::Pipes(_, stdout) => stdout.read(buffer),
            Link::Socket(stream) => stream.read(buffer),
        }
    }

    /// Where replies arrive, to wait on.
    fn replies(&self) -> BorrowedFd<'_> {
        match self {
            Link::Pipes(_, stdout) => stdout.as_fd(),
            Link::Socket(stream) => stream.as_fd(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // A resident's child serving this connection ends with it, or by its deadline.
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
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
    diagnostics: Vec<Said>,
    /// True when the checker no longer holds the declarations a check named.
    #[serde(default)]
    unloaded: bool,
    /// True when the resident holds no declarations by the name a client asked for.
    #[serde(default)]
    unnamed: bool,
    /// A load's key, length and digest of the text (what a client that asked by name
    /// learns of declarations it did not send).
    #[serde(default)]
    key: Option<u64>,
    #[serde(default)]
    len: Option<usize>,
    #[serde(default)]
    digest: Option<String>,
}

/// A diagnostic as the checker sends it: [`Diagnostic`]'s fields and its [`Kind`], which
/// the envelope leaves out.
#[derive(Deserialize)]
struct Said {
    #[serde(flatten)]
    diagnostic: Diagnostic,
    #[serde(default = "other")]
    kind: Kind,
}

fn other() -> Kind {
    Kind::Other { types: Vec::new() }
}

/// What one check found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Checked {
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
    pub(crate) fn new(timeout: Duration) -> Checker {
        Checker::with_program(Checker::locate(), timeout)
    }

    /// A checker that runs `program` (or reports why there is none).
    pub(crate) fn with_program(program: Result<PathBuf, String>, timeout: Duration) -> Checker {
        Checker {
            program,
            timeout,
            resident: None,
            process: Arc::new(parking_lot::Mutex::new(None)),
            failed: Arc::new(Mutex::new(None)),
        }
    }

    /// The same checker, asking the user's resident checker: a process that checks one
    /// script and exits (`codemode run`) would otherwise spend more starting a checker
    /// (Luau's builtins take 12–20 ms to register) than on its run. The first such run
    /// starts the checker as usual, and it stays after the run (see
    /// `engine/checker/resident.rs`); later runs connect to it. Nothing changes when the
    /// binary is named by `$CODEMODE_CHECKER` (someone's own build or wrapper, not the
    /// engine's to share) or no private folder for the socket can be had.
    pub(crate) fn resident(mut self) -> Checker {
        if std::env::var_os(CHECKER_ENV).is_none() {
            self.resident = self.identity().and_then(|id| super::resident::socket(&id));
        }
        self
    }

    /// Where the checker binary is: `$CODEMODE_CHECKER`, else beside the running
    /// executable, else one folder up (a test binary runs from `target/<profile>/deps/`).
    /// The error names the folder it was looked for in.
    pub(crate) fn locate() -> Result<PathBuf, String> {
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

    /// What tells this checker binary from another, for replies kept on disk: its path,
    /// size and both times (a rebuilt checker may say other things of the same script; a
    /// copy that keeps the modification time has a change time of its own: see
    /// [`Seen`]). `None` when there is no binary to run.
    pub(crate) fn identity(&self) -> Option<String> {
        let path = self.program.as_ref().ok()?;
        let seen = Seen::of(path)?;
        Some(format!("{}\0{seen:?}", path.display()))
    }

    /// Starts the checker process now without waiting for it, so it readies itself while
    /// the caller does other work (a fresh process reading its index). Does nothing when
    /// it runs already, failed lately, cannot be found (the first check says why) or is
    /// the resident.
    pub(crate) fn prestart(&self) {
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if failed
            .as_ref()
            .is_some_and(|(at, _)| at.elapsed() < COOL_DOWN)
        {
            return;
        }
        drop(failed);
        // A resident is asked when the declarations are ready, not before: it drops a
        // connection whose first request has not come within a few seconds (a large
        // world's index may take longer to read).
        if self.resident.as_ref().is_some_and(|socket| socket.exists()) {
            return;
        }
        let Some(mut slot) = self.process.try_lock() else {
            return;
        };
        if slot.is_none() {
            *slot = self.start().ok();
        }
    }

    /// Declarations the resident checker holds under `name` (what they were built from:
    /// see [`Declarations::named`]), asked for on a new connection before anything is
    /// built: a one-shot run then sends only its script. `Ok(None)` when it holds none by
    /// that name (the connection then waits for the declarations themselves), when no
    /// resident serves yet, or when this checker is already talking to one. An error
    /// when the resident took the connection but did not answer: asked again, it would
    /// keep the run waiting as long once more.
    pub(crate) fn held_by_name(&self, name: &str) -> Result<Option<Declarations>, CheckerError> {
        let Some(socket) = self.resident.as_ref() else {
            return Ok(None);
        };
        let Some(mut slot) = self.process.try_lock() else {
            return Ok(None);
        };
        if slot.is_some() {
            return Ok(None);
        }
        let Ok(stream) = UnixStream::connect(socket) else {
            return Ok(None);
        };
        let mut process = Process::new(None, Link::Socket(stream));
        let reply = process.ask(&json!({ "named": name }).to_string(), DECLARATIONS_DEADLINE)?;
        let held = match reply {
            Reply {
                ok: true,
                key: Some(key),
                len: Some(len),
                digest: Some(digest),
                ..
            } => crate::cache::digest_bytes(&digest).map(|digest| Declarations {
                text: None,
                key,
                len,
                digest: Arc::new(OnceLock::from(digest)),
                named: Some(Arc::from(name)),
            }),
            // Told so: the connection waits for the declarations.
            reply if reply.unnamed => None,
            _ => {
                return Err(CheckerError::Broken(
                    "its answer to a request for declarations by name is not understood".into(),
                ))
            }
        };
        tracing::debug!(
            "asked the resident type checker at {} for the declarations by name: {}",
            socket.display(),
            if held.is_some() {
                "it held them"
            } else {
                "it did not"
            }
        );
        if let Some(held) = &held {
            process.loaded.push(held.key);
        }
        *slot = Some(process);
        Ok(held)
    }

    /// The longest one script's check may take.
    #[cfg(test)]
    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Checks `source` against `declarations`, loading them first when the checker holds
    /// others. Never blocks past the timeout (plus a short grace): a checker that does
    /// not answer is stopped, and the next check starts a new one.
    pub(crate) fn check(
        &self,
        declarations: &Declarations,
        source: &str,
    ) -> Result<Checked, CheckerError> {
        self.check_within(declarations, source, self.timeout)
    }

    /// Like [`Checker::check`] waiting at most `budget` in all (or the timeout, when that
    /// is shorter): the time spent waiting for other scripts' checks comes out of it, and
    /// when it runs out before the checker is free the error says so.
    pub(crate) fn check_within(
        &self,
        declarations: &Declarations,
        source: &str,
        budget: Duration,
    ) -> Result<Checked, CheckerError> {
        self.send(declarations, source, budget)?.finish()
    }

    /// Sends `source` to be checked against `declarations` (loading them first when the
    /// checker holds others) and returns without waiting for the verdict, so the caller
    /// readies the run while the checker works in its own process; the checker is held
    /// for this script until [`PendingCheck::finish`]. The whole check, waiting for
    /// other scripts' checks included, takes at most `budget` (or the timeout, when that
    /// is shorter).
    ///
    /// While the checker starts or loads declarations (a server's warm-up, a new
    /// snapshot), a script waits for it within its budget: run unchecked meanwhile, an
    /// agent's first script to a fresh server would act before any check.
    pub(crate) fn send(
        &self,
        declarations: &Declarations,
        source: &str,
        budget: Duration,
    ) -> Result<PendingCheck, CheckerError> {
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
        let mut slot = match self.process.try_lock_arc() {
            Some(slot) => slot,
            None => self.wait_for(budget)?,
        };
        // What is left of the budget after the wait; the checker's own timeout is that.
        let timeout = budget.saturating_sub(asked.elapsed());
        if timeout.is_zero() {
            return Err(CheckerError::Busy(budget.as_millis() as u64));
        }
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
        let millis = (timeout.as_millis() as u64).max(1);
        let request =
            json!({ "check": source, "key": declarations.key, "timeoutMs": millis }).to_string();
        let sent = if process.loaded.contains(&declarations.key) {
            Ok(())
        } else {
            process.load(declarations)
        }
        .and_then(|()| process.send(&request));
        let mut pending = PendingCheck {
            failed: self.failed.clone(),
            slot,
            declarations: declarations.clone(),
            request,
            timeout,
            answered: false,
        };
        match sent {
            Ok(()) => Ok(pending),
            Err(e) => {
                pending.answered = true;
                Err(pending.failed(e))
            }
        }
    }

    /// The process slot, once the check that holds it ends, or [`CheckerError::Busy`]
    /// when that takes longer than `budget`: one script written to make the checker slow
    /// must not make every other session's runs wait for it in turn.
    fn wait_for(&self, budget: Duration) -> Result<Slot, CheckerError> {
        self.process
            .try_lock_arc_for(budget)
            .ok_or(CheckerError::Busy(budget.as_millis() as u64))
    }

    /// Remembers `error` so scripts run unchecked for a while, and returns it.
    fn cool_down(&self, error: CheckerError) -> CheckerError {
        cool_down(&self.failed, error)
    }

    fn start(&self) -> Result<Process, CheckerError> {
        let program = self
            .program
            .as_ref()
            .map_err(|beside| CheckerError::Missing {
                beside: beside.clone(),
            })?;
        if let Some(socket) = &self.resident {
            match UnixStream::connect(socket) {
                Ok(stream) => {
                    tracing::debug!("asked the resident type checker at {}", socket.display());
                    return Ok(Process::new(None, Link::Socket(stream)));
                }
                Err(_) => start_resident(program, socket),
            }
        }
        // The checker reads nothing of the environment, which may hold credentials; `PATH`
        // stays for a wrapper script named by `$CODEMODE_CHECKER`.
        let mut child = Command::new(program)
            .env_clear()
            .envs(std::env::var_os("PATH").map(|path| ("PATH", path)))
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
        Ok(Process::new(Some(child), Link::Pipes(stdin, stdout)))
    }
}

/// Starts the resident checker serving on `socket` for the runs after this one, which
/// checks with a checker of its own meanwhile. It outlives this process, so it holds
/// nothing of it: no environment (which may hold credentials), no working folder, no
/// standard streams, and a process group of its own (a Ctrl-C at the terminal stops the
/// run, not the resident). A resident already starting keeps the socket, and this one
/// ends.
fn start_resident(program: &Path, socket: &Path) {
    let started = Command::new(program)
        .env_clear()
        .env(super::resident::RESIDENT_ENV, socket)
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    match started {
        Ok(_) => tracing::debug!("started the resident type checker at {}", socket.display()),
        Err(e) => tracing::debug!("the resident type checker did not start: {e}"),
    }
}

/// A check sent to the checker whose reply is not read yet (see [`Checker::send`]). Dropped
/// unfinished, it stops the checker, whose reply would otherwise answer the next request.
pub(crate) struct PendingCheck {
    failed: Failed,
    slot: Slot,
    declarations: Declarations,
    request: String,
    /// The checker's timeout for this script (what was left of its budget).
    timeout: Duration,
    answered: bool,
}

impl PendingCheck {
    /// True when the reply has come (or the checker is gone), so [`PendingCheck::finish`]
    /// would not wait for the checker: a run that goes on while it is checked asks this
    /// now and then, and reads the reply as soon as it is there, which frees the checker
    /// for other scripts.
    pub(crate) fn ready(&self) -> bool {
        self.slot.as_ref().is_none_or(|process| {
            process.unread.contains(&b'\n') || readable(process.link.replies(), Duration::ZERO)
        })
    }

    /// Waits for the verdict: at most the check's timeout and a short grace, after which
    /// the checker is stopped (the next check starts a new one).
    pub(crate) fn finish(mut self) -> Result<Checked, CheckerError> {
        self.answered = true;
        let deadline = self.timeout + GRACE;
        let Some(process) = self.slot.as_mut() else {
            return Err(CheckerError::Broken("it is not running".into()));
        };
        let mut reply = process.receive(deadline);
        if reply.as_ref().is_ok_and(|r| r.unloaded) {
            // It let these declarations go (it keeps a few): load them again and ask again.
            reply = process
                .load(&self.declarations)
                .and_then(|()| process.ask(&self.request, deadline));
        }
        match reply {
            Ok(reply) if reply.ok => Ok(Checked {
                diagnostics: reply
                    .diagnostics
                    .into_iter()
                    .map(|said| Diagnostic {
                        kind: said.kind,
                        ..said.diagnostic
                    })
                    .collect(),
                timed_out: reply.timed_out,
                limit: self.timeout,
            }),
            Ok(reply) => Err(self.failed(CheckerError::Broken(reply.error.unwrap_or_default()))),
            Err(e) => Err(self.failed(e)),
        }
    }

    /// Deals with `error` from the checker, and returns it: a checker that broke or
    /// hung is stopped (dropping the process kills it; the next check starts afresh), and
    /// one that cannot even take the declarations is broken whatever the script (one
    /// stopped on a script is the script's doing).
    fn failed(&mut self, error: CheckerError) -> CheckerError {
        if !matches!(error, CheckerError::Broken(_) | CheckerError::Slow(_)) {
            return error;
        }
        let loaded = self
            .slot
            .as_ref()
            .is_some_and(|p| p.loaded.contains(&self.declarations.key));
        *self.slot = None;
        if loaded {
            error
        } else {
            cool_down(&self.failed, error)
        }
    }
}

impl Drop for PendingCheck {
    fn drop(&mut self) {
        if !self.answered {
            *self.slot = None;
        }
    }
}

impl Process {
    fn new(child: Option<Child>, link: Link) -> Process {
        Process {
            child,
            link,
            unread: Vec::new(),
            loaded: Vec::new(),
        }
    }

    /// Loads `declarations` into the checker, under their key.
    fn load(&mut self, declarations: &Declarations) -> Result<(), CheckerError> {
        self.loaded.retain(|k| *k != declarations.key);
        let Some(text) = declarations.text() else {
            return Err(CheckerError::Broken(
                "it no longer holds the declarations it handed out by name; the next run sends them".into(),
            ));
        };
        let request = match &declarations.named {
            Some(name) => json!({ "defs": text, "key": declarations.key, "named": &**name }),
            None => json!({ "defs": text, "key": declarations.key }),
        };
        let reply = self.ask(&request.to_string(), DECLARATIONS_DEADLINE)?;
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
        self.send(request)?;
        self.receive(deadline)
    }

    /// Writes one request line, in one write: a line written in pieces could wake the
    /// checker once per piece.
    fn send(&mut self, request: &str) -> Result<(), CheckerError> {
        // Each reply is read before the next request is sent; anything left over would
        // answer the wrong question.
        self.unread.clear();
        let mut line = String::with_capacity(request.len() + 1);
        line.push_str(request);
        line.push('\n');
        self.link
            .write_all(line.as_bytes())
            .map_err(|e| CheckerError::Broken(format!("cannot write to it: {e}")))
    }

    /// Reads the next reply line, waiting at most `deadline` for it.
    fn receive(&mut self, deadline: Duration) -> Result<Reply, CheckerError> {
        let until = Instant::now() + deadline;
        let mut chunk = [0u8; 8192];
        // Where the search for the line's end goes on from: a long reply (a type quoted in
        // each of many diagnostics) comes in thousands of reads, each scanned once.
        let mut scanned = 0;
        loop {
            if let Some(end) = memchr::memchr(b'\n', &self.unread[scanned..]).map(|at| scanned + at)
            {
                let line: Vec<u8> = self.unread.drain(..=end).collect();
                return serde_json::from_slice(&line).map_err(|e| {
                    CheckerError::Broken(format!("its reply is not understood: {e}"))
                });
            }
            scanned = self.unread.len();
            if self.unread.len() > MAX_REPLY_BYTES {
                return Err(CheckerError::Broken(format!(
                    "its reply is longer than {} MiB",
                    MAX_REPLY_BYTES >> 20
                )));
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !readable(self.link.replies(), left) {
                if Instant::now() < until {
                    continue;
                }
                return Err(CheckerError::Slow(deadline.as_millis() as u64));
            }
            match self.link.read(&mut chunk) {
                Ok(0) => {
                    let status = match self.child.as_mut() {
                        Some(child) => child
                            .wait()
                            .map(|s| s.to_string())
                            .unwrap_or_else(|e| e.to_string()),
                        None => "the resident checker closed the connection".into(),
                    };
                    return Err(CheckerError::Broken(format!("it exited: {status}")));
                }
                Ok(n) => self.unread.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(CheckerError::Broken(format!("cannot read from it: {e}"))),
            }
        }
    }
}

/// True when `replies` has something to read (or has closed) within `wait`.
fn readable(replies: BorrowedFd<'_>, wait: Duration) -> bool {
    let mut fd = libc::pollfd {
        fd: replies.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // Whole milliseconds, rounded up, so a wait shorter than one does not spin.
    let millis = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
    // SAFETY: poll reads and writes the one pollfd it is given, which lives on this stack.
    let ready = unsafe { libc::poll(&mut fd, 1, millis) };
    ready > 0
}
