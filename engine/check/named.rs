//! The toolboxes a script names (`tools.<box>`), so a large world's declarations can hold
//! only those in full.
//!
//! The scan reads the text, not the syntax tree: it runs before every check, where a parse
//! would cost as much as the check saves, and its mistakes are harmless. A name it finds
//! in a comment or a string is declared for nothing; a toolbox it misses (reached through
//! an alias of `tools`, or an index that is not a literal) is typed `any`, so the script
//! is checked less there, never refused.

use std::collections::BTreeSet;

/// The toolbox names `source` reaches as `tools.<name>` or `tools["<name>"]`, sorted.
/// At most `limit` names are kept (the first ones by position): a script that names more
/// has the rest typed `any`.
pub fn named_toolboxes(source: &str, limit: usize) -> BTreeSet<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(source: &str) -> Vec<String> {
        named_toolboxes(source, 64).into_iter().collect()
    }

    #[test]
    fn fields_and_literal_keys_of_tools_are_named() {
        let source = "local a = tools.text.slugify('x')\nlocal b = tools [ \"json\" ].parse\n\
                      local c = tools\n\t.math . add(1, 2)\nreturn tools['csv']";
        assert_eq!(names(source), ["csv", "json", "math", "text"]);
    }

    #[test]
    fn other_words_and_dynamic_keys_are_not() {
        let source = "local mytools = {}\nmytools.a = 1\nlocal t = tools_x.b\n\
                      local d = tools[name]\nlocal e = tools['not a name']\nlocal f = tools.9x";
        assert!(names(source).is_empty(), "{:?}", names(source));
    }

    #[test]
    fn the_limit_keeps_the_first_names() {
        let source = "tools.a.x() tools.b.x() tools.a.y() tools.c.x()";
        let kept: Vec<String> = named_toolboxes(source, 2).into_iter().collect();
        assert_eq!(kept, ["a", "b"]);
    }
}
