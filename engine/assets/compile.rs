//! Compiling Luau source to bytecode, once per file version.

pub use super::compiler::compiler;

/// The largest tool file (`init.luau`, a module, `render.luau`) the engine reads or
/// compiles. Compiling runs outside any run's deadline (once per file version, for
/// everyone), and Luau's compiler takes time and memory that grow faster than the source.
pub const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// The message for a file over [`MAX_SOURCE_BYTES`].
pub(crate) fn too_large(bytes: usize) -> String {
    format!(
        "is {} KiB; a tool's Luau file may be at most {} KiB: keep data in a separate file (read it with vfs.read) or split the code into modules",
        bytes.div_ceil(1024),
        MAX_SOURCE_BYTES >> 10
    )
}

/// Compiles `source` with the engine's settings. The error is the compiler's message, or
/// says the source is over [`MAX_SOURCE_BYTES`].
pub fn compile(source: &str) -> Result<Vec<u8>, String> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(format!("the source {}", too_large(source.len())));
    }
    compiler().compile(source).map_err(|e| match e {
        mlua::Error::SyntaxError { message, .. } => message,
        other => other.to_string(),
    })
}
