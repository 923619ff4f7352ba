//! Build steps the engine needs before it compiles:
//!
//! - rebuild when the bundled toolboxes change: `include_dir!` cannot tell cargo which
//!   files it read, so without this an edited or added tool would not reach the binary;
//! - compile the engine's own Luau (the prelude, the sandbox's helpers) to bytecode once,
//!   here, with the engine's compiler setting (the same file the engine uses) and the
//!   same Luau (the same `mlua`), so no VM start pays for compiling it. Tests check each
//!   embedded chunk against compiling its source at run time;
//! - compile every Luau file of the bundled toolboxes the same way, listed with its source
//!   in `$OUT_DIR/bundled_bytecode.rs`: a one-shot run that declares or calls a bundled
//!   tool takes its bytecode instead of compiling it.

#[path = "engine/assets/compiler.rs"]
mod compiler;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
    bundled(&dir.join("bundled"), &out.join("bundled_bytecode.rs"));
}

/// Compiles each `.luau` file under `toolboxes/` that compiles (a broken one is the
/// engine's to report at run time) and writes the list of `(source, bytecode)` pairs.
fn bundled(dir: &Path, list: &Path) {
    std::fs::create_dir_all(dir).expect("create OUT_DIR/luau/bundled");
    let mut files = Vec::new();
    luau_files(Path::new("toolboxes"), &mut files);
    files.sort();
    let mut text = String::from("&[\n");
    for (n, path) in files.iter().enumerate() {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(bytecode) = compiler::compiler().compile(&source) else {
            continue;
        };
        let chunk = dir.join(format!("{n}.luauc"));
        std::fs::write(&chunk, bytecode).expect("write a bundled tool's bytecode");
        let source = std::fs::canonicalize(path).expect("a bundled file's path");
        let _ = writeln!(
            text,
            "\t(include_str!({:?}), include_bytes!({:?})),",
            source.display().to_string(),
            chunk.display().to_string()
        );
    }
    text.push_str("]\n");
    std::fs::write(list, text).expect("write OUT_DIR/bundled_bytecode.rs");
}

/// Every `.luau` file under `dir`. (A build script's own walk: ten lines, no build
/// dependency.)
fn luau_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            luau_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "luau") {
            out.push(path);
        }
    }
}
