//! Compiles Luau 0.710's Common, Ast, VM, Compiler, Config and Analysis libraries (copied
//! whole from the luau-analyze crate 0.0.1, which pins that tag; MIT, `luau/LICENSE.txt`).
//!
//! The sources live in this repository rather than being read from the registry's copy of
//! luau-analyze: a build script cannot find another crate's files reliably (that crate
//! publishes no include path), and a copy here builds on a clean machine with nothing but
//! a C++17 compiler. The shim that binds them (`vendor/luau-analyze`) is a crate of its
//! own, so changing it recompiles one file, not Luau.
//!
//! `DEP_LUAU_ANALYSIS_ROOT` tells a dependent crate where `luau/` is.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("luau");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=luau");
    println!("cargo:root={}", root.display());

    let mut base = cc::Build::new();
    base.cpp(true)
        .std("c++17")
        .warnings(false)
        .define("LUAI_MAXCSTACK", "1000000")
        .define("LUA_VECTOR_SIZE", "3")
        .define("LUA_API", "extern \"C\"")
        .define("LUACODE_API", "extern \"C\"");
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        base.define("LUAU_ENABLE_ASSERT", None);
    } else {
        // Without NDEBUG, Luau checks its assertions in release builds too.
        base.define("NDEBUG", None);
        base.flag_if_supported("-fno-math-errno");
    }

    let include = |lib: &str| root.join(lib).join("include");
    // Each library with the libraries whose headers it includes, in link order reversed.
    let libraries: [(&str, &[&str]); 6] = [
        ("Common", &[]),
        ("Ast", &["Common"]),
        ("VM", &["Common"]),
        ("Compiler", &["Ast", "Common"]),
        ("Config", &["VM", "Compiler", "Ast", "Common"]),
        ("Analysis", &["Config", "VM", "Compiler", "Ast", "Common"]),
    ];
    for (lib, needs) in libraries {
        let mut build = base.clone();
        build.include(include(lib));
        for need in needs {
            build.include(include(need));
        }
        for source in cpp_sources(&root.join(lib).join("src")) {
            build.file(source);
        }
        build.compile(&format!("luau_{}", lib.to_lowercase()));
    }
    // A static library's symbols are found only in the ones named after it: the most
    // dependent first.
    for lib in ["analysis", "config", "compiler", "vm", "ast", "common"] {
        println!("cargo:rustc-link-lib=static=luau_{lib}");
    }
}

/// The `.cpp` files of `dir`, sorted so the build is the same everywhere.
fn cpp_sources(dir: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cpp"))
        .collect();
    sources.sort();
    sources
}
