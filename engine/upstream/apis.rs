//! The APIs of `<world>/.codemode/apis.json` (`crate::openapi`) as servers beside those of
//! `mcp.json`: one toolbox each, named, limited and cached as a server is. Their problems
//! join the servers', naming the file, the API and the fix.

use std::path::Path;

use super::config::{toolbox_name, ConfigProblem, Configs, ServerConfig, Transport};

/// Adds the world's APIs to `configs`; one whose toolbox name a server already has is a
/// problem, as is a description scripts could rewrite.
pub(crate) fn add(world: &Path, configs: &mut Configs) {
    let (entries, problems) = crate::openapi::config::read(world);
    configs
        .problems
        .extend(problems.into_iter().map(|p| ConfigProblem {
            file: p.file,
            server: p.api,
            message: p.message,
        }));
    for entry in entries {
        let problem = |message: String| ConfigProblem {
            file: entry.file.clone(),
            server: Some(entry.original.clone()),
            message,
        };
        let name = match toolbox_name(&entry.original) {
            Ok(name) => name,
            Err(message) => {
                configs
                    .problems
                    .push(problem(message.replace("server", "API")));
                continue;
            }
        };
        // A description a script may write would let it add the operations it likes,
        // sent with the API's credentials.
        if entry.api.spec_url.is_none() && super::guard::script_reachable(world, &entry.api.spec) {
            configs.problems.push(problem(format!(
                "its description {} lies inside the world, where scripts write files (vfs, or a command a profile may start), so a script could change the requests sent with the API's credentials; move it outside the world or into a hidden top-level folder of it (such as .codemode/)",
                entry.api.spec.display()
            )));
            continue;
        }
        if let Some(earlier) = configs.get(&name) {
            configs.problems.push(problem(format!(
                "its toolbox name '{name}' is already used by server '{}' in {}; rename one of them",
                earlier.original_name,
                earlier.file.display()
            )));
            continue;
        }
        let mut fields = entry.fields.clone();
        // A GET answer may be cached; a call that changes something never is.
        if let Some(serde_json::Value::Object(cache)) = fields.get_mut("cache") {
            cache
                .entry("readOnlyHints")
                .or_insert(serde_json::Value::Bool(true));
        }
        let settings = match super::settings::ServerSettings::read(&fields) {
            Ok(settings) => settings,
            Err(message) => {
                configs.problems.push(problem(message));
                continue;
            }
        };
        configs.servers.push(ServerConfig {
            name,
            original_name: entry.original.clone(),
            file: entry.file.clone(),
            transport: Transport::OpenApi(entry.api),
            settings,
            allow_world_access: false,
            written: Vec::new(),
        });
    }
}
