//! Files in a world that the index must not read whole, or at all: a FIFO where a README,
//! `.metadata` or Luau source belongs (opening it would wait for a writer forever), a
//! file of gigabytes (read whole, it exhausts memory), and a description long enough to
//! fill a listing. Each is a problem of its toolbox or tool, named with its fix; the
//! other tools stay listed and callable.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::World;

/// What one command printed, or a failure when it ran past `limit`.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `codemode ARGS` in `world`, killed and failed when it outlives `limit`.
fn within(world: &Path, args: &[&str], stdin: &str, limit: Duration) -> Ran {
    let out = tempfile::tempdir().unwrap();
    let (stdout, stderr) = (out.path().join("stdout"), out.path().join("stderr"));
    let mut child = common::command()
        .arg("--no-bundled")
        .arg("--world")
        .arg(world)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("spawn codemode");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).ok();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!(
                "codemode {args:?} still running after {limit:?}: {}",
                std::fs::read_to_string(&stderr).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        code: status.code(),
        stdout: std::fs::read_to_string(&stdout).unwrap(),
        stderr: std::fs::read_to_string(&stderr).unwrap(),
    }
}

fn fifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
}

const FINE: &str =
    "--!desc Doubles a number.\nreturn function(n: number): number\n\treturn n * 2\nend\n";
const LIMIT: Duration = Duration::from_secs(30);

