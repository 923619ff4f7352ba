//! The `bind` capability: check arguments and read command lines against a tool's schema.
//!
//! Both answers are tables `{ ok = true, args, n }` or `{ ok = false, reason, message }`;
//! `args` is positional, ready for `tool(table.unpack(r.args, 1, r.n))`.

/// The Luau declarations of this capability (`bind.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("bind.d.luau");

use std::path::PathBuf;

use mlua::{Lua, Table, Value};

use crate::assets::AssetIndex;
use crate::bind::{
    check_slots, collect_lua, lua_args, parse_command_line, Reason, Refusal, Schema, Style,
    MAX_WORDS,
};
use crate::sandbox::HostError;

use super::asset::{missing_tool, missing_toolbox};
use super::state::with_state;

/// Builds the read-only `bind` table.
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(
        "bind",
        lua.create_function(|lua, (identity, args): (String, Value)| {
            let index = with_state(lua, |s| s.index.clone())?;
            let schema = match schema(&index, &identity) {
                Ok(s) => s,
                Err(refusal) => return refused(lua, &refusal),
            };
            let slots = match collect_lua(lua, &schema, &args)? {
                Ok(slots) => slots,
                Err(refusal) => return refused(lua, &refusal),
            };
            match check_slots(&schema, &slots, Style::Luau) {
                Ok(()) => bound(
                    lua,
                    slots.into_iter().map(|s| s.unwrap_or(Value::Nil)).collect(),
                ),
                Err(refusal) => refused(lua, &refusal),
            }
        })?,
    )?;
    t.raw_set(
        "parse",
        lua.create_function(
            |lua, (identity, words, cwd): (String, Table, Option<String>)| {
                let index = with_state(lua, |s| s.index.clone())?;
                let words = read_words(&words)?;
                let schema = match schema(&index, &identity) {
                    Ok(s) => s,
                    Err(refusal) => return refused(lua, &refusal),
                };
                let world = index.roots[0].dir().map(PathBuf::from).unwrap_or_default();
                let cwd = cwd.map(|c| world.join(c)).unwrap_or(world);
                match parse_command_line(&schema, &words, &cwd) {
                    Ok(slots) => bound(lua, lua_args(lua, &slots)?),
                    Err(refusal) => refused(lua, &refusal),
                }
            },
        )?,
    )?;
    t.set_readonly(true);
    Ok(t)
}

/// The schema of `identity`, or an unknown-tool refusal naming the nearest tools.
pub(crate) fn schema(index: &AssetIndex, identity: &str) -> Result<Schema, Refusal> {
    if let Some(entry) = index.tool(identity) {
        return Ok(Schema::from_meta(entry.meta()));
    }
    let error = match identity.split_once('.') {
        Some((toolbox, tool)) if index.has_toolbox(toolbox) => missing_tool(index, toolbox, tool),
        Some((toolbox, _)) => missing_toolbox(index, toolbox),
        None => HostError::hinted(
            format!("'{identity}' is not a tool identity"),
            "an identity is \"<box>.<name>\", e.g. \"text.slugify\"; tools.list() lists them",
        ),
    };
    let message = match error.hint {
        Some(hint) => format!("{}; {hint}", error.message),
        None => error.message,
    };
    Err(Refusal::new(Reason::UnknownTool, message))
}

/// The most bytes all words of one command line may hold.
const MAX_LINE_BYTES: usize = 1024 * 1024;

fn read_words(words: &Table) -> mlua::Result<Vec<String>> {
    let count = words.raw_len();
    if count > MAX_WORDS {
        return Err(HostError::new(format!(
            "tools.parseCommandLine: {count} words is more than the {MAX_WORDS} a command line may hold"
        ))
        .into_lua());
    }
    // A command line is at most a few hundred KiB (the system's own limit is about 2 MiB):
    // sizes are added up before anything is copied out of the VM.
    let mut total = 0usize;
    for i in 1..=count {
        if let Value::String(s) = words.raw_get::<Value>(i)? {
            total = total.saturating_add(s.as_bytes().len());
        }
    }
    if total > MAX_LINE_BYTES {
        return Err(HostError::new(format!(
            "tools.parseCommandLine: the words come to {} KiB; a command line may hold at most {} KiB",
            total >> 10,
            MAX_LINE_BYTES >> 10
        ))
        .into_lua());
    }
    (1..=count)
        .map(|i| match words.raw_get::<Value>(i)? {
            Value::String(s) => Ok(s.to_string_lossy()),
            other => Err(HostError::new(format!(
                "tools.parseCommandLine: words must be a list of strings; word {i} is a {}",
                crate::bind::luau_type(&other)
            ))
            .into_lua()),
        })
        .collect()
}

fn bound(lua: &Lua, values: Vec<Value>) -> mlua::Result<Table> {
    let n = values
        .iter()
        .rposition(|v| !v.is_nil())
        .map_or(0, |last| last + 1);
    let args = lua.create_table_with_capacity(n, 0)?;
    for (i, v) in values.into_iter().take(n).enumerate() {
        args.raw_set(i + 1, v)?;
    }
    let result = lua.create_table()?;
    result.raw_set("ok", true)?;
    result.raw_set("args", args)?;
    result.raw_set("n", n)?;
    Ok(result)
}

fn refused(lua: &Lua, refusal: &Refusal) -> mlua::Result<Table> {
    let result = lua.create_table()?;
    result.raw_set("ok", false)?;
    result.raw_set("reason", refusal.reason.code())?;
    result.raw_set("message", refusal.message.as_str())?;
    Ok(result)
}
