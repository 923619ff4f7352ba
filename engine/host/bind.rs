//! The `bind` capability: check arguments and read command lines against a tool's schema.
//!
//! Both answers are tables `{ ok = true, args, n }` or `{ ok = false, reason, message }`;
//! `args` is positional, ready for `tool(table.unpack(r.args, 1, r.n))`.
//!
//! [`checker`] gives the function that checks a direct call `tools.<box>.<name>(...)` the
//! same way and answers the refusal's message (`asset.load` hands it to the prelude).

/// The Luau declarations of this capability (`bind.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("bind.d.luau");

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use mlua::{Function, Lua, MultiValue, Table, Value};

use crate::assets::names::nearest;
use crate::assets::{AssetIndex, ToolEntry};
use crate::bind::{
    check_slots, collect_lua, collect_positional, lua_args, parse_command_line, Reason, Refusal,
    Schema, Style, MAX_WORDS,
};
use crate::sandbox::{Capability, Effect, HostError};
use crate::types::Ty;

use super::refusal::{denied_tool, missing};
use super::state::with_state;

/// The `bind` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("bind")
        .function(
            "bind",
            Effect::Read,
            |lua, (identity, args): (String, Value)| {
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
            },
        )
        .function(
            "parse",
            Effect::Read,
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
        )
}

/// The checker of one tool: the function that answers the refusal, and, for a tool of up to
/// [`FAST_PARAMS`] parameters each a primitive type, what the prelude's wrapper checks in
/// Luau before it calls the function at all: `{ n, [i] = "string" | "number" | "boolean"
/// | false (any), optional = { [i] = true } }`.
pub(crate) type Checker = (Option<Function>, Option<Table>);

/// Checkers made in this VM, by tool entry: a tool's schema is read once per version of
/// its files, not once per run.
#[derive(Default)]
struct Checkers(HashMap<usize, (Arc<ToolEntry>, Function, Option<Table>)>);

/// Most parameters the prelude checks in Luau (it has a wrapper per count up to this).
const FAST_PARAMS: usize = 3;

/// Beyond this many cached checkers (edits pile up old versions), start over.
const MAX_CHECKERS: usize = 4096;

/// The function that checks the arguments of a direct call of `entry` and answers what
/// `tools.bind` would refuse (nil when they fit); none for a tool whose parameters are not
/// known (no signature was read), which takes what it is given.
pub(crate) fn checker(lua: &Lua, entry: &Arc<ToolEntry>) -> mlua::Result<Checker> {
    let key = Arc::as_ptr(entry) as usize;
    let cached = lua
        .app_data_ref::<Checkers>()
        .and_then(|c| c.0.get(&key).map(|(_, f, fast)| (f.clone(), fast.clone())));
    if let Some((f, fast)) = cached {
        return Ok((Some(f), fast));
    }
    let meta = entry.meta();
    if meta.signature.is_none() {
        return Ok((None, None));
    }
    let schema = Schema::from_meta(meta);
    let fast = fast_spec(lua, &schema)?;
    // The refusal's message, which the prelude raises as a string at the caller's line (a
    // script's pcall gets text, as from the tool's own checks); nothing when the call fits.
    let f = crate::sandbox::hand_out(lua, "asset", "checker", move |_, args: MultiValue| {
        let refusal = collect_positional(&schema, args.into_iter().collect())
            .and_then(|slots| check_slots(&schema, &slots, Style::Call));
        Ok(refusal.err().map(|r| r.message))
    })?;
    if lua.app_data_ref::<Checkers>().is_none() {
        lua.set_app_data(Checkers::default());
    }
    if let Some(mut cache) = lua.app_data_mut::<Checkers>() {
        if cache.0.len() >= MAX_CHECKERS {
            cache.0.clear();
        }
        cache
            .0
            .insert(key, (entry.clone(), f.clone(), fast.clone()));
    }
    Ok((Some(f), fast))
}

