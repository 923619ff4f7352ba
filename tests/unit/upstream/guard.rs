//! Tests of `engine/upstream/guard.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::upstream::config::parse_text;

fn stdio(args: &str, extra: &str) -> ServerConfig {
    let text =
        format!(r#"{{"mcpServers": {{"files": {{"command": "srv", "args": {args}{extra}}}}}}}"#);
    parse_text(Path::new("/nowhere/mcp.json"), &text)
        .servers
        .remove(0)
}

#[test]
fn a_file_is_script_reachable_inside_the_world_unless_hidden() {
    let world = tempfile::tempdir().unwrap();
    let world = world.path().canonicalize().unwrap();
    std::fs::create_dir(world.join(".codemode")).unwrap();
    assert!(script_reachable(&world, &world.join("servers.json")));
    assert!(script_reachable(&world, &world.join("conf/servers.json")));
    assert!(!script_reachable(&world, &world.join(".codemode/mcp.json")));
    assert!(!script_reachable(&world, &world.join(".mcp.json")));
    assert!(!script_reachable(&world, Path::new("/etc/hosts")));
    assert!(!script_reachable(&world, &world.join("../outside.json")));
}

#[test]
fn a_server_given_the_world_or_a_folder_above_it_is_refused() {
    let world = tempfile::tempdir().unwrap();
    let data = world.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let up = world.path().parent().unwrap().display().to_string();
    let refused = [
        r#"["-y", "pkg", "."]"#.to_string(),
        format!(r#"["{}"]"#, world.path().display()),
        format!(r#"["--root={up}"]"#),
        r#"["/"]"#.to_string(),
    ];
    for args in refused {
        let server = stdio(&args, "");
        assert!(world_reach(&server, world.path()).is_some(), "{args}");
    }
    let allowed = [
        r#"["-y", "pkg", "./data"]"#.to_string(),
        format!(r#"["{}"]"#, data.display()),
        r#"["--verbose", "-y", "missing-folder"]"#.to_string(),
    ];
    for args in allowed {
        let server = stdio(&args, "");
        assert_eq!(world_reach(&server, world.path()), None, "{args}");
    }
    // Servers drop `missing/..` as written, expand `~`, and may be started by a shell,
    // so these name the world too.
    let spelt = [
        r#"["~"]"#.to_string(),
        r#"["/proc/self/../self/cwd"]"#.to_string(),
        r#"["-c", "exec node server.js ."]"#.to_string(),
        r#"["./nope/.."]"#.to_string(),
        format!(r#"["{}/nope/.."]"#, world.path().display()),
        r#"["--root=./absent/../.."]"#.to_string(),
        r#"["./nope/../.codemode/policy.json"]"#.to_string(),
    ];
    for args in spelt {
        let server = stdio(&args, "");
        let reach = reach_from(&server, world.path(), Some(world.path()));
        assert!(reach.is_some(), "{args}");
    }
    let trusted = stdio(r#"["."]"#, r#", "allowWorldAccess": true"#);
    assert_eq!(world_reach(&trusted, world.path()), None);
    assert!(refusal(&Reach::World(".".into()), world.path()).contains("allowWorldAccess"));
}

#[test]
fn a_server_given_the_settings_folder_is_refused_even_when_trusted() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    std::fs::create_dir_all(w.join(".codemode")).unwrap();
    std::fs::create_dir(w.join("data")).unwrap();
    std::os::unix::fs::symlink(w.join(".codemode"), w.join("data/link")).unwrap();
    std::os::unix::fs::symlink(w.join(".codemode/policy.json"), w.join("file")).unwrap();
    let w = w.display();
    let refused = [
        "./.codemode".to_string(),
        ".codemode/".to_string(),
        format!("{w}/.codemode"),
        format!("{w}//.codemode//"),
        "data/../.codemode".to_string(),
        "/proc/self/cwd/.codemode".to_string(),
        "--root=./.codemode/policy.json".to_string(),
        "./.codemode/not-yet/file".to_string(),
        "data/link".to_string(),
        "data/link/mcp.json".to_string(),
        "file".to_string(),
    ];
    for arg in refused {
        for extra in ["", r#", "allowWorldAccess": true"#] {
            let server = stdio(&format!(r#"["-y", "{arg}"]"#), extra);
            assert_eq!(
                world_reach(&server, world.path()),
                Some(Reach::Settings(format!(
                    "args[1] (\"{}\")",
                    arg.escape_debug()
                ))),
                "{arg}{extra}"
            );
        }
    }
    let inside = stdio(
        r#"["."]"#,
        &format!(r#", "cwd": "{w}/.codemode", "allowWorldAccess": true"#),
    );
    assert!(matches!(
        world_reach(&inside, world.path()),
        Some(Reach::SettingsCwd(_))
    ));
    let message = refusal(
        &Reach::Settings("args[0] (\"./.codemode\")".into()),
        world.path(),
    );
    assert!(
        message.contains("its args[0] (\"./.codemode\") names"),
        "{message}"
    );
    assert!(message.contains("does not lift this"), "{message}");
    // Names that only look alike are the world's files.
    for arg in ["./.codemode-notes", "data/.codemode"] {
        let server = stdio(&format!(r#"["{arg}"]"#), "");
        assert_eq!(world_reach(&server, world.path()), None, "{arg}");
    }
}

#[test]
fn a_server_whose_code_is_a_file_scripts_can_write_is_refused() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path();
    for file in [
        "server.py",
        "bin/run",
        "node",
        ".venv/bin/python",
        "data/notes.txt",
    ] {
        std::fs::create_dir_all(w.join(file).parent().unwrap()).unwrap();
        std::fs::write(w.join(file), "").unwrap();
    }
    let code = |command: &str, args: &str, extra: &str| {
        let text = format!(
            r#"{{"mcpServers": {{"s": {{"command": "{command}", "args": {args}{extra}}}}}}}"#
        );
        let server = parse_text(Path::new("/nowhere/mcp.json"), &text)
            .servers
            .remove(0);
        world_reach(&server, w)
    };
    let refused = [
        ("python3", r#"["server.py"]"#),
        ("python3", r#"["./server.py", "--flag"]"#),
        ("node", r#"["not-yet/index.mjs"]"#),
        ("sh", r#"["-c", "exec python3 server.py"]"#),
        ("./bin/run", "[]"),
        ("uv", r#"["run", "--script=server.py"]"#),
        // Hidden below a top-level folder: `vfs` refuses it, a started command reaches it.
        ("node", r#"["tools/.private/srv.mjs"]"#),
        // Hidden at the top: no script writes it, but Node loads its packages from a
        // `node_modules/` a script may make at the top of the world.
        ("node", r#"[".mcp-servers/srv.mjs"]"#),
        (".venv/bin/python", r#"["-m", "srv"]"#),
    ];
    for (command, args) in refused {
        assert!(
            matches!(code(command, args, ""), Some(Reach::Code(_))),
            "{command} {args}"
        );
        // Trusted with the world, the server may keep its code there.
        let trusted = code(command, args, r#", "allowWorldAccess": true"#);
        assert_eq!(trusted, None, "{command} {args}");
    }
    // A bare command is found on PATH; data files and folders are not code.
    let allowed = [
        ("node", r#"["--port=8080", "UTC", "./data"]"#),
        ("node", "[]"),
        (
            "npx",
            r#"["-y", "@scope/server", "data/notes.txt", "--db=app.db"]"#,
        ),
    ];
    for (command, args) in allowed {
        assert_eq!(code(command, args, ""), None, "{command} {args}");
    }
    let message = refusal(&Reach::Code("server.py".into()), w);
    assert!(message.contains("a file inside the world"), "{message}");
    assert!(message.contains("allowWorldAccess"), "{message}");
}

/// The guard's verdict on a server `command args` (JSON list), with `extra` fields.
fn verdict(w: &Path, command: &str, args: &[&str], extra: &str) -> Option<Reach> {
    let args = serde_json::to_string(args).unwrap();
    let text =
        format!(r#"{{"mcpServers": {{"s": {{"command": "{command}", "args": {args}{extra}}}}}}}"#);
    let server = parse_text(Path::new("/nowhere/mcp.json"), &text)
        .servers
        .remove(0);
    reach_from(&server, w, None)
}

#[test]
fn file_urls_name_their_paths() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    std::fs::create_dir_all(w.join(".codemode")).unwrap();
    std::fs::create_dir_all(w.join("data")).unwrap();
    let w_text = w.display().to_string();
    let to_world = [
        format!("--root=file://{w_text}"),
        format!("file://{w_text}/"),
        format!("--root=FILE://localhost{w_text}"),
        format!("file://{w_text}/data/.."),
        format!("file://{w_text}/data/%2E%2E"),
        "--root=file:///".to_string(),
    ];
    for arg in &to_world {
        let got = verdict(&w, "srv", &[arg], "");
        assert!(matches!(got, Some(Reach::World(_))), "{arg}: {got:?}");
        let trusted = verdict(&w, "srv", &[arg], r#", "allowWorldAccess": true"#);
        assert_eq!(trusted, None, "{arg}");
    }
    let to_settings = [
        format!("file://{w_text}/.codemode"),
        format!("--root=file://{w_text}/.codemode/mcp.json"),
        format!("file://localhost{w_text}/%2Ecodemode"),
        format!("file:{w_text}/data/../.codemode"),
    ];
    for arg in &to_settings {
        for extra in ["", r#", "allowWorldAccess": true"#] {
            let got = verdict(&w, "srv", &[arg], extra);
            assert!(
                matches!(got, Some(Reach::Settings(_))),
                "{arg}{extra}: {got:?}"
            );
        }
    }
    let fine = format!("--root=file://{w_text}/data");
    assert_eq!(verdict(&w, "srv", &[&fine], ""), None);
}

#[test]
fn paths_glued_to_a_flag_or_listed_inside_a_word_are_read() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    std::fs::create_dir_all(w.join(".codemode")).unwrap();
    std::fs::create_dir_all(w.join("data")).unwrap();
    let w_text = w.display().to_string();
    let to_world = [
        format!("-r{w_text}"),
        "-d.".to_string(),
        format!("--dirs=/tmp,{w_text}"),
        format!("{w_text}:/data"),
        format!("root={w_text}"),
        format!(r#"{{"root":"{w_text}"}}"#),
        "dir:.".to_string(),
    ];
    for arg in &to_world {
        let got = verdict(&w, "srv", &[arg], "");
        assert!(got.is_some(), "{arg}: {got:?}");
    }
    let to_settings = [
        format!("-r{w_text}/.codemode"),
        "root=./.codemode".to_string(),
    ];
    for arg in &to_settings {
        let got = verdict(&w, "srv", &[arg], r#", "allowWorldAccess": true"#);
        assert!(matches!(got, Some(Reach::Settings(_))), "{arg}: {got:?}");
    }
    // Names, ports and folders inside the world stay fine.
    for arg in [
        "-v",
        "--port=8080",
        "a,b,c",
        "host:8080",
        "root=./data",
        "-r./data",
    ] {
        assert_eq!(verdict(&w, "srv", &[arg], ""), None, "{arg}");
    }
}

#[test]
fn shell_text_is_read_and_refused_when_its_words_are_made_at_run_time() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    std::fs::create_dir_all(w.join(".codemode")).unwrap();
    std::fs::create_dir_all(w.join("data")).unwrap();
    let unknowable = [
        ("sh", vec!["-c", "exec srv $PWD/.codemode"]),
        ("sh", vec!["-c", "exec srv ./.codemod?"]),
        ("sh", vec!["-c", "exec srv ./.code*/mcp.json"]),
        ("sh", vec!["-c", "exec srv ./.code{mode,x}"]),
        ("sh", vec!["-c", "exec srv `pwd`"]),
        ("sh", vec!["-c", "exec srv \"$(pwd)\""]),
        ("sh", vec!["-c", "exec srv ~/x"]),
        ("/bin/sh", vec!["-c", "exec srv $PWD"]),
        ("bash", vec!["-lc", "exec srv $PWD"]),
        ("bash", vec!["-l", "-c", "exec srv $PWD"]),
        ("dash", vec!["-ec", "exec srv $PWD"]),
        ("zsh", vec!["-c", "exec srv $PWD"]),
        ("env", vec!["sh", "-c", "exec srv $PWD"]),
        ("/usr/bin/env", vec!["-i", "bash", "-c", "exec srv $PWD"]),
        ("env", vec!["-S", "srv $PWD"]),
        ("sh", vec!["-c", "printf '\\056codemode' | xargs srv"]),
        ("sh", vec!["-c", "eval 'exec srv .'"]),
        ("sh", vec!["-c", "cat <(srv)"]),
        (
            "python3",
            vec!["-c", "import os; os.chdir(os.getcwd() + '/.codemode')"],
        ),
        (
            "node",
            vec!["-e", "require('fs').readdirSync(process.cwd())"],
        ),
    ];
    for (command, args) in &unknowable {
        let got = verdict(&w, command, args, "");
        assert!(
            matches!(got, Some(Reach::Script(..))),
            "{command} {args:?}: {got:?}"
        );
        let trusted = verdict(&w, command, args, r#", "allowWorldAccess": true"#);
        assert_eq!(trusted, None, "{command} {args:?}");
    }
    // Text that can be read is checked word by word, after `cd` too; so is what can be
    // read of text that cannot be read whole.
    let settings = [
        vec!["-c", "exec srv $X ./.codemode"],
        vec!["-c", "exec srv ./.codemode/*.json"],
        vec!["-c", "exec srv ./.code'mode'"],
        vec!["-c", "exec srv ./.code\\mode/mcp.json"],
        vec!["-c", "cd data && exec srv ../.codemode"],
        vec!["-c", "exec srv --root=file://./.codemode"],
        vec!["-c", "srv>.codemode/mcp.json"],
        vec!["-c", "sh -c 'exec srv ./.codemode'"],
        // A setting that names the folder, whatever later uses it.
        vec!["-c", "D=.codemode; exec srv ./$D"],
    ];
    for args in &settings {
        for extra in ["", r#", "allowWorldAccess": true"#] {
            let got = verdict(&w, "sh", args, extra);
            assert!(
                matches!(got, Some(Reach::Settings(_))),
                "{args:?}{extra}: {got:?}"
            );
        }
    }
    for args in [vec!["-c", "exec srv ."], vec!["-c", "cd data; exec srv .."]] {
        let got = verdict(&w, "sh", &args, "");
        assert!(matches!(got, Some(Reach::World(_))), "{args:?}: {got:?}");
    }
    for args in [
        vec!["-c", "exec srv ./data"],
        vec!["-c", "cd /usr/lib && exec node index.js --port=8080 2>&1"],
    ] {
        assert_eq!(verdict(&w, "sh", &args, ""), None, "{args:?}");
    }
}

#[test]
fn a_refusal_quotes_the_argument_as_written_never_a_variable_s_value() {
    let world = tempfile::tempdir().unwrap();
    let w = world.path().canonicalize().unwrap();
    std::env::set_var("CODEMODE_GUARD_TEST_TOKEN", "s3cr3t-guard-value");
    let args = ["-c", "exec srv --token=${CODEMODE_GUARD_TEST_TOKEN} $PWD"];
    let reach = verdict(&w, "sh", &args, "").unwrap();
    let message = refusal(&reach, &w);
    assert!(!message.contains("s3cr3t-guard-value"), "{message}");
    assert!(
        message.contains("its args[1] (\"exec srv --token=${CODEMODE_GUARD_TEST_TOKEN} $PWD\")"),
        "{message}"
    );
    assert!(message.contains("`$`"), "{message}");
    assert!(message.contains("allowWorldAccess"), "{message}");
}

#[test]
fn loading_the_world_keeps_the_other_servers_and_names_the_refused_one() {
    let world = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(world.path().join(".codemode")).unwrap();
    std::fs::write(
        world.path().join(".codemode/mcp.json"),
        r#"{"mcpServers": {"files": {"command": "srv", "args": ["."]},
                "time": {"command": "srv", "args": ["--local-timezone=UTC"]}}}"#,
    )
    .unwrap();
    let configs = crate::upstream::load(world.path(), &[]);
    let names: Vec<&str> = configs.servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["time"]);
    let problem = configs.problems[0].to_string();
    assert!(problem.contains("server 'files'"), "{problem}");
    assert!(problem.contains("its args[0] (\".\")"), "{problem}");
}
