//! The seccomp filter every started command runs under: the system calls it may not make.
//!
//! - `setsid(2)` and `setpgid(2)` fail with `EPERM`: a command stays in the process group
//!   it was started in, so killing that group when the call ends (`process.rs`) ends all
//!   it left behind. A process in a session of its own would outlive the call, the run
//!   and codemode, still writing the world.
//! - No call changes a file's mode or owner ([`MODE_OWNER`]) or its extended attributes
//!   ([`ATTRIBUTES`]), wherever the file is: Landlock rules reading and writing contents,
//!   not metadata, so without this a command could `chmod` the operator's
//!   `.codemode/agents.json` readable by everyone, or set a file capability. Mode and
//!   owner changes succeed without effect (`tar x`, `cp -a`, `git init`, `python3 -m
//!   venv` set modes as they go and stop at a refusal; nothing in the world is executed,
//!   and a file made with a mode keeps it); attribute changes fail as on a filesystem
//!   without them (`EOPNOTSUPP`). Times stay settable (`touch` needs them); the index
//!   trusts change times, which no call sets.
//! - Setting a file's attribute flags by `ioctl` ([`SET_FLAGS`]) fails with `EPERM`:
//!   `chattr +i` would make the world's files unwritable, the operator's too.
//! - A call that acts on another process by its id fails with `EPERM` ([`SELF_ONLY`]):
//!   lowering `codemode`'s file or CPU limits (`prlimit`), its priority, CPU set or I/O
//!   class. Landlock scopes signals and `ptrace`, not these; a process's own settings
//!   (`ulimit`, `nice`) stay open.
//! - The kernel's keyrings (`keyctl`, `add_key`, `request_key`) and new namespaces
//!   (`unshare`, `setns`, `clone` with a `CLONE_NEW*` flag) fail with `EPERM`; `clone3`
//!   with `ENOSYS`, so the C library falls back to `clone`, whose flags the filter sees.
//! - `io_uring_setup(2)` fails with `EACCES`: its requests set extended attributes and
//!   open sockets without the calls above. `open_by_handle_at(2)` fails too: it opens a
//!   file by a handle instead of a path.
//! - Without the network, `socket(2)` fails with `EACCES` whatever the family; with it,
//!   every family but IPv4 and IPv6 does. Landlock rules TCP, but not UDP (a DNS query
//!   carries data out), raw or netlink sockets, or a UNIX socket reached by its path (a
//!   daemon's, such as a container engine's, which acts with more rights than the command,
//!   or the type checker codemode keeps running). `socketpair(2)` stays: it reaches
//!   nothing outside.
//!
//! The filter is a fixed program built before the fork; the child installs it with one
//! `prctl` after `PR_SET_NO_NEW_PRIVS`.

/// The calls that change a file's mode or owner: answered 0 without being made.
pub(crate) const MODE_OWNER: &[libc::c_long] = &[
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chmod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chown,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_lchown,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    452, // fchmodat2, one number on every architecture
    libc::SYS_fchown,
    libc::SYS_fchownat,
];

/// The calls that set or remove a file's extended attributes: refused as a filesystem
/// without them refuses (`EOPNOTSUPP`), which copying tools take in their stride. The
/// newest (`setxattrat`, `removexattrat`) have one number on every architecture.
pub(crate) const ATTRIBUTES: &[libc::c_long] = &[
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    463, // setxattrat
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    466, // removexattrat
];

/// `ioctl` requests that set a file's attribute flags (`chattr`): `FS_IOC_SETFLAGS` in its
/// 64- and 32-bit spellings, and `FS_IOC_FSSETXATTR`.
pub(crate) const SET_FLAGS: &[u32] = &[0x4008_6602, 0x4004_6602, 0x401c_5820];

/// Calls that name the process they act on, with the arguments that must say "this
/// process": `(call, [(argument, value)])`. `setpriority` and `ioprio_set` also take a kind
/// of target (a process, group or user: every process of the user would include codemode),
/// which must be a process.
pub(crate) const SELF_ONLY: &[(libc::c_long, &[(u32, u32)])] = &[
    (libc::SYS_prlimit64, &[(0, 0)]),
    (libc::SYS_setpriority, &[(0, libc::PRIO_PROCESS), (1, 0)]),
    (libc::SYS_ioprio_set, &[(0, 1), (1, 0)]), // IOPRIO_WHO_PROCESS
    (libc::SYS_sched_setaffinity, &[(0, 0)]),
    (libc::SYS_sched_setscheduler, &[(0, 0)]),
    (libc::SYS_sched_setparam, &[(0, 0)]),
    (libc::SYS_sched_setattr, &[(0, 0)]),
];

/// `clone` flags that make a namespace: user, PID, network, mount, UTS, IPC, cgroup.
const NEW_NAMESPACES: u32 = 0x7E02_0000;

/// The offset of argument `n`'s low 32 bits in `struct seccomp_data` (both architectures
/// are little-endian); the high 32 bits follow.
fn arg(n: u32) -> u32 {
    16 + 8 * n
}

/// The filter: a classic BPF program over `struct seccomp_data`.
pub(crate) struct Filter {
    program: Vec<libc::sock_filter>,
}

impl std::fmt::Debug for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Filter({} instructions)", self.program.len())
    }
}

/// `struct seccomp_data` offsets: the syscall number, then the architecture.
const NR: u32 = 0;
const ARCH: u32 = 4;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// x32 system calls share x86_64's architecture number, with this bit set.
const X32_BIT: u32 = 0x4000_0000;

