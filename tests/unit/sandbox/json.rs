//! Tests of `engine/sandbox/json.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use mlua::Lua;

fn convert(src: &str, budget: usize) -> (Json, bool) {
    let lua = Lua::new();
    let v: Value = lua.load(src).eval().unwrap();
    to_json(&v, budget, 8)
}

#[test]
fn arrays_objects_and_placeholders() {
    let (j, cut) = convert("return {1, 2, {a = true, b = 'x'}, {}, print}", 1000);
    assert_eq!(j.to_string(), r#"[1,2,{"a":true,"b":"x"},[],"<function>"]"#);
    assert!(!cut);
    let (j, _) = convert("return {[1] = 'a', [3] = 'c'}", 1000);
    assert_eq!(j.to_string(), r#"{"1":"a","3":"c"}"#);
    let (j, _) = convert("return 0/0", 1000);
    assert_eq!(j, Json::Null);
}

#[test]
fn json_marks_give_null_and_empty_objects() {
    let (j, _) = convert(
        "local null = setmetatable({}, {__json = 'null'})\n\
             return {a = null, b = {null}, e = setmetatable({}, {__json = 'object'}), f = {}}",
        1000,
    );
    assert_eq!(j.to_string(), r#"{"a":null,"b":[null],"e":{},"f":[]}"#);
}

#[test]
fn cycles_and_depth_become_placeholders() {
    let (j, _) = convert("local t = {} t.self = t return t", 1000);
    assert_eq!(j.to_string(), r#"{"self":"<cycle>"}"#);
    let (j, _) = convert("local t = {} for i = 1, 20 do t = {t} end return t", 1000);
    assert!(j.to_string().contains("nested deeper than 8 levels"));
    let (j, _) = convert("local s = {1} return {s, s}", 1000);
    assert_eq!(j.to_string(), "[[1],[1]]");
}

#[test]
fn big_values_are_cut_within_budget() {
    let (j, cut) = convert("return string.rep('é', 10000)", 100);
    assert!(cut);
    let text = j.as_str().unwrap();
    assert!(text.len() <= 100 && text.ends_with(CUT_MARK));
    let (j, cut) = convert(
        "local t = {} for i = 1, 100000 do t[i] = i end return t",
        1000,
    );
    assert!(cut);
    assert!(j.to_string().len() < 1200);
}
