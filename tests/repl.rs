//! `codemode repl` fed through a pipe: one entry per line, as a script would drive it.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

fn repl_in(world: &Path, input: &str) -> Output {
    common::output(
        common::command()
            .args(["--no-bundled", "--world"])
            .arg(world)
            .arg("repl")
            .env("CODEMODE_HISTORY", world.join(".history")),
        input,
    )
}

fn repl(input: &str) -> (String, String, Option<i32>) {
    let world = tempfile::tempdir().unwrap();
    let out = repl_in(world.path(), input);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn expressions_print_their_value() {
    let (out, err, code) = repl("1 + 1\n\"a\" .. \"b\"\n{ x = 1, y = { true } }\n");
    assert_eq!(out, "2\n\"ab\"\n{ x = 1, y = { true } }\n", "{err}");
    assert_eq!(code, Some(0));
}

#[test]
fn top_level_locals_persist_between_entries() {
    let (out, err, _) = repl("local x = 41\nx + 1\nlocal a, b = 1, 2\na + b\nlocal function twice(n) return n * 2 end\ntwice(x)\n");
    assert_eq!(out, "42\n3\n82\n", "{err}");
}

#[test]
fn unfinished_entries_continue_on_the_next_line() {
    let input =
        "local function add(a, b)\n\treturn a + b\nend\nlocal t = {\n\tn = add(2, 3),\n}\nt.n\n";
    let (out, err, _) = repl(input);
    assert_eq!(out, "5\n", "{err}");
}

#[test]
fn errors_do_not_end_the_session() {
    let (out, err, code) = repl("local x = 1\nerror(\"boom\")\nx +\n\n1\nnil + 1\nx\n");
    assert!(
        err.contains("error[runtime] (line 1): script:1: boom"),
        "{err}"
    );
    assert!(err.contains("error[runtime]"), "{err}");
    assert_eq!(out, "2\n1\n", "x + 1 over two lines, then x: {err}");
    assert_eq!(code, Some(1), "a scripted session with failures exits 1");
}

#[test]
fn each_entry_gets_the_limits() {
    let world = tempfile::tempdir().unwrap();
    let out = common::output(
        common::command()
            .args(["--no-bundled", "--timeout-ms", "200", "--world"])
            .arg(world.path())
            .arg("repl"),
        "local n = 7\nwhile true do end\nn\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[timeout]"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "7\n");
}

#[test]
fn help_reload_and_quit() {
    let world = tempfile::tempdir().unwrap();
    let tool = world.path().join("t.toolbox/hi.tool");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("init.luau"),
        "return function() return 'hi' end\n",
    )
    .unwrap();
    let out = repl_in(
        world.path(),
        ":help\ntools.t.hi()\n:reload\n:nope\n:quit\n1 + 1\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains(":reload    re-read the world"), "{stdout}");
    assert!(stdout.contains("\"hi\"\n"), "{stdout}");
    assert!(
        stdout.contains("reloaded: 1 tools in 1 toolboxes"),
        "{stdout}"
    );
    assert!(stderr.contains("unknown command :nope"), "{stderr}");
    assert!(
        !stdout.contains("\n2\n"),
        ":quit ends the session: {stdout}"
    );
}

#[test]
fn reload_picks_up_tools_written_during_the_session() {
    let world = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(world.path().join("t.toolbox")).unwrap();
    let mut child = common::command()
        .args(["--no-bundled", "--world"])
        .arg(world.path())
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"tools.list('t').stdout\n").unwrap();
    stdin.flush().unwrap();
    // Once the first entry has answered, the session's index is known not to hold the tool.
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert_eq!(first, "\"t (0):\"\n");
    let dir = world.path().join("t.toolbox/late.tool");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("init.luau"),
        "return function() return 'late' end\n",
    )
    .unwrap();
    stdin.write_all(b":reload\ntools.t.late()\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let _ = child.wait();
    assert_eq!(rest, "reloaded: 1 tools in 1 toolboxes\n\"late\"\n");
}

/// The loop a new user follows: create a toolbox and a tool in the REPL, call it, edit
/// init.luau in an editor, and call the new version, all in one session (live reload).
#[test]
fn an_edit_in_an_editor_shows_in_the_running_session() {
    use std::time::{Duration, Instant};

    let world = tempfile::tempdir().unwrap();
    let mut child = common::command()
        .args(["--no-bundled", "--world"])
        .arg(world.path())
        .arg("repl")
        .env("CODEMODE_HISTORY", world.path().join(".history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode runs");
    let mut stdin = child.stdin.take().unwrap();
    let received = common::lines_of(child.stdout.take().unwrap());
    let mut send = |entry: &str| writeln!(stdin, "{entry}").unwrap();
    send("tools.createToolbox({ name = 'mine', description = 'Mine.' }).ok");
    send("tools.create({ name = 'greet', toolbox = 'mine', description = 'Greet.', code = \"return 'v1'\" }).ok");
    send("tools.mine.greet()");
    let expect = |wanted: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(line) = received.recv_timeout(Duration::from_millis(200)) {
                if line == wanted {
                    return;
                }
            }
        }
        panic!("the REPL never printed {wanted}");
    };
    expect("\"v1\"");

    let init = world.path().join("mine.toolbox/greet.tool/init.luau");
    let source = std::fs::read_to_string(&init).unwrap();
    std::fs::write(&init, source.replace("'v1'", "'v2'")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seen = false;
    while !seen && Instant::now() < deadline {
        send("tools.mine.greet()");
        while let Ok(line) = received.recv_timeout(Duration::from_millis(100)) {
            seen |= line == "\"v2\"";
        }
    }
    drop(stdin);
    let _ = child.wait();
    assert!(
        seen,
        "the edited tool never answered v2 in the same session"
    );
}

#[test]
fn what_the_checker_says_of_an_entry_that_ran_is_a_note_not_an_error() {
    // What the checker reports but does not stop (not at a tool call): the entry runs
    // (here to its own runtime error), and the report reads as a note beside it. The
    // entry names `tools`: under `certain` one that reaches nothing of the host is not
    // checked.
    let (_, err, _) = repl("local _ = tools; string.foo = 1\n");
    assert!(err.contains("error[runtime]"), "{err}");
    assert!(err.contains("note[type]"), "{err}");
    assert!(!err.contains("error[type]"), "{err}");
}

#[test]
fn entries_right_after_a_tool_is_written_are_checked_against_it() {
    // The session's own watcher loads the new declarations into the checker as the tool
    // lands; the tool's check and the next entries wait for that rather than go unchecked.
    let (out, err, _) = repl(concat!(
        "tools.createToolbox({ name = 'mine', description = 'Mine.' })\n",
        "made = tools.create({ toolbox = 'mine', name = 'b', description = 'B.', code = 'return 1' })\n",
        "print('notes: ' .. #(made.diagnostics or {}))\n",
        "print(tools.mine.bb())\n",
        "print('b: ' .. tools.mine.b())\n",
    ));
    assert!(out.contains("notes: 0"), "{out}\n{err}");
    assert!(err.contains("error[type]"), "{err}");
    assert!(err.contains("has no tool `bb`"), "{err}");
    assert!(out.contains("b: 1"), "{out}");
}
