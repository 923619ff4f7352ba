//! The newcomer's path and the bundled toolboxes as examples: `examples/quickstart.luau` runs
//! cleanly in any world, `codemode check` is clean on `toolboxes/`, and every bundled tool is
//! fully documented and has its own spec script.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn codemode(args: &[&str], world: &Path) -> Output {
    common::command()
        .args(args)
        .arg("--world")
        .arg(world)
        .current_dir(repo())
        .env_remove("CODEMODE_WORLD")
        .output()
        .expect("the codemode binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_quickstart_ran(out: &Output) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "quickstart failed ({:?})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(
        stderr.trim().is_empty(),
        "quickstart wrote to stderr:\n{stderr}"
    );
    for expected in [
        "== toolboxes ==",
        "text (6 tools): Everyday text helpers",
        "truncate(text: string, maxChars: number",
        "grace  admiral        40",
        "-beta\n+BETA",
        "json.parse: trailing comma before ']' at line 1 column 18",
        "\"slug\": \"creme-brulee-a-quick-guide-to-caramelised-sugar\"",
        "\"short\": \"Crème Brûlée: a Quick G…\"",
        "\"firstSku\": \"A1\"",
        "\"senior\": \"grace\"",
        "\"noteIsNull\": true",
    ] {
        assert!(
            stdout.contains(expected),
            "quickstart output lacks {expected:?}:\n{stdout}"
        );
    }
}

#[test]
fn quickstart_runs_in_an_empty_world() {
    let world = tempfile::tempdir().unwrap();
    let out = codemode(&["run", "examples/quickstart.luau"], world.path());
    assert_quickstart_ran(&out);
}

#[test]
fn quickstart_runs_with_the_repo_as_world() {
    let out = codemode(&["run", "examples/quickstart.luau"], &repo());
    assert_quickstart_ran(&out);
}

#[test]
fn check_is_clean_on_the_bundled_toolboxes() {
    let out = codemode(&["check"], &repo().join("toolboxes"));
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "codemode check failed:\n{stdout}{}",
        text(&out.stderr)
    );
    assert!(
        !stdout.contains("warning:") && !stdout.contains("error:"),
        "codemode check is not clean:\n{stdout}"
    );
    assert!(stdout.contains("0 problems, 0 warnings"), "{stdout}");
}
