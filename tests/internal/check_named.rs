//! The toolboxes a script names, and scripts that reach no host (`engine/check/named.rs`).

use crate::check::*;

#[test]
fn a_script_reaches_the_host_only_by_naming_one_of_its_globals() {
    for pure in [
        "return 1",
        "local toolset = 2\nreturn toolset",
        "print(#'shells')",
    ] {
        assert!(reaches_no_host(pure), "{pure}");
    }
    for reaching in [
        "return tools.text.slugify('a')",
        "local t = tools\nreturn t",
        "return _G['to' .. 'ols']",
        "return getfenv(1).vfs",
        "-- http\nreturn 1",
    ] {
        assert!(!reaches_no_host(reaching), "{reaching}");
    }
}

fn names(source: &str) -> Vec<String> {
    named_toolboxes(source, 64).into_iter().collect()
}

#[test]
fn fields_and_literal_keys_of_tools_are_named() {
    let source = "local a = tools.text.slugify('x')\nlocal b = tools [ \"json\" ].parse\n\
                  local c = tools\n\t.math . add(1, 2)\nreturn tools['csv']";
    assert_eq!(names(source), ["csv", "json", "math", "text"]);
}

#[test]
fn other_words_and_dynamic_keys_are_not() {
    let source = "local mytools = {}\nmytools.a = 1\nlocal t = tools_x.b\n\
                  local d = tools[name]\nlocal e = tools['not a name']\nlocal f = tools.9x";
    assert!(names(source).is_empty(), "{:?}", names(source));
}

#[test]
fn only_literal_fields_of_tools_are_reached_by_name() {
    for source in [
        "return tools.text.slugify('x')",
        "local a = tools [ \"json\" ].parse(s)\nreturn tools\n\t.math.add(1, 2)",
        "-- the tools we need\nprint(\"tools: \" .. tools.list().stdout)",
        "--[==[ local t = tools ]==] local s = [[tools]] return config.tools, x:tools()",
        "local s = 'it\\'s tools' return 1",
        "return `{#tools.list().stdout} lines, {({ n = 1 }).n} {`{tools.text.slugify('a b')}`}`",
        "return 1",
    ] {
        assert!(only_by_name(source), "{source}");
    }
    for source in [
        "local t = tools\nreturn t.text.slugify('x')",
        "return tools[name].run()",
        "return tools['te' .. 'xt'].slugify('x')",
        "for k in pairs(tools) do end",
        "f(tools)",
        "return `{tools}`",
        "return `it's {f(tools)}`, 'x'",
        "return `{ { t = tools } }`",
        "return tools --[[ why ]] .text.slugify('x')",
        "return tools:list()",
    ] {
        assert!(!only_by_name(source), "{source}");
    }
    // Nested interpolations are followed only so deep (and never past the stack).
    let deep = format!("return {}", "`{".repeat(100_000));
    assert!(!only_by_name(&deep));
}

#[test]
fn the_limit_keeps_the_first_names() {
    let source = "tools.a.x() tools.b.x() tools.a.y() tools.c.x()";
    let kept: Vec<String> = named_toolboxes(source, 2).into_iter().collect();
    assert_eq!(kept, ["a", "b"]);
}
