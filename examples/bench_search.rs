//! Benchmark of discovery at 10,000 tools (a generated world): index build time, query
//!
//! The code (and how to run it) is in `examples/internal/bench_search.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_search::main()
}
