//! The `threads` capability: the coroutines the engine drives itself (the functions of
//! `tools.parallel`, a cached tool call that misses), which scripts can neither resume
//! nor close (`engine/sandbox/coroutines.rs` guards the script-visible `coroutine`, and
//! makes this table: `host::linker` asks for it with `Linker::threads`).

/// The Luau declarations of this capability, for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("threads.d.luau");
