//! Granted commands run inside the kernel's walls (Landlock): whatever their arguments
//! say, they read the system folders and the world but its hidden entries (`.codemode/`
//! and the others), write only the world but those, and reach no network unless the
//! profile grants it.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::policy::Capabilities;
use crate::registry::Registry;
use crate::{Envelope, Limits, Output, Runtime};

const SECRET: &str = "SECRET-7c1f-do-not-print";

/// A folder holding `world/` (with a secret in `.codemode/mcp.json` and a data file) and
/// `outside/secret.txt` beside it.
struct Place {
    _dir: tempfile::TempDir,
    world: PathBuf,
    outside: PathBuf,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().unwrap();
        let world = dir.path().join("world");
        let outside = dir.path().join("outside");
        for (path, text) in [
            (
                world.join(".codemode/mcp.json"),
                format!("{{\"token\": \"{SECRET}\"}}"),
            ),
            (outside.join("secret.txt"), SECRET.to_string()),
            (world.join("data/a.txt"), "one two three\n".to_string()),
            (world.join("top.txt"), "top\n".to_string()),
        ] {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Place {
            _dir: dir,
            world,
            outside,
        }
    }

    fn runtime(&self, grants: Capabilities) -> Runtime {
        let registry = Registry::open(&self.world, &[], false)
            .unwrap()
            .with_capabilities(grants);
        Runtime::new(Arc::new(registry), Limits::default()).unwrap()
    }

    fn granting(&self, commands: &[&str]) -> Runtime {
        self.runtime(Capabilities {
            shell: commands.iter().map(|c| c.to_string()).collect(),
            ..Capabilities::default()
        })
    }
}

/// Runs one command; returns its exit code and what it wrote to stdout and stderr.
fn start(rt: &mut Runtime, cmd: &str, args: &[&str]) -> (i64, String) {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    let script = format!(
        "local r = shell.run({{ cmd = {cmd:?}, args = {{ {} }} }})\nreturn {{ r.code, r.stdout .. r.stderr }}",
        args.join(", ")
    );
    let got: Envelope = rt.exec(&script, Output::Capture);
    assert!(got.ok, "{cmd} {args:?}: {}", got.to_json());
    let v = got.value.unwrap();
    (v[0].as_i64().unwrap(), v[1].as_str().unwrap().to_string())
}

fn assert_refused(rt: &mut Runtime, cmd: &str, args: &[&str]) {
    let (code, out) = start(rt, cmd, args);
    assert_ne!(code, 0, "{cmd} {args:?} succeeded: {out}");
    assert!(
        !out.contains(SECRET),
        "{cmd} {args:?} printed the secret: {out}"
    );
    assert!(
        out.contains("Permission denied") || out.contains("Operation not permitted"),
        "{cmd} {args:?}: {out}"
    );
}

