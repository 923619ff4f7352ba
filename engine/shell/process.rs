//! One process: started directly (no shell), in its own process group, in a folder given
//! as an open handle, with a clean environment; its output read on threads up to a cap;
//! the group killed when the process ends (so nothing it left in the background outlives
//! the call), at the time limit, or when the run stops.
//!
//! The leader is waited for without being reaped (`waitid` with `WNOWAIT`), so the group
//! is killed while its id still belongs to it, and only then reaped.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::command::FIXED_PATH;
use super::confine::{Confinement, Prepared};
use super::error::ShellError;

/// How often a waiting thread asks its stop check.
const STOP_POLL: Duration = Duration::from_millis(10);

/// How long output is still read after the process group is gone (a process that left
/// the group may hold the pipes open).
const DRAIN: Duration = Duration::from_millis(500);

/// What to start.
#[derive(Debug)]
pub(crate) struct Spec {
    /// The command as the script named it (for messages).
    pub(crate) cmd: String,
    /// The program ([`super::resolve`]).
    pub(crate) program: PathBuf,
    /// Its arguments, passed as they are.
    pub(crate) args: Vec<String>,
    /// What to write to its standard input (none: it reads an empty input).
    pub(crate) stdin: Option<Vec<u8>>,
    /// Its working folder, opened inside the world.
    pub(crate) cwd: OwnedFd,
    /// `HOME` for the process (the world).
    pub(crate) home: PathBuf,
    /// How long it may run.
    pub(crate) timeout: Duration,
    /// The most bytes kept of each of stdout and stderr.
    pub(crate) max_output: usize,
    /// The most memory each process it starts may take for data (`RLIMIT_DATA`): the
    /// run's memory limit, so a command cannot take the machine's memory from codemode.
    pub(crate) memory: u64,
    /// The largest file each process may write (`RLIMIT_FSIZE`): the run's write budget,
    /// so a command cannot fill the disk. A write past it fails (`EFBIG`).
    pub(crate) file_size: u64,
    /// What the kernel lets it (and what it starts) reach.
    pub(crate) confinement: Confinement,
}

/// How a process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finished {
    /// The exit code, or 128 plus the signal that ended it.
    pub(crate) code: i32,
    /// What it wrote to stdout (at most the cap).
    pub(crate) stdout: Vec<u8>,
    /// What it wrote to stderr (at most the cap).
    pub(crate) stderr: Vec<u8>,
    /// Whether stdout was cut at the cap.
    pub(crate) stdout_cut: bool,
    /// Whether stderr was cut at the cap.
    pub(crate) stderr_cut: bool,
}

/// One captured stream: what was kept, whether more came, whether it has ended.
type Captured = Arc<Mutex<(Vec<u8>, bool, bool)>>;

fn capture(mut pipe: impl Read + Send + 'static, cap: usize) -> Captured {
    let out: Captured = Arc::new(Mutex::new((Vec::new(), false, false)));
    let shared = out.clone();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let room = cap.saturating_sub(s.0.len());
                    s.0.extend_from_slice(&buf[..n.min(room)]);
                    // Past the cap, the rest is read and dropped, so the process is never
                    // blocked on a full pipe.
                    if n > room {
                        s.1 = true;
                    }
                }
            }
        }
        shared.lock().unwrap_or_else(|e| e.into_inner()).2 = true;
    });
    out
}

fn kill_group(pgid: i32) {
    // SAFETY: sends a signal; the group id is the leader's pid, not yet reaped.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Blocks until `pid` has ended, leaving it unreaped.
fn wait_unreaped(pid: i32) {
    loop {
        // SAFETY: `info` is plain data waitid fills in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waits for one child of this process; WNOWAIT leaves it to be reaped later.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Marks every descriptor past stdio close-on-exec, in the child between fork and exec:
/// one left open by whoever started codemode (a shell's `9<file`, an MCP host's) would
/// reach the command, outside every wall. Only system calls.
fn close_inherited() {
    // SAFETY: plain system calls on integers.
    unsafe {
        if libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) != 0
        {
            // A kernel before 5.11: each descriptor a process usually holds, one by one.
            for fd in 3..65_536 {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
}

/// Starts `spec` and waits for it, asking `stop` as it waits.
pub(crate) fn run(spec: Spec, stop: &dyn Fn() -> bool) -> Result<Finished, ShellError> {
    let mut command = Command::new(&spec.program);
    command
        .args(&spec.args)
        .env_clear()
        .env("PATH", FIXED_PATH)
        .env("HOME", &spec.home)
        .env("LANG", "C.UTF-8")
        .env("TERM", "dumb")
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let walls =
        Prepared::new(&spec.confinement, &spec.program).map_err(|why| ShellError::Start {
            cmd: spec.cmd.clone(),
            why,
        })?;
    let cwd = spec.cwd.as_raw_fd();
    let (memory, file_size) = (spec.memory, spec.file_size);
    // SAFETY: fchdir and the confinement's calls are plain system calls; the descriptor
    // stays open (held by `spec`) until after the spawn returns, the ruleset until
    // `command` is dropped.
    unsafe {
        command.pre_exec(move || {
            if libc::fchdir(cwd) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            for (resource, most) in [(libc::RLIMIT_DATA, memory), (libc::RLIMIT_FSIZE, file_size)] {
                let limit = libc::rlimit {
                    rlim_cur: most,
                    rlim_max: most,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Past the file limit a write fails instead of the process being killed.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            walls.enter()?;
            close_inherited();
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(|e| ShellError::Start {
        cmd: spec.cmd.clone(),
        why: e.to_string(),
    })?;
    let pid = child.id() as i32;
    if let (Some(mut pipe), Some(input)) = (child.stdin.take(), spec.stdin) {
        std::thread::spawn(move || {
            // A process that does not read all of its input is not an error.
            let _ = pipe.write_all(&input);
        });
    }
    let stdout = child.stdout.take().map(|p| capture(p, spec.max_output));
    let stderr = child.stderr.take().map(|p| capture(p, spec.max_output));
    let (ended_tx, ended) = mpsc::channel();
    std::thread::spawn(move || {
        wait_unreaped(pid);
        let _ = ended_tx.send(());
    });
    let until = Instant::now() + spec.timeout;
    let mut failure = None;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            failure = Some(ShellError::Timeout {
                cmd: spec.cmd.clone(),
                after: spec.timeout,
            });
            break;
        }
        match ended.recv_timeout(left.min(STOP_POLL)) {
            Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) if stop() => {
                failure = Some(ShellError::Stopped {
                    cmd: spec.cmd.clone(),
                });
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
    kill_group(pid);
    let status = child.wait().map_err(|e| ShellError::Start {
        cmd: spec.cmd.clone(),
        why: format!("waiting for it failed: {e}"),
    })?;
    if let Some(failure) = failure {
        return Err(failure);
    }
    let drain_until = Instant::now() + DRAIN;
    let take = |captured: Option<Captured>| -> (Vec<u8>, bool) {
        let Some(captured) = captured else {
            return (Vec::new(), false);
        };
        loop {
            let mut s = captured.lock().unwrap_or_else(|e| e.into_inner());
            if s.2 || Instant::now() >= drain_until {
                return (std::mem::take(&mut s.0), s.1);
            }
            drop(s);
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    let (stdout, stdout_cut) = take(stdout);
    let (stderr, stderr_cut) = take(stderr);
    let code = status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1);
    Ok(Finished {
        code,
        stdout,
        stderr,
        stdout_cut,
        stderr_cut,
    })
}