fn statement(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

impl Filter {
    /// The filter for a command, with the network (`network`) or without.
    pub(crate) fn new(network: bool) -> Filter {
        use libc::{
            BPF_ABS, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_JSET, BPF_K, BPF_LD, BPF_RET, BPF_W,
            SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO,
        };
        let errno = |e: i32| SECCOMP_RET_ERRNO | e as u32;
        let mut refused = vec![
            (libc::SYS_setsid, errno(libc::EPERM)),
            (libc::SYS_setpgid, errno(libc::EPERM)),
            (libc::SYS_io_uring_setup, errno(libc::EACCES)),
            (libc::SYS_open_by_handle_at, errno(libc::EACCES)),
            // The kernel's keyrings hold the user's secrets (a login's, an agent's).
            (libc::SYS_keyctl, errno(libc::EPERM)),
            (libc::SYS_add_key, errno(libc::EPERM)),
            (libc::SYS_request_key, errno(libc::EPERM)),
            // New namespaces: a user namespace gives every capability inside it.
            (libc::SYS_unshare, errno(libc::EPERM)),
            (libc::SYS_setns, errno(libc::EPERM)),
            // clone3 passes its flags in memory, where a filter cannot look: C libraries
            // fall back to clone on ENOSYS, whose flags it can.
            (libc::SYS_clone3, errno(libc::ENOSYS)),
        ];
        refused.extend(MODE_OWNER.iter().map(|nr| (*nr, errno(0))));
        refused.extend(ATTRIBUTES.iter().map(|nr| (*nr, errno(libc::EOPNOTSUPP))));
        if !network {
            refused.push((libc::SYS_socket, errno(libc::EACCES)));
        }
        let no_socket = statement(BPF_RET | BPF_K, errno(libc::EACCES));
        let deny = errno(libc::EACCES);
        let mut program = vec![
            statement(BPF_LD | BPF_W | BPF_ABS, ARCH),
            // Another architecture's calls (a 32-bit program) are refused whole: their
            // numbers mean other calls.
            jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH, 1, 0),
            statement(BPF_RET | BPF_K, deny),
            statement(BPF_LD | BPF_W | BPF_ABS, NR),
            jump(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 0, 1),
            statement(BPF_RET | BPF_K, deny),
        ];
        // Each refused call: when equal, fall through to its return; else skip it.
        for (nr, answer) in &refused {
            program.push(jump(BPF_JMP | BPF_JEQ | BPF_K, *nr as u32, 0, 1));
            program.push(statement(BPF_RET | BPF_K, *answer));
        }
        let allow = statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        let refuse = statement(BPF_RET | BPF_K, errno(libc::EPERM));
        let load = |offset: u32| statement(BPF_LD | BPF_W | BPF_ABS, offset);
        // Each call that looks at its arguments gets a block that ends in a return either
        // way (the block loads arguments over the call's number): skipped unless equal.
        let mut block = |nr: libc::c_long, body: Vec<libc::sock_filter>| {
            program.push(jump(
                BPF_JMP | BPF_JEQ | BPF_K,
                nr as u32,
                0,
                body.len() as u8,
            ));
            program.extend(body);
        };
        // With the network, socket: only the internet's families (a UNIX socket reached
        // by its path is a local daemon's, or codemode's own checker's).
        if network {
            block(
                libc::SYS_socket,
                vec![
                    load(arg(0)),
                    jump(BPF_JMP | BPF_JEQ | BPF_K, libc::AF_INET as u32, 2, 0),
                    jump(BPF_JMP | BPF_JEQ | BPF_K, libc::AF_INET6 as u32, 1, 0),
                    no_socket,
                    allow,
                ],
            );
        }
        // clone: refused when it asks for a new namespace.
        block(
            libc::SYS_clone,
            vec![
                load(arg(0)),
                jump(BPF_JMP | BPF_JSET | BPF_K, NEW_NAMESPACES, 1, 0),
                allow,
                refuse,
            ],
        );
        // ioctl: refused when its request is one of SET_FLAGS (a 32-bit number).
        let mut body = vec![load(arg(1))];
        for (k, request) in SET_FLAGS.iter().enumerate() {
            let to_refuse = (SET_FLAGS.len() - k) as u8;
            body.push(jump(BPF_JMP | BPF_JEQ | BPF_K, *request, to_refuse, 0));
        }
        body.extend([allow, refuse]);
        block(libc::SYS_ioctl, body);
        // Self-only calls: every named argument, all 64 bits of it, must equal its value.
        for (nr, wanted) in SELF_ONLY {
            let words: Vec<(u32, u32)> = wanted
                .iter()
                .flat_map(|(n, value)| [(arg(*n), *value), (arg(*n) + 4, 0)])
                .collect();
            let mut body = Vec::new();
            for (k, (offset, value)) in words.iter().enumerate() {
                let to_refuse = (2 * (words.len() - k) - 1) as u8;
                body.push(load(*offset));
                body.push(jump(BPF_JMP | BPF_JEQ | BPF_K, *value, 0, to_refuse));
            }
            body.extend([allow, refuse]);
            block(*nr, body);
        }
        program.push(allow);
        Filter { program }
    }

    /// Installs the filter on the calling thread. Runs in the child between fork and exec
    /// (after `PR_SET_NO_NEW_PRIVS`): one system call, no allocation.
    pub(crate) fn install(&self) -> std::io::Result<()> {
        let prog = libc::sock_fprog {
            len: self.program.len() as u16,
            filter: self.program.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: `prog` points at this value's program, alive for the call.
        let rc = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &prog as *const libc::sock_fprog,
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "../../tests/unit/shell/seccomp.rs"]
mod tests;
