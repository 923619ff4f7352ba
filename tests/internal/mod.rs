//! The crate's own tests of its parts working together, which reach inside the crate (a
//! registry opened by hand, a profile's capabilities, the type checker's client, the type
//! model, the binder, the upstream clients). An embedder, and so an integration test in
//! `tests/*.rs`, sees only the facade (`engine/lib.rs`); these files are compiled into
//! the library's test binary instead (`engine/lib.rs` includes this folder), and run with
//! `cargo test --lib`. Some also run the binaries, found beside the test binary's `deps/`
//! folder: `cargo test` builds them first, `cargo test --lib` alone does not. They share
//! `tests/common` with the integration tests.

#[path = "../common/mod.rs"]
pub(crate) mod common;

pub(crate) use common::World;

/// The reference MCP servers the upstream tests start.
#[path = "../upstream/servers.rs"]
pub(crate) mod servers;

mod agent_alone;
mod bundled;
mod check;
mod check_corpus;
mod check_flow;
mod check_literal;
mod check_mode;
mod check_named;
mod check_replies;
mod check_reply_store;
mod check_repo;
mod check_tool_source;
mod confine;
mod fuzz;
mod http;
mod index_cache;
mod policy;
mod reload;
mod results;
mod runtime_call;
mod scale;
mod search_meaning;
mod secrets;
mod shell;
mod type_agreement;
mod types;
mod upstream;
mod upstream_surfaces;
mod vfs_race;
