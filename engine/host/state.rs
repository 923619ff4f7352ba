//! What one run holds for the host: its index snapshot, its tool and module instances,
//! the registry it reads and writes, its upstream calls and its write budget. Host
//! functions reach it, with the sandbox's accounting of the run, through [`with_state`].

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use mlua::{Function, Lua, Value};

use crate::assets::{AssetIndex, FolderKey};
use crate::check::Checking;
use crate::registry::Registry;
use crate::sandbox::{with_context, Context};

/// When an upstream call's own `limits.timeoutMs` (the ms) ends it, if it has one.
pub(crate) type OwnLimit = Option<(std::time::Instant, u64)>;

/// The host's data for one run, handed to the sandbox when the run begins.
pub(crate) struct State {
    /// The index the run started with, plus the run's own writes.
    pub index: Arc<AssetIndex>,
    /// Tool functions instantiated in this run, by identity.
    pub tools: HashMap<String, Function>,
    /// Toolbox modules instantiated in this run (`None` while one is loading: a cycle).
    pub modules: HashMap<(FolderKey, String), Option<Value>>,
    /// The registry the run reads: the world for `vfs`, the index to update after a
    /// write, search, install and the upstream servers.
    pub registry: Arc<Registry>,
    /// Upstream calls started by `tools.parallel` and not yet taken, with their ids;
    /// dropped (so cancelled upstream) when the run ends.
    /// Each id carries the call's own deadline and limit, when its configuration gives one.
    pub upstream_calls: (Vec<(u64, OwnLimit)>, Vec<crate::upstream::PendingCall>),
    /// The id of the next upstream call.
    pub next_call: u64,
    /// Bytes written through `vfs.write` in this run (each write counts at least a block).
    pub written: usize,
    /// The type checker of the engine running this run, when it has one: a tool written
    /// by `tools.create` is checked with it.
    pub checking: Option<Arc<Checking>>,
    /// The world's result cache, once a call of this run needed it.
    pub results: Option<Arc<crate::results::Shared>>,
    /// Tools whose results were cut to their `limits.maxOutputBytes`, with that cap:
    /// the envelope says so.
    pub cuts: Vec<(String, usize)>,
    /// The run's audit lines, when the registry keeps a log (the runtime sets it).
    pub audit: Option<crate::audit::Trail>,
    /// Set when the result cache answered a call, until the call's audit line says so.
    pub answered_from_cache: bool,
}

impl State {
    /// A fresh state for a run over `index`, a snapshot of `registry`.
    pub(crate) fn new(index: Arc<AssetIndex>, registry: Arc<Registry>) -> State {
        State {
            index,
            tools: HashMap::new(),
            modules: HashMap::new(),
            registry,
            upstream_calls: (Vec::new(), Vec::new()),
            next_call: 1,
            written: 0,
            checking: None,
            results: None,
            cuts: Vec::new(),
            audit: None,
            answered_from_cache: false,
        }
    }

    /// Reads the changes at `paths` into the registry and into this run's own snapshot,
    /// so a run sees its own writes (and only those: other edits wait for the next run).
    /// Instances of tools and modules whose files changed are dropped.
    pub(crate) fn refresh(&mut self, paths: &[PathBuf]) {
        self.registry.apply_changes(paths);
        if !self.index.touches(paths) {
            return;
        }
        let before = self.index.clone();
        let after = Arc::new(before.apply(paths));
        self.tools
            .retain(|id, _| match (before.tool(id), after.tool(id)) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            });
        self.modules.retain(
            |(key, _), _| match (before.folder(key), after.folder(key)) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            },
        );
        self.index = after;
    }
}

/// Runs `f` with the current run's context: the host's [`State`] (which the context
/// dereferences to) and the sandbox's accounting (`cx.run`). Errors outside a run.
pub(crate) fn with_state<R>(
    lua: &Lua,
    f: impl FnOnce(&mut Context<'_, State>) -> R,
) -> mlua::Result<R> {
    with_context(lua, f)
}

/// The registry of the running script.
pub(crate) fn registry(lua: &Lua) -> mlua::Result<Arc<Registry>> {
    with_state(lua, |s| s.registry.clone())
}
