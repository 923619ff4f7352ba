//! Tests of `engine/docs/scan.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn finds_calls_requires_and_errors_but_not_in_comments() {
    let facts = scan(
        "local shared = require(\".shared\")\n--!example tools.text.nope(1)\n\
             local function f(x: string): string\n\
             \tif x == '' then error(\"x is empty; pass some text\") end\n\
             \tlocal g = tools.use('text', 'upper')\n\
             \tlocal n = tools.math.add(1, 2)\n\
             \tlocal y = tools.list(2)\n\
             \tvfs.write('a', x)\n\
             \tlocal page = http.request({ url = x })\n\
             \treturn g(x)\nend\nreturn f\n",
    );
    let calls: Vec<&str> = facts.calls.iter().map(String::as_str).collect();
    assert_eq!(calls, ["math.add", "text.upper"]);
    assert_eq!(facts.errors, ["x is empty; pass some text"]);
    assert!(facts.requires.contains(".shared"));
    assert!(facts.uses_vfs);
    assert!(facts.uses_http);
    assert!(!facts.uses_shell);
}
