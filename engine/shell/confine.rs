//! The kernel's walls around a started command (Linux Landlock). A grant names a program,
//! never what it may do, so what a command may touch is decided here, by the kernel, for
//! the command and everything it starts:
//!
//! - read and execute the system folders ([`SYSTEM`]), read and write a few devices
//!   ([`DEVICES`]), read its own `/proc/self`;
//! - read and write (not execute) each top-level entry of the world that is not hidden
//!   (no leading `.`: not `.codemode`, nor an `--mcp-config` in `.cursor/`, nor `.env` or
//!   `.git`), toolbox folders only read, and list the world's top folder (`world.rs`).
//!   Entries are read when the command starts; a symlink among them is not granted (what
//!   it points to is, if that is itself granted), and nothing can be created or removed at
//!   the top of the world (that right would cover `.codemode/` too);
//! - no capabilities ([`drop_capabilities`]): started by root, a command is an ordinary
//!   process of uid 0, owning what root owns and nothing more;
//! - nothing else: no home folder, no `/tmp`, no TCP (bind or connect) unless the
//!   profile grants commands the network, no abstract UNIX sockets and no signals to
//!   processes outside the command's own domain. Without the network a seccomp filter
//!   also refuses every socket (`seccomp.rs`): Landlock does not rule UDP, or UNIX
//!   sockets reached by path.
//!
//! The ruleset is built in the parent, before the fork; the child only calls `prctl` and
//! `landlock_restrict_self` between fork and exec ([`Prepared::enter`]), both plain
//! system calls, as the child of a threaded process may only make.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, ABI,
};

use super::error::ShellError;
use super::seccomp::Filter;
use super::world::{open_path, WorldRules};

/// Folders a command may read and execute from. Missing ones are skipped.
pub(crate) const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// Devices a command may open: `/dev/null` and `/dev/full` to write, the others to read.
pub(crate) const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/full",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
];

/// The Landlock ABI that enforces every wall above: file rights with truncation and
/// device ioctls (5), TCP (4), abstract-socket and signal scoping (6).
pub(crate) const FULL_ABI: i32 = 6;

/// How far the running kernel can confine commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Support {
    /// The Landlock ABI the kernel reports (0: none, or Landlock is disabled).
    pub(crate) abi: i32,
}

impl Support {
    /// What is missing, for warnings and refusals (`None` when nothing is).
    pub(crate) fn shortfall(self) -> Option<String> {
        match self.abi {
            a if a >= FULL_ABI => None,
            a if a <= 0 => Some(
                "this kernel does not enforce Landlock (it is not built in or not enabled at boot), \
                 so started commands would read and write whatever codemode can"
                    .to_string(),
            ),
            a => Some(format!(
                "this kernel's Landlock is ABI {a}, older than the {FULL_ABI} that confines commands \
                 fully ({}), so started commands are only partly confined",
                missing(a)
            )),
        }
    }
}

impl Support {
    /// What a profile granting commands should be told at start-up and by
    /// `codemode check` (`None` when the kernel confines them fully).
    pub(crate) fn warning(self, unconfined_allowed: bool) -> Option<String> {
        let why = self.shortfall()?;
        Some(if unconfined_allowed {
            format!("capabilities.shell: {why}; the profile sets shellUnconfined, so commands start anyway")
        } else {
            format!(
                "capabilities.shell: {why}; shell.run refuses every command until codemode runs on a kernel with Landlock \
                 (Linux 6.12 or later) or the profile sets \"shellUnconfined\": true"
            )
        })
    }
}

fn missing(abi: i32) -> String {
    let mut out = Vec::new();
    if abi < 2 {
        out.push("moving files between folders");
    }
    if abi < 3 {
        out.push("truncation");
    }
    if abi < 4 {
        out.push("TCP");
    }
    if abi < 5 {
        out.push("device ioctls");
    }
    out.push("abstract UNIX sockets and signals");
    format!("no rules for {}", out.join(", "))
}

/// The running kernel's support, asked once.
pub(crate) fn support() -> Support {
    static ABI_SEEN: OnceLock<i32> = OnceLock::new();
    let abi = *ABI_SEEN.get_or_init(|| {
        const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
        // SAFETY: with a null attribute and the VERSION flag the call only returns a number.
        let abi = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<libc::c_void>(),
                0usize,
                LANDLOCK_CREATE_RULESET_VERSION,
            )
        };
        i32::try_from(abi).unwrap_or(0).max(0)
    });
    Support { abi }
}

/// Whether a command may start: with the kernel's support short, only when the profile
/// opted in to commands the kernel cannot (fully) confine.
pub(crate) fn admit(
    support: Support,
    unconfined_allowed: bool,
    cmd: &str,
) -> Result<(), ShellError> {
    match support.shortfall() {
        Some(why) if !unconfined_allowed => Err(ShellError::Unconfined {
            cmd: cmd.to_string(),
            why,
        }),
        _ => Ok(()),
    }
}

/// What one command may reach.
#[derive(Debug, Clone)]
pub(crate) struct Confinement {
    /// The world: its top-level entries but `.codemode` are readable and writable.
    pub(crate) world: PathBuf,
    /// What parts of the world get less (`world.rs`).
    pub(crate) rules: WorldRules,
    /// Whether the network is open: TCP bind and connect, and sockets of every kind.
    pub(crate) network: bool,
}

/// A ruleset ready for a child to enter.
#[derive(Debug)]
pub(crate) struct Prepared {
    /// The ruleset (none when the kernel has no Landlock).
    ruleset: Option<OwnedFd>,
    /// The seccomp filter: no new session or process group, and without the network no
    /// socket.
    filter: Filter,
}

