//! Capabilities handed to Luau: each module registers its functions, each with its effect
//! class (`sandbox::Effect`), and [`linker`] hands them, with the prelude that builds
//! `tools` over them, to the sandbox, whose linker makes one read-only table of each.
//!
//! Capabilities are given to the prelude only (through its private environment), except
//! `vfs`, which scripts also get as a global, and `http` and `shell`, globals that exist
//! only in VMs whose registry grants them; scripts reach the rest through the `tools`
//! surface the prelude builds. Host functions reach the run through
//! [`state::with_state`].

pub(crate) mod asset;
pub(crate) mod audit;
pub(crate) mod author;
pub(crate) mod bind;
pub(crate) mod cache;
#[cfg(test)]
mod classes;
mod convert;
mod declarations;
pub(crate) mod http;
pub(crate) mod install;
pub(crate) mod instance;
mod permission;
mod refusal;
pub(crate) mod render;
pub(crate) mod results;
pub(crate) mod search;
pub(crate) mod shell;
pub(crate) mod state;
pub(crate) mod threads;
mod tool_policy;
pub(crate) mod upstream;
pub(crate) mod vfs;

use crate::policy::Capabilities;
use crate::sandbox::{Linker, PreludeModule};

pub(crate) use asset::AUTHORING;
pub(crate) use cache::raised;
#[cfg(any(test, feature = "bench"))]
pub(crate) use declarations::definitions;
pub(crate) use declarations::definitions_granted;
pub(crate) use declarations::definitions_named;
pub(crate) use refusal::denied_tool;
pub(crate) use state::State;

/// The prelude modules, as `build.rs` compiled them, in the order they run.
const PRELUDE: [PreludeModule; 2] = [
    PreludeModule {
        name: "error",
        global: Some("error"),
        bytecode: include_bytes!(concat!(env!("OUT_DIR"), "/luau/error.luauc")),
    },
    PreludeModule {
        name: "tools",
        global: Some("tools"),
        bytecode: include_bytes!(concat!(env!("OUT_DIR"), "/luau/tools.luauc")),
    },
];

/// Whether a VM built for `granted` has the globals that exist only when granted:
/// (`http`, `shell`). A VM is built again when a policy edit changes them.
pub(crate) fn granted_globals(granted: &Capabilities) -> (bool, bool) {
    (!granted.http.is_empty(), !granted.shell.is_empty())
}

/// The globals, capabilities and prelude of a VM that runs scripts over a registry that
/// grants `granted`. Every function of every capability is registered with its effect
/// class; the linker wraps each in the run's deadline, [`permission::allows`] and the
/// check's gate (see `sandbox/linker.rs`).
pub(crate) fn linker(granted: &Capabilities) -> Linker {
    let mut linker = Linker::new(permission::allows)
        // `vfs` is a capability scripts get directly: files of the world only.
        .global(vfs::capability());
    // A capability the profile does not grant is not there at all (nil, undeclared).
    let (with_http, with_shell) = granted_globals(granted);
    if with_http {
        linker = linker.global(http::capability());
    }
    if with_shell {
        linker = linker.global(shell::capability());
    }
    let linker = linker
        .data("run", cache::module)
        .capability(asset::capability())
        .capability(author::capability())
        .capability(vfs::capability())
        .capability(bind::capability())
        .capability(render::capability())
        .capability(search::capability())
        .capability(install::capability())
        .capability(upstream::capability())
        .capability(results::capability())
        .threads("threads")
        .capability(audit::capability());
    PRELUDE.into_iter().fold(linker, Linker::prelude)
}

/// The prelude's Luau source, by module name (for the test that the embedded bytecode is
/// what compiling it now gives).
#[cfg(test)]
const PRELUDE_SOURCE: [(&str, &str); 2] = [
    ("error", include_str!("../../prelude/error.luau")),
    ("tools", include_str!("../../prelude/tools.luau")),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The declarations written beside the module that builds the capability `name`.
    fn declarations_of(name: &str) -> &'static str {
        match name {
            "vfs" => vfs::DECLARATIONS,
            "http" => http::DECLARATIONS,
            "shell" => shell::DECLARATIONS,
            "asset" => asset::DECLARATIONS,
            "author" => author::DECLARATIONS,
            "bind" => bind::DECLARATIONS,
            "render" => render::DECLARATIONS,
            "search" => search::DECLARATIONS,
            "install" => install::DECLARATIONS,
            "upstream" => upstream::DECLARATIONS,
            "results" => results::DECLARATIONS,
            "audit" => audit::DECLARATIONS,
            "run" => cache::DECLARATIONS,
            "threads" => threads::DECLARATIONS,
            other => panic!("capability {other} has no declarations beside its module"),
        }
    }

    /// The members a declaration file gives its capability's table: `name:` one tab into
    /// the `export type ...Capability = {` (or `RunCache`) or `declare <name>: {` block (other exported
    /// types, such as a row type, have fields of their own).
    fn declared_members(text: &str) -> std::collections::BTreeSet<String> {
        let mut inside = false;
        let mut members = std::collections::BTreeSet::new();
        for line in text.lines() {
            if line.starts_with("declare ")
                || line.starts_with("export type RunCache = {")
                || (line.starts_with("export type ") && line.contains("Capability = {"))
            {
                inside = true;
            } else if line.starts_with('}') {
                inside = false;
            } else if let Some(member) = line.strip_prefix('\t').filter(|_| inside) {
                if !member.starts_with(['\t', '-']) {
                    if let Some((name, _)) = member.split_once(':') {
                        members.insert(name.trim().to_string());
                    }
                }
            }
        }
        members
    }

    #[test]
    fn every_capability_declares_exactly_the_members_it_builds() {
        let all = Capabilities {
            http: vec!["example.com".into()],
            shell: vec!["echo".into()],
            ..Capabilities::default()
        };
        let linker = linker(&all);
        assert_eq!(linker.global_names(), ["vfs", "http", "shell"]);
        assert_eq!(
            super::linker(&Capabilities::default()).global_names(),
            ["vfs"],
            "http and shell exist only when granted"
        );
        let vm = crate::sandbox::Vm::new(&linker).unwrap();
        let (tables, _) = crate::sandbox::linked(&vm.lua);
        let names: Vec<&str> = tables.iter().map(|(name, _)| *name).collect();
        let mut expected = linker.global_names();
        expected.extend(linker.capability_names());
        assert_eq!(names, expected);
        for (name, table) in &tables {
            // The run cache's fields are set when a run begins, not when it is built.
            if *name == "run" {
                assert!(declared_members(declarations_of(name)).contains("fns"));
                continue;
            }
            let built: std::collections::BTreeSet<String> = table
                .pairs::<String, mlua::Value>()
                .map(|pair| pair.unwrap().0)
                .collect();
            assert_eq!(
                built,
                declared_members(declarations_of(name)),
                "the {name} capability and its .d.luau disagree"
            );
        }
    }

    #[test]
    fn the_embedded_prelude_is_the_prelude_compiled_now() {
        for (module, (name, source)) in PRELUDE.iter().zip(PRELUDE_SOURCE) {
            assert_eq!(module.name, name);
            let now = crate::assets::compiler().compile(source).unwrap();
            assert!(
                module.bytecode == now.as_slice(),
                "prelude/{name}.luau: the bytecode build.rs embedded differs from compiling it with this Luau and setting"
            );
        }
    }
}
