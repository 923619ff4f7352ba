//! A small client over `codemode::upstream`, for the tests that need one as a program of
//!
//! The code (and how to run it) is in `examples/internal/upstream_client.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() -> std::process::ExitCode {
    codemode::benches::upstream_client::main()
}
