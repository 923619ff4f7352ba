//! What the `http` and `shell` capabilities cost over doing the same from Rust directly,
//!
//! The code (and how to run it) is in `examples/internal/bench_netshell.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::bench_netshell::main()
}
