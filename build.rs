//! Build steps the engine needs before it compiles:
//!
//! - rebuild when the bundled toolboxes change: `include_dir!` cannot tell cargo which
//!   files it read, so without this an edited or added tool would not reach the binary;
//! - compile the engine's own Luau (the prelude, the sandbox's helpers) to bytecode once,
//!   here, with the engine's compiler setting (the same file the engine uses) and the
//!   same Luau (the same `mlua`), so no VM start pays for compiling it. Tests check each
//!   embedded chunk against compiling its source at run time.

#[path = "engine/assets/compiler.rs"]
mod compiler;

use std::path::PathBuf;

/// The engine's Luau sources, each compiled to `$OUT_DIR/luau/<name>.luauc`.
const CHUNKS: [(&str, &str); 3] = [
    ("error", "prelude/error.luau"),
    ("tools", "prelude/tools.luau"),
    ("bounded", "engine/sandbox/bounded.luau"),
];

fn main() {
    println!("cargo:rerun-if-changed=toolboxes");
    println!("cargo:rerun-if-changed=engine/assets/compiler.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let dir = out.join("luau");
    std::fs::create_dir_all(&dir).expect("create OUT_DIR/luau");
    for (name, path) in CHUNKS {
        println!("cargo:rerun-if-changed={path}");
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
        let bytecode = compiler::compiler()
            .compile(&source)
            .unwrap_or_else(|e| panic!("{path} does not compile: {e}"));
        std::fs::write(dir.join(format!("{name}.luauc")), bytecode)
            .unwrap_or_else(|e| panic!("write the bytecode of {path}: {e}"));
    }
}
