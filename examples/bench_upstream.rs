//! Benchmark of upstream MCP servers as toolboxes, against real servers (server-everything,
//!
//! The code (and how to run it) is in `examples/internal/bench_upstream.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_upstream::main()
}