/// What the prelude checks in Luau for a tool whose parameters are all primitive (see
/// [`Checker`]); none when one is not, or the tool takes a trailing `...`.
fn fast_spec(lua: &Lua, schema: &Schema) -> mlua::Result<Option<Table>> {
    if schema.vararg.is_some() || schema.params.len() > FAST_PARAMS {
        return Ok(None);
    }
    let spec = lua.create_table()?;
    let optional = lua.create_table()?;
    for (i, param) in schema.params.iter().enumerate() {
        let want = if param.ty.accepts_anything() {
            Value::Boolean(false)
        } else {
            match param.ty.without_nil() {
                Ty::String | Ty::Path => Value::String(lua.create_string("string")?),
                Ty::Number => Value::String(lua.create_string("number")?),
                Ty::Boolean => Value::String(lua.create_string("boolean")?),
                _ => return Ok(None),
            }
        };
        spec.raw_set(i + 1, want)?;
        if param.ty.accepts_nil() {
            optional.raw_set(i + 1, true)?;
        }
    }
    spec.raw_set("n", schema.params.len())?;
    spec.raw_set("optional", optional)?;
    Ok(Some(spec))
}

/// The schema of `identity`, or an unknown-tool refusal naming the nearest tools.
pub(crate) fn schema(index: &AssetIndex, identity: &str) -> Result<Schema, Refusal> {
    if let Some(entry) = index.tool(identity) {
        return Ok(Schema::from_meta(entry.meta()));
    }
    if let Some(denial) = index.denial(identity) {
        return Err(Refusal::new(
            Reason::Denied,
            denied_tool(identity, &denial).message,
        ));
    }
    let error = match identity.split_once('.') {
        Some((toolbox, tool)) => missing(index, toolbox, tool),
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

/// As [`schema`], for a command line: the refusal names shell commands, not Luau, and
/// counts `registry`'s MCP servers among the toolboxes it suggests.
pub(crate) fn shell_schema(
    index: &AssetIndex,
    registry: &crate::registry::Registry,
    identity: &str,
) -> Result<Schema, Refusal> {
    if let Some(entry) = index.tool(identity) {
        return Ok(Schema::from_meta(entry.meta()));
    }
    if let Some(denial) = index.denial(identity) {
        return Err(Refusal::new(
            Reason::Denied,
            format!(
                "{} is denied: {denial}; `codemode list` shows the tools it allows",
                crate::vfs::shorten(identity)
            ),
        ));
    }
    let (toolbox, tool) = identity.split_once('.').unwrap_or((identity, ""));
    let shown = crate::vfs::shorten(identity);
    let message = if index.has_toolbox(toolbox) {
        let tools: Vec<&str> = index.tools_in(toolbox).map(|e| e.name()).collect();
        match nearest(tool, tools.iter().copied()).first() {
            Some(best) => format!(
                "no tool {shown}; did you mean `codemode call {toolbox}.{best}`? `codemode list 2 {toolbox}` lists its tools"
            ),
            None => match index.folders_named(toolbox).find_map(|f| f.unlisted.as_deref()) {
                Some(why) => format!("no tool {shown}: {why}"),
                None => format!(
                    "no tool {shown}; `codemode list 2 {toolbox}` lists the tools of {toolbox}"
                ),
            },
        }
    } else {
        let servers = registry.upstream_views(index);
        let mut boxes = index.toolbox_names();
        boxes.extend(servers.iter().map(|v| v.name.as_str()));
        match nearest(toolbox, boxes.iter().copied()).first() {
            Some(best) => format!(
                "no toolbox {}; did you mean {best}? `codemode list 2 {best}` lists its tools, `codemode list` every toolbox",
                crate::vfs::shorten(toolbox)
            ),
            None => format!(
                "no toolbox {}; `codemode list` lists the toolboxes",
                crate::vfs::shorten(toolbox)
            ),
        }
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
