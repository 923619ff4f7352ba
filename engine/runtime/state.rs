//! What one run owns: its index snapshot, its tool instances, its output, its counters.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use mlua::{Function, Lua, Table, Value};

use crate::assets::{AssetIndex, FolderKey};
use crate::registry::Registry;

/// Per-run state, stored in the VM's app data for the host functions to reach.
pub struct RunState {
    /// The index the run started with.
    pub index: Arc<AssetIndex>,
    /// Tool functions instantiated in this run, by identity.
    pub tools: HashMap<String, Function>,
    /// Toolbox modules instantiated in this run (`None` while one is loading: a cycle).
    pub modules: HashMap<(FolderKey, String), Option<Value>>,
    /// The script's own environment (for `loadstring`).
    pub env: Option<Table>,
    /// Captured `print` output.
    pub stdout: String,
    /// Write `print` output straight to the process's stdout instead of capturing it.
    pub echo: bool,
    /// Bytes printed so far (echoed or not).
    pub printed: usize,
    /// Coroutines created so far and the cap.
    pub coroutines: usize,
    /// The run's limits.
    pub limits: super::Limits,
    /// Upstream calls started by `tools.parallel` and not yet taken, with their ids;
    /// dropped (so cancelled upstream) when the run ends.
    pub upstream_calls: (Vec<u64>, Vec<crate::upstream::PendingCall>),
    /// The id of the next upstream call.
    pub next_call: u64,
    /// Bytes written through `vfs.write` in this run (each write counts at least a block).
    pub written: usize,
    /// The limit that stopped the run, recorded where it tripped (the deadline and the
    /// stop check are recorded by the interrupt instead).
    pub stop: Option<super::StopCause>,
    /// The registry the run reads (the world for `vfs`, the index to update after a write).
    pub registry: Option<Arc<Registry>>,
}

impl RunState {
    /// A fresh state for a run over `index`.
    pub fn new(index: Arc<AssetIndex>, limits: &super::Limits, echo: bool) -> RunState {
        RunState {
            index,
            tools: HashMap::new(),
            modules: HashMap::new(),
            env: None,
            stdout: String::new(),
            echo,
            printed: 0,
            coroutines: 0,
            limits: limits.clone(),
            upstream_calls: (Vec::new(), Vec::new()),
            next_call: 1,
            written: 0,
            stop: None,
            registry: None,
        }
    }

    /// Reads the changes at `paths` into the registry and into this run's own snapshot,
    /// so a run sees its own writes (and only those: other edits wait for the next run).
    /// Instances of tools and modules whose files changed are dropped.
    pub fn refresh(&mut self, paths: &[PathBuf]) {
        if let Some(registry) = &self.registry {
            registry.apply_changes(paths);
        }
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

/// Runs `f` with the current run's state; errors when called outside a run.
pub fn with_state<R>(lua: &Lua, f: impl FnOnce(&mut RunState) -> R) -> mlua::Result<R> {
    let mut state = lua
        .app_data_mut::<RunState>()
        .ok_or_else(|| mlua::Error::runtime("no script is running"))?;
    Ok(f(&mut state))
}
