//! Compiling Luau source to bytecode, once per file version.

use mlua::chunk::Compiler;

/// Compiles `source` with the engine's settings. The error is the compiler's message.
pub fn compile(source: &str) -> Result<Vec<u8>, String> {
    Compiler::new()
        .set_optimization_level(2)
        .set_type_info_level(1)
        .compile(source)
        .map_err(|e| match e {
            mlua::Error::SyntaxError { message, .. } => message,
            other => other.to_string(),
        })
}