#[test]
fn a_granted_wc_reads_no_file_in_codemode_or_outside_the_world() {
    let place = Place::new();
    let mut rt = place.granting(&["wc"]);
    let outside = place.outside.join("secret.txt");
    let absolute = format!("--files0-from={}", outside.display());
    for args in [
        &["--files0-from=.codemode/mcp.json"][..],
        &["--files0-from=../outside/secret.txt"],
        &[absolute.as_str()],
        &["-c", ".codemode/mcp.json"],
        &["-c", "../outside/secret.txt"],
    ] {
        assert_refused(&mut rt, "wc", args);
    }
    // What the grant is for still works: a file of the world, and one of the system.
    let (code, out) = start(&mut rt, "wc", &["-w", "data/a.txt"]);
    assert_eq!((code, out.as_str()), (0, "3 data/a.txt\n"));
    let (code, out) = start(&mut rt, "wc", &["-c", "top.txt", "/etc/hostname"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("4 top.txt"), "{out}");
}

#[test]
fn cat_and_head_read_the_world_and_the_system_but_nothing_beside_them() {
    let place = Place::new();
    std::os::unix::fs::symlink(&place.outside, place.world.join("link")).unwrap();
    std::os::unix::fs::symlink(".codemode", place.world.join("hidden")).unwrap();
    let mut rt = place.granting(&["cat", "head", "ls"]);
    let secret = place.outside.join("secret.txt");
    for (cmd, path) in [
        ("cat", "../outside/secret.txt"),
        ("head", "../outside/secret.txt"),
        ("cat", secret.to_str().unwrap()),
        ("cat", "link/secret.txt"),
        ("cat", "hidden/mcp.json"),
        ("head", ".codemode/mcp.json"),
        ("cat", "data/../.codemode/mcp.json"),
    ] {
        assert_refused(&mut rt, cmd, &[path]);
    }
    // No home folder, and no other process's /proc entry (its command line).
    assert_refused(&mut rt, "cat", &["/root/.bashrc"]);
    let parent = format!("/proc/{}/cmdline", std::process::id());
    assert_refused(&mut rt, "cat", &[&parent]);
    let (code, out) = start(&mut rt, "head", &["-c", "4", "/proc/self/status"]);
    assert_eq!((code, out.as_str()), (0, "Name"));
    let (code, out) = start(&mut rt, "cat", &["/etc/hostname", "data/a.txt"]);
    let hostname = std::fs::read_to_string("/etc/hostname").unwrap();
    assert_eq!((code, out), (0, format!("{hostname}one two three\n")));
    // The world's top folder is listed (the names only, as `stat` shows them anyway).
    let (code, out) = start(&mut rt, "ls", &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("data\n") && out.contains("top.txt\n"), "{out}");
    assert_refused(&mut rt, "ls", &["../outside"]);
}

#[test]
fn a_command_writes_only_into_the_world_and_never_into_codemode() {
    let place = Place::new();
    let mut rt = place.granting(&["touch", "cp", "sh", "mkdir"]);
    let outside_new = place.outside.join("new.txt");
    assert_refused(&mut rt, "touch", &[outside_new.to_str().unwrap()]);
    assert_refused(&mut rt, "touch", &["../outside/new.txt"]);
    assert_refused(&mut rt, "cp", &["data/a.txt", "../outside/new.txt"]);
    assert!(!outside_new.exists());
    assert_refused(&mut rt, "cp", &["data/a.txt", ".codemode/mcp.json"]);
    assert_refused(&mut rt, "cp", &["data/a.txt", ".codemode/policy.json"]);
    assert_refused(&mut rt, "sh", &["-c", "echo '{}' > .codemode/mcp.json"]);
    assert_refused(&mut rt, "mkdir", &[".codemode/upstream"]);
    assert!(!place.world.join(".codemode/policy.json").exists());
    assert!(!place.world.join(".codemode/upstream").exists());
    assert!(
        std::fs::read_to_string(place.world.join(".codemode/mcp.json"))
            .unwrap()
            .contains(SECRET)
    );
    // Inside the world's folders, and into its existing top-level files, it writes.
    let (code, out) = start(
        &mut rt,
        "sh",
        &["-c", "echo made > data/new.txt; echo over > top.txt"],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(place.world.join("data/new.txt")).unwrap(),
        "made\n"
    );
    assert_eq!(
        std::fs::read_to_string(place.world.join("top.txt")).unwrap(),
        "over\n"
    );
    // Not a new entry at the top: that right would reach into .codemode/ too.
    assert_refused(&mut rt, "touch", &["fresh.txt"]);
    // Nor run a program the world holds.
    std::fs::write(place.world.join("data/run.sh"), "#!/bin/sh\necho ran\n").unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(place.world.join("data/run.sh"), mode).unwrap();
    assert_refused(&mut rt, "sh", &["-c", "./data/run.sh"]);
}

/// The engine trusts the world's hidden top-level entries as scripts never reach them: an
/// `--mcp-config` file in `.cursor/` is read with its tokens, `.git/` holds hooks the
/// user's own git runs. A command reaches none of them.
#[test]
fn a_command_reaches_no_hidden_entry_of_the_world() {
    let place = Place::new();
    for (path, text) in [
        (
            ".mcp-servers/srv.mjs",
            "console.log('server')\n".to_string(),
        ),
        (".cursor/mcp.json", format!("{{\"token\": \"{SECRET}\"}}")),
        (".env", format!("TOKEN={SECRET}\n")),
    ] {
        let path = place.world.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut rt = place.granting(&["sh", "cat", "cp", "mkdir"]);
    assert_refused(
        &mut rt,
        "sh",
        &["-c", "echo 'import \"./p.mjs\"' >> .mcp-servers/srv.mjs"],
    );
    assert_refused(&mut rt, "cp", &["data/a.txt", ".cursor/mcp.json"]);
    assert_refused(&mut rt, "mkdir", &[".mcp-servers/more"]);
    assert_refused(&mut rt, "cat", &[".env"]);
    assert_refused(&mut rt, "cat", &[".cursor/mcp.json"]);
    assert_eq!(
        std::fs::read_to_string(place.world.join(".mcp-servers/srv.mjs")).unwrap(),
        "console.log('server')\n"
    );
    assert!(
        std::fs::read_to_string(place.world.join(".cursor/mcp.json"))
            .unwrap()
            .contains(SECRET)
    );
    // The world's other entries stay open to it.
    let (code, out) = start(&mut rt, "cat", &["data/a.txt"]);
    assert_eq!((code, out.as_str()), (0, "one two three\n"));
}

/// Nothing a command starts outlives its call: not a process left in the background, nor
/// one that tries to leave the command's process group for a session or group of its own.
#[test]
fn nothing_a_command_starts_outlives_the_call() {
    let place = Place::new();
    let mut rt = place.granting(&["sh"]);
    let late = |name: &str| format!("sleep 1; echo late > data/{name}");
    let (code, out) = start(
        &mut rt,
        "sh",
        &[
            "-c",
            &format!(
                "setsid sh -c '{}' & (sh -c '{}' &); sleep 0.2; echo started",
                late("late-a.txt"),
                late("late-b.txt")
            ),
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("started"), "{out}");
    assert!(
        out.contains("Operation not permitted"),
        "setsid was allowed: {out}"
    );
    std::thread::sleep(Duration::from_millis(1500));
    for name in ["late-a.txt", "late-b.txt"] {
        assert!(
            !place.world.join("data").join(name).exists(),
            "a process outlived the call and wrote data/{name}: {out}"
        );
    }
}

/// Landlock rules contents, not metadata: no command changes a file's mode or owner,
/// wherever it is (the operator's `.codemode/`, beside the world, or its own files), while
/// setting times (`touch`) still works.
#[test]
fn a_command_changes_no_files_mode_or_owner() {
    use std::os::unix::fs::MetadataExt;
    let place = Place::new();
    let mut rt = place.granting(&["chmod", "chown", "touch"]);
    let files = [
        place.world.join(".codemode/mcp.json"),
        place.outside.join("secret.txt"),
        place.world.join("data/a.txt"),
    ];
    let seen = |p: &PathBuf| {
        let m = std::fs::metadata(p).unwrap();
        (m.mode(), m.uid(), m.gid())
    };
    let before: Vec<_> = files.iter().map(seen).collect();
    // SAFETY: getuid only reads.
    let me = unsafe { libc::getuid() }.to_string();
    // The change is answered as made, and nothing changes: tools that set modes as they
    // go (tar, cp -a, git) carry on.
    for file in &files {
        let path = file.to_str().unwrap();
        for (cmd, args) in [("chmod", ["0666", path]), ("chown", [me.as_str(), path])] {
            let (code, out) = start(&mut rt, cmd, &args);
            assert_eq!(code, 0, "{cmd} {path}: {out}");
        }
    }
    let after: Vec<_> = files.iter().map(seen).collect();
    assert_eq!(before, after);
    let (code, out) = start(&mut rt, "touch", &["data/a.txt", "data/new.txt"]);
    assert_eq!(code, 0, "{out}");
    assert!(place.world.join("data/new.txt").exists());
}

/// Tools change only through the engine's own writers, which keep the profile's rules:
/// a command reads a toolbox folder (wherever it is) but writes none, reads nothing of a
/// tool the profile denies, makes no folder when the profile turns `authoring` off, and
/// writes nothing at all when it turns `vfsWrite` off. The world's other files stay as
/// they were to it.
#[test]
fn a_command_reads_tools_but_writes_none_and_writes_nothing_without_vfs_write() {
    let place = Place::new();
    let source = |name: &str| {
        format!(
            "--!desc A tool.\n--!arg x string Anything.\n--!return string The same.\n\
             local function {name}(x: string): string\n\treturn x\nend\n\nreturn {name}\n"
        )
    };
    for rel in [
        "ops.toolbox/drop.tool",
        "ops.toolbox/read.tool",
        "lib/deep.toolbox/x.tool",
    ] {
        let name = rel.rsplit('/').next().unwrap().trim_end_matches(".tool");
        let dir = place.world.join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("init.luau"), source(name)).unwrap();
    }
    std::fs::write(place.world.join("lib/notes.txt"), "notes\n").unwrap();
    let runtime = |vfs_write: bool, authoring: bool| {
        let policy = format!(
            r#"{{ "profiles": {{ "default": {{ "default": "allow", "deny": ["ops.drop"],
                "capabilities": {{ "shell": ["sh"], "vfsWrite": {vfs_write},
                                   "authoring": {authoring} }} }} }} }}"#
        );
        let profile = crate::policy::parse(Path::new("policy.json"), &policy, None).unwrap();
        let registry = Registry::open(&place.world, &[], false)
            .unwrap()
            .with_profile(profile);
        Runtime::new(Arc::new(registry), Limits::default()).unwrap()
    };
    let sh = |rt: &mut Runtime, line: &str| start(rt, "sh", &["-c", line]);
    let mut rt = runtime(true, true);
    let (code, out) = sh(
        &mut rt,
        "cat ops.toolbox/read.tool/init.luau lib/deep.toolbox/x.tool/init.luau",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("local function read") && out.contains("local function x"),
        "{out}"
    );
    for line in [
        "echo forged >> ops.toolbox/read.tool/init.luau",
        "echo forged > lib/deep.toolbox/x.tool/init.luau",
        "mkdir ops.toolbox/new.tool",
        "rm -r ops.toolbox/read.tool",
        "mv lib/deep.toolbox lib/moved.toolbox",
        "cat ops.toolbox/drop.tool/init.luau",
        "echo forged > ops.toolbox/drop.tool/init.luau",
    ] {
        let (code, out) = sh(&mut rt, line);
        assert_ne!(code, 0, "{line} succeeded: {out}");
    }
    for (rel, name) in [
        ("ops.toolbox/read.tool", "read"),
        ("ops.toolbox/drop.tool", "drop"),
        ("lib/deep.toolbox/x.tool", "x"),
    ] {
        let now = std::fs::read_to_string(place.world.join(rel).join("init.luau")).unwrap();
        assert_eq!(now, source(name), "{rel} changed");
    }
    assert!(place.world.join("lib/deep.toolbox").is_dir());
    // The profile denies a tool: the command lists no folder above it (a listing right
    // covers the whole tree), makes no folder (it could be a toolbox adding or shadowing
    // a denied tool), and a toolbox made since the run began is read only all the same.
    for line in [
        "ls",
        "ls -R ops.toolbox",
        "find . -name '*.tool'",
        "mkdir -p data/ops.toolbox/drop.tool",
    ] {
        let (code, out) = sh(&mut rt, line);
        assert_ne!(code, 0, "{line} succeeded: {out}");
        assert!(!out.contains("drop.tool/"), "{line}: {out}");
    }
    let (code, out) = sh(&mut rt, "ls lib");
    assert_eq!((code, out.as_str()), (0, "deep.toolbox\nnotes.txt\n"));
    std::fs::create_dir_all(place.world.join("data/late.toolbox/late.tool")).unwrap();
    std::fs::write(
        place.world.join("data/late.toolbox/late.tool/init.luau"),
        source("late"),
    )
    .unwrap();
    let (code, out) = sh(
        &mut rt,
        "echo forged > data/late.toolbox/late.tool/init.luau",
    );
    assert_ne!(code, 0, "a toolbox made during the run was written: {out}");
    std::fs::remove_dir_all(place.world.join("data/late.toolbox")).unwrap();
    // The rest of the world: written as before, beside the toolbox folders too.
    let (code, out) = sh(&mut rt, "echo more >> lib/notes.txt && echo b > data/b.txt");
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(place.world.join("data/b.txt")).unwrap(),
        "b\n"
    );

    // authoring off: a tool is a folder, and commands make none (nor a symlink), so they
    // add no toolbox; files they still write.
    let mut rt = runtime(true, false);
    for line in [
        "mkdir -p data/new.toolbox/t.tool",
        "ln -s ../ops.toolbox data/copy.toolbox",
        "mkdir data/plain",
    ] {
        let (code, out) = sh(&mut rt, line);
        assert_ne!(code, 0, "{line} succeeded without authoring: {out}");
    }
    assert!(!place.world.join("data/new.toolbox").exists());
    let (code, out) = sh(&mut rt, "echo f > data/f.txt");
    assert_eq!(code, 0, "{out}");

    // vfsWrite off: every writer of the world is off, commands too.
    let mut rt = runtime(false, true);
    let (code, out) = sh(&mut rt, "cat data/a.txt lib/notes.txt");
    assert_eq!(code, 0, "{out}");
    for line in [
        "echo c > data/c.txt",
        "echo d >> data/a.txt",
        "rm data/b.txt",
        "echo e >> lib/notes.txt",
    ] {
        let (code, out) = sh(&mut rt, line);
        assert_ne!(code, 0, "{line} succeeded without vfsWrite: {out}");
    }
    assert!(!place.world.join("data/c.txt").exists());
    assert!(place.world.join("data/b.txt").exists());
    assert_eq!(
        std::fs::read_to_string(place.world.join("data/a.txt")).unwrap(),
        "one two three\n"
    );
}

