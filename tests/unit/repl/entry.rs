//! Tests of `engine/repl/entry.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn expressions_return_their_value() {
    assert_eq!(prepare("1 + 1"), Prepared::Run("return 1 + 1".into()));
    assert_eq!(prepare("x"), Prepared::Run("return x".into()));
}

#[test]
fn unfinished_input_asks_for_more() {
    assert_eq!(prepare("function f()"), Prepared::Incomplete);
    assert_eq!(prepare("local t = {"), Prepared::Incomplete);
    assert_eq!(prepare("for i = 1, 3 do\n print(i)"), Prepared::Incomplete);
    assert_eq!(prepare("x +"), Prepared::Incomplete);
    assert_eq!(prepare("print("), Prepared::Incomplete);
    assert!(matches!(prepare("local = ="), Prepared::Run(_)));
    assert!(matches!(prepare("x = = 1"), Prepared::Run(_)));
}

#[test]
fn top_level_locals_persist() {
    assert_eq!(persist_locals("local x = 1"), "x = 1");
    assert_eq!(persist_locals("local a: number, b = 1, 2"), "a, b = 1, 2");
    assert_eq!(persist_locals("local y"), "y = nil");
    assert_eq!(
        persist_locals("local function f() return 1 end"),
        "function f() return 1 end"
    );
    assert_eq!(
        persist_locals("do local z = 1 end local w = 2"),
        "do local z = 1 end w = 2"
    );
}
