//! Retrieval evaluation of `tools.search`.
//!
//! The code (and how to run it) is in `examples/internal/search_eval.rs`, compiled into the
//! library under the `bench` feature, since it reaches inside the crate.

fn main() {
    codemode::benches::search_eval::main()
}
