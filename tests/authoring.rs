//! Authoring through the command line: what only separate processes and real folders show
//! (concurrent writers, symlinks, library folders, a crash between write and rename).

mod common;

use std::path::Path;

use serde_json::Value;

fn codemode(world: &Path, extra: &[&str], script: &str) -> Value {
    let out = common::output(
        common::command()
            .arg("exec")
            .arg("--world")
            .arg(world)
            .args(extra),
        script,
    );
    common::envelope(&out)
}

fn value(envelope: &Value) -> &Value {
    assert_eq!(envelope["ok"], true, "the script failed: {envelope}");
    &envelope["value"]
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_created_tool_is_callable_in_later_runs() {
    let world = tempfile::tempdir().unwrap();
    let made = codemode(
        world.path(),
        &[],
        r#"assert(tools.createToolbox{ name = "box", description = "A box." }.ok)
           return tools.create{ name = "t", toolbox = "box", description = "T.", code = "return 7" }"#,
    );
    assert_eq!(value(&made)["ok"], true, "{made}");
    let called = codemode(world.path(), &[], "return tools.box.t()");
    assert_eq!(value(&called), 7);
}

#[test]
fn two_processes_creating_the_same_tool_get_one_success_and_one_clear_error() {
    let world = tempfile::tempdir().unwrap();
    let made = codemode(
        world.path(),
        &[],
        r#"return tools.createToolbox{ name = "box", description = "A box." }"#,
    );
    assert_eq!(value(&made)["ok"], true);
    for round in 0..4 {
        let script = |n: u32| {
            format!(
                r#"return tools.create{{ name = "t{round}", toolbox = "box", description = "Writer {n}.", code = "return {n}" }}"#
            )
        };
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| codemode(world.path(), &[], &script(1)));
            let b = s.spawn(|| codemode(world.path(), &[], &script(2)));
            (a.join().unwrap(), b.join().unwrap())
        });
        let results = [value(&a).clone(), value(&b).clone()];
        let wins: Vec<&Value> = results.iter().filter(|r| r["ok"] == true).collect();
        assert_eq!(wins.len(), 1, "round {round}: {results:?}");
        let loser = results.iter().find(|r| r["ok"] == false).unwrap();
        let error = loser["error"].as_str().unwrap();
        assert!(error.contains("already exists"), "{error}");
        // The tool on disk is one writer's whole tool, and it is callable.
        let called = codemode(world.path(), &[], &format!("return tools.box.t{round}()"));
        let n = value(&called).as_u64().unwrap();
        assert!(n == 1 || n == 2);
        let source = std::fs::read_to_string(
            world
                .path()
                .join(format!("box.toolbox/t{round}.tool/init.luau")),
        )
        .unwrap();
        assert!(source.contains(&format!("Writer {n}.")), "{source}");
    }
}

#[test]
fn a_crash_between_write_and_rename_leaves_nothing_the_index_reads() {
    let world = tempfile::tempdir().unwrap();
    let made = codemode(
        world.path(),
        &[],
        r#"return tools.createToolbox{ name = "box", description = "A box." }"#,
    );
    assert_eq!(value(&made)["ok"], true);
    // What a writer killed mid-way leaves: a half-built hidden tool folder and a temp file.
    let box_dir = world.path().join("box.toolbox");
    write(
        &box_dir.join(".codemode-tmp-99999-0-hello.tool/init.luau"),
        "local function hello(",
    );
    write(&box_dir.join(".codemode-tmp-99999-1-README.md"), "# half");
    let listed = codemode(
        world.path(),
        &[],
        "return { n = #tools.list('box').value, get = tools.get('box.hello') }",
    );
    assert_eq!(value(&listed)["n"], 0, "{listed}");
    assert!(value(&listed).get("get").is_none());
    let check = common::command()
        .args(["check", "--world"])
        .arg(world.path())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // The next create of the same name works, and vfs.list hides the leftovers.
    let again = codemode(
        world.path(),
        &[],
        r#"local r = tools.create{ name = "hello", toolbox = "box", description = "Hi.", code = "return 'hi'" }
           assert(r.ok, r.error)
           local names = {}
           for _, e in vfs.list("box.toolbox") do table.insert(names, e.name) end
           return { call = tools.box.hello(), names = table.concat(names, ",") }"#,
    );
    assert_eq!(value(&again)["call"], "hi");
    assert_eq!(
        value(&again)["names"],
        ".metadata,README.md,hello.tool,shared.module"
    );
}