/// Nothing a command does reaches another process by its id: `codemode`'s own limits,
/// priority, CPU set and I/O class stay as they were (here a process standing in for
/// it), while a command still sets its own.
#[test]
fn a_command_changes_no_other_processs_limits_or_priority() {
    let place = Place::new();
    let mut rt = place.granting(&["sh", "prlimit", "renice", "taskset", "ionice"]);
    let mut other = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let pid = other.id().to_string();
    let limits = || std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let before = limits();
    for (cmd, args) in [
        ("prlimit", vec!["--pid", pid.as_str(), "--nofile=3:3"]),
        ("renice", vec!["-n", "19", "-p", pid.as_str()]),
        ("taskset", vec!["-p", "1", pid.as_str()]),
        ("ionice", vec!["-c", "3", "-p", pid.as_str()]),
    ] {
        let (code, out) = start(&mut rt, cmd, &args);
        assert_ne!(code, 0, "{cmd} {args:?} succeeded: {out}");
    }
    assert_eq!(limits(), before);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let nice: i64 = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .nth(16)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(nice, 0, "{stat}");
    other.kill().unwrap();
    other.wait().unwrap();
    // Its own: allowed.
    let (code, out) = start(&mut rt, "sh", &["-c", "ulimit -n 64 && ulimit -n"]);
    assert_eq!((code, out.trim()), (0, "64"));
    let (code, out) = start(&mut rt, "sh", &["-c", "nice -n 5 sh -c 'echo niced'"]);
    assert_eq!((code, out.trim()), (0, "niced"));
}

