//! Capabilities handed to Luau: each module builds one read-only table, and
//! [`linker`] hands them, with the prelude that builds `tools` over them, to the sandbox.
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
mod declarations;
pub(crate) mod http;
pub(crate) mod install;
pub(crate) mod instance;
mod permission;
pub(crate) mod render;
pub(crate) mod results;
pub(crate) mod search;
pub(crate) mod shell;
pub(crate) mod state;
pub(crate) mod threads;
pub(crate) mod upstream;
pub(crate) mod vfs;

use crate::policy::Capabilities;
use crate::sandbox::{Linker, PreludeModule};

pub(crate) use asset::AUTHORING;
pub(crate) use cache::raised;
pub use declarations::{definitions, definitions_granted, definitions_named};
pub use state::State;

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
/// grants `granted`.
pub(crate) fn linker(granted: &Capabilities) -> Linker {
    let mut linker = Linker::new()
        // `vfs` is a capability scripts get directly: files of the world only.
        .global("vfs", vfs::module);
    // A capability the profile does not grant is not there at all (nil, undeclared).
    let (with_http, with_shell) = granted_globals(granted);
    if with_http {
        linker = linker.global("http", http::module);
    }
    if with_shell {
        linker = linker.global("shell", shell::module);
    }
    let linker = linker
        .capability("run", cache::module)
        .capability("asset", asset::module)
        .capability("author", author::module)
        .capability("vfs", vfs::module)
        .capability("bind", bind::module)
        .capability("render", render::module)
        .capability("search", search::module)
        .capability("install", install::module)
        .capability("upstream", upstream::module)
        .capability("results", results::module)
        .capability("threads", threads::module)
        .capability("audit", audit::module);
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
        let globals: Vec<&str> = linker.globals.iter().map(|(name, _)| *name).collect();
        assert_eq!(globals, ["vfs", "http", "shell"]);
        let none: Vec<&str> = super::linker(&Capabilities::default())
            .globals
            .iter()
            .map(|(name, _)| *name)
            .collect();
        assert_eq!(none, ["vfs"], "http and shell exist only when granted");
        for (name, build) in linker.globals.iter().chain(&linker.capabilities) {
            // The run cache's fields are set when a run begins, not when it is built.
            if *name == "run" {
                assert!(declared_members(declarations_of(name)).contains("fns"));
                continue;
            }
            // `threads` hands out what the sandbox set up when it built the VM.
            let vm = crate::sandbox::Vm::new(&crate::sandbox::Linker::new()).unwrap();
            let table = build(&vm.lua).unwrap();
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