#[test]
fn fifos_are_problems_of_their_toolbox_or_tool_not_a_hang() {
    let w = World::new();
    w.tool("ok.double", FINE)
        .tool("boxfiles.one", FINE)
        .tool("toolfiles.readme", FINE)
        .tool("toolfiles.meta", FINE);
    let fifos = [
        "boxfiles.toolbox/README.md",
        "boxfiles.toolbox/.metadata",
        "boxfiles.toolbox/shared.module/init.luau",
        "toolfiles.toolbox/readme.tool/README.md",
        "toolfiles.toolbox/meta.tool/.metadata",
        "toolfiles.toolbox/source.tool/init.luau",
    ];
    for rel in fifos {
        fifo(&w.path().join(rel));
    }
    let list = within(w.path(), &["list", "1"], "", LIMIT);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list.stdout.contains("ok (1): double"), "{}", list.stdout);
    assert!(
        list.stdout.contains(
            "toolfiles (3): meta (not callable), readme (not callable), source (not callable)"
        ),
        "{}",
        list.stdout
    );
    let check = within(w.path(), &["check"], "", LIMIT);
    assert_eq!(check.code, Some(1), "{}", check.stdout);
    for rel in fifos {
        assert!(
            check.stdout.contains(&format!(
                "{rel} cannot be read: it is not a regular file (a FIFO, device or socket); the engine reads regular files only: replace it with one"
            )),
            "{rel} not named:\n{}",
            check.stdout
        );
    }
    let run = within(
        w.path(),
        &["exec", "-"],
        "return { tools.ok.double(2), tools.boxfiles.one(3) }",
        LIMIT,
    );
    assert!(run.stdout.contains(r#""value":[4,6]"#), "{}", run.stdout);
}

#[test]
fn oversized_readmes_and_metadata_are_refused_by_size_unread() {
    let w = World::new();
    w.tool("ok.double", FINE)
        .tool("big.fine", FINE)
        .tool("tools.long", FINE)
        .tool("tools.meta", FINE);
    // Sparse: gigabytes on paper, nothing on disk; read whole, they exhaust memory.
    for (rel, len) in [
        ("big.toolbox/README.md", 2u64 << 30),
        ("big.toolbox/.metadata", 1 << 30),
        ("tools.toolbox/long.tool/README.md", 2 << 30),
        ("tools.toolbox/meta.tool/.metadata", 1 << 30),
    ] {
        std::fs::File::create(w.path().join(rel))
            .unwrap()
            .set_len(len)
            .unwrap();
    }
    let list = within(w.path(), &["list", "1"], "", LIMIT);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(
        list.stdout.contains("big (1): fine\n"),
        "the toolbox's tools are unaffected: {}",
        list.stdout
    );
    assert!(list.stdout.contains("ok (1): double"), "{}", list.stdout);
    let check = within(w.path(), &["check"], "", LIMIT);
    for problem in [
        "big.toolbox/README.md is 2097152 KiB; a README.md may be at most 128 KiB: shorten it",
        "big.toolbox/.metadata is 1048576 KiB; a .metadata may be at most 64 KiB: shorten it",
        "tools.toolbox/long.tool/README.md is 2097152 KiB; a README.md may be at most 128 KiB",
        "tools.toolbox/meta.tool/.metadata is 1048576 KiB; a .metadata may be at most 64 KiB",
    ] {
        assert!(
            check.stdout.contains(problem),
            "{problem}:\n{}",
            check.stdout
        );
    }
}

#[test]
fn an_over_long_toolbox_description_is_refused_or_cut_in_listings() {
    let w = World::new();
    w.tool("zzz.last", FINE);
    let run = within(
        w.path(),
        &["exec", "-"],
        r#"local huge = tools.createToolbox{ name = "huge", description = string.rep("x", 3e6) }
local tool = tools.createToolbox{ name = "mine", description = "Mine." }
local long = tools.create{ toolbox = "mine", name = "t", description = string.rep("y", 2001), code = "return 1" }
return { huge = huge.error, long = long.error, exists = vfs.exists("huge.toolbox") }"#,
        LIMIT,
    );
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        value["value"]["huge"],
        "tools.createToolbox: description is 3000000 characters; give at most 2000, a sentence or two (details go in README.md); nothing was written",
        "{}",
        run.stdout
    );
    assert_eq!(
        value["value"]["long"],
        "tools.create: description is 2001 characters; give at most 2000, a sentence or two (details go in README.md); nothing was written"
    );
    assert_eq!(value["value"]["exists"], false);

    // Written by hand: the listing shows its first 2000 characters and the next toolbox.
    w.file(
        "aaa.toolbox/README.md",
        &format!("# aaa\n\n{}\n", "w".repeat(100_000)),
    )
    .tool("aaa.first", FINE);
    let list = within(w.path(), &["list", "2"], "", LIMIT);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let aaa = list.stdout.lines().next().unwrap();
    assert_eq!(aaa, format!("aaa: {}…", "w".repeat(2000)));
    assert!(list.stdout.contains("zzz:"), "{}", list.stdout);
    let check = within(w.path(), &["check"], "", LIMIT);
    assert!(
        check.stdout.contains(
            "aaa.toolbox/README.md: the description is 100000 characters; listings show the first 2000"
        ),
        "{}",
        check.stdout
    );
}