/// A command makes no namespace of its own (a user namespace would give it every
/// capability inside), yet still starts programs.
#[test]
fn a_command_makes_no_namespace() {
    let place = Place::new();
    let mut rt = place.granting(&["unshare", "sh"]);
    for args in [["-U", "true"], ["-n", "true"]] {
        let (code, out) = start(&mut rt, "unshare", &args);
        assert_ne!(code, 0, "unshare {args:?}: {out}");
    }
    let (code, out) = start(&mut rt, "sh", &["-c", "echo a | sort | tr a b"]);
    assert_eq!((code, out.as_str()), (0, "b\n"));
}

/// Started by root, a command holds no capabilities: none to use, none an exec gives back.
#[test]
fn a_command_holds_no_capabilities() {
    let place = Place::new();
    let mut rt = place.granting(&["grep"]);
    let (code, out) = start(
        &mut rt,
        "grep",
        &["-E", "^Cap(Inh|Prm|Eff|Bnd|Amb)", "/proc/self/status"],
    );
    assert_eq!(code, 0, "{out}");
    for line in out.lines() {
        assert!(line.ends_with("0000000000000000"), "{out}");
    }
    assert_eq!(out.lines().count(), 5, "{out}");
}

/// A command is held to the run's memory limit and write budget, each process it starts
/// too: it cannot take the machine's memory from codemode, or fill its disk.
#[test]
fn a_command_is_held_to_the_runs_memory_and_write_limits() {
    let place = Place::new();
    let mut rt = place.granting(&["python3", "sh"]);
    let allocate = |mib: usize| format!("b = bytearray({mib} * 1024 * 1024); print(len(b))");
    let (code, out) = start(&mut rt, "python3", &["-c", &allocate(512)]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("MemoryError"), "{out}");
    let (code, out) = start(&mut rt, "python3", &["-c", &allocate(16)]);
    assert_eq!((code, out.trim()), (0, "16777216"));
    let (code, out) = start(
        &mut rt,
        "sh",
        &["-c", "head -c 70000000 /dev/zero > data/big"],
    );
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("File too large"), "{out}");
    let size = std::fs::metadata(place.world.join("data/big"))
        .unwrap()
        .len();
    assert_eq!(size, Limits::default().max_write_bytes as u64);
}

