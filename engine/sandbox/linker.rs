//! What a host hands the sandbox to build a VM with: the globals scripts get, the
//! capabilities only the prelude sees, and the prelude itself. The sandbox knows nothing
//! of what these are; it only installs them, in order, before the VM is frozen.

use mlua::{Lua, Table};

/// Builds one table in a fresh VM.
pub(crate) type Build = fn(&Lua) -> mlua::Result<Table>;

/// A prelude module: Luau bytecode compiled with the engine's one compiler setting.
pub struct PreludeModule {
    /// The chunk name errors show (`prelude/<name>`).
    pub name: &'static str,
    /// The global its returned value becomes, if any.
    pub global: Option<&'static str>,
    /// Its bytecode.
    pub bytecode: &'static [u8],
}

/// The capabilities and prelude a VM is built with.
#[derive(Default)]
pub struct Linker {
    pub(crate) globals: Vec<(&'static str, Build)>,
    pub(crate) capabilities: Vec<(&'static str, Build)>,
    pub(crate) prelude: Vec<PreludeModule>,
}

impl Linker {
    /// An empty linker: a VM with the safe standard libraries only.
    pub fn new() -> Linker {
        Linker::default()
    }

    /// Gives scripts the global `name`, built by `build`.
    pub fn global(mut self, name: &'static str, build: Build) -> Linker {
        self.globals.push((name, build));
        self
    }

    /// Gives the prelude (only) the capability `name`, built by `build` once per VM.
    pub fn capability(mut self, name: &'static str, build: Build) -> Linker {
        self.capabilities.push((name, build));
        self
    }

    /// Runs `module` when the VM is built, after the globals and capabilities exist.
    pub fn prelude(mut self, module: PreludeModule) -> Linker {
        self.prelude.push(module);
        self
    }
}
