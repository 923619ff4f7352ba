//! Build steps the engine needs before it compiles:
//!
//! - rebuild when the bundled toolboxes change: `include_dir!` cannot tell cargo which
//!   files it read, so without this an edited or added tool would not reach the binary;
//! - compile the prelude to Luau bytecode once, here, with the engine's own compiler
//!   setting (the same file the engine uses) and the same Luau (the same `mlua`), so no VM
//!   start pays for compiling it. A test checks the embedded bytecode against compiling
//!   the prelude at run time.

#[path = "engine/assets/compiler.rs"]
mod compiler;

use std::path::PathBuf;

/// The prelude modules compiled into `$OUT_DIR/prelude/<name>.luauc`.
const PRELUDE: [&str; 1] = ["tools"];

fn main() {
    println!("cargo:rerun-if-changed=toolboxes");
    println!("cargo:rerun-if-changed=engine/assets/compiler.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let dir = out.join("prelude");
    std::fs::create_dir_all(&dir).expect("create OUT_DIR/prelude");
    for name in PRELUDE {
        let path = format!("prelude/{name}.luau");
        println!("cargo:rerun-if-changed={path}");
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
        let bytecode = compiler::compiler()
            .compile(&source)
            .unwrap_or_else(|e| panic!("{path} does not compile: {e}"));
        std::fs::write(dir.join(format!("{name}.luauc")), bytecode)
            .unwrap_or_else(|e| panic!("write the bytecode of {path}: {e}"));
    }
}
