//! The toolboxes a script names (`tools.<box>`), so a large world's declarations can hold
//! only those in full.
//!
//! The scan reads the text, not the syntax tree: it runs before every check, where a parse
//! would cost as much as the check saves, and its mistakes are harmless. A name it finds
//! in a comment or a string is declared for nothing; a toolbox it misses (reached through
//! an alias of `tools`, or an index that is not a literal) is typed `any`, so the script
//! is checked less there, never refused.
//!
//! [`only_by_name`] says when the scan misses nothing: every use of `tools` in the code
//! names its field literally. A one-shot run declares only what such a script names,
//! with the same verdict as against the whole world.

use std::collections::BTreeSet;

/// The globals through which a script reaches the host: codemode's own (a test holds every
/// global the host's linker registers to this list) and Luau's ways to reach a global by a
/// computed name.
pub(crate) const HOST_GLOBALS: [&str; 6] = ["tools", "vfs", "http", "shell", "_G", "getfenv"];

/// True when `source` names none of [`HOST_GLOBALS`] as a word anywhere (in code, a
/// string or a comment): then no call into the host can be in it.
pub(crate) fn reaches_no_host(source: &str) -> bool {
    let bytes = source.as_bytes();
    HOST_GLOBALS.iter().all(|global| {
        source.match_indices(global).all(|(start, _)| {
            let end = start + global.len();
            let joined = |at: usize| bytes.get(at).is_some_and(|&b| is_word(b));
            (start > 0 && joined(start - 1)) || joined(end)
        })
    })
}

/// The toolbox names `source` reaches as `tools.<name>` or `tools["<name>"]`, sorted.
/// At most `limit` names are kept (the first ones by position): a script that names more
/// has the rest typed `any`.
pub(crate) fn named_toolboxes(source: &str, limit: usize) -> BTreeSet<String> {
    let bytes = source.as_bytes();
    let mut named = BTreeSet::new();
    let mut from = 0;
    while let Some(found) = source[from..].find("tools") {
        let start = from + found;
        let end = start + "tools".len();
        from = end;
        let joined = |at: usize| bytes.get(at).is_some_and(|&b| is_word(b));
        if (start > 0 && joined(start - 1)) || joined(end) {
            continue;
        }
        let rest = source[end..].trim_start();
        let name = if let Some(field) = rest.strip_prefix('.') {
            word(field.trim_start())
        } else if let Some(key) = rest.strip_prefix('[') {
            quoted(key.trim_start())
        } else {
            None
        };
        if let Some(name) = name {
            if named.len() >= limit && !named.contains(name) {
                break;
            }
            named.insert(name.to_string());
        }
    }
    named
}

/// True when `source` reaches the `tools` global only as `tools.<name>` or
/// `tools["<name>"]` outside its strings and comments: an alias (`local t = tools`), a
/// computed key or `tools` passed on could reach any toolbox, and then only the whole
/// world's declarations give the script the verdict it would get against them. Where
/// in doubt it says false (a comment between `tools` and its field, interpolated strings
/// nested past [`MAX_NESTING`]).
pub(crate) fn only_by_name(source: &str) -> bool {
    code(source, 0, 0).is_some()
}

/// How deep interpolated strings (`` `{`{x}`}` ``) are followed.
const MAX_NESTING: usize = 16;

/// Reads code from `at` to the end, or (`nesting` > 0, inside an interpolated string's
/// braces) to the `}` that closes it; where it stopped, or `None` at a `tools` reached
/// other than by a literal name.
fn code(source: &str, mut at: usize, nesting: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    // Braces of table constructors opened inside an interpolation.
    let mut depth = 0usize;
    while at < bytes.len() {
        let b = bytes[at];
        if b == b'-' && bytes.get(at + 1) == Some(&b'-') {
            at = past_comment(bytes, at + 2);
        } else if b == b'"' || b == b'\'' {
            at = past_quoted(bytes, at);
        } else if let Some(level) = long_bracket(bytes, at) {
            at = past_long(bytes, at + level + 2, level);
        } else if b == b'`' {
            at = past_interpolated(source, at, nesting)?;
        } else if b == b'{' {
            depth += 1;
            at += 1;
        } else if b == b'}' {
            if nesting > 0 && depth == 0 {
                return Some(at + 1);
            }
            depth = depth.saturating_sub(1);
            at += 1;
        } else if is_word(b) {
            let end = at
                + bytes[at..]
                    .iter()
                    .position(|&c| !is_word(c))
                    .unwrap_or(bytes.len() - at);
            let field = at > 0 && matches!(bytes[at - 1], b'.' | b':');
            if &bytes[at..end] == b"tools" && !field && !names_a_field(&source[end..]) {
                return None;
            }
            at = end;
        } else {
            at += 1;
        }
    }
    Some(at)
}

/// Where the interpolated string that starts at `at` ends, its `{...}` read as code.
fn past_interpolated(source: &str, at: usize, nesting: usize) -> Option<usize> {
    if nesting >= MAX_NESTING {
        return None;
    }
    let bytes = source.as_bytes();
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => return Some(i + 1),
            b'{' => i = code(source, i + 1, nesting + 1)?,
            _ => i += 1,
        }
    }
    Some(bytes.len())
}

/// True when `rest` (what follows a `tools`) starts with `.<name>` or `["<name>"]`.
fn names_a_field(rest: &str) -> bool {
    let rest = rest.trim_start();
    if let Some(field) = rest.strip_prefix('.') {
        return word(field.trim_start()).is_some();
    }
    let Some(key) = rest.strip_prefix('[') else {
        return false;
    };
    let key = key.trim_start();
    let Some(name) = quoted(key) else {
        return false;
    };
    // The quotes and the name, then the closing bracket: `tools["a" .. b]` is computed.
    key[name.len() + 2..].trim_start().starts_with(']')
}

/// Where a comment that starts at `at` (past its `--`) ends.
fn past_comment(bytes: &[u8], at: usize) -> usize {
    if let Some(level) = long_bracket(bytes, at) {
        return past_long(bytes, at + level + 2, level);
    }
    bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| at + n + 1)
}

/// Where a quoted string that starts at `at` ends (a line break ends an unfinished one).
fn past_quoted(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i + 1,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The level of the long bracket `[==[` that starts at `at`, when one does.
fn long_bracket(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let level = bytes[at + 1..].iter().take_while(|&&b| b == b'=').count();
    (bytes.get(at + 1 + level) == Some(&b'[')).then_some(level)
}

/// Where the long string or comment whose text starts at `at` ends (`]==]` of `level`).
fn past_long(bytes: &[u8], at: usize, level: usize) -> usize {
    let mut close = vec![b']'];
    close.extend(std::iter::repeat_n(b'=', level));
    close.push(b']');
    memchr::memmem::find(&bytes[at.min(bytes.len())..], &close)
        .map_or(bytes.len(), |n| at + n + close.len())
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier `text` starts with.
fn word(text: &str) -> Option<&str> {
    let end = text.bytes().position(|b| !is_word(b)).unwrap_or(text.len());
    Some(&text[..end]).filter(|w| !w.is_empty() && !w.as_bytes()[0].is_ascii_digit())
}

/// The identifier inside the string literal `text` starts with (`"box"` or `'box'`).
fn quoted(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inside = &text[1..];
    let name = word(inside)?;
    inside[name.len()..].starts_with(quote).then_some(name)
}