/// Ordinary tools that set modes and owners as they go work inside the walls: `git init`,
/// `cp -a`, `tar` keeping owners.
#[test]
fn tools_that_set_modes_as_they_go_still_work() {
    let place = Place::new();
    let mut rt = place.granting(&["sh"]);
    let line = "cd data && git init -q repo && cp -a a.txt copy.txt \
                && mkdir t && echo x > t/f && tar cf t.tar t && rm -r t && tar xpf t.tar \
                && cat t/f copy.txt";
    let (code, out) = start(&mut rt, "sh", &["-c", line]);
    assert_eq!((code, out.as_str()), (0, "x\none two three\n"));
    assert!(place.world.join("data/repo/.git/config").is_file());
}

/// A descriptor left open by whoever started codemode (a shell's `9<file`) does not reach
/// a command: it would read or write past every wall.
#[test]
fn a_command_gets_no_descriptor_it_was_not_given() {
    let place = Place::new();
    let mut rt = place.granting(&["sh"]);
    let secret = place.outside.join("secret.txt");
    let path = std::ffi::CString::new(secret.to_str().unwrap()).unwrap();
    // SAFETY: opens a file without O_CLOEXEC, as a parent shell's redirection would.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY) };
    assert!(fd > 2);
    let (code, out) = start(&mut rt, "sh", &["-c", &format!("cat <&{fd}")]);
    // SAFETY: closes the descriptor opened above.
    unsafe { libc::close(fd) };
    assert_ne!(code, 0, "{out}");
    assert!(!out.contains(SECRET), "{out}");
}

