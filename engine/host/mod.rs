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
#[path = "../../tests/unit/host/classes.rs"]
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
pub(crate) use declarations::named_inputs;
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
#[path = "../../tests/unit/host/mod.rs"]
mod tests;
