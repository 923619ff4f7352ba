//! Live reload in a world of 10,000 tools.
//!
//! The code (and how to run it) is in `examples/internal/bench_reload.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_reload::main()
}