#[cfg(unix)]
#[test]
fn symlinks_that_lead_out_of_the_world_are_refused() {
    let world = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(&outside.path().join("secret.txt"), "secret");
    std::os::unix::fs::symlink(outside.path(), world.path().join("out")).unwrap();
    std::os::unix::fs::symlink(outside.path(), world.path().join("pkg.package")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        world.path().join("link.txt"),
    )
    .unwrap();
    let result = codemode(
        world.path(),
        &[],
        r#"local out = {}
           for i, f in { function() return vfs.read("out/secret.txt") end,
                         function() return vfs.read("link.txt") end,
                         function() return vfs.write("out/new.txt", "x") end,
                         function() return vfs.write("link.txt", "x") end,
                         function() return vfs.list("out") end,
                         function() return vfs.remove("out/secret.txt") end } do
               local ok, err = pcall(f)
               out[i] = if ok then "allowed" else tostring(err)
           end
           return { errs = out, into = tools.createToolbox{ name = "box", description = "x", into = "pkg" } }"#,
    );
    let v = value(&result);
    for i in 0..6 {
        let text = v["errs"][i].as_str().unwrap();
        assert!(text.contains("leads out of the world"), "{i}: {text}");
    }
    assert_eq!(v["into"]["ok"], false);
    let into = v["into"]["error"].as_str().unwrap();
    assert!(into.contains("leads out of the world"), "{into}");
    assert_eq!(
        std::fs::read_to_string(outside.path().join("secret.txt")).unwrap(),
        "secret"
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn a_symlink_into_a_hidden_folder_of_the_world_is_refused() {
    let world = tempfile::tempdir().unwrap();
    write(&world.path().join(".git/config"), "[core]\n");
    std::os::unix::fs::symlink(world.path().join(".git"), world.path().join("notes")).unwrap();
    let result = codemode(
        world.path(),
        &[],
        r#"local ok, err = pcall(vfs.write, "notes/config", "[core]\n\tfsmonitor = evil\n")
           local rok, rerr = pcall(vfs.read, "notes/config")
           return { write = ok, werr = tostring(err), read = rok, rerr = tostring(rerr) }"#,
    );
    let v = value(&result);
    assert_eq!(v["write"], false);
    assert_eq!(v["read"], false);
    assert!(v["werr"].as_str().unwrap().contains("is hidden"), "{v}");
    assert!(v["rerr"].as_str().unwrap().contains("is hidden"), "{v}");
    assert_eq!(
        std::fs::read_to_string(world.path().join(".git/config")).unwrap(),
        "[core]\n"
    );
}

fn library_with_one_tool() -> tempfile::TempDir {
    let lib = tempfile::tempdir().unwrap();
    write(
        &lib.path().join("lib.toolbox/README.md"),
        "# lib\n\nLibrary tools.\n",
    );
    write(
        &lib.path().join("lib.toolbox/x.tool/init.luau"),
        "--!desc X.\nlocal function x(): number\n\treturn 1\nend\nreturn x\n",
    );
    lib
}

#[test]
fn library_toolboxes_are_read_only_and_the_refusal_says_how_to_copy_them() {
    let world = tempfile::tempdir().unwrap();
    let lib = library_with_one_tool();
    let lib_arg = lib.path().to_str().unwrap();
    let result = codemode(
        world.path(),
        &["--library", lib_arg],
        r#"return {
               create = tools.create{ name = "y", toolbox = "lib", description = "Y.", code = "return 2" },
               delete = tools.delete("lib.x"),
               box = tools.createToolbox{ name = "lib", description = "Mine." },
               call = tools.lib.x(),
           }"#,
    );
    let v = value(&result);
    assert_eq!(v["call"], 1);
    for key in ["create", "delete", "box"] {
        assert_eq!(v[key]["ok"], false, "{key}: {v}");
        let error = v[key]["error"].as_str().unwrap();
        assert!(
            error.contains("read-only") && error.contains("tools.install('lib')"),
            "{key}: {error}"
        );
    }
    assert!(lib.path().join("lib.toolbox/x.tool/init.luau").exists());
    assert!(!lib.path().join("lib.toolbox/y.tool").exists());
}

#[test]
fn a_library_inside_the_world_cannot_be_changed_through_vfs() {
    let world = tempfile::tempdir().unwrap();
    let lib = world.path().join("vendor");
    write(
        &lib.join("lib.toolbox/x.tool/init.luau"),
        "return function() return 1 end\n",
    );
    let result = codemode(
        world.path(),
        &["--library", lib.to_str().unwrap()],
        r#"local ok, err = pcall(vfs.write, "vendor/lib.toolbox/x.tool/init.luau", "return 2")
           local ok2, err2 = pcall(vfs.remove, "vendor/lib.toolbox")
           return { ok = ok, err = tostring(err), ok2 = ok2, err2 = tostring(err2),
                    read = vfs.read("vendor/lib.toolbox/x.tool/init.luau") }"#,
    );
    let v = value(&result);
    assert_eq!(v["ok"], false);
    assert_eq!(v["ok2"], false);
    for key in ["err", "err2"] {
        let error = v[key].as_str().unwrap();
        assert!(
            error.contains("read-only") && error.contains("tools.install"),
            "{error}"
        );
    }
    assert_eq!(v["read"], "return function() return 1 end\n");
}

#[test]
fn hidden_entries_are_neither_removed_with_their_folder_nor_installed() {
    let world = tempfile::tempdir().unwrap();
    write(&world.path().join("sub/.git/config"), "[core]\n");
    write(&world.path().join("sub/notes.txt"), "mine");
    let lib = library_with_one_tool();
    write(&lib.path().join("lib.toolbox/.vscode/tasks.json"), "{}");
    write(
        &lib.path().join("lib.toolbox/.metadata"),
        r#"{"tags": ["x"]}"#,
    );
    let result = codemode(
        world.path(),
        &["--library", lib.path().to_str().unwrap()],
        r#"local ok, err = pcall(vfs.remove, "sub")
           local installed = tools.install("lib")
           return { removed = ok, err = tostring(err), installed = installed.ok }"#,
    );
    let v = value(&result);
    assert_eq!(v["removed"], false);
    assert!(
        v["err"].as_str().unwrap().contains("holds the hidden"),
        "{v}"
    );
    assert!(world.path().join("sub/.git/config").exists());
    assert!(world.path().join("sub/notes.txt").exists());
    assert_eq!(v["installed"], true, "{v}");
    assert!(world.path().join("lib.toolbox/.metadata").exists());
    assert!(!world.path().join("lib.toolbox/.vscode").exists());
}
