//! Tests of `engine/types/known.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn misspelt_and_unknown_names_are_refused_with_the_list() {
    let problem = type_problem("strin").unwrap();
    assert!(
        problem.starts_with("`strin` is not a type; types are string, number"),
        "{problem}"
    );
    assert!(type_problem("{ name: strnig, age: number }")
        .unwrap()
        .contains("`strnig`"));
    assert!(type_problem("{ [string]: Foo }?")
        .unwrap()
        .contains("`Foo`"));
    assert!(type_problem("string number")
        .unwrap()
        .contains("is not a Luau type"));
}

#[test]
fn luau_types_and_forms_pass() {
    for ok in [
        "string",
        "number?",
        "{string}",
        "{ name: string, tags: {string}? }",
        "{ [string]: number }",
        "\"asc\" | \"desc\"",
        "(string) -> boolean",
        "buffer",
        "table",
        "any",
    ] {
        assert_eq!(type_problem(ok), None, "{ok}");
    }
}
