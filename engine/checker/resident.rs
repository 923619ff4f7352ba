//! The checker as a resident: a process that registers Luau's builtins once and stays, so
//! a one-shot `codemode run` asks it over a Unix socket instead of starting a checker of
//! its own. A new checker spends 12–20 ms on those builtins before its first check, more
//! than a whole run takes unchecked.
//!
//! The resident is a fork server. It stays single-threaded and never checks a script
//! itself: for each connection it loads the declarations the client sends first (keeping
//! the last few sets loaded, which is most of a fresh checker's cost), then forks, and the
//! child (a copy of the warm checker) serves that connection alone and exits when it
//! closes. So each run still has a checker process of its own, as one started for it
//! would be: a script that crashes its checker, exhausts its address space or hangs the
//! solver reaches only its own. A child ends itself when a request runs past its
//! deadline, since the engine that asked cannot stop a process that is not its child; the
//! resident ends itself (`SIGALRM`) when a load does.
//!
//! The engine starts the resident (`codemode-check` with [`RESIDENT_ENV`] naming the
//! socket, in a folder only its user may enter) when it finds none, and checks that run
//! with a checker of its own meanwhile. Of two residents started at once, the one holding
//! the socket's lock serves; the other ends. The resident ends after [`IDLE`] without a
//! connection.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The environment variable through which the engine names the socket to serve on (the
/// library spells it again: this binary does not link it).
pub const RESIDENT_ENV: &str = "CODEMODE_CHECK_RESIDENT";

/// How long the resident stays without a connection.
const IDLE: Duration = Duration::from_secs(300);

/// How long past a request's own deadline its child waits before ending itself: the
/// solver looks at its timeout between steps, not during one.
const GRACE: Duration = Duration::from_secs(1);

/// How long the resident waits for a connection's first request.
const FIRST_REQUEST: Duration = Duration::from_secs(2);

/// When the process started: the clock [`DEADLINE`] counts on.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Milliseconds since [`STARTED`] by which the request under way must be answered; 0 when
/// none is.
static DEADLINE: AtomicU64 = AtomicU64::new(0);

fn now_ms() -> u64 {
    STARTED.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// What serves requests: the checker's state.
pub trait Serve {
    /// The reply to the request `line`.
    fn answer(&mut self, line: &str) -> String;
    /// How long the request `line` may take.
    fn within(&self, line: &str) -> Duration;
    /// True for a request that loads declarations: the resident answers it itself, before
    /// it forks, so the declarations stay loaded for the connections after.
    fn loads(&self, line: &str) -> bool;
    /// Readies what a load used up (a fresh checker), between connections.
    fn restock(&mut self);
}

/// Serves one client's requests (one JSON object per line, one reply line each) until it
/// closes its end.
pub fn serve<R: BufRead, W: Write>(input: R, mut output: W, state: &mut dyn Serve) {
    for line in input.lines() {
        let Ok(line) = line else { break };
        DEADLINE.store(
            now_ms() + (state.within(&line) + GRACE).as_millis() as u64,
            Ordering::SeqCst,
        );
        let reply = state.answer(&line);
        DEADLINE.store(0, Ordering::SeqCst);
        if writeln!(output, "{reply}")
            .and_then(|()| output.flush())
            .is_err()
        {
            break;
        }
    }
}

/// Serves as the resident on `socket` until idle, each connection in a forked child that
/// ends with it. Returns only when this process cannot be the resident (another holds the
/// lock, or the socket cannot be had): it then serves its parent's pipe alone.
pub fn run(socket: &Path, state: &mut dyn Serve) {
    let Some(_lock) = hold_lock(&socket.with_extension("lock")) else {
        return;
    };
    // The lock is ours, so a socket file left there is a dead resident's.
    let _ = std::fs::remove_file(socket);
    let Ok(listener) = UnixListener::bind(socket) else {
        return;
    };
    let _ = std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600));
    // Children are reaped by the kernel: this process never waits for them.
    // SAFETY: setting a signal's disposition to ignore touches no memory of this process.
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
    }
    loop {
        if !readable(&listener, IDLE) {
            let _ = std::fs::remove_file(socket);
            std::process::exit(0);
        }
        if let Ok((stream, _)) = listener.accept() {
            connection(stream, state);
        }
        state.restock();
    }
}

