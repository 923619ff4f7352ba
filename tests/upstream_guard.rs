//! The world-folder guard over real configuration files, as `codemode check` reports it:
//! servers that reach the world's `.codemode/` through a `file:` URL or shell text are
//! refused, named by the place of the argument, never by a variable's value.

mod common;

use common::{text, World};

/// `codemode check` over a world whose `.codemode/mcp.json` is `servers`, with `env`.
fn check(world: &World, servers: &serde_json::Value, env: &[(&str, &str)]) -> String {
    world.file(
        ".codemode/mcp.json",
        &serde_json::json!({ "mcpServers": servers }).to_string(),
    );
    let mut command = common::command();
    command
        .arg("--world")
        .arg(world.path())
        .args(["check", "--no-bundled"]);
    for (name, value) in env {
        command.env(name, value);
    }
    let out = common::output(&mut command, "");
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn servers_reaching_the_settings_by_url_or_shell_text_are_refused_without_their_secrets() {
    let world = World::new();
    world.file("data/notes.txt", "n");
    let w = world.path().canonicalize().unwrap();
    let w = w.display();
    let servers = serde_json::json!({
        "url": { "command": "srv", "args": [format!("--root=file://{w}/%2Ecodemode")],
                 "allowWorldAccess": true },
        "rooted": { "command": "srv", "args": [format!("--root=file://{w}")] },
        "pwd": { "command": "sh", "args": ["-c", "exec srv --token=${GUARD_TOKEN} $PWD/.codemode"] },
        "glob": { "command": "/bin/bash", "args": ["-lc", "exec srv ./.codemod?"] },
        "built": { "command": "env", "args": ["sh", "-c", "D=.codemode; exec srv ./$D"] },
        "quoted": { "command": "sh", "args": ["-c", "exec srv ./.code'mode'"],
                    "allowWorldAccess": true },
        "fine": { "command": "sh", "args": ["-c", "cd /usr/lib && exec node index.js ./data"] },
        // A `cd` that fails leaves the shell where it began: `.` there is the world.
        "after_cd": { "command": "sh", "args": ["-c", "cd data; exec srv ."] },
    });
    let said = check(&world, &servers, &[("GUARD_TOKEN", "guard-secret-4411")]);
    assert!(!said.contains("guard-secret-4411"), "{said}");
    for (server, says) in [
        ("url", "its args[0] (\"--root=file://"),
        ("rooted", "gives it the world's folder"),
        ("pwd", "its args[1] (\"exec srv --token=${GUARD_TOKEN} $PWD/.codemode\") is code a shell or an interpreter runs, with `$`"),
        ("glob", "with `?` (a glob)"),
        ("built", "its args[2] (\"D=.codemode; exec srv ./$D\")"),
        ("quoted", "its args[1] (\"exec srv ./.code'mode'\") names"),
        ("after_cd", "its args[1] (\"cd data; exec srv .\") gives it the world's folder"),
    ] {
        let line = said
            .lines()
            .find(|l| l.contains(&format!("server '{server}'")))
            .unwrap_or_else(|| panic!("{server} was not refused:\n{said}"));
        assert!(line.contains(says), "{server}: {line}");
    }
    // The readable text that stays away from the world is kept (only not synced yet).
    let fine: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("server 'fine'"))
        .collect();
    assert!(
        !fine.is_empty() && fine.iter().all(|l| l.contains("not fetched yet")),
        "{said}"
    );
}
