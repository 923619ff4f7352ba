//! Tests of `engine/assets/signature.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn reads_a_typed_local_function() {
    let src = "local function slugify(text: string, opts: { sep: string? }?): string\n\treturn text\nend\n\nreturn slugify\n";
    let Returned::Function {
        params,
        returns,
        signature,
    } = read_signature(src, "x").unwrap()
    else {
        panic!("no function")
    };
    assert_eq!(params.len(), 2);
    assert_eq!(params[1].ty.as_deref(), Some("{ sep: string? }?"));
    assert_eq!(returns.as_deref(), Some("string"));
    assert_eq!(
        signature,
        "slugify(text: string, opts: { sep: string? }?): string"
    );
}

#[test]
fn a_table_type_split_over_lines_reads_as_one_line() {
    let src = "local function f(\n\topts: {\n\t\ta: string?,\n\t\tb: number?,\n\t}?\n): string\n\treturn ''\nend\nreturn f\n";
    let Returned::Function { params, .. } = read_signature(src, "f").unwrap() else {
        panic!("no function")
    };
    assert_eq!(params[0].ty.as_deref(), Some("{ a: string?, b: number? }?"));
}

#[test]
fn reads_an_anonymous_function_and_untyped_params() {
    let src = "return function(a, b: number) return a end";
    let Returned::Function {
        params, signature, ..
    } = read_signature(src, "f").unwrap()
    else {
        panic!()
    };
    assert_eq!(params[0].ty, None);
    assert_eq!(signature, "f(a, b: number)");
}

#[test]
fn flags_files_that_return_no_function() {
    assert!(matches!(
        read_signature("local x = 1", "f"),
        Ok(Returned::NotAFunction(_))
    ));
    assert!(matches!(
        read_signature("return 42", "f"),
        Ok(Returned::NotAFunction(_))
    ));
    assert!(matches!(
        read_signature("return make()", "f"),
        Ok(Returned::Unknown)
    ));
}

#[test]
fn header_fast_path_agrees_with_a_full_parse() {
    let src = "local shared = require('.shared')\n--!desc x\nlocal function go(a: { b: number,\n\tc: (string) -> () }, d: \"x\" | \"y\"): (number, string) -- note\n\tlocal t = { 1 }\n\treturn 1, 'a'\nend\n\nreturn go\n";
    let snippet = header_snippet(src).expect("a header");
    assert!(snippet.starts_with("local function go(a:"), "{snippet}");
    assert_eq!(parse_returned(&snippet, "x"), parse_returned(src, "x"));
    // A one-line function falls back to the full parse and still reads right.
    let one = "local function f(x: number): number return x end\nreturn f";
    assert!(matches!(
        read_signature(one, "f"),
        Ok(Returned::Function { .. })
    ));
}

#[test]
fn a_nested_function_of_the_same_name_is_not_the_returned_one() {
    let src = "local function f()\n\tlocal function f(a, b)\n\t\treturn a\n\tend\n\treturn f\nend\n\nreturn f\n";
    let Returned::Function {
        params, signature, ..
    } = read_signature(src, "f").unwrap()
    else {
        panic!("no function")
    };
    assert!(params.is_empty(), "{params:?}");
    assert_eq!(signature, "f()");
    // Unformatted code: the nested one is not indented, and comes first.
    let flat = "local function g(x: number)\nlocal function g(a, b) return a end\nreturn x\nend\nreturn g\n";
    let Returned::Function { params, .. } = read_signature(flat, "g").unwrap() else {
        panic!("no function")
    };
    assert_eq!(params.len(), 1);
    assert_eq!(params[0].name, "x");
    // A longer name sharing the prefix does not count as a second definition.
    let prefix = "local function fmt(a)\n\treturn a\nend\nlocal function fmtAll(b, c)\n\treturn b\nend\nreturn fmt\n";
    assert!(header_snippet(prefix).is_some());
}

#[test]
fn refuses_to_parse_hostile_nesting() {
    let bomb = format!("return {}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(read_signature(&bomb, "f")
        .unwrap_err()
        .to_string()
        .contains("nested deeper"));
    let blocks = format!(
        "{}return 1{}",
        "if x then ".repeat(5000),
        " end".repeat(5000)
    );
    assert!(read_signature(&blocks, "f").is_err());
}

#[test]
fn reports_parse_errors_with_their_line() {
    let err = read_signature("local x = 1\nlocal function (", "f").unwrap_err();
    assert!(err.to_string().starts_with("line 2"), "{err}");
}
