//! Tests of `engine/assets/parse.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn parses_ordinary_code() {
    assert!(with_luau("return function(a: number) return a end", |_| ()).is_ok());
    let err = with_luau("return (", |_| ()).unwrap_err();
    assert!(err.to_string().starts_with("line 1:"), "{err}");
    // Many operators over many statements, if-expressions in brackets, and
    // interpolated strings stay well under the limit.
    let busy =
        "local a = -1 - -2 .. \"x\" .. #t\nlocal b = (if a then 1 else 2)\nlocal c = `{a}{b}`\n"
            .repeat(2000);
    assert!(depth_estimate(&busy) < 20, "{}", depth_estimate(&busy));
    assert!(with_luau(&busy, |_| ()).is_ok());
    let nested =
        "local function f()\n\tif x then\n\t\tdo\n\t\t\treturn (a + b) * c\n\t\tend\n\tend\nend\n";
    assert!(depth_estimate(nested) < 10);
}

#[test]
fn refuses_every_kind_of_deep_nesting() {
    let n = 200_000;
    let hostile = [
        format!("return {}1{}", "{".repeat(n), "}".repeat(n)),
        format!("return {}1{}", "(".repeat(n), ")".repeat(n)),
        format!("return t{}", "[t".repeat(n)),
        format!("return {}1", "- ".repeat(n)),
        format!("return {}x", "not ".repeat(n)),
        format!("return {}x", "#".repeat(n)),
        format!("return x{}", " .. x".repeat(n)),
        format!("return 2{}", " ^ 2".repeat(n)),
        format!("return 1{}", " + 1".repeat(n)),
        format!("return a{}", " and a".repeat(n)),
        format!("local function q(x: string{}) end", "?".repeat(n)),
        format!("type T = A{}B{}", "<A".repeat(n), ">".repeat(n)),
        format!("type T = {}", "() -> ".repeat(n) + "()"),
        format!("type T = {}string{}", "{".repeat(n), "}".repeat(n)),
        format!("{}end", "do ".repeat(n)),
        format!("return {}1", "if a then 1 else ".repeat(n)),
        format!(
            "return {}{}",
            "function() return ".repeat(n),
            "end ".repeat(n)
        ),
        format!("return `{}`", "{`".repeat(n)),
    ];
    for source in &hostile {
        let err = with_luau(source, |_| ()).unwrap_err();
        assert_eq!(err, ParseError::TooDeep(MAX_DEPTH), "{}", &source[..40]);
    }
}

#[test]
fn survives_the_deepest_source_it_accepts() {
    // Just under the limit, for each kind of chain: the parse (and the drop of the
    // tree) must fit the indexing threads' stacks.
    let n = MAX_DEPTH - 10;
    for source in [
        format!("return 1{}", " + 1".repeat(n)),
        format!("local function q(x: string{}) end", "?".repeat(n)),
        format!("return {}1{}", "{".repeat(n), "}".repeat(n)),
        format!("return {}1", "- ".repeat(n)),
        format!("type T = {}string", "() -> ".repeat(n / 2)),
        format!("{}{}", "do ".repeat(n), "end ".repeat(n)),
        format!("return {}1", "if a then 1 else ".repeat(n)),
    ] {
        assert!(depth_estimate(&source) <= MAX_DEPTH, "{}", &source[..30]);
        let _ = with_luau(&source, |ast| ast.nodes().stmts().count());
    }
}

#[test]
fn a_source_parsed_on_the_calling_thread_fits_a_default_thread_stack() {
    // Blocks, a call and an interpolated string nested to just the depth still
    // parsed in place, as a bundled tool does.
    let mut source = String::from("local t = function()\n\tfunction f(x)\n\t\tfor i = 1, 2 do\n\t\t\tif x then\n\t\t\t\tprint(`{(a + (b * -c))}`)\n\t\t\tend\n\t\tend\n\tend\nend\n");
    while depth_estimate(&source) < INLINE_DEPTH {
        source = format!("do\n{source}end\n");
    }
    let depth = depth_estimate(&source);
    assert_eq!(depth, INLINE_DEPTH, "{source}");
    let parsed = std::thread::Builder::new()
        .stack_size(SMALLEST_CALLER_STACK)
        .spawn(move || with_luau(&source, |ast| ast.nodes().stmts().count()))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(parsed, Ok(1));
}

#[test]
fn a_panic_in_the_parser_is_an_error() {
    for source in [
        "local function f(x: café) end",
        "function t(n:dé",
        "type T = {[\u{202e}",
        "local x: é",
        "type T = aé | b",
    ] {
        // Either a parse error or the parser-failed error; never a panic.
        let _ = with_luau(source, |_| ());
    }
}
