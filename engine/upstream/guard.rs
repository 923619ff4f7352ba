//! A local server given the world's folder (or one above it) could rewrite the world's
//! `.codemode/`, its policy and this server list, for any script that calls its tools:
//! such a server is refused unless its entry says `"allowWorldAccess": true`.
//!
//! Servers run with the user's rights, outside the sandbox, so this guards the common
//! shape (a file server rooted at `.`), not every way a server could reach the folder.

use std::path::{Path, PathBuf};

use super::config::{ServerConfig, Transport};

/// The argument of a local server that names the world's folder or a folder above it,
/// when its entry does not allow that.
pub(crate) fn world_reach(server: &ServerConfig, world: &Path) -> Option<String> {
    if server.allow_world_access {
        return None;
    }
    let Transport::Stdio { args, cwd, .. } = &server.transport else {
        return None;
    };
    let world = world.canonicalize().ok()?;
    let base: PathBuf = cwd.clone().unwrap_or_else(|| world.clone());
    args.iter()
        .find(|arg| {
            path_part(arg)
                .map(|p| base.join(p))
                .and_then(|p| p.canonicalize().ok())
                .is_some_and(|dir| dir.is_dir() && world.starts_with(&dir))
        })
        .cloned()
}

/// The path an argument names: itself, or what follows `=` in `--root=/some/dir`.
fn path_part(arg: &str) -> Option<&str> {
    let path = match arg.strip_prefix('-') {
        Some(_) => arg.split_once('=')?.1,
        None => arg,
    };
    (!path.is_empty()).then_some(path)
}

/// The message for a server refused by [`world_reach`].
pub(crate) fn refusal(arg: &str, world: &Path) -> String {
    format!(
        "its argument '{arg}' gives it the world's folder {} (or one above it), which holds \
         .codemode/ (the world's policy and this server list): a script could rewrite them \
         through the server's tools; give it a folder inside the world instead (such as \
         \"./data\"), or add \"allowWorldAccess\": true to its entry if every script may \
         change them",
        world.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upstream::config::parse_text;

    fn stdio(args: &str, extra: &str) -> ServerConfig {
        let text = format!(
            r#"{{"mcpServers": {{"files": {{"command": "srv", "args": {args}{extra}}}}}}}"#
        );
        parse_text(Path::new("/nowhere/mcp.json"), &text)
            .servers
            .remove(0)
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
        let trusted = stdio(r#"["."]"#, r#", "allowWorldAccess": true"#);
        assert_eq!(world_reach(&trusted, world.path()), None);
        assert!(refusal(".", world.path()).contains("allowWorldAccess"));
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
        assert!(problem.contains("argument '.'"), "{problem}");
    }
}
