//! The resident checker one-shot runs share (`engine/checker/resident.rs`): the first
//! `codemode exec` starts it, later ones connect to it instead of starting a checker of
//! their own, and each still gets the verdict a checker of its own gives. A script that
//! hangs its checker reaches only its own run; a resident that died is replaced; a socket
//! folder others may enter is never used.
//!
//! Each test has its own `XDG_RUNTIME_DIR`, so its own resident, stopped when it ends.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{command, output, text, World};
use serde_json::Value;

/// A script with a certain mistake: a field its tool's result lacks.
const WRONG: &str = "local counts = tools.text.wordCount('a b')\nreturn counts.wrods\n";

/// A type function that never returns: the solver runs it while checking.
const HANGS: &str = "local _ = tools\ntype function loop(t)\n  while true do end\n  return t\nend\ntype X = loop<number>\nreturn 'ran'\n";

/// A runtime folder of one test, whose resident is stopped when it is dropped.
struct Runtime {
    dir: tempfile::TempDir,
    world: World,
}

impl Runtime {
    fn new() -> Runtime {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        Runtime {
            dir,
            world: World::new(),
        }
    }

    /// A runtime whose resident one run started, with the resident's process id.
    fn serving() -> (Runtime, u32) {
        let runtime = Runtime::new();
        runtime.exec(&[], "return tools.text.slugify('x')");
        let pid = runtime.wait_for_resident(None);
        (runtime, pid)
    }

    fn sockets(&self) -> PathBuf {
        self.dir.path().join("codemode")
    }

