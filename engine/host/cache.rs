//! The per-run cache, in one place: the prelude's `run` table (`run.fns`, the tool
//! functions resolved in this run; `run.boxes`, the toolbox names of the run's index;
//! `run.upstreamBoxes`; `run.parallel`; `run.raised`, what the run last passed to `error`) and the run's instances in [`State`]. It is reset
//! when a run begins and when a run changes the world (`vfs.write`, `tools.create`), so
//! the run's next `tools.<box>.<name>` sees the new files while the hot path stays in Luau.

/// The Luau declarations of this capability (`cache.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("cache.d.luau");

use std::path::PathBuf;
use std::sync::Arc;

use mlua::{Lua, Table, Value};

use crate::assets::AssetIndex;

use super::state::{with_state, State};

/// The `run` table and the index whose toolbox names `run.boxes` holds, for the life of
/// a VM.
struct RunCache {
    run: Table,
    boxes_of: Option<Arc<AssetIndex>>,
}

/// Builds the prelude's `run` capability (once per VM): data only, the linker refuses a
/// function in it (`Linker::data`).
pub(crate) fn module(lua: &Lua) -> mlua::Result<Table> {
    let run = lua.create_table()?;
    lua.set_app_data(RunCache {
        run: run.clone(),
        boxes_of: None,
    });
    Ok(run)
}

/// Resets the cache for a run over `state`'s index. The toolbox names are rebuilt only
/// when the index is not the one they were built for.
pub(crate) fn begin(lua: &Lua, state: &State) -> mlua::Result<()> {
    let mut cache = lua
        .app_data_mut::<RunCache>()
        .ok_or_else(|| mlua::Error::runtime("the VM has no run cache"))?;
    cache.run.raw_set("fns", lua.create_table()?)?;
    cache.run.raw_set("upstreamBoxes", Value::Nil)?;
    cache.run.raw_set("parallel", Value::Nil)?;
    cache.run.raw_set("raised", Value::Nil)?;
    if !cache
        .boxes_of
        .as_ref()
        .is_some_and(|seen| Arc::ptr_eq(seen, &state.index))
    {
        cache
            .run
            .raw_set("boxes", toolbox_set(lua, &state.index)?)?;
        cache.boxes_of = Some(state.index.clone());
    }
    Ok(())
}

/// After a run changed the files at `paths`: reads them into the registry and the run's
/// snapshot (dropping instances of what changed) and the prelude's resolved functions and
/// toolbox names.
pub(crate) fn changed(lua: &Lua, paths: &[PathBuf]) -> mlua::Result<()> {
    let index = with_state(lua, |s| {
        s.refresh(paths);
        s.index.clone()
    })?;
    let mut cache = lua
        .app_data_mut::<RunCache>()
        .ok_or_else(|| mlua::Error::runtime("the VM has no run cache"))?;
    cache.run.raw_set("fns", lua.create_table()?)?;
    cache.run.raw_set("boxes", toolbox_set(lua, &index)?)?;
    cache.boxes_of = Some(index);
    Ok(())
}

/// The last value other than a string or number the run passed to `error` (noted by
/// `prelude/error.luau`), if any.
pub(crate) fn raised(lua: &Lua) -> Option<Value> {
    let cache = lua.app_data_ref::<RunCache>()?;
    cache
        .run
        .raw_get::<Value>("raised")
        .ok()
        .filter(|v| !v.is_nil())
}

fn toolbox_set(lua: &Lua, index: &AssetIndex) -> mlua::Result<Table> {
    let boxes = lua.create_table()?;
    for name in index.toolbox_names() {
        boxes.raw_set(name, true)?;
    }
    Ok(boxes)
}
