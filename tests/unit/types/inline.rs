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
fn the_declaration_lines_read_as_the_whole_source_does() {
    let sources: Vec<String> =
        walkdir::WalkDir::new(concat!(env!("CARGO_MANIFEST_DIR"), "/toolboxes"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_name() == "init.luau")
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect();
    let typed: Vec<&String> = sources.iter().filter(|s| s.contains("type ")).collect();
    assert!(typed.len() >= 3, "the bundled tools define types");
    for source in typed {
        let lines = declared_lines(source)
            .unwrap_or_else(|| panic!("a bundled tool takes the short way: {source}"));
        assert_eq!(aliases_in(&lines), aliases_in(source), "{source}");
    }
    // A declaration over several lines at the margin, and a cut one.
    let source = "type Mode =\n\"a\"\n| \"b\"\nlocal x = 1\ntype T = {\na: number,\n}\n";
    assert_eq!(aliases(source), aliases_in(source).unwrap());
    assert_eq!(aliases(source)["Mode"], "\"a\" | \"b\"");
    // Where a line break may sit in a long string, the whole source is read.
    let source = "local s = [[\ntype Fake = number\n]]\ntype Real = string\n";
    assert!(declared_lines(source).is_none());
    assert_eq!(aliases(source).keys().collect::<Vec<_>>(), ["Real"]);
}

/// Sources where a line at the margin need not be a top-level declaration, or a
/// declaration need not start at the margin: the aliases are those of the whole source.
#[test]
fn a_declaration_not_plainly_at_the_top_level_is_read_from_the_whole_source() {
    let sources = [
        "local function f()\ntype Row = { debug: string }\nreturn 1\nend\ntype Row2 = number\n",
        "type Result = number\nlocal function f()\ntype Result = string\nend\n",
        "do\ntype Inner = number\nend\n",
        "if x then\ntype Inner = number\nend\n",
        "local V = 1; type T = number\n",
        "  type T = number\n",
        "type\tT = number\n",
        "export  type T = number\n",
        "export\ntype T = number\n",
        "local x = 1\rtype T = number\r",
        "local x = 1\r\ntype T = number\r\n",
        "local s = \"end\"\nlocal function f()\ntype Row = string\nend\ntype T = Row\n",
        "local f = function() return 1 end\ntype T = { a: number }\n",
        "local t = {\n\ttype = \"object\",\n}\ntype T = string\n",
        "local k = type(x)\ntype T = string\n",
        "local function f()\n\tlocal k = `{x} end`\nend\ntype T = string\n",
    ];
    for source in sources {
        assert_eq!(
            aliases(source),
            aliases_in(source).unwrap_or_default(),
            "{source:?}"
        );
    }
    // A plainly formatted source takes the short way, and that finds its aliases.
    let formatted =
        "local function f()\n\ttype Inner = number\n\treturn 1\nend\ntype T = { a: number }\n";
    assert!(
        declared_lines(formatted).is_none(),
        "an indented declaration is read whole"
    );
    let plain = "local t = {\n\ttype = \"object\",\n}\nlocal function f(x)\n\treturn type(x)\nend\ntype T = string\n";
    assert_eq!(declared_lines(plain).as_deref(), Some("type T = string\n"));
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
