//! Processes of stdio servers, and the promise that none outlives codemode.
//!
//! Each server runs in a process group of its own (so a terminal's Ctrl-C reaches
//! codemode, which decides, and so `npx` and the node process it starts are killed
//! together). A [`Group`] kills the whole group when dropped, and every live group is
//! also in a fixed table that [`kill_all`] reads without locking or allocating, so it can
//! run inside a signal handler. Three hooks use it, installed with the first server:
//! `atexit` (the process exits normally), SIGTERM/SIGINT/SIGHUP where the program has no
//! handler of its own (kill the groups, then die of the signal as before), and on Linux
//! the child's parent-death signal (codemode was killed with SIGKILL: the server is
//! killed by the kernel).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::Once;

use super::secret::Secret;

/// Live groups at once that the signal hooks can see; a group past this is still killed
/// on drop, just not by the hooks.
const SLOTS: usize = 1024;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
static OWNERS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

/// A server's process group; dropping it kills every process in it.
#[derive(Debug)]
pub(crate) struct Group {
    pgid: i32,
    slot: Option<usize>,
}

impl Group {
    fn register(pgid: i32, owner: u64) -> Self {
        let slot = (0..SLOTS).find(|&i| {
            GROUPS[i]
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        match slot {
            Some(i) => OWNERS[i].store(owner, Ordering::SeqCst),
            None => tracing::warn!(
                "more than {SLOTS} MCP server processes at once: process group {pgid} is killed when its owner is dropped, but not on a signal"
            ),
        }
        Self { pgid, slot }
    }

    /// Kills every process in the group (the server and whatever it started).
    pub(crate) fn kill(&self) {
        // SAFETY: killpg only sends a signal; a group that is gone gives ESRCH.
        unsafe {
            libc::killpg(self.pgid, libc::SIGKILL);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
        if let Some(i) = self.slot {
            OWNERS[i].store(0, Ordering::SeqCst);
            GROUPS[i].store(0, Ordering::SeqCst);
        }
    }
}

/// Blocks SIGPIPE on the calling thread, for the threads that write to servers' stdin.
/// A server that dies (or is killed as codemode exits) closes its end of the pipe; a
/// write that meets that must come back as EPIPE, an error the connection reports, and
/// not raise SIGPIPE, which the command line leaves at its default (so `codemode list |
/// head` ends quietly) and which would kill codemode. The signal stays pending on the
/// thread that wrote, which never unblocks it.
pub(crate) fn block_sigpipe() {
    // SAFETY: sigemptyset/sigaddset fill a local set; pthread_sigmask changes only this
    // thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// Kills every live server process group that this process started. Async-signal-safe
/// (atomic loads and `killpg` only), for programs that install their own signal handlers
/// and so get no cleanup from the hooks described in the module docs.
pub(crate) fn kill_all() {
    for group in &GROUPS {
        let pgid = group.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: async-signal-safe system call.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

/// Kills the live groups of one [`super::Upstreams`] value (its processes end with it,
/// even those whose [`Group`] is still held by a task of its shutting-down runtime).
pub(crate) fn kill_owned_by(owner: u64) {
    for i in 0..SLOTS {
        if OWNERS[i].load(Ordering::SeqCst) == owner {
            let pgid = GROUPS[i].load(Ordering::SeqCst);
            if pgid > 0 {
                // SAFETY: killpg only sends a signal.
                unsafe {
                    libc::killpg(pgid, libc::SIGKILL);
                }
            }
        }
    }
}

/// A distinct owner id for each [`super::Upstreams`] value.
pub(crate) fn next_owner() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

extern "C" fn kill_all_at_exit() {
    kill_all();
}

extern "C" fn kill_all_on_signal(signal: libc::c_int) {
    kill_all();
    // SAFETY: signal and raise are async-signal-safe. With the default disposition back,
    // the re-raised signal ends the process as it would have without this handler.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Installs the exit and signal hooks once per process.
fn install_hooks() {
    static HOOKS: Once = Once::new();
    HOOKS.call_once(|| {
        // SAFETY: registering plain extern "C" functions; sigaction is read before it is
        // replaced so a handler the program installed is left alone.
        unsafe {
            libc::atexit(kill_all_at_exit);
            for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
                let mut current: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut current) != 0 {
                    continue;
                }
                if current.sa_sigaction != libc::SIG_DFL {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = kill_all_on_signal as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// A started server process and its pipes.
pub(crate) struct Spawned {
    pub(crate) child: tokio::process::Child,
    pub(crate) stdin: tokio::process::ChildStdin,
    pub(crate) stdout: tokio::process::ChildStdout,
    pub(crate) stderr: tokio::process::ChildStderr,
    pub(crate) group: Group,
}

/// The variables of codemode's own environment a server gets without asking: what a
/// program needs to start and find its files (the set the MCP SDKs pass to the servers
/// they start), never tokens or keys. Anything else is passed by name in the server's
/// `env` (`"GITHUB_TOKEN": "${GITHUB_TOKEN}"`).
pub(crate) const INHERITED_ENV: [&str; 10] = [
    "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR", "TZ",
];

fn inherited_env() -> impl Iterator<Item = (&'static str, std::ffi::OsString)> {
    INHERITED_ENV
        .into_iter()
        .filter_map(|name| std::env::var_os(name).map(|value| (name, value)))
}

/// Starts `command` in a process group of its own, with piped stdio, in an environment
/// of [`INHERITED_ENV`] and the server's configured `env`.
///
/// When `cwd` is in the world (`in_world`, the default), scripts can write files there,
/// and `python -m <module>` looks for the module in its working folder first: a script
/// would replace the server with `vfs.write("<module>.py", ...)`. Such a command line
/// gets `PYTHONSAFEPATH=1` (Python 3.11 and later leave that folder off the module path),
/// unless the server's `env` sets it.
pub(crate) fn spawn(
    command: &str,
    args: &[String],
    env: &BTreeMap<String, Secret>,
    cwd: &Path,
    in_world: bool,
    owner: u64,
) -> io::Result<Spawned> {
    install_hooks();
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args).env_clear().envs(inherited_env());
    if in_world && args.iter().any(|a| a == "-m" || a.starts_with("-m")) {
        cmd.env("PYTHONSAFEPATH", "1");
    }
    cmd.envs(env.iter().map(|(k, v)| (k, v.expose())))
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl and getppid are async-signal-safe, as a pre_exec closure needs.
        // The death signal fires when the spawning thread ends: spawns run on the
        // runtime's worker threads, which live as long as the Upstreams value.
        let parent = std::process::id() as libc::pid_t;
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn()?;
    let pid = child
        .id()
        .ok_or_else(|| io::Error::other("the process ended before it could be tracked"))?
        as i32;
    // With process_group(0) the group id is the child's pid.
    let group = Group::register(pid, owner);
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(io::Error::other("the process's pipes were not set up"));
    };
    Ok(Spawned {
        child,
        stdin,
        stdout,
        stderr,
        group,
    })
}
