//! What the checker said about a script, kept for its next run: in the world
//! (`.codemode/cache/check/`) for the next `codemode run` or `exec` of the same script, and
//! in memory for a process's next run of it (a server's). The verdict read back is the one
//! the checker gives, a refused script is refused again before any effect, an edit of a
//! tool's signature is checked afresh, and a world without `.codemode/` keeps nothing.
//!
//! The checker is reached through a wrapper that notes each start (or each request), so a
//! test knows when a verdict came from what was kept.

use super::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::check::Checking;
use crate::check::{Checker, Mode};
use crate::registry::Registry;
use crate::{Limits, Output, Runtime};
use common::{command, output, text, World};
use serde_json::Value;

/// A checker that notes each start in `<dir>/starts`, then is the real one.
fn noting_checker(dir: &Path) -> PathBuf {
    let wrapper = dir.join("checker.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho start >> '{}'\nexec '{}'\n",
            dir.join("starts").display(),
            common::checker_bin().display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    wrapper
}

/// A checker that copies each request it reads to `<dir>/requests`, then is the real one.
fn listening_checker(dir: &Path) -> PathBuf {
    let wrapper = dir.join("checker.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh
tee -a '{}' | '{}'
",
            dir.join("requests").display(),
            common::checker_bin().display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    wrapper
}

/// The scripts the checker was asked to check (requests that load declarations left out).
fn checks(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("requests"))
        .map(|s| s.lines().filter(|l| l.starts_with("{\"check\"")).count())
        .unwrap_or(0)
}

/// How many times the checker started.
fn starts(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("starts"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// A world with a `.codemode/` folder, and a checker that notes its starts.
struct Setup {
    world: World,
    notes: tempfile::TempDir,
    checker: PathBuf,
}

impl Setup {
    fn new(settings: bool) -> Setup {
        let world = World::new();
        if settings {
            std::fs::create_dir(world.path().join(".codemode")).unwrap();
        }
        let notes = tempfile::tempdir().unwrap();
        let checker = noting_checker(notes.path());
        Setup {
            world,
            notes,
            checker,
        }
    }

    /// `codemode exec` of `script`: the envelope without its time, and the exit code.
    fn exec(&self, script: &str) -> (Value, i32) {
        let out = output(
            command()
                .env("CODEMODE_CHECKER", &self.checker)
                .arg("--world")
                .arg(self.world.path())
                .arg("exec"),
            script,
        );
        let mut envelope: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&out.stdout)));
        envelope.as_object_mut().unwrap().remove("elapsedMs");
        (envelope, out.status.code().unwrap_or(-1))
    }

    /// `codemode run` of `script` (from a file outside the world): stdout, stderr, code.
    fn run(&self, script: &str) -> (String, String, i32) {
        let file = self.notes.path().join("script.luau");
        std::fs::write(&file, script).unwrap();
        let out = output(
            command()
                .env("CODEMODE_CHECKER", &self.checker)
                .arg("--world")
                .arg(self.world.path())
                .arg("run")
                .arg(&file),
            "",
        );
        (
            text(&out.stdout),
            text(&out.stderr),
            out.status.code().unwrap_or(-1),
        )
    }

    fn starts(&self) -> usize {
        starts(self.notes.path())
    }
}

#[test]
fn a_script_run_again_gets_the_same_envelope_without_starting_the_checker() {
    let setup = Setup::new(true);
    // A warning the checker gives (an unused local) is part of what is kept.
    let script = "local unused = 1\nreturn tools.text.slugify('Hello World')";
    let (first, code) = setup.exec(script);
    assert_eq!(code, 0, "{first}");
    assert_eq!(first["value"], "hello-world");
    assert_eq!(setup.starts(), 1);
    let (again, code) = setup.exec(script);
    assert_eq!(code, 0, "{again}");
    assert_eq!(again, first);
    assert_eq!(
        setup.starts(),
        1,
        "the second run's verdict came from the checker"
    );
    // `run` keeps and reads the same entries.
    let (out, _, code) = setup.run(script);
    assert_eq!((out.as_str(), code), ("hello-world\n", 0));
    assert_eq!(setup.starts(), 1);
    // Another script is checked.
    let (other, _) = setup.exec("return tools.text.slugify('Other')");
    assert_eq!(other["value"], "other");
    assert_eq!(setup.starts(), 2);
}

#[test]
fn a_refused_script_is_refused_again_from_what_was_kept_and_takes_no_effect() {
    let setup = Setup::new(true);
    let script = "vfs.write('out.txt', 'written')\nprint('hi')\nreturn tools.text.slugfy('x')";
    let (first, code) = setup.exec(script);
    assert_eq!(code, 1, "{first}");
    assert_eq!(first["error"]["kind"], "type", "{first}");
    assert_eq!(setup.starts(), 1);
    for _ in 0..2 {
        let (again, code) = setup.exec(script);
        assert_eq!(code, 1, "{again}");
        assert_eq!(again, first);
        let (out, err, code) = setup.run(script);
        assert_eq!(code, 1, "{err}");
        assert!(out.is_empty(), "the refused run printed: {out}");
        assert!(err.contains("slugfy"), "{err}");
    }
    assert_eq!(setup.starts(), 1, "the refusals came from what was kept");
    assert!(
        !setup.world.path().join("out.txt").exists(),
        "a refused script wrote its file"
    );
}

