//! A tool's signature may name types the tool defines for itself (`export type Counts =
//! { words: number, ... }`); the definition file cannot see them. Writing each such name
//! out as its definition keeps the tool's exact types in the declarations (so a script
//! reading a field its result does not have is caught) instead of `any`.

use std::collections::BTreeMap;

/// How deep aliases naming aliases are written out.
const MAX_DEPTH: usize = 4;

/// The longest text a written-out type may reach: a tool's signature is a line of text.
const MAX_LEN: usize = 4096;

/// `written` with every type alias `source` defines at its top level (`type N = ...` or
/// `export type N = ...`, without type parameters) replaced by its definition in
/// parentheses. Names it does not define are left as they are.
pub fn inline_aliases(written: &str, source: &str) -> String {
    let aliases = aliases(source);
    let mut text = written.to_string();
    for _ in 0..MAX_DEPTH {
        let next = substitute(&text, &aliases);
        if next == text || next.len() > MAX_LEN {
            break;
        }
        text = next;
    }
    text
}

/// The top-level aliases of `source`, each definition on one line without comments.
fn aliases(source: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line
            .strip_prefix("export type ")
            .or_else(|| line.strip_prefix("type "))
        else {
            continue;
        };
        let Some((name, definition)) = rest.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if !is_identifier(name) {
            continue;
        }
        let mut text = uncommented(definition).to_string();
        while depth(&text) > 0 {
            let Some(more) = lines.next() else { break };
            text.push(' ');
            text.push_str(uncommented(more));
        }
        if depth(&text) == 0 {
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            found.insert(name.to_string(), text);
        }
    }
    found
}

fn uncommented(line: &str) -> &str {
    line.split("--").next().unwrap_or("")
}

fn is_identifier(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Open brackets minus closed ones.
fn depth(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '{' | '(' | '[' => 1,
            '}' | ')' | ']' => -1,
            _ => 0,
        })
        .sum()
}

/// One pass of replacing alias names in `text` (not field names, not `module.Name`).
fn substitute(text: &str, aliases: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    while at <= chars.len() {
        let c = chars.get(at).copied();
        if c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            word.push(c.unwrap_or_default());
            at += 1;
            continue;
        }
        if !word.is_empty() {
            let start = at - word.chars().count();
            let after_dot = start > 0 && chars[start - 1] == '.';
            let field = chars[at..].iter().find(|c| !c.is_whitespace()) == Some(&':');
            match aliases.get(&word) {
                Some(definition) if !after_dot && !field => {
                    out.push('(');
                    out.push_str(definition);
                    out.push(')');
                }
                _ => out.push_str(&word),
            }
            word.clear();
        }
        if let Some(c) = c {
            out.push(c);
        }
        at += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_out_the_tools_own_aliases_and_leaves_the_rest() {
        let source = "local shared = require('.shared')\n\
             export type Counts = { words: number, -- how many\n\tlines: number }\n\
             type Pair = { a: Counts, b: shared.Version }\n\
             local function f(x: Pair, Counts: string): Counts return nil :: any end\n";
        assert_eq!(
            inline_aliases("Counts", source),
            "({ words: number, lines: number })"
        );
        assert_eq!(
            inline_aliases("{ Counts }?", source),
            "{ ({ words: number, lines: number }) }?"
        );
        assert_eq!(
            inline_aliases("Pair", source),
            "({ a: ({ words: number, lines: number }), b: shared.Version })"
        );
        // A field named like an alias and a module's type stay as written.
        assert_eq!(
            inline_aliases("{ Counts: number }", source),
            "{ Counts: number }"
        );
        assert_eq!(inline_aliases("shared.Counts", source), "shared.Counts");
        assert_eq!(inline_aliases("Unknown", source), "Unknown");
    }

    #[test]
    fn a_self_naming_alias_stops_growing() {
        let source = "type T = { next: T? }\n";
        let text = inline_aliases("T", source);
        assert!(
            text.len() <= MAX_LEN && text.starts_with("({ next: ("),
            "{text}"
        );
    }
}