#[test]
fn a_command_signals_nothing_outside_its_own_walls() {
    let place = Place::new();
    let mut rt = place.granting(&["kill"]);
    let me = std::process::id().to_string();
    assert_refused(&mut rt, "kill", &["-0", &me]);
}

/// Whether a connection reached `listener` within a second.
fn connected(listener: &TcpListener) -> bool {
    listener.set_nonblocking(true).unwrap();
    let until = Instant::now() + Duration::from_secs(1);
    while Instant::now() < until {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut buf = Vec::new();
            stream.set_nonblocking(false).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(1)))
                .unwrap();
            let _ = stream.read_to_end(&mut buf);
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn tcp_is_refused_unless_the_profile_grants_commands_the_network() {
    let place = Place::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo hi >&3");
    let mut rt = place.granting(&["bash"]);
    assert_refused(&mut rt, "bash", &["-c", &connect]);
    assert!(!connected(&listener), "a connection got through");

    let mut rt = place.runtime(Capabilities {
        shell: vec!["bash".into()],
        shell_network: true,
        ..Capabilities::default()
    });
    let (code, out) = start(&mut rt, "bash", &["-c", &connect]);
    assert_eq!(code, 0, "{out}");
    assert!(connected(&listener));
}

/// The path of a program, for the grant by absolute path.
fn which(name: &str) -> PathBuf {
    ["/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
        .unwrap()
}

#[test]
fn a_program_granted_by_path_is_confined_too() {
    let place = Place::new();
    let wc = which("wc");
    let mut rt = place.granting(&[wc.to_str().unwrap()]);
    assert_refused(
        &mut rt,
        wc.to_str().unwrap(),
        &["--files0-from=.codemode/mcp.json"],
    );
}

#[test]
fn udp_and_unix_sockets_are_refused_without_the_network() {
    let place = Place::new();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let port = udp.local_addr().unwrap().port();
    let send = format!("echo leaked > /dev/udp/127.0.0.1/{port}");
    let mut rt = place.granting(&["bash", "curl"]);
    assert_refused(&mut rt, "bash", &["-c", &send]);
    let mut buf = [0u8; 64];
    assert!(udp.recv(&mut buf).is_err(), "a datagram got through");

    // A daemon's socket, reached by its path (outside the world).
    let path = place.outside.join("daemon.sock");
    let daemon = std::os::unix::net::UnixListener::bind(&path).unwrap();
    daemon.set_nonblocking(true).unwrap();
    let socket = path.to_str().unwrap();
    let (code, out) = start(
        &mut rt,
        "curl",
        &["-sS", "--unix-socket", socket, "http://x/"],
    );
    assert_ne!(code, 0, "{out}");
    assert!(daemon.accept().is_err(), "curl reached the daemon: {out}");

    // Granted the network, the command has it.
    let mut rt = place.runtime(Capabilities {
        shell: vec!["bash".into()],
        shell_network: true,
        ..Capabilities::default()
    });
    let (code, out) = start(&mut rt, "bash", &["-c", &send]);
    assert_eq!(code, 0, "{out}");
    let n = udp.recv(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"leaked\n");
    // The network is the internet's: a local daemon's socket stays closed (as would the
    // type checker's that codemode keeps running).
    let mut rt = place.runtime(Capabilities {
        shell: vec!["curl".into()],
        shell_network: true,
        ..Capabilities::default()
    });
    let (code, out) = start(
        &mut rt,
        "curl",
        &["-sS", "--unix-socket", socket, "http://x/"],
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        daemon.accept().is_err(),
        "curl reached the daemon with the network: {out}"
    );
}
