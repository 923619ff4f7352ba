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
//! A client may ask for its declarations by the name it gave them when it sent them
//! (what they were built from: the engine's `host::named_inputs`); when the warm child holds them, the
//! client is handed over without building or sending the text, which costs a one-shot
//! run more than its check. Otherwise it is told so and sends them.
//!
//! The engine starts the resident (`codemode-check` with [`RESIDENT_ENV`] naming the
//! socket, in a folder only its user may enter) when it finds none, and checks that run
//! with a checker of its own meanwhile. Of two residents started at once, the one holding
//! the socket's lock serves; the other ends. The resident ends after [`IDLE`] without a
//! connection.

use std::io::{BufRead, BufReader, Cursor, IoSlice, IoSliceMut, Read, Write};
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The environment variable through which the engine names the socket to serve on (the
/// library spells it again: this binary does not link it).
pub(crate) const RESIDENT_ENV: &str = "CODEMODE_CHECK_RESIDENT";

/// How long the resident stays without a connection.
const IDLE: Duration = Duration::from_secs(300);

/// How long past a request's own deadline its child waits before ending itself: the
/// solver looks at its timeout between steps, not during one.
const GRACE: Duration = Duration::from_secs(1);

/// How long the resident waits for a connection's first request (the engine connects
/// with its declarations ready); other connections are taken meanwhile.
const FIRST_REQUEST: Duration = Duration::from_secs(5);

/// How often connections still sending their first request are looked at again.
const POLL_WAITING: Duration = Duration::from_millis(100);

/// The longest first request read: a large world's declarations are a few megabytes.
const MAX_FIRST_REQUEST: usize = 64 << 20;

/// When the process started: the clock [`DEADLINE`] counts on.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Milliseconds since [`STARTED`] by which the request under way must be answered; 0 when
/// none is.
static DEADLINE: AtomicU64 = AtomicU64::new(0);

fn now_ms() -> u64 {
    STARTED.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// What serves requests: the checker's state.
pub(crate) trait Serve {
    /// The reply to the request `line`.
    fn answer(&mut self, line: &str) -> String;
    /// How long the request `line` may take.
    fn within(&self, line: &str) -> Duration;
    /// True for a request that loads declarations: the resident answers it itself, before
    /// it forks, so the declarations stay loaded for the connections after.
    fn loads(&self, line: &str) -> bool;
    /// The name a request that loads declarations gives them (`"named"`), if any.
    fn name_loaded(&self, line: &str) -> Option<String>;
    /// The name of the declarations a first request asks for by name alone.
    fn name_asked(&self, line: &str) -> Option<String>;
    /// Readies what a load used up (a fresh checker), between connections.
    fn restock(&mut self);
    /// Answers the first request `first` and runs a small check against the declarations
    /// it names, so a child forked ahead has the checker's code and data in its own pages
    /// when a client comes; returns the answer to `first`.
    fn warm(&mut self, first: &str) -> String;
}

/// Serves one client's requests (one JSON object per line, one reply line each) until it
/// closes its end.
pub(crate) fn serve<R: BufRead, W: Write>(input: R, mut output: W, state: &mut dyn Serve) {
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
pub(crate) fn run(socket: &Path, state: &mut dyn Serve) {
    let Some(lock) = hold_lock(&socket.with_extension("lock")) else {
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
    let _ = listener.set_nonblocking(true);
    let mut waiting: Vec<Waiting> = Vec::new();
    let mut warm: Option<Warm> = None;
    // The first request of the last connection that loaded declarations, whose warm child
    // is forked once the resident has had nothing to do for a moment.
    let mut to_warm: Option<String> = None;
    let mut last = Instant::now();
    loop {
        waiting.retain(|w| w.since.elapsed() < FIRST_REQUEST);
        if waiting.is_empty() && last.elapsed() >= IDLE {
            let _ = std::fs::remove_file(socket);
            std::process::exit(0);
        }
        let wait = match (waiting.is_empty(), &to_warm) {
            (_, Some(_)) => WARM_AFTER,
            (true, None) => IDLE.saturating_sub(last.elapsed()),
            (false, None) => POLL_WAITING,
        };
        let ready = readable(&listener, &waiting, wait);
        if ready.iter().all(|r| !r) {
            if let Some(first) = to_warm.take() {
                let inherited: Vec<RawFd> = [listener.as_raw_fd(), lock.as_raw_fd()]
                    .into_iter()
                    .chain(waiting.iter().map(|w| w.stream.as_raw_fd()))
                    .collect();
                warm = Warm::fork(first, state, &inherited);
            }
        }
        if ready.first() == Some(&true) {
            while let Ok((stream, _)) = listener.accept() {
                if stream.set_nonblocking(true).is_ok() {
                    waiting.push(Waiting::new(stream));
                }
            }
            last = Instant::now();
        }
        // Each connection that sent its first line (or closed) leaves the waiting list.
        let mut at = 0;
        let mut again = Vec::new();
        for is_ready in ready.into_iter().skip(1) {
            if is_ready && waiting[at].read() {
                let done = waiting.remove(at);
                let Some(first) = done.first_line() else {
                    continue;
                };
                if let Some(name) = state.name_asked(&first) {
                    let (handed, left) = by_name(warm.take(), &name, done);
                    warm = left;
                    match handed {
                        // The next client of those declarations gets a child of its own.
                        Ok(first) => to_warm = Some(first),
                        Err(waits) => again.extend(waits),
                    }
                    continue;
                }
                let unhanded = match warm.take() {
                    Some(child) if child.first == first && done.rest.is_empty() => {
                        child.hand(done.stream)
                    }
                    _ => Err(done.stream),
                };
                if let Err(stream) = unhanded {
                    connection(stream, first.clone(), done.rest, state);
                    state.restock();
                }
                to_warm = state.loads(&first).then_some(first);
            } else {
                at += 1;
            }
        }
        waiting.extend(again);
    }
}

/// Hands `done`, which asked for the declarations named `name`, to the `warm` child when
/// it holds them (returning the request that loaded them, to fork the next child for);
/// otherwise tells the client so and gives its connection back to wait for the
/// declarations themselves. The warm child stays when it is not handed the client.
fn by_name(
    warm: Option<Warm>,
    name: &str,
    done: Waiting,
) -> (Result<String, Option<Waiting>>, Option<Warm>) {
    match warm {
        Some(child) if child.named.as_deref() == Some(name) && done.rest.is_empty() => {
            let first = child.first.clone();
            match child.hand(done.stream) {
                Ok(()) => (Ok(first), None),
                // The child is gone; the client's declarations go to a fork.
                Err(stream) => (Err(unnamed(stream)), None),
            }
        }
        other => (Err(unnamed(done.stream)), other),
    }
}

/// Tells a client that asked by name that no declarations are held by it, and waits
/// for its next first request (the declarations); `None` when it cannot be told.
fn unnamed(stream: UnixStream) -> Option<Waiting> {
    let reply = b"{\"ok\":false,\"unnamed\":true}\n";
    // A short line to a client waiting for it: the socket's buffer takes it whole.
    (&stream).write_all(reply).ok()?;
    Some(Waiting::new(stream))
}

/// A child forked ahead for the declarations of the last connection and warmed by one
/// check, waiting to be handed the next connection that sends the same first request or
/// asks for its declarations by name.
/// Forking costs a client most of a check's time, the child's faults on pages it shares
/// with the resident included; a warm child has paid them while the resident was idle.
/// It ends when the resident drops it (its channel closes) or ends.
struct Warm {
    /// The first request it answers.
    first: String,
    /// The name that request gave its declarations, by which a client may ask for them.
    named: Option<String>,
    /// Where the resident hands it a client's socket.
    channel: UnixStream,
}

/// How long the resident is idle before it forks a warm child.
const WARM_AFTER: Duration = Duration::from_millis(2);

impl Warm {
    /// Forks a warm child for `first`, which closes the resident's `inherited` descriptors
    /// (the listener, other clients' sockets) so it holds no one's connection open.
    fn fork(first: String, state: &mut dyn Serve, inherited: &[RawFd]) -> Option<Warm> {
        let (channel, theirs) = UnixStream::pair().ok()?;
        // SAFETY: this process has one thread, so the child's copy of it holds no lock
        // another thread took.
        match unsafe { libc::fork() } {
            0 => {
                drop(channel);
                for fd in inherited {
                    // SAFETY: closing descriptors the child inherited and never uses.
                    unsafe { libc::close(*fd) };
                }
                // The warm-up is bounded as a client's request is.
                watch_deadline();
                DEADLINE.store(
                    now_ms() + (state.within(&first) + GRACE).as_millis() as u64,
                    Ordering::SeqCst,
                );
                let early = state.warm(&first);
                DEADLINE.store(0, Ordering::SeqCst);
                if let Some(stream) = received(&theirs) {
                    drop(theirs);
                    answer_connection(stream, &first, Vec::new(), Some(early), state);
                }
                std::process::exit(0);
            }
            pid if pid > 0 => Some(Warm {
                named: state.name_loaded(&first),
                first,
                channel,
            }),
            _ => None,
        }
    }

    /// Hands `stream`, which has sent nothing past its first request, to the child; gives
    /// it back when the child cannot take it. (A client that sent more is served by a
    /// fork: what it sent would not all pass in the one message the child reads.)
    fn hand(self, stream: UnixStream) -> Result<(), UnixStream> {
        use rustix::net::{sendmsg, SendAncillaryBuffer, SendAncillaryMessage, SendFlags};
        // A stream socket sends no empty message: one byte carries the descriptor.
        let data = [b'+'];
        let mut space = [std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
        let mut control = SendAncillaryBuffer::new(&mut space);
        let fds = [stream.as_fd()];
        control.push(SendAncillaryMessage::ScmRights(&fds));
        match sendmsg(
            &self.channel,
            &[IoSlice::new(&data)],
            &mut control,
            SendFlags::NOSIGNAL,
        ) {
            Ok(sent) if sent == data.len() => Ok(()),
            _ => Err(stream),
        }
    }
}

/// The client socket the resident hands a warm child; `None` when it closes the channel
/// instead.
fn received(channel: &UnixStream) -> Option<UnixStream> {
    use rustix::net::{recvmsg, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags};
    let mut data = [0u8; 1];
    let mut space = [std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let got = recvmsg(
        channel,
        &mut [IoSliceMut::new(&mut data)],
        &mut control,
        RecvFlags::CMSG_CLOEXEC,
    )
    .ok()?;
    let stream = control.drain().find_map(|message| match message {
        RecvAncillaryMessage::ScmRights(mut fds) => fds.next().map(UnixStream::from),
        _ => None,
    })?;
    (got.bytes == 1).then_some(stream)
}

/// A connection whose first request has not all come yet.
struct Waiting {
    stream: UnixStream,
    since: Instant,
    read: Vec<u8>,
    /// The first line, once it is whole, and what came after it.
    rest: Vec<u8>,
    closed: bool,
}

impl Waiting {
    fn new(stream: UnixStream) -> Waiting {
        Waiting {
            stream,
            since: Instant::now(),
            read: Vec::new(),
            rest: Vec::new(),
            closed: false,
        }
    }

    /// Reads what has come; true when the first line is whole or the client is gone.
    fn read(&mut self) -> bool {
        let mut chunk = [0u8; 64 * 1024];
        loop {
            match (&self.stream).read(&mut chunk) {
                Ok(0) => {
                    self.closed = true;
                    return true;
                }
                Ok(n) => self.read.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
            if let Some(end) = self.read.iter().position(|b| *b == b'\n') {
                self.rest = self.read.split_off(end + 1);
                return true;
            }
            if self.read.len() > MAX_FIRST_REQUEST {
                self.closed = true;
                return true;
            }
        }
        false
    }

    fn first_line(&self) -> Option<String> {
        if self.closed {
            return None;
        }
        String::from_utf8(self.read.clone())
            .ok()
            .map(|line| line.trim_end().to_string())
    }
}

/// Answers a connection's first request here when it loads declarations (kept for the
/// connections after), and forks a child that serves the rest of it.
fn connection(stream: UnixStream, first: String, rest: Vec<u8>, state: &mut dyn Serve) {
    let early = state
        .loads(&first)
        .then(|| within_alarm(state.within(&first) + GRACE, || state.answer(&first)));
    // SAFETY: this process has one thread, so the child's copy of it holds no lock
    // another thread took.
    if unsafe { libc::fork() } != 0 {
        // The parent (or a failed fork: the client then checks with a checker of its own).
        return;
    }
    watch_deadline();
    answer_connection(stream, &first, rest, early, state);
    std::process::exit(0);
}

/// In a child: answers the connection's first request (`early`, when the resident did)
/// and serves the rest of it.
fn answer_connection(
    stream: UnixStream,
    first: &str,
    rest: Vec<u8>,
    early: Option<String>,
    state: &mut dyn Serve,
) {
    let _ = stream.set_nonblocking(false);
    let Ok(reading) = stream.try_clone() else {
        std::process::exit(1);
    };
    let mut output = &stream;
    let reply = early.unwrap_or_else(|| state.answer(first));
    if writeln!(output, "{reply}").is_ok() {
        serve(
            BufReader::new(Cursor::new(rest).chain(reading)),
            output,
            state,
        );
    }
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

/// Which of `listener` (first) and the `waiting` connections have something to read
/// within `wait`.
fn readable(listener: &UnixListener, waiting: &[Waiting], wait: Duration) -> Vec<bool> {
    let fd = |fd: i32| libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let mut fds: Vec<libc::pollfd> = std::iter::once(fd(listener.as_raw_fd()))
        .chain(waiting.iter().map(|w| fd(w.stream.as_raw_fd())))
        .collect();
    let millis = wait.as_millis().min(i32::MAX as u128) as libc::c_int;
    // SAFETY: poll reads and writes the pollfds it is given, which live in `fds`.
    let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
    if ready <= 0 {
        return vec![false; fds.len()];
    }
    fds.iter().map(|f| f.revents != 0).collect()
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
