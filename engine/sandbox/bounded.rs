//! Builtins whose work grows with an argument and that Luau runs without an interrupt.
//!
//! Luau's interrupt reaches loops and calls in scripts and its pattern matcher, but not
//! the C loops inside some library functions: `table.move({}, 1, 2^31 - 2, 2)` walks two
//! billion slots, and a plain `string.find` or `string.split` compares every position
//! with the whole needle (quadratic). These are replaced, before the sandbox closes the
//! libraries, by versions that check the run's deadline as they go (`table.move` in
//! slices) or that search in linear time (`memchr`'s two-way search).
//!
//! The other class is a C loop that calls back: `table.sort` (its comparator, or `__lt`),
//! `table.foreach`/`foreachi`, `string.gsub` (a replacement function, or a table's
//! `__index`) and `string.format("%*")` (`__tostring`). When the callback is itself a C
//! function (`table.sort(t, table.find)`), no Luau code ever runs and the interrupt never
//! fires. These get a Luau frame between the loop and every callback (a comparator that
//! calls the given one, a Luau `foreach`), so the interrupt fires once per callback.
//!
//! Metamethods reach C functions from places no wrapper sees (one `..` of 200 operands
//! calls `__concat` 199 times; `table.find` calls `__eq` per element). So every library
//! function whose work grows with its arguments looks at the deadline when it is entered
//! (`deadline::fence`): used as a metamethod or callback, each call is one bounded step.
//!
//! The replacements of functions that call back are Luau, calling the original C function
//! themselves: an error a callback raises (a table, or a string without a traceback)
//! then reaches the script's `pcall` as the value it raised, as it would without them.

use mlua::{Function, Lua, LuaString, Table, Value, Variadic};

use super::deadline;

/// Arrays up to this length, of numbers and strings only, are sorted by the original
/// without a comparator (a few milliseconds at most, and no metamethod to call).
const SORT_IN_C: usize = 1 << 16;

/// Luau helpers that put a Luau frame between a C loop and each callback
/// (`bounded.luau` beside this file, compiled by `build.rs`).
pub(crate) const HELPERS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/luau/bounded.luauc"));

/// Library functions whose work grows with their arguments, by library.
const HEAVY: [(&str, &[&str]); 4] = [
    (
        "string",
        &[
            "byte", "find", "format", "gmatch", "gsub", "lower", "match", "pack", "rep", "reverse",
            "split", "sub", "unpack", "upper",
        ],
    ),
    (
        "table",
        &[
            "clear", "clone", "concat", "create", "find", "foreach", "foreachi", "insert", "maxn",
            "move", "remove", "sort", "unpack",
        ],
    ),
    ("utf8", &["char", "codepoint", "len", "offset"]),
    (
        "buffer",
        &[
            "copy",
            "fill",
            "readstring",
            "tostring",
            "writestring",
            "fromstring",
        ],
    ),
];

/// Installs the bounded builtins into `globals` (before the sandbox makes them read-only).
pub(crate) fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    replace(lua, globals)?;
    for (library, names) in HEAVY {
        let table: Table = globals.get(library)?;
        for name in names {
            if let Value::Function(f) = table.get::<Value>(*name)? {
                table.raw_set(*name, deadline::fence(lua, f)?)?;
            }
        }
    }
    let unpack: Value = globals.get("unpack")?;
    if let Value::Function(f) = unpack {
        globals.raw_set("unpack", deadline::fence(lua, f)?)?;
    }
    Ok(())
}

/// The replacements: bounded versions and Luau frames around callbacks.
fn replace(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let predicates = (
        lua.create_function(|_, f: Function| Ok(is_luau(&f)))?,
        lua.create_function(|_, t: Table| Ok(plain_and_small(&t)))?,
    );
    // Bytecode the engine compiled itself, never bytecode from a script.
    let helpers: Table = lua
        .load(HELPERS)
        .set_name("=bounded")
        .set_mode(mlua::chunk::ChunkMode::Binary)
        .call(predicates)?;
    let table: Table = globals.get("table")?;
    for name in ["move", "sort"] {
        table.raw_set(name, helpers.get::<Function>(name)?)?;
    }
    for name in ["foreach", "foreachi"] {
        if table.get::<Value>(name)?.is_function() {
            table.raw_set(name, helpers.get::<Function>(name)?)?;
        }
    }
    let string: Table = globals.get("string")?;
    for name in ["gsub", "format"] {
        string.raw_set(name, helpers.get::<Function>(name)?)?;
    }
    let original: Function = string.get("find")?;
    string.raw_set(
        "find",
        lua.create_function(move |_, args: Variadic<Value>| string_find(&original, args))?,
    )?;
    let original: Function = string.get("split")?;
    string.raw_set(
        "split",
        lua.create_function(move |lua, args: Variadic<Value>| string_split(lua, &original, args))?,
    )?;
    Ok(())
}

