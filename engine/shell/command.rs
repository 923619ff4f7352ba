//! Which program a command name stands for. Only names the grant lists are started, and a
//! name is looked up on [`FIXED_PATH`], never on the caller's `PATH` or in the world, so
//! a script cannot put a program of its own in the way. A command with a `/` is started
//! only when the grant lists that very (absolute) path.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::error::{ShellError, GRANT};

/// Where command names are looked up, and the `PATH` a started command gets.
pub(crate) const FIXED_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The program to start for `cmd`, if `allowed` lists it.
pub(crate) fn resolve(cmd: &str, allowed: &[String]) -> Result<PathBuf, ShellError> {
    let refused = |why: String, fix: String| ShellError::Refused {
        cmd: cmd.to_string(),
        why,
        fix,
    };
    if cmd.is_empty() || cmd.contains('\0') {
        return Err(ShellError::Invalid(
            "cmd must name a command, such as 'git'".into(),
        ));
    }
    let listed = || {
        if allowed.is_empty() {
            "none".to_string()
        } else {
            allowed.join(", ")
        }
    };
    if !allowed.iter().any(|a| a == cmd) {
        // Suggest only an entry the policy file would take.
        let fix = match grantable(cmd) {
            Ok(()) => format!("add \"{cmd}\" to {GRANT} if this run should start it"),
            Err(why) => format!(
                "'{cmd}' {why}, so no grant can name it: give cmd as one of the allowed names, \
                 with arguments in args"
            ),
        };
        return Err(refused(
            format!("it is not an allowed command (allowed: {})", listed()),
            fix,
        ));
    }
    if cmd.contains('/') {
        let path = Path::new(cmd);
        if !path.is_absolute() || cmd.split('/').any(|c| c == "..") {
            return Err(refused(
                "a command given by path must be absolute, without '..'".into(),
                format!("list the program by its absolute path in {GRANT}, or by name"),
            ));
        }
        return executable(path).then(|| path.to_path_buf()).ok_or_else(|| {
            refused(
                "no executable file is at that path".into(),
                "install it there, or list the path where it is".into(),
            )
        });
    }
    FIXED_PATH
        .split(':')
        .map(|dir| Path::new(dir).join(cmd))
        .find(|p| executable(p))
        .ok_or_else(|| {
            refused(
                format!("it is allowed, but no program of that name is in {FIXED_PATH}"),
                format!("install it, or list its absolute path in {GRANT}"),
            )
        })
}

/// Whether `cmd` can be an entry of a grant (`capabilities.shell`): one command name, or
/// an absolute path, without arguments. A relative path would name another program from
/// each folder it runs in. The policy file refuses an entry that is not.
pub(crate) fn grantable(cmd: &str) -> Result<(), &'static str> {
    if cmd.is_empty() || cmd.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("is not one word");
    }
    if cmd.contains('/') && !cmd.starts_with('/') {
        return Err("is a relative path");
    }
    Ok(())
}

/// A regular file someone may execute.
fn executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
#[path = "../../tests/unit/shell/command.rs"]
mod tests;
