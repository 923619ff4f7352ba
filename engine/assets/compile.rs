//! Compiling Luau source to bytecode, once per file version. The bundled toolboxes' files
//! are compiled when the engine is built (`build.rs`, with the same settings): a source
//! that is one of them, byte for byte, takes that bytecode.

use std::collections::HashMap;
use std::sync::OnceLock;

pub(crate) use super::compiler::compiler;

/// The largest tool file (`init.luau`, a module, `render.luau`) the engine reads or
/// compiles. Compiling runs outside any run's deadline (once per file version, for
/// everyone), and Luau's compiler takes time and memory that grow faster than the source.
pub(crate) const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// The message for a file over [`MAX_SOURCE_BYTES`].
pub(crate) fn too_large(bytes: usize) -> String {
    format!(
        "is {} KiB; a tool's Luau file may be at most {} KiB: keep data in a separate file (read it with vfs.read) or split the code into modules",
        bytes.div_ceil(1024),
        MAX_SOURCE_BYTES >> 10
    )
}

/// Where `source` holds a NUL byte, as `line: message`: Luau's lexer takes the byte for the
/// end of the source, so what follows it would be skipped without a word.
pub(crate) fn nul_problem(source: &[u8]) -> Option<String> {
    let at = source.iter().position(|&b| b == 0)?;
    let before = &source[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1)
        + 1;
    Some(format!(
        "{line}: a NUL byte at column {column}: Luau reads a source only up to it, so what follows would never run; remove it (write \"\\0\" for a zero byte in a string)"
    ))
}

/// Compiles `source` with the engine's settings. The error is the compiler's message, or
/// says the source is over [`MAX_SOURCE_BYTES`].
pub(crate) fn compile(source: &str) -> Result<Vec<u8>, String> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(format!("the source {}", too_large(source.len())));
    }
    if let Some(problem) = nul_problem(source.as_bytes()) {
        return Err(problem);
    }
    if let Some(bytecode) = precompiled(source) {
        return Ok(bytecode.to_vec());
    }
    compiler().compile(source).map_err(|e| match e {
        mlua::Error::SyntaxError { message, .. } => message,
        other => other.to_string(),
    })
}

/// The bundled toolboxes' Luau files that compile, each with its bytecode.
pub(crate) const PRECOMPILED: &[(&str, &[u8])] =
    include!(concat!(env!("OUT_DIR"), "/bundled_bytecode.rs"));

/// The bytecode `build.rs` compiled for `source`, when it is a bundled file's.
fn precompiled(source: &str) -> Option<&'static [u8]> {
    static BY_SOURCE: OnceLock<HashMap<&str, &[u8]>> = OnceLock::new();
    BY_SOURCE
        .get_or_init(|| PRECOMPILED.iter().copied().collect())
        .get(source)
        .copied()
}
