//! Luau's type checker as static libraries: this crate holds no Rust, only the build of
//! Luau's C++ sources under `luau/` (see `build.rs`). A crate that binds them reads the
//! include folders from the `DEP_LUAU_ANALYSIS_ROOT` variable its build script is given.
#![no_std]
