//! Benchmark of the type check before a script runs, each figure against a baseline
//!
//! The code (and how to run it) is in `examples/internal/bench_check.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_check::main()
}
