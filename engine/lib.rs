//! codemode: a code-mode tool engine. Sandboxed Luau scripts drive tools that live as
//! folders on disk; the folders are the registry.
//!
//! An embedder opens a [`World`], makes a [`Runtime`] over it and runs [`RunRequest`]s,
//! each answered by an [`Envelope`]:
//!
//! ```
//! use codemode::{Options, RunRequest, World};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir_all(dir.path().join("text.toolbox/shout.tool"))?;
//! std::fs::write(
//!     dir.path().join("text.toolbox/shout.tool/init.luau"),
//!     "--!desc Shout.\n--!arg s string Text.\n--!return string Loud.\n\
//!      local function shout(s: string): string\n\treturn string.upper(s)\nend\n\nreturn shout\n",
//! )?;
//! let options = Options { bundled: false, ..Options::default() };
//! let world = World::open_with(dir.path(), &options)?;
//! let mut runtime = world.runtime()?;
//! let envelope = runtime.run(RunRequest::new("return tools.text.shout('hi')"));
//! assert!(envelope.ok, "{}", envelope.to_json());
//! assert_eq!(envelope.value, Some(serde_json::json!("HI")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What this file re-exports is the whole public API (the facade); every module is
//! crate-private, so what uses the library from outside (the `codemode` binary, the
//! integration tests, the examples) can reach nothing else. The modules:
//!
//! - `auth` says who may call `codemode serve --http` and with which profile
//!   (agent tokens, JWTs);
//! - `assets` finds and reads toolboxes and tools (the asset index);
//! - `registry` holds the roots and the current index snapshot;
//! - `repl` is the interactive session behind `codemode repl`;
//! - `sandbox` is the Luau VM with its limits, deadline and per-run context; it knows
//!   nothing of capabilities, which a host hands it (`sandbox/linker.rs`);
//! - `host` holds the capabilities handed to the prelude, the per-run state and cache;
//! - `runtime` composes sandbox, host and registry: it runs scripts and builds the
//!   envelope, and calls one tool, or one `tools` function, without source (`runtime/call.rs`);
//! - `bind` checks arguments against a tool's schema and reads command lines;
//! - `check` type-checks scripts and tools against the tools' declarations, in a
//!   checker process of its own (the `codemode-check` binary);
//! - `audit` writes the operator's log of runs and tool calls (`.codemode/audit.jsonl`);
//! - `cache` keeps files under `<world>/.codemode/cache/` that spare a new process work;
//! - `vfs` reads and writes files confined to the world, atomically;
//! - `mcp` serves tool_exec and search_tools over MCP (`codemode serve`);
//! - `search` ranks tools, toolboxes and workflows for `tools.search`;
//! - `policy` says what a run may do: its host capabilities;
//! - `net` is outbound HTTP for the `http` capability: allowed hosts, the address
//!   guard, credentials, the checked request;
//! - `shell` starts allowed commands for the `shell` capability: no shell, a clean
//!   environment, capped output, the process group killed at its limit;
//! - `results` keeps the results of tools that opt in, for reuse and later reading;
//! - `upstream` reads `mcpServers` configurations and calls the tools of those MCP
//!   servers (started lazily, cached catalogues, deadlines, cancellation);
//! - `cli` is the command line, which the `codemode` binary runs ([`main`]).
//!
//! The layers and which module imports which: `docs/architecture.md`.

pub(crate) mod assets;
pub(crate) mod audit;
pub(crate) mod auth;
pub(crate) mod bind;
pub(crate) mod cache;
pub(crate) mod check;
pub(crate) mod cli;
pub(crate) mod docs;
pub(crate) mod host;
pub(crate) mod interop;
pub(crate) mod mcp;
pub(crate) mod net;
pub(crate) mod openapi;
pub(crate) mod policy;
pub(crate) mod registry;
pub(crate) mod repl;
pub(crate) mod results;
pub(crate) mod runtime;
pub(crate) mod sandbox;
pub(crate) mod search;
pub(crate) mod secrets;
pub(crate) mod shell;
pub(crate) mod types;
pub(crate) mod upstream;
pub(crate) mod vfs;
pub(crate) mod world;

// The crate's own tests of its insides (`tests/internal/`, compiled into the library's
// test binary) share `tests/common` with the integration tests, which name the crate
// `codemode`.
#[cfg(test)]
extern crate self as codemode;
#[cfg(test)]
#[path = "../tests/internal/mod.rs"]
mod tests;

// The benchmarks of the engine's insides (`examples/internal/`), which the examples of the
// same names run: not part of the facade.
#[cfg(feature = "bench")]
#[doc(hidden)]
#[path = "../examples/internal/mod.rs"]
pub mod benches;

pub use bind::{Reason, Refusal};
pub use check::{Diagnostic, Mode as CheckMode, Severity};
pub use cli::main;
pub use policy::PolicyError;
pub use registry::RegistryError;
pub use runtime::{
    Args, Call, Called, Check, Envelope, ErrorKind, Output, Pool, PoolError, Rendered, RunRequest,
    Runtime, ScriptError, Session, StartError, Surface, Truncation,
};
pub use sandbox::{Limits, StopCause, StopCheck};
pub use world::{OpenError, Options, World};
