//! The engine's one compiler setting, for tools, scripts, `loadstring` and the prelude.
//! `build.rs` includes this file too, so the prelude it compiles ahead of time gets the
//! same setting as everything compiled at run time.

use mlua::chunk::Compiler;

/// The engine's compiler settings. (No type information: it only serves native code
/// generation, which the engine does not use.)
pub(crate) fn compiler() -> Compiler {
    Compiler::new().set_optimization_level(2)
}
