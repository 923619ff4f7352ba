//! Checking a full set of arguments against a schema: what `tools.bind` answers, and what
//! a call from Rust (`Runtime::call`) is bound by.

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Map, Value as Json};

use super::check::{check, check_open, Mismatch};
use super::refusal::{Reason, Refusal};
use super::schema::Schema;
use super::shape::{Key, Shape};
use super::usage::usage_line;
use crate::assets::names::nearest;

/// Who reads the refusal messages: a Luau author, a person at a shell, or a program that
/// sent JSON arguments (an MCP client).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Name parameters as Luau does: `opts.sep`.
    Luau,
    /// As [`Style::Luau`], for a direct call `tools.<box>.<name>(...)`: values by position,
    /// and a table may carry fields its type does not declare (what another tool returned).
    Call,
    /// Name them as a command line does: `<text>`, `--sep`.
    Shell,
    /// Name them as JSON arguments: `"text"`, `"opts.sep"`, with JSON types.
    Json,
}

/// Checks each slot (one per parameter, `None` when not given) against its type.
pub(crate) fn check_slots<V: Shape>(
    schema: &Schema,
    slots: &[Option<V>],
    style: Style,
) -> Result<(), Refusal> {
    for (i, param) in schema.params.iter().enumerate() {
        match slots.get(i).and_then(Option::as_ref) {
            None if !param.ty.accepts_nil() => {
                return Err(Refusal::new(
                    Reason::MissingArgument,
                    missing(schema, i, style),
                ))
            }
            None => {}
            Some(value) => {
                let checked = if style == Style::Call {
                    check_open(&param.ty, value)
                } else {
                    check(&param.ty, value)
                };
                if let Err(m) = checked {
                    let reason = if m.unknown_field {
                        Reason::UnknownField
                    } else {
                        Reason::WrongType
                    };
                    return Err(Refusal::new(reason, wrong(schema, i, &m, style)));
                }
            }
        }
    }
    if let Some(ty) = &schema.vararg {
        for (i, value) in slots.iter().enumerate().skip(schema.params.len()) {
            if let Some(Err(m)) = value.as_ref().map(|v| check(ty, v)) {
                return Err(Refusal::new(
                    Reason::WrongType,
                    format!(
                        "{}: argument {} (one of the trailing ...): {}",
                        schema.identity,
                        i + 1,
                        m.detail
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn missing(schema: &Schema, i: usize, style: Style) -> String {
    let p = &schema.params[i];
    match style {
        Style::Luau => format!(
            "{} needs argument {} ({}), the {} parameter; pass it by position or as {{ {} = ... }}",
            schema.identity,
            p.name,
            p.written,
            ordinal(i + 1),
            p.name
        ),
        Style::Call => format!(
            "{} needs argument {} ({}), the {} parameter; it takes ({})",
            schema.identity,
            p.name,
            p.written,
            ordinal(i + 1),
            params(schema)
        ),
        Style::Shell => format!(
            "{} needs <{}> ({})\nusage: {}",
            schema.identity,
            p.name,
            p.written,
            usage_line(schema)
        ),
        Style::Json => format!(
            "{}: missing argument \"{}\" ({}); {}",
            schema.identity,
            p.name,
            p.written,
            takes(schema)
        ),
    }
}

/// `it takes text: string, opts: { sep: string? }?`: the parameters a JSON caller may name.
fn takes(schema: &Schema) -> String {
    if schema.params.is_empty() {
        return "it takes no arguments".into();
    }
    format!("it takes {}", params(schema))
}

/// `text: string, opts: { sep: string? }?`.
fn params(schema: &Schema) -> String {
    let params: Vec<String> = schema
        .params
        .iter()
        .map(|p| format!("{}: {}", p.name, p.written))
        .collect();
    params.join(", ")
}

fn wrong(schema: &Schema, i: usize, m: &Mismatch, style: Style) -> String {
    let p = &schema.params[i];
    let is_options = schema.options.as_ref().is_some_and(|(o, _)| *o == i);
    let name = match style {
        Style::Luau | Style::Call => format!("argument {}{}", p.name, m.path),
        Style::Shell if is_options && m.path.starts_with('.') => {
            let field = m.path[1..].split(['.', '[']).next().unwrap_or("");
            format!("--{field}{}", &m.path[1 + field.len()..])
        }
        Style::Shell => format!("<{}>{}", p.name, m.path),
        Style::Json => {
            let name = format!("\"{}{}\"", p.name, m.path);
            return match (&m.found, m.path.is_empty()) {
                (Some(found), true) => {
                    let wanted = match p.ty.json_kind() {
                        Some(kind) => format!("{kind} (Luau type {})", p.written),
                        None => format!("of Luau type {}", p.written),
                    };
                    format!(
                        "{}: argument {name} must be {wanted}, got {found}; {}",
                        schema.identity,
                        takes(schema)
                    )
                }
                _ => format!(
                    "{}: argument {name}: {}; {}",
                    schema.identity,
                    m.detail,
                    takes(schema)
                ),
            };
        }
    };
    let mut text = format!("{}: {name}: {}", schema.identity, m.detail);
    if m.unknown_field && style == Style::Shell {
        text.push_str(&format!("\nusage: {}", usage_line(schema)));
    }
    text
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

/// Most entries an argument table may hold; more cannot be meaningful.
const MAX_ENTRIES: usize = 256;

/// Reads `tools.bind`'s argument table into one slot per parameter: integer keys by
/// position, string keys by parameter name, and names of the options table's fields
/// gathered into that table. A key `n` (from `table.pack`) is ignored.
pub(crate) fn collect_lua(
    lua: &Lua,
    schema: &Schema,
    args: &LuaValue,
) -> mlua::Result<Result<Vec<Option<LuaValue>>, Refusal>> {
    let mut slots: Vec<Option<LuaValue>> = vec![None; schema.params.len()];
    let entries = match args {
        LuaValue::Nil => Vec::new(),
        LuaValue::Table(_) => args.entries(MAX_ENTRIES + 1),
        other => {
            return Ok(Err(Refusal::new(
                Reason::WrongType,
                format!(
                    "tools.bind('{}', args): args must be a table (positional values and/or name = value), got a {}",
                    schema.identity,
                    super::shape::luau_type(other)
                ),
            )))
        }
    };
    if entries.len() > MAX_ENTRIES {
        return Ok(Err(too_many(schema, MAX_ENTRIES)));
    }
    let mut fields: Option<Table> = None;
    let mut by_name: Vec<&str> = Vec::new();
    for (key, value) in &entries {
        match key {
            Key::Index(i) if *i <= schema.params.len() => {
                if by_name.contains(&schema.params[i - 1].name.as_str()) {
                    return Ok(Err(twice(schema, &schema.params[i - 1].name)));
                }
                slots[i - 1] = Some(value.clone());
            }
            // Values past the parameters go to a trailing `...`, when the tool has one.
            // (Bounded: a sparse `{ [1e9] = 1 }` must not allocate a billion slots.)
            Key::Index(i) if schema.vararg.is_some() && *i <= schema.params.len() + MAX_ENTRIES => {
                if slots.len() < *i {
                    slots.resize(*i, None);
                }
                slots[i - 1] = Some(value.clone());
            }
            Key::Index(i) => return Ok(Err(too_many(schema, *i))),
            Key::Name(name) => {
                if let Some(i) = schema.param(name) {
                    if slots[i].is_some() {
                        return Ok(Err(twice(schema, name)));
                    }
                    slots[i] = Some(value.clone());
                    by_name.push(&schema.params[i].name);
                } else if schema.field(name).is_some() {
                    let t = match &fields {
                        Some(t) => t.clone(),
                        None => fields.insert(lua.create_table()?).clone(),
                    };
                    t.raw_set(name.as_str(), value.clone())?;
                } else if name != "n" {
                    return Ok(Err(unknown(schema, name)));
                }
            }
            Key::Other(t) => {
                return Ok(Err(Refusal::new(
                    Reason::UnknownArgument,
                    format!("tools.bind('{}', args): a key of type {t} names no parameter; use positions 1..{} or parameter names", schema.identity, schema.params.len()),
                )))
            }
        }
    }
    if let (Some(t), Some((o, _))) = (fields, &schema.options) {
        if slots[*o].is_some() {
            return Ok(Err(twice(schema, &schema.params[*o].name)));
        }
        slots[*o] = Some(LuaValue::Table(t));
    }
    Ok(Ok(slots))
}

/// The values of a direct call `tools.<box>.<name>(...)`, one slot per parameter (and per
/// value a trailing `...` takes); trailing `nil`s are no values.
pub(crate) fn collect_positional(
    schema: &Schema,
    values: Vec<LuaValue>,
) -> Result<Vec<Option<LuaValue>>, Refusal> {
    let given = values
        .iter()
        .rposition(|v| !v.is_nil())
        .map_or(0, |last| last + 1);
    if given > schema.params.len() && schema.vararg.is_none() {
        return Err(too_many(schema, given));
    }
    let mut slots: Vec<Option<LuaValue>> = values
        .into_iter()
        .take(given)
        .map(|v| Some(v).filter(|v| !v.is_nil()))
        .collect();
    slots.resize(slots.len().max(schema.params.len()), None);
    Ok(slots)
}

/// Reads JSON arguments into one slot per parameter: an array by position, an object by
/// parameter name, with names of the options table's fields gathered into that table
/// (as [`collect_lua`] reads a Luau table). `null` is a value not given.
pub(crate) fn collect_json(schema: &Schema, args: Json) -> Result<Vec<Option<Json>>, Refusal> {
    let mut slots: Vec<Option<Json>> = vec![None; schema.params.len()];
    match args {
        Json::Null => {}
        Json::Array(mut items) => {
            while items.last().is_some_and(Json::is_null) {
                items.pop();
            }
            // Values past the parameters go to a trailing `...`, when the tool has one.
            let extra = if schema.vararg.is_some() {
                MAX_ENTRIES
            } else {
                0
            };
            let room = schema.params.len() + extra;
            if items.len() > room {
                return Err(too_many(schema, items.len().min(room + 1)));
            }
            slots.resize(items.len().max(slots.len()), None);
            for (slot, item) in slots.iter_mut().zip(items) {
                *slot = Some(item).filter(|v| !v.is_null());
            }
        }
        Json::Object(map) => {
            if map.len() > MAX_ENTRIES {
                return Err(too_many(schema, MAX_ENTRIES));
            }
            let mut fields = Map::new();
            let mut rest: Vec<Json> = Vec::new();
            for (name, value) in map {
                if value.is_null() {
                    continue;
                }
                // By name, the values past the parameters are one array under "...".
                if name == "..." && schema.vararg.is_some() {
                    match value {
                        Json::Array(items) if items.len() <= MAX_ENTRIES => rest = items,
                        Json::Array(_) => return Err(too_many(schema, MAX_ENTRIES)),
                        _ => {
                            return Err(Refusal::new(
                                Reason::WrongType,
                                format!(
                                    "{}: argument \"...\" must be an array of the values after the others",
                                    schema.identity
                                ),
                            ))
                        }
                    }
                    continue;
                }
                if let Some(i) = schema.param(&name) {
                    slots[i] = Some(value);
                } else if schema.field(&name).is_some() {
                    fields.insert(name, value);
                } else {
                    return Err(unknown(schema, &name));
                }
            }
            if let (false, Some((o, _))) = (fields.is_empty(), &schema.options) {
                if slots[*o].is_some() {
                    return Err(twice(schema, &schema.params[*o].name));
                }
                slots[*o] = Some(Json::Object(fields));
            }
            slots.extend(rest.into_iter().map(|v| Some(v).filter(|v| !v.is_null())));
        }
        other => {
            return Err(Refusal::new(
                Reason::WrongType,
                format!(
                    "{}: arguments are a JSON array (by position) or object (by name), got a {}",
                    schema.identity,
                    super::shape::type_name(&super::shape::Shape::kind(&other))
                ),
            ))
        }
    }
    Ok(slots)
}

fn too_many(schema: &Schema, at: usize) -> Refusal {
    let names: Vec<&str> = schema.params.iter().map(|p| p.name.as_str()).collect();
    Refusal::new(
        Reason::TooManyArguments,
        format!(
            "{} takes {} argument{} ({}); got a value at position {at}",
            schema.identity,
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        ),
    )
}

fn twice(schema: &Schema, name: &str) -> Refusal {
    Refusal::new(
        Reason::GivenTwice,
        format!("{}: argument {name} was given twice (by position and by name, or as a table and as its fields); give it once", schema.identity),
    )
}

fn unknown(schema: &Schema, name: &str) -> Refusal {
    let names = schema.long_names();
    let hint = match nearest(name, names.iter().copied()).first() {
        Some(best) => format!("did you mean {best}? "),
        None => String::new(),
    };
    Refusal::new(
        Reason::UnknownArgument,
        format!(
            "{} has no argument named {name}; {hint}it takes: {}",
            schema.identity,
            names.join(", ")
        ),
    )
}