fn integer(value: Option<&Value>) -> Option<i64> {
    match value? {
        Value::Integer(i) => Some(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(*n as i64),
        _ => None,
    }
}

/// True for a function written in Luau: its every return passes the interrupt.
fn is_luau(f: &Function) -> bool {
    f.info().what == "Lua"
}

/// True for an array short enough, holding only numbers and strings (no metamethods).
fn plain_and_small(t: &Table) -> bool {
    let n = t.raw_len();
    n <= SORT_IN_C
        && (1..=n).all(|i| {
            matches!(
                t.raw_get::<Value>(i),
                Ok(Value::Integer(_) | Value::Number(_) | Value::String(_))
            )
        })
}

/// Where a 1-based `init` (negative counts from the end) puts the search in `len` bytes;
/// `None` when it starts past the end.
fn start_at(init: Option<i64>, len: usize) -> Option<usize> {
    let len = len as i64;
    let init = match init.unwrap_or(1) {
        i if i < 0 => (len + i + 1).max(1),
        0 => 1,
        i => i,
    };
    (init <= len + 1).then_some((init - 1) as usize)
}

/// True when Luau's `find` would treat `pattern` as plain text (no magic characters).
fn no_specials(pattern: &[u8]) -> bool {
    !pattern.iter().any(|b| b"^$*+?.([%-".contains(b))
}

/// `string.find` with plain text searched by the two-way algorithm (linear time); with
/// a pattern it is the original, whose matcher the interrupt reaches.
fn string_find(original: &Function, args: Variadic<Value>) -> mlua::Result<Variadic<Value>> {
    let (Some(Value::String(s)), Some(Value::String(p))) = (args.first(), args.get(1)) else {
        return original.call(args);
    };
    let plain = args
        .get(3)
        .is_some_and(|v| !matches!(v, Value::Nil | Value::Boolean(false)));
    let init = match args.get(2) {
        None | Some(Value::Nil) => None,
        other => match integer(other) {
            Some(i) => Some(i),
            None => return original.call(args),
        },
    };
    let (haystack, needle) = (s.as_bytes(), p.as_bytes());
    // A needle of one byte is found in linear time already.
    if needle.len() <= 1 || !(plain || no_specials(&needle)) {
        return original.call(args);
    }
    let Some(from) = start_at(init, haystack.len()) else {
        return Ok(Variadic::from_iter([Value::Nil]));
    };
    Ok(match memchr::memmem::find(&haystack[from..], &needle) {
        Some(at) => {
            let first = (from + at + 1) as i64;
            Variadic::from_iter([
                Value::Integer(first),
                Value::Integer(first + needle.len() as i64 - 1),
            ])
        }
        None => Variadic::from_iter([Value::Nil]),
    })
}

/// `string.split(s, sep)` with a separator of more than one byte searched in linear time.
fn string_split(lua: &Lua, original: &Function, args: Variadic<Value>) -> mlua::Result<Value> {
    let (Some(Value::String(s)), Some(Value::String(sep))) = (args.first(), args.get(1)) else {
        return original.call(args);
    };
    let sep: LuaString = sep.clone();
    let (haystack, needle) = (s.as_bytes(), sep.as_bytes());
    if needle.len() <= 1 {
        return original.call(args);
    }
    let parts = lua.create_table()?;
    let mut start = 0;
    for at in memchr::memmem::find_iter(&haystack, &needle) {
        parts.raw_push(lua.create_string(&haystack[start..at])?)?;
        start = at + needle.len();
    }
    parts.raw_push(lua.create_string(&haystack[start..])?)?;
    Ok(Value::Table(parts))
}

#[cfg(test)]
#[path = "../../tests/unit/sandbox/bounded.rs"]
mod tests;
