//! The `shell` capability end to end: only listed commands start, arguments stay literal,
//! the working folder stays in the world, the environment is clean, output is capped, and
//! the whole process group dies at the time limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::World;
use crate::policy::Capabilities;
use crate::registry::Registry;
use crate::{Envelope, ErrorKind, Limits, Output, Runtime};

fn runtime_granting(world: &World, commands: &[&str], limits: Limits) -> Runtime {
    let registry = Registry::open(world.path(), &[], false)
        .unwrap()
        .with_capabilities(Capabilities {
            shell: commands.iter().map(|c| c.to_string()).collect(),
            ..Capabilities::default()
        });
    Runtime::new(Arc::new(registry), limits).unwrap()
}

fn run(rt: &mut Runtime, script: &str) -> Envelope {
    rt.exec(script, Output::Capture)
}

fn message(envelope: &Envelope) -> String {
    envelope
        .error
        .as_ref()
        .unwrap_or_else(|| panic!("expected an error: {}", envelope.to_json()))
        .message
        .clone()
}

fn value(envelope: &Envelope) -> serde_json::Value {
    assert!(envelope.ok, "{}", envelope.to_json());
    envelope.value.clone().unwrap()
}

/// Whether `pid` is gone (or a zombie no one has reaped yet: it runs nothing).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn only_listed_commands_start() {
    let world = World::new();
    let mut rt = runtime_granting(&world, &["echo"], Limits::default());
    for (cmd, says) in [
        ("cat", "it is not an allowed command (allowed: echo)"),
        ("/bin/echo", "it is not an allowed command"),
        ("sh", "it is not an allowed command"),
    ] {
        let got = run(
            &mut rt,
            &format!("return shell.run({{ cmd = '{cmd}', args = {{ '/etc/hostname' }} }})"),
        );
        let text = message(&got);
        assert!(text.contains(says), "{cmd}: {text}");
        let kind = got.error.as_ref().map(|e| e.kind);
        assert_eq!(kind, Some(crate::ErrorKind::Denied), "{cmd}: {text}");
        assert!(
            text.contains(&format!(
                "add \"{cmd}\" to capabilities.shell of the profile in .codemode/policy.json"
            )),
            "{text}"
        );
    }
    let got = run(
        &mut rt,
        "return shell.run({ cmd = 'echo', args = { 'hi', 42 } })",
    );
    assert_eq!(
        value(&got),
        serde_json::json!({ "code": 0, "stdout": "hi 42\n", "stderr": "", "truncated": false })
    );
}

#[test]
fn arguments_stay_literal_with_no_shell_in_between() {
    let world = World::new();
    let mut rt = runtime_granting(&world, &["echo", "sh", "cat"], Limits::default());
    let got = run(
        &mut rt,
        "return shell.run({ cmd = 'echo', args = { 'a; touch pwned', '$(touch pwned)', '`touch pwned`', '&&', 'touch', 'pwned', '|', '*' } })",
    );
    assert_eq!(
        value(&got)["stdout"],
        "a; touch pwned $(touch pwned) `touch pwned` && touch pwned | *\n"
    );
    assert!(!world.path().join("pwned").exists());
    let got = run(&mut rt, "return shell.run({ cmd = 'echo', args = { {} } })");
    assert!(
        message(&got).contains("args[1] must be a string"),
        "{}",
        got.to_json()
    );
    // stdin reaches the command; exit codes come back as they are.
    let got = run(
        &mut rt,
        "local c = shell.run({ cmd = 'cat', stdin = 'from stdin' })\n\
         local s = shell.run({ cmd = 'sh', args = { '-c', 'echo oops >&2; exit 3' } })\n\
         return { c.stdout, s.code, s.stderr }",
    );
    assert_eq!(value(&got), serde_json::json!(["from stdin", 3, "oops\n"]));
}

