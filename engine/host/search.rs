//! The `search` capability: `search.query(query, opts)` ranks the run's assets.
//!
//! The arguments are checked by [`SearchRequest::check`], the check the command line and
//! MCP `search_tools` use too.

/// The Luau declarations of this capability (`search.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("search.d.luau");

use mlua::{Lua, LuaSerdeExt, Table, Value};

use crate::sandbox::{Capability, Effect, HostError};
use crate::search::{AssetType, Given, SearchError, SearchRequest};

use super::refusal::missing_toolbox;
use super::state::{registry, with_state};

/// More option entries than this are not read: the first unknown one is reported anyway.
const MAX_OPTIONS: usize = 16;

/// The `search` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("search")
        .function("query", Effect::Read, query)
        .reaching(Effect::Upstream)
}

fn query(lua: &Lua, (query, opts): (Value, Option<Table>)) -> mlua::Result<Value> {
    let request = SearchRequest::check(given(&query), options(opts.as_ref())).map_err(|e| {
        HostError::hinted(format!("tools.search: {}", e.message("opts.")), e.hint()).into_lua()
    })?;
    let index = with_state(lua, |s| s.index.clone())?;
    let registry = registry(lua)?;
    // A search covers every server's tools (or one toolbox's): those not fetched yet
    // are fetched first.
    let upstream = super::upstream::fetched(lua, request.toolbox.as_deref())?
        .map_or_else(Vec::new, |(_, v)| v);
    let mut result = registry
        .search()
        .search_with(&index, &upstream, &request)
        .map_err(|e| match e {
            SearchError::UnknownToolbox(name) => {
                missing_toolbox(&index, &upstream, &name).into_lua()
            }
            other => HostError::new(other.to_string()).into_lua(),
        })?;
    if !registry.capabilities().authoring {
        // The functions of `tools` are indexed for every profile; these are not this one's.
        let before = result.rows.len();
        result.rows.retain(|row| {
            !(row.asset_type == AssetType::Function
                && row
                    .identity
                    .strip_prefix("tools.")
                    .is_some_and(|name| super::asset::AUTHORING.contains(&name)))
        });
        result.total -= before - result.rows.len();
    }
    let options = mlua::serde::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false);
    lua.to_value_with(&result, options)
}

/// The entries of `opts`, read raw (no metamethod runs), sorted by name so that the first
/// problem reported does not depend on the table's hash order.
fn options(opts: Option<&Table>) -> Vec<(String, Given)> {
    let Some(opts) = opts else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let _ = opts.for_each(|k: Value, v: Value| {
        if out.len() >= MAX_OPTIONS {
            return Err(mlua::Error::runtime("enough"));
        }
        let name = match &k {
            Value::String(s) => s.to_string_lossy(),
            other => other
                .to_string()
                .unwrap_or_else(|_| other.type_name().into()),
        };
        out.push((name, given(&v)));
        Ok(())
    });
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A Luau value as the search check reads it.
fn given(value: &Value) -> Given {
    match value {
        Value::Nil => Given::Absent,
        Value::String(s) => Given::Text(s.to_string_lossy()),
        Value::Integer(n) => Given::Number(*n as f64),
        Value::Number(n) => Given::Number(*n),
        Value::Boolean(b) => Given::Flag(*b),
        Value::Table(_) => Given::Other("a table"),
        Value::Function(_) => Given::Other("a function"),
        Value::Thread(_) => Given::Other("a thread"),
        Value::Buffer(_) => Given::Other("a buffer"),
        Value::Vector(_) => Given::Other("a vector"),
        _ => Given::Other("a userdata"),
    }
}
