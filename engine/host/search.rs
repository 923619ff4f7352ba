//! The `search` capability: `search.query(query, opts)` ranks the run's assets.

use std::sync::Arc;

use mlua::{Lua, LuaSerdeExt, Table, Value};

use crate::registry::Registry;
use crate::runtime::{with_state, HostError};
use crate::search::{Mode, SearchError, SearchRequest};

use super::asset::missing_toolbox;

/// Builds the read-only `search` table.
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("query", lua.create_function(query)?)?;
    t.set_readonly(true);
    Ok(t)
}

/// The registry of the runtime this VM belongs to.
pub fn registry(lua: &Lua) -> mlua::Result<Arc<Registry>> {
    lua.app_data_ref::<Arc<Registry>>()
        .map(|r| r.clone())
        .ok_or_else(|| HostError::new("search needs a runtime bound to a registry").into_lua())
}

fn query(lua: &Lua, (query, opts): (Value, Option<Table>)) -> mlua::Result<Value> {
    let text = match query {
        Value::Nil => String::new(),
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(HostError::hinted(
                format!("tools.search needs a query string, got a {}", other.type_name()),
                "tools.search('send an email') or tools.search('', { toolbox = 'text' }) to list a toolbox",
            )
            .into_lua())
        }
    };
    let request = request(text, opts.as_ref())?;
    let index = with_state(lua, |s| s.index.clone())?;
    let result = registry(lua)?
        .search()
        .search(&index, &request)
        .map_err(|e| match e {
            SearchError::UnknownToolbox(name) => missing_toolbox(&index, &name).into_lua(),
            other => hint(other).into_lua(),
        })?;
    let options = mlua::serde::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false);
    lua.to_value_with(&result, options)
}

fn request(query: String, opts: Option<&Table>) -> mlua::Result<SearchRequest> {
    let mut request = SearchRequest::new(query);
    let Some(opts) = opts else {
        return Ok(request);
    };
    match opts.raw_get::<Value>("mode")? {
        Value::Nil => {}
        Value::String(s) => {
            request.mode = Mode::parse(&s.to_string_lossy()).map_err(|e| hint(e).into_lua())?
        }
        other => return Err(wrong("mode", "\"keyword\" or \"semantic\"", &other)),
    }
    match opts.raw_get::<Value>("toolbox")? {
        Value::Nil => {}
        Value::String(s) => request.toolbox = Some(s.to_string_lossy()),
        other => return Err(wrong("toolbox", "a toolbox name", &other)),
    }
    match opts.raw_get::<Value>("limit")? {
        Value::Nil => {}
        Value::Integer(n) => {
            request.limit = SearchRequest::limit_from(n as f64).map_err(|e| hint(e).into_lua())?
        }
        Value::Number(n) => {
            request.limit = SearchRequest::limit_from(n).map_err(|e| hint(e).into_lua())?
        }
        other => return Err(wrong("limit", "a whole number", &other)),
    }
    Ok(request)
}

fn wrong(field: &str, expected: &str, got: &Value) -> mlua::Error {
    HostError::hinted(
        format!(
            "tools.search: opts.{field} must be {expected}, got a {}",
            got.type_name()
        ),
        "opts takes mode (\"keyword\" | \"semantic\"), toolbox (a name) and limit (0 to 1000)",
    )
    .into_lua()
}

fn hint(e: SearchError) -> HostError {
    let next = match &e {
        SearchError::UnknownMode(_) => {
            "tools.search(query, { mode = 'keyword' }) or { mode = 'semantic' } (the default)"
        }
        SearchError::BadLimit(_) => "pass a limit such as 10; 0 returns only the total",
        _ => "tools.toolboxes() lists what exists",
    };
    HostError::hinted(e.to_string(), next)
}