#[test]
fn a_tool_whose_signature_changed_is_checked_again() {
    let setup = Setup::new(true);
    let tool = |ty: &str| {
        setup.world.tool(
            "mine.twice",
            &format!(
                "--!desc Twice.\n--!arg n {ty} A value.\n--!return string It twice.\n\
                 local function twice(n: {ty}): string\n\treturn tostring(n) .. tostring(n)\nend\nreturn twice\n"
            ),
        );
    };
    tool("string");
    let script = "return tools.mine.twice('ab')";
    let (first, code) = setup.exec(script);
    assert_eq!(
        (code, &first["value"]),
        (0, &Value::from("abab")),
        "{first}"
    );
    let (again, _) = setup.exec(script);
    assert_eq!(again, first);
    assert_eq!(setup.starts(), 1);
    // The tool now takes a number: the kept reply is for other declarations.
    tool("number");
    let (changed, code) = setup.exec(script);
    assert_eq!(code, 1, "{changed}");
    assert_eq!(changed["error"]["kind"], "type", "{changed}");
    assert_eq!(setup.starts(), 2);
    // And its own verdict is kept in turn.
    let (kept, _) = setup.exec(script);
    assert_eq!(kept, changed);
    assert_eq!(setup.starts(), 2);
}

#[test]
fn a_world_without_a_settings_folder_keeps_nothing() {
    let setup = Setup::new(false);
    for _ in 0..2 {
        let (envelope, code) = setup.exec("return tools.text.slugify('A')");
        assert_eq!((code, &envelope["value"]), (0, &Value::from("a")));
    }
    assert_eq!(setup.starts(), 2);
    assert!(!setup.world.path().join(".codemode").exists());
}

#[test]
fn a_script_cannot_write_what_is_kept() {
    let setup = Setup::new(true);
    setup.exec("return tools.text.slugify('A')");
    let (envelope, _) =
        setup.exec("local ok = pcall(vfs.write, '.codemode/cache/check/forged', 'x')\nreturn ok");
    assert_eq!(envelope["value"], false, "{envelope}");
    let kept = setup.world.path().join(".codemode/cache/check");
    let names: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(!names.iter().any(|n| n == "forged"));
}

#[test]
fn a_process_checks_a_script_it_ran_before_against_the_same_declarations_once() {
    let world = World::new();
    let notes = tempfile::tempdir().unwrap();
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
    let checker =
        Checker::with_program(Ok(listening_checker(notes.path())), Duration::from_secs(5));
    runtime.set_checking(Some(Arc::new(Checking::new(Mode::Certain, checker))));
    let fine = "return tools.text.slugify('Hello World')";
    let refused = "vfs.write('out.txt', 'x')\nreturn tools.text.slugfy('x')";
    let first = runtime.exec(fine, Output::Capture);
    assert_eq!(
        first.value,
        Some(Value::from("hello-world")),
        "{}",
        first.to_json()
    );
    let no = runtime.exec(refused, Output::Capture);
    assert_eq!(
        no.error.as_ref().map(|e| e.kind),
        Some(crate::ErrorKind::Type)
    );
    assert_eq!(checks(notes.path()), 2);
    for _ in 0..3 {
        let again = runtime.exec(fine, Output::Capture);
        assert_eq!(again.value, first.value);
        assert_eq!(again.diagnostics, first.diagnostics);
        let still = runtime.exec(refused, Output::Capture);
        assert_eq!(still.error, no.error, "{}", still.to_json());
    }
    assert_eq!(checks(notes.path()), 2, "a script was checked again");
    assert!(
        !world.path().join("out.txt").exists(),
        "a refused script wrote its file"
    );
    // A new tool is a new snapshot, with other declarations: the script is checked again.
    world.tool(
        "mine.echo",
        "--!desc Echo.\n--!arg s string A text.\n--!return string The same.\nlocal function echo(s: string): string\n\treturn s\nend\nreturn echo\n",
    );
    runtime.registry().reload();
    let after = runtime.exec(fine, Output::Capture);
    assert_eq!(after.value, first.value);
    assert_eq!(checks(notes.path()), 3);
}

#[test]
fn a_script_that_names_nothing_of_the_host_starts_no_checker_under_the_default_mode() {
    let setup = Setup::new(false);
    let pure = "local total = 0\nfor i = 1, 10 do total += i end\nprint(total)\nreturn total";
    let (envelope, code) = setup.exec(pure);
    assert_eq!((code, &envelope["value"]), (0, &Value::from(55)));
    let (out, _, code) = setup.run(pure);
    assert_eq!((out.as_str(), code), ("55\n55\n", 0));
    assert_eq!(setup.starts(), 0, "nothing for the check to decide");
    // The host reached through a computed name is checked.
    let (envelope, _) = setup.exec("return _G['tools'].text.slugify('A b')");
    assert_eq!(envelope["value"], "a-b");
    assert_eq!(setup.starts(), 1);
    // `warn` reports everything, so it checks a pure script too.
    let out = output(
        command()
            .env("CODEMODE_CHECKER", &setup.checker)
            .arg("--world")
            .arg(setup.world.path())
            .args(["--check", "warn", "exec"]),
        pure,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(setup.starts(), 2);
}
