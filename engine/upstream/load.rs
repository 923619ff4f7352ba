//! The upstream servers a world configures, read whole: the servers of `mcp.json` and of
//! each `--mcp-config` file, then the APIs of `apis.json`, each kept only when scripts
//! cannot reach what it runs or reads (`guard.rs`), every problem's message masked.

use std::path::{Path, PathBuf};

use super::config::{mask_problems, read_file, ConfigProblem, Configs, DEFAULT_CONFIG};

/// Reads `<world>/.codemode/mcp.json` (if it exists) and then each of `extra` (which must
/// exist). A server whose toolbox name an earlier one already took is reported, not used.
pub(crate) fn load(world: &Path, extra: &[PathBuf]) -> Configs {
    let mut configs = Configs::default();
    let default = world.join(DEFAULT_CONFIG);
    if default.exists() {
        read_file(&default, &mut configs);
    }
    for file in extra {
        match super::guard::script_reachable(world, file) {
            false => read_file(file, &mut configs),
            true => configs.problems.push(ConfigProblem {
                file: file.to_path_buf(),
                server: None,
                message: format!(
                    "it is not read: it lies inside the world {}, where scripts read and write \
                     files (vfs, or a command a profile may start), so any script could read \
                     the servers' tokens and change the commands the next start runs; move it \
                     outside the world, or into a hidden top-level folder of it (such as {})",
                    world.display(),
                    world.join(DEFAULT_CONFIG).display()
                ),
            }),
        }
    }
    super::apis::add(world, &mut configs);
    // Checked once every file is read: a server is refused where the world is known.
    for server in std::mem::take(&mut configs.servers) {
        match super::guard::world_reach(&server, world) {
            None => configs.servers.push(server),
            Some(reach) => configs.problems.push(ConfigProblem {
                file: server.file.clone(),
                server: Some(server.original_name.clone()),
                message: super::guard::refusal(&reach, world),
            }),
        }
    }
    mask_problems(&mut configs.problems);
    configs
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/load.rs"]
mod tests;