#[test]
fn symlinked_toolboxes_tools_and_modules_are_reported_not_followed() {
    let outside = World::new();
    outside
        .tool("ext.x", FINE)
        .tool("elsewhere.t", FINE)
        .file("elsewhere.toolbox/m.module/init.luau", "return {}\n");
    let w = World::new();
    w.tool("own.real", FINE);
    let link = |from: &str, to: &str| {
        std::os::unix::fs::symlink(outside.path().join(from), w.path().join(to)).unwrap()
    };
    link("ext.toolbox", "ext.toolbox");
    link("elsewhere.toolbox/t.tool", "own.toolbox/t.tool");
    link("elsewhere.toolbox/m.module", "own.toolbox/m.module");
    let list = within(w.path(), &["list", "1"], "", LIMIT);
    assert_eq!(list.stdout, "own (1): real\n", "still skipped");
    assert!(
        list.stderr
            .contains("note: 3 problems in the world's toolboxes (a folder skipped or a file not read); `codemode check` lists them"),
        "{}",
        list.stderr
    );
    let check = within(w.path(), &["check"], "", LIMIT);
    assert_eq!(check.code, Some(1), "{}", check.stdout);
    for rel in ["ext.toolbox", "own.toolbox/t.tool", "own.toolbox/m.module"] {
        assert!(
            check.stdout.contains(&format!(
                "{rel} is a symlink, which the engine does not follow (it could lead out of the world); move or copy the folder here instead"
            )),
            "{rel}:\n{}",
            check.stdout
        );
    }
    let run = within(
        w.path(),
        &["exec", "-"],
        "return #tools.toolboxes().value",
        LIMIT,
    );
    assert!(run.stdout.contains(r#""value":1"#), "{}", run.stdout);
}

#[test]
fn a_byte_order_mark_before_a_tool_or_a_script_is_not_read_as_luau() {
    let w = World::new();
    w.tool(
        "bom.hello",
        "\u{feff}--!desc Says hello.\n--!arg name: string\nreturn function(name: string): string return `hello {name}` end",
    );
    let list = within(w.path(), &["list", "2"], "", LIMIT);
    assert!(
        list.stdout.contains("hello - Says hello."),
        "{}",
        list.stdout
    );
    assert!(!list.stdout.contains("not callable"), "{}", list.stdout);
    let ran = within(
        w.path(),
        &["exec", "-"],
        "\u{feff}return tools.bom.hello('bom')",
        LIMIT,
    );
    assert!(
        ran.stdout.contains(r#""value":"hello bom""#),
        "{}",
        ran.stdout
    );
}

#[test]
fn an_oversized_luau_file_is_named_with_its_size_once() {
    let w = World::new();
    w.tool("big.code", FINE);
    std::fs::write(
        w.path().join("big.toolbox/code.tool/init.luau"),
        format!("{FINE}\n--{}", "x".repeat(300 << 10)),
    )
    .unwrap();
    let check = within(w.path(), &["check"], "", LIMIT);
    assert!(
        check
            .stdout
            .contains("init.luau is 301 KiB; a tool's Luau file may be at most 256 KiB"),
        "{}",
        check.stdout
    );
    assert!(!check.stdout.contains("is is"), "{}", check.stdout);
}

#[test]
fn a_misspelt_metadata_field_is_a_problem_naming_the_field_meant() {
    let w = World::new();
    w.tool("own.meant_planned", FINE)
        .file(
            "own.toolbox/meant_planned.tool/.metadata",
            r#"{"stauts": "planned"}"#,
        )
        .tool("own.fine", FINE)
        .file(
            "own.toolbox/fine.tool/.metadata",
            r#"{"tags": ["x"], "owner": "ada"}"#,
        )
        .file("own.toolbox/.metadata", r#"{"kind": "workflw"}"#);
    let check = within(w.path(), &["check"], "", LIMIT);
    assert_eq!(check.code, Some(1), "{}", check.stdout);
    assert!(
        check
            .stdout
            .contains("\"stauts\" is not a field the engine reads; did you mean \"status\"?"),
        "{}",
        check.stdout
    );
    assert!(
        check
            .stdout
            .contains("kind \"workflw\" is not \"workflow\" or \"toolbox\""),
        "{}",
        check.stdout
    );
    let withheld = within(
        w.path(),
        &["--check", "off", "exec", "-"],
        "return tools.own.meant_planned(1)",
        LIMIT,
    );
    assert!(
        withheld
            .stdout
            .contains("tool own.meant_planned is not callable")
            && withheld.stdout.contains("did you mean"),
        "{}",
        withheld.stdout
    );
    let fine = within(w.path(), &["exec", "-"], "return tools.own.fine(2)", LIMIT);
    assert!(fine.stdout.contains("\"value\":4"), "{}", fine.stdout);
}

#[test]
fn a_misspelt_or_foreign_type_in_a_signature_is_named_by_check() {
    let w = World::new();
    w.tool(
        "own.doubled",
        "--!desc Doubles.\n--!arg n numbr The number.\n--!return nubmer Twice n.\nlocal function doubled(n)\n\treturn n * 2\nend\nreturn doubled\n",
    )
    .tool(
        "own.moved",
        "--!desc Moves a point.\ntype Pointt = { x: number }\nreturn function(p: Pointt): Pointt\n\treturn p\nend\n",
    );
    let check = within(w.path(), &["check"], "", LIMIT);
    let said = &check.stdout;
    assert!(
        said.contains("warning: own.doubled: the argument `n` is typed `numbr`, but `numbr` is not a Luau type and the tool defines none of that name; did you mean `number`?"),
        "{said}"
    );
    assert!(said.contains("the result is typed `nubmer`"), "{said}");
    assert!(
        said.contains("did you mean `number`? (as written, it takes any value)"),
        "{said}"
    );
    // A type the tool defines is its own, however it is spelt.
    assert!(!said.contains("own.moved"), "{said}");
}

#[test]
fn one_tools_long_texts_do_not_fill_a_listing() {
    let w = World::new();
    // Within the source cap (256 KiB), past a serve listing's output cap (128 KiB).
    let long = "w".repeat(40_000);
    let mut source = format!("--!desc {long}\n--!arg n number {long}\n--!return number {long}\n");
    for _ in 0..30 {
        source.push_str(&format!(
            "--!example tools.aaa.big({})\n",
            "1".repeat(2_500)
        ));
    }
    source.push_str("return function(n: number): number\n\treturn n\nend\n");
    w.tool("aaa.big", &source).tool("zzz.last", FINE);
    let list = within(w.path(), &["list", "3"], "", LIMIT);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list.stdout.contains("tools.zzz.last("), "{}", list.stderr);
    assert!(list.stdout.len() < 60_000, "{} bytes", list.stdout.len());
    let check = within(w.path(), &["check"], "", LIMIT);
    for what in [
        "the description is 40000 characters",
        "the description of argument `n` is 40000 characters",
        "the description of the result is 40000 characters",
        "20 `--!example` lines are over 2000 characters; listings show the first 2000 of each",
        "30 `--!example` lines; listings show the first 20",
    ] {
        assert!(check.stdout.contains(what), "{what}: {}", check.stdout);
    }
    let called = within(w.path(), &["exec", "-"], "return tools.aaa.big(4)", LIMIT);
    assert!(called.stdout.contains("\"value\":4"), "{}", called.stdout);
}

#[test]
fn a_tool_defined_twice_in_the_world_is_named_and_the_first_folder_wins() {
    let answer = |n: u32| {
        format!("--!desc Answers {n}.\n--!return number {n}.\nreturn function(): number\n\treturn {n}\nend\n")
    };
    let w = World::new();
    w.file("a/own.toolbox/pick.tool/init.luau", &answer(1))
        .file("b/own.toolbox/pick.tool/init.luau", &answer(2))
        .file("c/own.toolbox/pick.tool/init.luau", &answer(3))
        .tool("own.single", FINE);
    let check = within(w.path(), &["check"], "", LIMIT);
    assert_eq!(check.code, Some(1), "{}", check.stdout);
    // One problem for the identity: the first folder is used, the last one ignored named.
    let twice: Vec<&str> = check
        .stdout
        .lines()
        .filter(|l| l.contains("own.pick is defined twice"))
        .collect();
    assert_eq!(twice.len(), 1, "{}", check.stdout);
    assert!(
        twice[0].contains("a/own.toolbox/pick.tool is used")
            && twice[0].contains("c/own.toolbox/pick.tool is ignored"),
        "{}",
        twice[0]
    );
    let picked = within(
        w.path(),
        &["exec", "-"],
        "return { tools.own.pick(), tools.own.single(2) }",
        LIMIT,
    );
    assert!(
        picked.stdout.contains("\"value\":[1,4]"),
        "{}",
        picked.stdout
    );
}