    /// The resident's socket (once one serves).
    fn socket(&self) -> PathBuf {
        std::fs::read_dir(self.sockets())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "sock"))
            .expect("a resident's socket")
    }

    /// `codemode exec` of `script` with `args` first: the envelope and what it logged.
    fn exec(&self, args: &[&str], script: &str) -> (Value, String) {
        let out = output(
            command()
                .env("XDG_RUNTIME_DIR", self.dir.path())
                .env("SOME_API_TOKEN", "secret-value")
                .env("CODEMODE_LOG", "codemode=debug")
                .arg("--world")
                .arg(self.world.path())
                .args(args)
                .arg("exec"),
            script,
        );
        let envelope = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&out.stdout)));
        (envelope, text(&out.stderr))
    }

    /// The resident's process id, once it serves (its lock file names it).
    fn resident(&self) -> Option<u32> {
        let folder = std::fs::read_dir(self.sockets()).ok()?;
        let mut socket = false;
        let mut pid = None;
        for entry in folder.flatten() {
            let path = entry.path();
            match path.extension().and_then(|e| e.to_str()) {
                Some("sock") => socket = true,
                Some("lock") => pid = read_pid(&path),
                _ => {}
            }
        }
        pid.filter(|pid| socket && alive(*pid))
    }

    /// Waits for a resident other than `not` to serve.
    fn wait_for_resident(&self, not: Option<u32>) -> u32 {
        let started = Instant::now();
        loop {
            if let Some(pid) = self.resident().filter(|pid| Some(*pid) != not) {
                return pid;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "no resident checker in {}",
                self.sockets().display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(pid) = self.resident() {
            kill(pid);
        }
    }
}

fn read_pid(lock: &Path) -> Option<u32> {
    std::fs::read_to_string(lock).ok()?.trim().parse().ok()
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
}

fn kill(pid: u32) {
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
}

fn refused(envelope: &Value) -> bool {
    envelope["ok"] == false
        && envelope["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("wrods"))
        && envelope["error"]["hint"]
            .as_str()
            .is_some_and(|h| h.contains("nothing took effect"))
}

#[test]
fn one_shot_runs_after_the_first_ask_the_resident_checker() {
    let runtime = Runtime::new();
    let (first, said) = runtime.exec(&[], "return tools.text.slugify('Hello World')");
    assert_eq!(first["value"], "hello-world", "{first}");
    assert!(said.contains("started the resident type checker"), "{said}");
    let pid = runtime.wait_for_resident(None);
    // It holds nothing of the run that started it: an environment may hold credentials.
    let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap();
    let names: Vec<String> = environ
        .split(|b| *b == 0)
        .filter(|v| !v.is_empty())
        .map(|v| {
            String::from_utf8_lossy(v)
                .split('=')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(names, ["CODEMODE_CHECK_RESIDENT"]);

    let (wrong, said) = runtime.exec(&[], WRONG);
    assert!(refused(&wrong), "{wrong}");
    assert!(said.contains("asked the resident type checker"), "{said}");
    let (right, said) = runtime.exec(&[], "return tools.text.wordCount('a b').words");
    assert_eq!(right["value"], 2, "{right}");
    assert!(said.contains("asked the resident type checker"), "{said}");
    assert_eq!(
        runtime.resident(),
        Some(pid),
        "one resident serves them all"
    );
}

/// The resident's children: once it is idle, the warm child forked ahead for the last
/// declarations.
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .filter(|p| alive(*p))
        .collect()
}

/// The warm child the resident forked ahead (other than `not`). A child that served a
/// run just ended may still be closing: a warm child is one still there a moment later.
fn wait_for_child(resident: u32, not: Option<u32>) -> u32 {
    let started = Instant::now();
    loop {
        if let Some(child) = children(resident).into_iter().find(|c| Some(*c) != not) {
            std::thread::sleep(Duration::from_millis(100));
            if alive(child) {
                return child;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the resident forked no warm child"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_child_forked_ahead_answers_the_next_run_of_the_same_declarations() {
    let (runtime, pid) = Runtime::serving();
    // Another connection of the same declarations, so a child is forked ahead for them.
    runtime.exec(&[], "return tools.text.slugify('y')");
    let warm = wait_for_child(pid, None);
    let (wrong, said) = runtime.exec(&[], WRONG);
    assert!(refused(&wrong), "{wrong}");
    assert!(said.contains("asked the resident type checker"), "{said}");
    // That child served the run and ended with it; another is forked for the next.
    let started = Instant::now();
    while alive(warm) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the warm child {warm} did not serve the run"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let next = wait_for_child(pid, Some(warm));
    // It holds no other client's connection nor the listening socket: only its channel
    // to the resident and what the standard streams are. (Seen at once after the fork it
    // may still hold both ends of the channel and what it inherited, which it closes
    // first thing.)
    let sockets = || {
        std::fs::read_dir(format!("/proc/{next}/fd"))
            .unwrap()
            .flatten()
            .filter(|fd| {
                std::fs::read_link(fd.path())
                    .is_ok_and(|target| target.to_string_lossy().starts_with("socket:"))
            })
            .count()
    };
    let started = Instant::now();
    while sockets() != 1 && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(sockets(), 1, "the warm child holds one socket, its channel");
    // A script of other declarations is checked by a child forked for it, as before.
    let other = "local s = tools.json.stringify({})\nlocal counts = tools.text.wordCount(s)\nreturn counts.wrods\n";
    let (wrong, _) = runtime.exec(&[], other);
    assert!(refused(&wrong), "{wrong}");
    let (right, _) = runtime.exec(&[], "return tools.text.wordCount('a b c').words");
    assert_eq!(right["value"], 3, "{right}");
}

/// A client that sends its checks right behind its declarations (what it sent past the
/// first line cannot all pass to a warm child in one message) gets every reply, whole.
#[test]
fn requests_sent_behind_the_first_get_their_replies_whether_a_warm_child_serves_or_not() {
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::net::UnixStream;
    let (runtime, pid) = Runtime::serving();
    let socket = runtime.socket();
    let defs = serde_json::json!({"defs": "declare function double(n: number): number", "key": 7})
        .to_string();
    let ask = |requests: &[String]| -> Vec<Value> {
        let mut stream = UnixStream::connect(&socket).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.write_all(requests.join("\n").as_bytes()).unwrap();
        stream.write_all(b"\n").unwrap();
        let mut lines = BufReader::new(stream).lines();
        (0..requests.len())
            .map(|_| serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap())
            .collect()
    };
    assert_eq!(ask(std::slice::from_ref(&defs))[0]["ok"], true);
    let warm = wait_for_child(pid, None);
    let long = format!("return double(1) --{}", "a".repeat(50_000));
    let check = |source: &str| serde_json::json!({"check": source, "key": 7}).to_string();
    let replies = ask(&[defs.clone(), check(&long), check("return double('x')")]);
    assert_eq!(replies[0]["ok"], true, "{replies:?}");
    assert_eq!(replies[1]["ok"], true, "{replies:?}");
    assert_eq!(
        replies[1]["diagnostics"],
        serde_json::json!([]),
        "{replies:?}"
    );
    assert_eq!(replies[2]["ok"], true, "{replies:?}");
    assert!(
        replies[2]["diagnostics"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "{replies:?}"
    );
    // Another warm child is forked for the next client, which sends nothing more.
    let next = wait_for_child(pid, Some(warm));
    let replies = ask(&[defs, check("return double(2)")]);
    assert_eq!(
        replies[1]["diagnostics"],
        serde_json::json!([]),
        "{replies:?}"
    );
    assert!(next != warm);
}

#[test]
fn a_script_that_hangs_the_checker_reaches_only_its_own_run() {
    let (runtime, pid) = Runtime::serving();
    let hanging = {
        let runtime_dir = runtime.dir.path().to_path_buf();
        let world = runtime.world.path().to_path_buf();
        std::thread::spawn(move || {
            let out = output(
                command()
                    .env("XDG_RUNTIME_DIR", runtime_dir)
                    .arg("--world")
                    .arg(world)
                    .args(["--check-timeout-ms", "300", "exec"]),
                HANGS,
            );
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        })
    };
    // Other runs meanwhile are checked as ever.
    let others: Vec<_> = (0..4).map(|_| runtime.exec(&[], WRONG)).collect();
    for (envelope, said) in &others {
        assert!(refused(envelope), "{envelope}");
        assert!(said.contains("asked the resident type checker"), "{said}");
    }
    let hung = hanging.join().unwrap();
    assert_eq!(hung["value"], "ran", "{hung}");
    assert_eq!(
        runtime.resident(),
        Some(pid),
        "the resident outlives the hang"
    );
    let (after, _) = runtime.exec(&[], WRONG);
    assert!(refused(&after), "{after}");
}

#[test]
fn a_resident_that_died_is_replaced() {
    let runtime = Runtime::new();
    runtime.exec(&[], "return 1 + #tools.list()");
    let first = runtime.wait_for_resident(None);
    kill(first);
    // Its socket file is left behind: a run finds nobody there, checks with a checker of
    // its own, and starts another resident.
    let (wrong, said) = runtime.exec(&[], WRONG);
    assert!(refused(&wrong), "{wrong}");
    assert!(said.contains("started the resident type checker"), "{said}");
    let second = runtime.wait_for_resident(Some(first));
    let (again, said) = runtime.exec(&[], WRONG);
    assert!(refused(&again), "{again}");
    assert!(said.contains("asked the resident type checker"), "{said}");
    assert_eq!(runtime.resident(), Some(second));
}

#[test]
fn a_socket_folder_others_may_enter_is_not_used() {
    let runtime = Runtime::new();
    std::fs::create_dir(runtime.sockets()).unwrap();
    std::fs::set_permissions(runtime.sockets(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for _ in 0..2 {
        let (wrong, said) = runtime.exec(&[], WRONG);
        assert!(refused(&wrong), "{wrong}");
        assert!(!said.contains("resident"), "{said}");
    }
    let left: Vec<_> = std::fs::read_dir(runtime.sockets())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_client_that_says_nothing_holds_no_one_else_up() {
    let (runtime, pid) = Runtime::serving();
    let socket = runtime.socket();
    // Connected, silent, and kept open past the runs below.
    let silent: Vec<_> = (0..3)
        .map(|_| std::os::unix::net::UnixStream::connect(&socket).unwrap())
        .collect();
    let (wrong, said) = runtime.exec(&[], WRONG);
    assert!(refused(&wrong), "{wrong}");
    assert!(said.contains("asked the resident type checker"), "{said}");
    assert_eq!(runtime.resident(), Some(pid));
    drop(silent);
}

/// A client may ask the resident for declarations by the name it gave them when it sent
/// them; the warm child holding them answers as it answered that load. A name it does not
/// hold is said to be unknown, and the same connection then sends the declarations.
#[test]
fn declarations_are_handed_out_by_the_name_they_were_sent_under() {
    use sha2::{Digest, Sha256};
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::net::UnixStream;
    let (runtime, _) = Runtime::serving();
    let socket = runtime.socket();
    let text = "declare function double(n: number): number";
    let defs = serde_json::json!({"defs": text, "key": 7, "named": "doubles"}).to_string();
    let check = |source: &str| serde_json::json!({"check": source, "key": 7}).to_string();
    let connect = || {
        let stream = UnixStream::connect(&socket).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let lines = BufReader::new(stream.try_clone().unwrap()).lines();
        (stream, lines)
    };
    let ask = |stream: &mut UnixStream,
               lines: &mut std::io::Lines<BufReader<UnixStream>>,
               line: &str|
     -> Value {
        stream.write_all(format!("{line}\n").as_bytes()).unwrap();
        serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()
    };
    let digest: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();

    let (mut stream, mut lines) = connect();
    let loaded = ask(&mut stream, &mut lines, &defs);
    assert_eq!(loaded["ok"], true, "{loaded}");
    assert_eq!(loaded["key"], 7, "{loaded}");
    assert_eq!(loaded["len"], text.len(), "{loaded}");
    assert_eq!(loaded["digest"], digest.as_str(), "{loaded}");
    drop((stream, lines));

    // By name: the warm child answers, and checks against what it holds. (Until the warm
    // child is forked, the name is not held: the child seen may be the one that served the
    // load, still closing.)
    let by_name = || {
        let started = Instant::now();
        loop {
            let (mut stream, mut lines) = connect();
            let held = ask(&mut stream, &mut lines, r#"{"named":"doubles"}"#);
            if held["ok"] == true {
                assert_eq!(held, loaded, "the reply to the load it holds");
                return (stream, lines);
            }
            assert_eq!(held["unnamed"], true, "{held}");
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no warm child holds the declarations by name"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let (mut stream, mut lines) = by_name();
    let wrong = ask(&mut stream, &mut lines, &check("return double('x')"));
    assert!(
        wrong["diagnostics"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "{wrong}"
    );
    drop((stream, lines));
    // Another is forked for the next client of the same name.
    let (mut stream, mut lines) = by_name();
    let fine = ask(&mut stream, &mut lines, &check("return double(2)"));
    assert_eq!(fine["diagnostics"], serde_json::json!([]), "{fine}");
    drop((stream, lines));

    // A name it does not hold: told so, then the declarations on the same connection.
    let (mut stream, mut lines) = connect();
    let unknown = ask(&mut stream, &mut lines, r#"{"named":"triples"}"#);
    assert_eq!(unknown["ok"], false, "{unknown}");
    assert_eq!(unknown["unnamed"], true, "{unknown}");
    let other = serde_json::json!({"defs": "declare function triple(n: number): number", "key": 8, "named": "triples"}).to_string();
    assert_eq!(ask(&mut stream, &mut lines, &other)["ok"], true);
    let fine = ask(
        &mut stream,
        &mut lines,
        &serde_json::json!({"check": "return triple(1)", "key": 8}).to_string(),
    );
    assert_eq!(fine["diagnostics"], serde_json::json!([]), "{fine}");
}

/// A one-shot run asks the resident for the declarations by what they are built from; a
/// tool edited since is another name, so the run is checked against what the tool is now.
#[test]
fn a_run_after_a_tool_changed_is_checked_against_the_tool_as_it_is() {
    let runtime = Runtime::new();
    // Replies are kept on disk too: the one kept for the old tool must not be read.
    std::fs::create_dir(runtime.world.path().join(".codemode")).unwrap();
    runtime.world.tool(
        "mine.greet",
        "--!desc Greets.\nlocal function greet(name: string): string\n\treturn 'hi ' .. name\nend\nreturn greet\n",
    );
    let (first, _) = runtime.exec(&[], "return tools.mine.greet('a')");
    assert_eq!(first["value"], "hi a", "{first}");
    let pid = runtime.wait_for_resident(None);
    // The first run to ask the resident sends the declarations, under their name.
    let (sent, said) = runtime.exec(&[], "return tools.mine.greet('z')");
    assert_eq!(sent["value"], "hi z", "{sent}");
    assert!(said.contains("by name: it did not"), "{said}");
    wait_for_child(pid, None);
    let (again, said) = runtime.exec(&[], "return tools.mine.greet('b')");
    assert_eq!(again["value"], "hi b", "{again}");
    assert!(
        said.contains("for the declarations by name: it held them"),
        "the second run names the declarations the first sent: {said}"
    );
    // The tool now takes two arguments: the same call is certain to fail.
    runtime.world.tool(
        "mine.greet",
        "--!desc Greets.\nlocal function greet(name: string, times: number): string\n\treturn string.rep('hi ' .. name, times)\nend\nreturn greet\n",
    );
    let (edited, said) = runtime.exec(&[], "return tools.mine.greet('b')");
    assert!(
        said.contains("for the declarations by name: it did not"),
        "an edited tool is another name: {said}"
    );
    assert_eq!(edited["ok"], false, "{edited}");
    assert_eq!(edited["error"]["kind"], "type", "{edited}");
}

/// A resident that takes a connection and never answers (stopped, or stuck in a load)
/// costs a run one wait for its answer, then the run goes on unchecked and says why.
#[test]
fn a_resident_that_does_not_answer_costs_a_run_one_wait() {
    let (runtime, pid) = Runtime::serving();
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(pid as i32, libc::SIGSTOP) };
    let started = Instant::now();
    let (ran, _) = runtime.exec(&[], "return tools.text.slugify('Hello There')");
    let took = started.elapsed();
    // SAFETY: as above.
    unsafe { libc::kill(pid as i32, libc::SIGCONT) };
    assert_eq!(ran["value"], "hello-there", "{ran}");
    let notes = ran["diagnostics"].to_string();
    assert!(notes.contains("ran unchecked"), "{ran}");
    // One wait (3 s for the answer), not one for the name and another for the text.
    assert!(
        took < Duration::from_millis(5500),
        "the run waited {took:?}"
    );
}