/// Takes one connection: reads its first request, answers a load of declarations here
/// (kept for later connections), and forks a child that serves the rest.
fn connection(stream: UnixStream, state: &mut dyn Serve) {
    // A client sends its first request at once; one that does not holds the resident
    // for this long at most.
    let _ = stream.set_read_timeout(Some(FIRST_REQUEST));
    let Ok(reading) = stream.try_clone() else {
        return;
    };
    let mut input = BufReader::new(reading);
    let mut first = String::new();
    if !matches!(input.read_line(&mut first), Ok(n) if n > 0) {
        return;
    }
    let first = first.trim_end();
    let early = state
        .loads(first)
        .then(|| within_alarm(state.within(first) + GRACE, || state.answer(first)));
    // SAFETY: this process has one thread, so the child's copy of it holds no lock
    // another thread took.
    if unsafe { libc::fork() } != 0 {
        // The parent (or a failed fork: the client then checks with a checker of its own).
        return;
    }
    let _ = stream.set_read_timeout(None);
    watch_deadline();
    let mut output = &stream;
    let reply = early.unwrap_or_else(|| state.answer(first));
    if writeln!(output, "{reply}").is_ok() {
        serve(input, output, state);
    }
    std::process::exit(0);
}

/// Runs `work` in the resident itself, which ends (`SIGALRM`) when it takes longer than
/// `limit`: a hang here would hold every later run at the socket.
fn within_alarm<T>(limit: Duration, work: impl FnOnce() -> T) -> T {
    let timer = |value: Duration| libc::itimerval {
        it_interval: libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        },
        it_value: libc::timeval {
            tv_sec: value.as_secs() as libc::time_t,
            tv_usec: value.subsec_micros() as libc::suseconds_t,
        },
    };
    // SAFETY: setitimer reads the struct it is given; SIGALRM's default ends the process.
    unsafe { libc::setitimer(libc::ITIMER_REAL, &timer(limit), std::ptr::null_mut()) };
    let done = work();
    // SAFETY: as above; a zero value disarms the timer.
    unsafe {
        libc::setitimer(
            libc::ITIMER_REAL,
            &timer(Duration::ZERO),
            std::ptr::null_mut(),
        )
    };
    done
}

/// Ends the process when a request runs past its deadline: the engine that asked cannot
/// stop a process that is not its child.
fn watch_deadline() {
    std::thread::spawn(|| loop {
        std::thread::sleep(Duration::from_millis(20));
        let deadline = DEADLINE.load(Ordering::SeqCst);
        if deadline != 0 && now_ms() > deadline {
            std::process::exit(1);
        }
    });
}

/// True when a connection waits on `listener` within `wait`.
fn readable(listener: &UnixListener, wait: Duration) -> bool {
    let mut fd = libc::pollfd {
        fd: listener.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = wait.as_millis().min(i32::MAX as u128) as libc::c_int;
    // SAFETY: poll reads and writes the one pollfd it is given, which lives on this stack.
    unsafe { libc::poll(&mut fd, 1, millis) > 0 }
}

/// The socket's lock file, held (an exclusive `flock`) with this process's id written in
/// it, or `None` when another process holds it: that one is the resident.
fn hold_lock(path: &Path) -> Option<std::fs::File> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .ok()?;
    // SAFETY: flock takes a descriptor this function owns and changes no memory.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if locked != 0 {
        return None;
    }
    let _ = file.set_len(0);
    let _ = writeln!(file, "{}", std::process::id());
    Some(file)
}
