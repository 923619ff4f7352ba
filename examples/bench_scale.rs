//! Scale: generated worlds of 1,000, 10,000 and 100,000 tools (50 per toolbox, well-formed
//!
//! The code (and how to run it) is in `examples/internal/bench_scale.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_scale::main()
}
