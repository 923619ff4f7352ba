//! Benchmark of the core engine, each figure against a baseline measured in the same run.
//!
//! The code (and how to run it) is in `examples/internal/bench.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench::main()
}
