//! A tool's source as the checker gets it (`engine/check/tool.rs`).

use crate::check::*;

#[test]
fn requires_stand_for_any_and_lines_stay() {
    let source =
        "local shared = require(\".shared\")\nlocal x = myrequire(\"a\")\nreturn require(name)\n";
    assert_eq!(
        tool_source(source),
        "local shared = (nil :: any)\nlocal x = myrequire(\"a\")\nreturn require(name)\n"
    );
}

#[test]
fn a_required_module_is_written_in_front_once() {
    let source = "local shared = require(\".shared\")\nlocal again = require('.shared')\nlocal other = require(\".missing\")\nreturn shared.slug\n";
    let module = "export type Slug = string\nlocal inner = require(\".x\")\nreturn { slug = function(t: string): Slug return t end }";
    let found = with_modules(source, |name| (name == "shared").then_some(module));
    assert_eq!(found.offset, 5, "{}", found.text);
    let lines: Vec<&str> = found.text.lines().collect();
    assert_eq!(lines[0], "local __codemode_module_shared = (function()");
    assert_eq!(lines[1], "type Slug = string");
    assert_eq!(lines[2], "local inner = (nil :: any)");
    assert_eq!(lines[4], "end)()");
    assert_eq!(lines[5], "local shared = __codemode_module_shared");
    assert_eq!(lines[6], "local again = __codemode_module_shared");
    assert_eq!(lines[7], "local other = (nil :: any)");
}
