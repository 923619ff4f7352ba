//! The benchmarks (and the small upstream client) that measure the engine's insides: the
//! asset index, search, the checker's client, the upstream clients, a profile's
//! capabilities. An embedder sees only the facade, so these are compiled into the library
//! under the `bench` feature, and each `examples/<name>.rs` runs one:
//! `cargo run --release --features bench --example <name>`.

pub mod bench;
pub mod bench_ann;
pub mod bench_check;
pub mod bench_netshell;
pub mod bench_reload;
pub mod bench_scale;
pub mod bench_search;
pub mod bench_upstream;
pub mod search_eval;
pub mod upstream_client;

/// The generated worlds of the search and scale benchmarks.
mod generated;
