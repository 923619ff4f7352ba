//! The table literals a script passes straight to tools (`engine/check/literal.rs`).

use crate::check::*;

#[test]
fn literals_passed_straight_to_a_tool_are_read_with_their_places() {
    let found =
        option_literals("local s = tools.text.slugify(t, { maxLenght = 5, [\"sep\"] = \"_\" })");
    assert_eq!(
        found,
        vec![OptionLiteral {
            tool: "text.slugify".into(),
            argument: 1,
            fields: vec![("maxLenght".into(), 1, 35), ("sep".into(), 1, 51)],
            kinds: vec![Some("number"), Some("string")],
            held: None,
        }]
    );
    let braces = option_literals("return tools.json.parse { text = s }");
    assert_eq!(braces[0].argument, 0);
    let kinds = option_literals("tools.a.b(x, { n = 1, t = true, s = `x`, z = nil, f = f() })");
    assert_eq!(
        kinds[0].kinds,
        vec![Some("number"), Some("boolean"), None, None, None]
    );
}

#[test]
fn a_literal_held_in_a_local_nothing_changes_is_read_where_it_is_passed() {
    let held = option_literals(
        "local opts = { sortby = 'age' }\nlocal n = opts.sortby\nreturn tools.csvReport.start(csv, opts)",
    );
    assert_eq!(
        held,
        vec![OptionLiteral {
            tool: "csvReport.start".into(),
            argument: 1,
            fields: vec![("sortby".into(), 1, 16)],
            kinds: vec![Some("string")],
            held: Some(("opts".into(), 3, 35)),
        }]
    );
    // Read off the call as well: `tools.box.tool(...).field` is no call node.
    let read_off = option_literals(
        "local opts = { sortby = 'age' }\nreturn tools.csvReport.start(csv, opts).text",
    );
    assert_eq!(read_off.len(), 1, "{read_off:?}");
    let straight = option_literals("return tools.text.slugify(s, { mxLength = 2 }).x");
    assert_eq!(straight.len(), 1, "{straight:?}");
    // Anything that may change the table, or another table of the same name, and
    // the literal is no longer what the tool gets.
    for changed in [
        "local opts = { sortby = 'age' }\nopts.sortby = nil\nreturn tools.csvReport.start(csv, opts)",
        "local opts = { sortby = 'age' }\nopts = {}\nreturn tools.csvReport.start(csv, opts)",
        "local opts = { sortby = 'age' }\nfix(opts)\nreturn tools.csvReport.start(csv, opts)",
        "local opts = { sortby = 'age' }\nlocal o = opts\no.sortby = nil\nreturn tools.csvReport.start(csv, opts)",
        "local opts = { sortby = 'age' }\nopts:clean()\nreturn tools.csvReport.start(csv, opts)",
        "local opts = { sortby = 'age' }\ntools.fix.keys(opts)\nreturn tools.csvReport.start(csv, opts)",
        "local opts = { sortby = 'age' }\nlocal function f(opts) return tools.csvReport.start(csv, opts) end\nreturn f({})",
        "local function f() return tools.csvReport.start(csv, opts) end\nlocal opts = { sortby = 'age' }\nreturn f()",
    ] {
        assert!(option_literals(changed).is_empty(), "{changed}");
    }
}

#[test]
fn computed_keys_colon_calls_and_scripts_that_write_tools_are_left_alone() {
    assert!(option_literals("return tools.text.slugify(t, { [k] = 1, mxLength = 2 })").is_empty());
    assert!(option_literals("return tools.text:slugify(t, { mxLength = 2 })").is_empty());
    assert!(option_literals("return other.text.slugify(t, { mxLength = 2 })").is_empty());
    assert!(option_literals(
        "tools.create('a.b', src)\nreturn tools.text.slugify(t, { mxLength = 2 })"
    )
    .is_empty());
}

#[test]
fn the_literals_of_a_script_sent_again_are_read_once() {
    let recent = crate::check::RecentLiterals::default();
    let first = "return tools.text.slugify(t, { mxLength = 2 })";
    let second = "return tools.text.truncate(t, 3, { elipsis = '~' })";
    let read = recent.of(first);
    assert_eq!(&*read, option_literals(first).as_slice());
    assert_eq!(&*recent.of(second), option_literals(second).as_slice());
    // The same script again gets what was read the first time, not a new parse.
    assert!(std::sync::Arc::ptr_eq(&read, &recent.of(first)));
    // A long script is read each time rather than held.
    let long = format!("{first}\n{}", "-- padding\n".repeat(8 * 1024));
    assert_eq!(&*recent.of(&long), option_literals(&long).as_slice());
    assert!(!std::sync::Arc::ptr_eq(
        &recent.of(&long),
        &recent.of(&long)
    ));
}
