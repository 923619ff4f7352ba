//! A tool's signature may name types the tool defines for itself (`export type Counts =
//! { words: number, ... }`); the definition file cannot see them. Writing each such name
//! out as its definition keeps the tool's exact types in the declarations (so a script
//! reading a field its result does not have is caught) instead of `any`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use full_moon::ast::luau::TypeInfo;
use full_moon::ast::Stmt;
use full_moon::node::Node;
use full_moon::tokenizer::TokenType;

/// How deep aliases naming aliases are written out.
const MAX_DEPTH: usize = 4;

/// The longest text a written-out type may reach: a tool's signature is a line of text.
const MAX_LEN: usize = 4096;

/// `written` with every type alias `source` defines at its top level (`type N = ...` or
/// `export type N = ...`, without type parameters) replaced by its definition in
/// parentheses. Names it does not define are left as they are.
pub(crate) fn inline_aliases(written: &str, source: &str) -> String {
    // The surface's declarations are read once: a check asks about them per call.
    static SURFACE: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    let read;
    let aliases = match source == super::SURFACE {
        true => SURFACE.get_or_init(|| aliases(source)),
        false => {
            read = aliases(source);
            &read
        }
    };
    let mut text = written.to_string();
    for _ in 0..MAX_DEPTH {
        let next = substitute(&text, aliases);
        if next == text || next.len() > MAX_LEN {
            break;
        }
        text = next;
    }
    text
}

/// The top-level aliases of `source` (read as Luau reads it), each definition on one line
/// without comments; none when the source does not parse.
fn aliases(source: &str) -> BTreeMap<String, String> {
    // Most tools define no type: their source is not parsed again.
    if !source.contains("type") {
        return BTreeMap::new();
    }
    // Parsing a whole tool was most of what declaring it cost a one-shot run; its aliases
    // alone are a few lines. Luau's own parser has the last word on where a cut left a
    // declaration unfinished (full_moon lets `type T = {` through).
    match declared_lines(source) {
        // `type` was a call or a field: nothing is declared.
        Some(lines) if lines.is_empty() => return BTreeMap::new(),
        Some(lines) if crate::assets::compile(&lines).is_ok() => {
            if let Some(found) = aliases_in(&lines) {
                return found;
            }
        }
        _ => {}
    }
    aliases_in(source).unwrap_or_default()
}

/// The statements of `source` that start at the start of a line with `type ` or `export
/// type `, each up to the next line that starts another statement. `None` where such a
/// line need not be a top-level declaration, or a declaration need not start so: a line
/// break that may sit in a string or a comment (a long bracket, a `\` line continuation),
/// a line ending other than `\n`, a declaration after a `;`, a `type` or `export` that does
/// not start a line at the margin as `type ` or `export type `, or a margin line inside a
/// block that a margin line opened (a body not indented).
fn declared_lines(source: &str) -> Option<String> {
    let unsure = ["[[", "[=", "\\\n", "\\z", "\r"];
    if unsure.iter().any(|text| source.contains(text)) {
        return None;
    }
    let mut out = String::new();
    let mut inside = false;
    let mut depth = 0i32;
    for line in source.lines() {
        let text = line.trim_start();
        let declares = line.starts_with("type ") || line.starts_with("export type ");
        if !declares && starts_a_declaration(text) {
            return None;
        }
        // A statement after a `;` need not start a line.
        if line
            .split(';')
            .skip(1)
            .any(|after| starts_a_declaration(after.trim_start()))
        {
            return None;
        }
        // A statement starts with a keyword or a name; a line of a declaration written on
        // several lines at the margin (`| "b"`, `-> T`, `}`) starts otherwise, and a cut
        // that leaves a declaration unfinished fails to parse (then the whole is read).
        if line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            if declares && depth != 0 {
                return None;
            }
            depth += block_change(line);
            if depth < 0 {
                return None;
            }
            inside = declares;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    Some(out)
}

/// True when `text` may start a type declaration: its first word is `type` or `export`
/// followed by a name (not a field or a variable of that name: `type = "x"`, `type(v)`).
fn starts_a_declaration(text: &str) -> bool {
    let Some(rest) = text
        .strip_prefix("type")
        .or_else(|| text.strip_prefix("export"))
    else {
        return false;
    };
    let after = rest.trim_start();
    rest.len() > after.len() && after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// How many blocks `line` opens less how many it closes, by its keywords outside strings
/// and comments (`elseif ... then` counts as an opening: too deep is only less sure).
fn block_change(line: &str) -> i32 {
    let mut change = 0;
    let mut word = String::new();
    let mut quote = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            match c {
                '\\' => {
                    chars.next();
                }
                c if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        change += keyword_change(&word);
        word.clear();
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '-' if chars.peek() == Some(&'-') => return change,
            _ => {}
        }
    }
    change + keyword_change(&word)
}

fn keyword_change(word: &str) -> i32 {
    match word {
        "function" | "do" | "then" | "repeat" => 1,
        "end" | "until" => -1,
        _ => 0,
    }
}

/// The top-level aliases `source` defines, when it parses.
fn aliases_in(source: &str) -> Option<BTreeMap<String, String>> {
    let found = crate::assets::with_luau(source, |ast| {
        let mut found = BTreeMap::new();
        for stmt in ast.nodes().stmts() {
            let decl = match stmt {
                Stmt::TypeDeclaration(decl) => decl,
                Stmt::ExportedTypeDeclaration(exported) => exported.type_declaration(),
                _ => continue,
            };
            if decl.generics().is_none() {
                let name = decl.type_name().token().to_string();
                found.insert(name, one_line(decl.type_definition()));
            }
        }
        found
    });
    found.ok()
}

/// `ty` as written, comments left out and every run of spaces and line breaks one space.
fn one_line(ty: &TypeInfo) -> String {
    let mut text = String::new();
    // In the order written (a table's braces come before its fields).
    let mut tokens: Vec<_> = ty.tokens().collect();
    tokens.sort_by_key(|t| t.token().start_position().bytes());
    for token in tokens {
        let all = token.leading_trivia().chain([token.token()]);
        for part in all.chain(token.trailing_trivia()) {
            match part.token_type() {
                TokenType::SingleLineComment { .. } | TokenType::MultiLineComment { .. } => {
                    text.push(' ');
                }
                _ => text.push_str(&part.to_string()),
            }
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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
#[path = "../../tests/unit/types/inline.rs"]
mod tests;