#[test]
fn the_working_folder_stays_in_the_world() {
    let world = World::new();
    world
        .file("sub/inner/file.txt", "x")
        .file(".codemode/secret", "s");
    std::os::unix::fs::symlink("/tmp", world.path().join("out")).unwrap();
    let mut rt = runtime_granting(&world, &["pwd", "ls"], Limits::default());
    let got = run(&mut rt, "return { shell.run({ cmd = 'pwd' }).stdout, shell.run({ cmd = 'ls', cwd = 'sub/inner' }).stdout }");
    let real = world.path().canonicalize().unwrap();
    assert_eq!(
        value(&got),
        serde_json::json!([format!("{}\n", real.display()), "file.txt\n"])
    );
    for cwd in [
        "..",
        "/tmp",
        "sub/../..",
        "out",
        ".codemode",
        "sub/inner/file.txt",
        "missing",
    ] {
        let got = run(
            &mut rt,
            &format!("return shell.run({{ cmd = 'ls', cwd = '{cwd}' }})"),
        );
        let text = message(&got);
        assert!(
            text.starts_with("shell.run: the working folder"),
            "{cwd}: {text}"
        );
    }
}

#[test]
fn the_environment_is_clean() {
    std::env::set_var("CODEMODE_TEST_SHELL_SECRET", "do-not-pass");
    let world = World::new();
    let mut rt = runtime_granting(&world, &["env"], Limits::default());
    let got = run(&mut rt, "return shell.run({ cmd = 'env' }).stdout");
    let out = value(&got).as_str().unwrap().to_string();
    let mut names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once('=').map(|(n, _)| n))
        .collect();
    names.sort();
    assert_eq!(names, ["HOME", "LANG", "PATH", "TERM"], "{out}");
    assert!(
        out.contains(&format!("PATH={}\n", crate::shell::FIXED_PATH)),
        "{out}"
    );
    assert!(!out.contains("do-not-pass"));
}

#[test]
fn output_is_capped_and_says_so() {
    let world = World::new();
    let limits = Limits {
        max_output_bytes: 4096,
        ..Limits::default()
    };
    let mut rt = runtime_granting(&world, &["head"], limits);
    let got = run(
        &mut rt,
        "local r = shell.run({ cmd = 'head', args = { '-c', '1000000', '/dev/zero' } })\n\
         return { #r.stdout, r.truncated, r.note, r.code }",
    );
    let v = value(&got);
    assert_eq!(v[0], 4096);
    assert_eq!(v[1], true);
    assert!(
        v[2].as_str().unwrap().contains("stdout cut at 4096 bytes"),
        "{v}"
    );
    assert_eq!(
        v[3], 0,
        "the whole output was read (and dropped past the cap)"
    );
}

#[test]
fn a_timeout_kills_the_whole_process_group() {
    let world = World::new();
    // A command creates files in a folder of the world, not at its top.
    world.file("run/.keep", "");
    let mut rt = runtime_granting(&world, &["sh", "sleep"], Limits::default());
    let started = Instant::now();
    let got = run(
        &mut rt,
        "return shell.run({ cmd = 'sh', args = { '-c', 'sleep 30 & echo $! > run/bg.pid; sleep 30' }, timeoutMs = 300 })",
    );
    let text = message(&got);
    assert!(
        text.contains(
            "ran longer than its timeoutMs of 300 ms and was killed with its process group"
        ),
        "{text}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let pid: u32 = std::fs::read_to_string(world.path().join("run/bg.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(2);
    while !gone(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        gone(pid),
        "the background sleep {pid} outlived its group's kill"
    );

    // Without timeoutMs, the run's deadline kills it, and the envelope says timeout.
    let short = Limits {
        timeout: Duration::from_millis(400),
        ..Limits::default()
    };
    let mut rt = runtime_granting(&world, &["sleep"], short);
    let started = Instant::now();
    let got = run(
        &mut rt,
        "return shell.run({ cmd = 'sleep', args = { '30' } })",
    );
    assert_eq!(
        got.error.as_ref().map(|e| e.kind),
        Some(ErrorKind::Timeout),
        "{}",
        got.to_json()
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn shell_is_absent_and_undeclared_unless_granted() {
    let world = World::new();
    let mut rt = runtime_granting(&world, &[], Limits::default());
    assert_eq!(
        run(&mut rt, "return shell == nil").value,
        Some(serde_json::json!(true))
    );
    let registry = Registry::open(world.path(), &[], false).unwrap();
    let granted = Capabilities {
        shell: vec!["git".into()],
        ..Capabilities::default()
    };
    let text = crate::host::definitions_granted(&registry.snapshot(), &[], &granted);
    assert!(text.contains("declare shell:") && !text.contains("declare http"));
}

/// A world of `secret.hidden` and `secret.open` whose profile denies the first and grants
/// `ls`: the runtime of that profile.
fn runtime_denying_a_tool(world: &World) -> Runtime {
    for name in ["hidden", "open"] {
        world.tool(
            &format!("secret.{name}"),
            &format!(
                "--!desc A tool.\n--!arg x string Anything.\n--!return string Tagged.\n\
                 local function {name}(x: string): string\n\treturn x\nend\n\nreturn {name}\n"
            ),
        );
    }
    let policy = r#"{ "profiles": { "default": { "default": "allow", "deny": ["secret.hidden"],
        "capabilities": { "shell": ["ls"] } } } }"#;
    let profile = crate::policy::parse(std::path::Path::new("policy.json"), policy, None).unwrap();
    let registry = Registry::open(world.path(), &[], false)
        .unwrap()
        .with_profile(profile);
    Runtime::new(Arc::new(registry), Limits::default()).unwrap()
}