impl Prepared {
    /// Builds the ruleset for `program` under `confinement`, in the parent.
    pub(crate) fn new(confinement: &Confinement, program: &Path) -> Result<Prepared, String> {
        // The newest rights this crate knows; the kernel enforces those it has, and
        // [`support`] says which it lacks.
        let abi = ABI::V10;
        let read = AccessFs::from_read(abi);
        let mut handled = AccessFs::from_all(abi);
        if confinement.network {
            // A later ABI rules pathname UNIX sockets; the network grant leaves them open.
            handled.remove(AccessFs::ResolveUnix);
        }
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(handled)
            .map_err(why)?
            .scope(Scope::from_all(abi))
            .map_err(why)?;
        if !confinement.network {
            ruleset = ruleset
                .handle_access(AccessNet::from_all(abi))
                .map_err(why)?;
        }
        refuse_world_under_system(&confinement.world)?;
        let mut created = ruleset.create().map_err(why)?;
        for dir in SYSTEM {
            if let Ok(fd) = open_path(Path::new(dir)) {
                created = created.add_rule(PathBeneath::new(fd, read)).map_err(why)?;
            }
        }
        let file_rw = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate;
        for device in DEVICES {
            // Only the sinks are written: a writable /dev/zero maps shared memory past the
            // command's memory limit.
            let rights = match *device {
                "/dev/null" | "/dev/full" => file_rw,
                _ => AccessFs::ReadFile.into(),
            };
            if let Ok(fd) = open_path(Path::new(device)) {
                created = created
                    .add_rule(PathBeneath::new(fd, rights))
                    .map_err(why)?;
            }
        }
        // A program granted by a path outside the system folders.
        if !SYSTEM.iter().any(|dir| program.starts_with(dir)) {
            let fd = open_path(program).map_err(|e| format!("{}: {e}", program.display()))?;
            created = created
                .add_rule(PathBeneath::new(fd, AccessFs::Execute | AccessFs::ReadFile))
                .map_err(why)?;
        }
        for (fd, rights) in super::world::rules(&confinement.world, &confinement.rules, handled)? {
            created = created
                .add_rule(PathBeneath::new(fd, rights))
                .map_err(why)?;
        }
        Ok(Prepared {
            ruleset: created.into(),
            filter: Filter::new(confinement.network),
        })
    }

    /// Confines the calling process. Runs in the child between fork and exec: it makes
    /// only system calls (no allocation, no lock).
    pub(crate) fn enter(&self) -> std::io::Result<()> {
        // SAFETY: plain system calls on integers and a descriptor this value owns.
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            drop_capabilities()?;
            self.filter.install()?;
            let Some(ruleset) = &self.ruleset else {
                return Ok(());
            };
            if let Some(err) = self_proc_rule(ruleset.as_raw_fd()) {
                return Err(err);
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, ruleset.as_raw_fd(), 0u32) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// Leaves the process, and every program it starts, without capabilities: run by root,
/// a command would otherwise keep them all (`CAP_SYS_ADMIN`, `CAP_LINUX_IMMUTABLE`,
/// `CAP_DAC_OVERRIDE`...), and Landlock does not rule what most of them allow. The bounding
/// set is emptied first (it needs `CAP_SETPCAP`, which only a process with capabilities
/// has: without it there is nothing to drop), so an exec cannot give them back; then the
/// ambient, permitted, effective and inheritable sets.
///
/// # Safety
/// Only system calls, on values on the stack.
unsafe fn drop_capabilities() -> std::io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    // Past the last capability the kernel knows, the call fails (EINVAL): no harm.
    for cap in 0..64 {
        libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
    }
    libc::prctl(
        libc::PR_CAP_AMBIENT,
        libc::PR_CAP_AMBIENT_CLEAR_ALL,
        0,
        0,
        0,
    );
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let none = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    if libc::syscall(libc::SYS_capset, &header as *const Header, none.as_ptr()) != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Adds the child's own `/proc/self` (read only) to the ruleset, in the child: opened
/// before the fork it would name the parent. Other processes' `/proc` entries (their
/// command lines) stay closed.
///
/// # Safety
/// Only system calls; `ruleset` is an open Landlock ruleset.
unsafe fn self_proc_rule(ruleset: libc::c_int) -> Option<std::io::Error> {
    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
    let fd = libc::open(
        c"/proc/self".as_ptr(),
        libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
    );
    if fd < 0 {
        // No /proc mounted: nothing to grant.
        return None;
    }
    let attr = PathBeneathAttr {
        allowed_access: (AccessFs::ReadFile | AccessFs::ReadDir).bits(),
        parent_fd: fd,
    };
    let rc = libc::syscall(
        libc::SYS_landlock_add_rule,
        ruleset,
        LANDLOCK_RULE_PATH_BENEATH,
        &attr as *const PathBeneathAttr,
        0u32,
    );
    let err = (rc != 0).then(std::io::Error::last_os_error);
    libc::close(fd);
    err
}

/// A world inside a folder commands may read would show them its `.codemode/`.
fn refuse_world_under_system(world: &Path) -> Result<(), String> {
    let world = world.canonicalize().unwrap_or_else(|_| world.to_path_buf());
    for dir in SYSTEM {
        let Ok(system) = Path::new(dir).canonicalize() else {
            continue;
        };
        if world.starts_with(&system) {
            return Err(format!(
                "the world {} lies inside {dir}, which started commands may read, so they \
                 would read its .codemode/ (the policy and the servers' settings); keep the \
                 world outside {}",
                world.display(),
                SYSTEM.join(", ")
            ));
        }
    }
    Ok(())
}

fn why(e: impl std::fmt::Display) -> String {
    format!("cannot build the command's Landlock rules: {e}")
}

#[cfg(test)]
#[path = "../../tests/unit/shell/confine.rs"]
mod tests;
