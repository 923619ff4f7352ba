//! Tests of `engine/types/inline.rs`, compiled as its child module `tests` (they reach its
//! private items).

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
fn aliases_are_read_as_luau_reads_them() {
    // Brackets in a comment or a string, and an alias inside a function, fool no count.
    let source = "type Mode = \"(\" | \"{\" -- a ( comment {\n\
             type Box<T> = { value: T }\n\
             local function f()\n\ttype Inner = number\nend\n\
             export type Wrapped = {\n\t--[[ long\n comment ]] mode: Mode,\n}\n";
    assert_eq!(inline_aliases("Mode", source), "(\"(\" | \"{\")");
    assert_eq!(
        inline_aliases("Wrapped", source),
        "({ mode: (\"(\" | \"{\"), })"
    );
    assert_eq!(inline_aliases("Box", source), "Box");
    assert_eq!(inline_aliases("Inner", source), "Inner");
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