#[test]
fn the_folder_of_a_denied_tool_is_missing_to_shell_as_to_vfs() {
    let world = World::new();
    let mut rt = runtime_denying_a_tool(&world);
    std::os::unix::fs::symlink(
        world.path().join("secret.toolbox/hidden.tool"),
        world.path().join("link"),
    )
    .unwrap();
    let listed = run(
        &mut rt,
        "return shell.run({ cmd = 'ls', cwd = 'secret.toolbox/open.tool' }).stdout",
    );
    assert_eq!(value(&listed), "init.luau\n");
    for cwd in [
        "secret.toolbox/hidden.tool",
        "secret.toolbox//hidden.tool/",
        "./secret.toolbox/./hidden.tool",
        "link",
    ] {
        let got = run(
            &mut rt,
            &format!(
                "local ok, e = pcall(vfs.list, '{cwd}')\nassert(not ok)\nlocal r = shell.run({{ cmd = 'ls', cwd = '{cwd}' }})\nreturn r"
            ),
        );
        let text = message(&got);
        assert!(
            text.starts_with("shell.run: the working folder") && text.contains("does not exist"),
            "{cwd}: {text}"
        );
        assert!(!text.contains("init.luau"), "{cwd}: {text}");
    }
}

#[test]
fn a_refused_command_suggests_only_a_grant_the_policy_file_takes() {
    let world = World::new();
    let mut rt = runtime_granting(&world, &["ls"], Limits::default());
    let grant = |entry: &str| {
        let policy = serde_json::json!({ "profiles": { "default": { "default": "allow",
            "capabilities": { "shell": [entry] } } } })
        .to_string();
        crate::policy::parse(std::path::Path::new("policy.json"), &policy, None)
    };
    for cmd in ["./echo", "echo ", "echo hi", "bin/echo"] {
        let text = message(&run(
            &mut rt,
            &format!("return shell.run({{ cmd = '{cmd}' }})"),
        ));
        assert!(
            text.contains("no grant can name it") && !text.contains("add \""),
            "{cmd}: {text}"
        );
        assert!(grant(cmd).is_err(), "{cmd} is taken by the policy file");
    }
    for cmd in ["cat", "/bin/cat"] {
        let got = run(&mut rt, &format!("return shell.run({{ cmd = '{cmd}' }})"));
        assert_eq!(got.error.as_ref().unwrap().kind, ErrorKind::Denied);
        let text = message(&got);
        assert!(
            text.contains(&format!("add \"{cmd}\" to capabilities.shell")),
            "{cmd}: {text}"
        );
        // What it suggests is what the file takes.
        assert_eq!(grant(cmd).unwrap().capabilities.shell, [cmd]);
    }
}
