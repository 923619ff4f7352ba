//! Meaning-vector search at scale: the int8 brute-force scan codemode runs
//!
//! The code (and how to run it) is in `examples/internal/bench_ann.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_ann::main()
}
