//! Parsing Luau source with `full_moon`, bounded.
//!
//! `full_moon` recurses once per nesting level with no limit of its own, so a hostile
//! file (a thousand nested tables) would overflow the stack of whatever thread parses
//! it. Every parse in the engine goes through [`parse_luau`]: deep sources are refused
//! up front, and the rest are parsed on the indexing threads, whose stacks are large.

use full_moon::ast::Ast;
use full_moon::LuaVersion;

use super::compile::compile;
use super::parse_pool;

/// Sources nested deeper than this are refused without parsing.
pub const MAX_NESTING: usize = 200;

/// Operators `full_moon` parses by recursion (unary `-`, `not`, `#`; right-associative
/// `..` and `^`): past this many in one source, Luau's own parser, which stops at its
/// recursion limit with an error, checks the source first.
const MAX_CHAIN_OPERATORS: usize = 200;

/// Sources this short are parsed on the calling thread: they cannot nest deep enough to
/// matter, and a hop to the indexing threads would cost more than the parse.
const INLINE_BYTES: usize = 256;

/// Parses `source` as Luau. Errors say where the first problem is (`line N: ...`) or that
/// the source nests too deeply to read.
pub fn parse_luau(source: &str) -> Result<Ast, String> {
    if nesting_depth(source) > MAX_NESTING {
        return Err(format!(
            "nested deeper than {MAX_NESTING} levels, too deep to read"
        ));
    }
    if chain_operators(source) > MAX_CHAIN_OPERATORS {
        if let Err(e) = compile(source) {
            if e.contains("recursion depth") {
                return Err(e);
            }
        }
    }
    let parse = || {
        let parsed = full_moon::parse_fallible(source, LuaVersion::luau());
        match parsed.errors().first() {
            Some(error) => Err(format!(
                "line {}: {}",
                error.range().0.line(),
                error.error_message()
            )),
            None => Ok(parsed.into_ast()),
        }
    };
    if source.len() <= INLINE_BYTES {
        parse()
    } else {
        parse_pool().install(parse)
    }
}

/// An upper bound on the operators `full_moon` handles by recursion: unary `-` (a lone
/// dash, so comment markers do not count), `#`, `^`, `..` and the word `not`.
fn chain_operators(source: &str) -> usize {
    let bytes = source.as_bytes();
    let mut count = 0;
    let mut word = 0..0;
    for (i, &b) in bytes.iter().enumerate() {
        let lone_dash =
            b == b'-' && bytes.get(i + 1) != Some(&b'-') && (i == 0 || bytes[i - 1] != b'-');
        let concat = b == b'.' && bytes.get(i + 1) == Some(&b'.');
        if lone_dash || concat || b == b'#' || b == b'^' {
            count += 1;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            word.end = i + 1;
        } else {
            count += usize::from(&bytes[word.clone()] == b"not");
            word = i + 1..i + 1;
        }
    }
    count + usize::from(&bytes[word] == b"not")
}

/// An upper bound on how deeply `source` nests brackets and blocks (strings and comments
/// are not told apart, which only ever over-counts).
fn nesting_depth(source: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut word = String::new();
    for c in source.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        match word.as_str() {
            "function" | "if" | "do" | "repeat" => depth += 1,
            "end" | "until" => depth = depth.saturating_sub(1),
            _ => {}
        }
        word.clear();
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        deepest = deepest.max(depth);
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses_hostile_nesting() {
        assert!(parse_luau("return function(a: number) return a end").is_ok());
        let err = parse_luau("return (").unwrap_err();
        assert!(err.starts_with("line 1:"), "{err}");
        let deep = format!("return {}1{}", "{".repeat(5000), "}".repeat(5000));
        assert!(parse_luau(&deep).unwrap_err().contains("nested deeper"));
        // Chains of unary or right-associative operators, which brackets do not show.
        for chain in [
            format!("return {}1", "- ".repeat(200_000)),
            format!("return {}x", "not ".repeat(200_000)),
            format!("return x{}", " .. x".repeat(200_000)),
            format!("return 2{}", " ^ 2".repeat(200_000)),
        ] {
            assert!(parse_luau(&chain).unwrap_err().contains("recursion depth"));
        }
        // Ordinary code with many operators still parses.
        let busy = "local a = -1 - -2 .. \"x\" .. #t\n".repeat(100);
        assert!(parse_luau(&busy).is_ok());
    }
}
