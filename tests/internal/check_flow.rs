//! What the check reads off a script's syntax tree (`engine/check/script.rs`): which reads
//! of a field are certain to read a tool's result, whether a script writes tools, and
//! which calls a local naming a toolbox or tool makes.

use crate::assets::with_luau;
use crate::check::{slip, ToolCalls};

fn read(source: &str) -> ToolCalls {
    with_luau(source, ToolCalls::read).unwrap()
}

/// The tool whose result the read of `key` starting at (`line`, `column`) reads for
/// certain.
fn result(source: &str, key: &str, line: u32, column: u32) -> Option<String> {
    read(source).result_read(key, (line, column))
}

fn tool(name: &str) -> Option<String> {
    Some(name.to_string())
}

#[test]
fn a_result_is_its_local_where_that_local_is_seen() {
    let source =
        "local function count(s)\n\tlocal r = tools.text.wordCount(s)\n\treturn r.words\nend\n\
                  local function defaults()\n\tlocal r = { limit = 10 }\n\treturn r.offset\nend\n";
    assert_eq!(result(source, "words", 3, 9), tool("text.wordCount"));
    assert_eq!(result(source, "offset", 7, 9), None);
}

#[test]
fn a_helper_that_returns_a_tools_result_gives_that_result() {
    let helper = "local function count(s)\n\treturn tools.text.wordCount(s)\nend\n";
    let source = format!("{helper}local c = count(x)\nreturn c.nope, count(y).nope\n");
    assert_eq!(result(&source, "nope", 5, 8), tool("text.wordCount"));
    assert_eq!(result(&source, "nope", 5, 16), tool("text.wordCount"));
    let literal = "local count = function(s) return tools.text.wordCount(s) end\n\
                   return count(y).nope\n";
    assert_eq!(result(literal, "nope", 2, 8), tool("text.wordCount"));
    // A helper that may return another table, or given another value, or a result given
    // the field.
    for (source, line) in [
        ("local function count(s)\n\tif s == '' then return {} end\n\treturn tools.text.wordCount(s)\nend\nlocal c = count(x)\nreturn c.nope\n", 6),
        ("local function count(s)\n\treturn tools.text.wordCount(s).words\nend\nlocal c = count(x)\nreturn c.nope\n", 5),
        (&format!("{helper}count = other\nlocal c = count(x)\nreturn c.nope\n"), 6),
        (&format!("{helper}local c = count(x)\nc.nope = 1\nreturn c.nope\n"), 6),
        // Through a local naming the tool, which may be given another function first.
        ("local wc = tools.text.wordCount\nlocal function count(s)\n\treturn wc(s)\nend\nlocal c = count(x)\nreturn c.nope\n", 6),
    ] {
        assert_eq!(result(source, "nope", line, 8), None, "{source}");
    }
    let reassigned = format!("{helper}count = other\nreturn count(y).nope\n");
    assert_eq!(result(&reassigned, "nope", 5, 8), None);
}

#[test]
fn a_field_given_a_tools_result_holds_it() {
    let head = "local ctx = { counts = tools.text.wordCount(s) }\nlocal info = {}\n\
                info.v = tools.semver.parse(v)\n";
    let source = format!("{head}return ctx.counts.nope, info.v.nope\n");
    assert_eq!(result(&source, "nope", 4, 8), tool("text.wordCount"));
    assert_eq!(result(&source, "nope", 4, 25), tool("semver.parse"));
    // The field given another value, passed on, copied or given the key; the table
    // passed on.
    for after in [
        "ctx.counts = {}",
        "local c = ctx.counts",
        "f(ctx.counts)",
        "f(ctx)",
        "ctx.counts.nope = 1",
        "x.nope = 1",
        "local ctx = {}",
    ] {
        let source = format!("{head}{after}\nreturn ctx.counts.nope\n");
        assert_eq!(result(&source, "nope", 5, 8), None, "{after}");
    }
    let twice = format!("{head}info.v = other\nreturn info.v.nope\n");
    assert_eq!(result(&twice, "nope", 5, 8), None);
}

#[test]
fn a_field_read_off_the_call_is_the_tools() {
    let source = "return tools.url.parse(u).hostname\n";
    assert_eq!(result(source, "hostname", 1, 8), tool("url.parse"));
    let through = "local p = tools.url.parse\nreturn p(u).hostname, (p(u)).port\n";
    assert_eq!(result(through, "hostname", 2, 8), tool("url.parse"));
    // In parentheses the path starts elsewhere: nothing is followed.
    assert_eq!(result(through, "port", 2, 22), None);
}

#[test]
fn fields_added_tested_or_reachable_another_way_are_not_certain() {
    let added = "local r = tools.text.wordCount(s)\nr.note = 1\nreturn r.note\n";
    assert_eq!(result(added, "note", 3, 8), None);
    let tested = "local c = tools.text.wordCount(s)\nreturn c.sentences or 0\n";
    assert_eq!(result(tested, "sentences", 2, 8), None);
    let copy_tested = "local c = tools.text.wordCount(s)\nlocal v = c.sentences\nif v then print(v) end\nreturn c.sentences\n";
    assert_eq!(result(copy_tested, "sentences", 4, 8), None);
    let aliased = "local r = tools.text.wordCount(s)\nlocal copy = r\nreturn r.note\n";
    assert_eq!(result(aliased, "note", 3, 8), None);
    let replaced = "local r = tools.text.wordCount(s)\nr = { limit = 1 }\nreturn r.offset\n";
    assert_eq!(result(replaced, "offset", 3, 8), None);
    // Given another value in a branch, or in a closure, after the read: still not sure.
    for later in [
        "if x then r = {} end",
        "local function f() r = { note = 1 } end",
        "local function f() r.note = 1 end",
    ] {
        let source = format!("local r = tools.text.wordCount(s)\nprint(r.note)\n{later}\n");
        assert_eq!(result(&source, "note", 2, 7), None, "{later}");
    }
    // Shown, it keeps its fields; given to a function or kept by `assert`, it may not.
    let shown = "local r = tools.text.wordCount(s)\nprint(r)\nreturn r.note\n";
    assert_eq!(result(shown, "note", 3, 8), tool("text.wordCount"));
    for given in ["f(r)", "local t = assert(r)", "table.sort(r)", "g.keep = r"] {
        let source = format!("local r = tools.text.wordCount(s)\n{given}\nreturn r.note\n");
        assert_eq!(result(&source, "note", 3, 8), None, "{given}");
    }
    // Read where `pcall` catches what fails.
    let caught = "local c = tools.text.wordCount(s)\nlocal ok = pcall(function()\n\treturn c.nope + 1\nend)\n";
    assert_eq!(result(caught, "nope", 3, 9), None);
    let tested_whole = "local m = tools.get(x)\nif m then return m.params end\n";
    assert_eq!(result(tested_whole, "params", 2, 18), tool("tools.get"));
    // A script that writes tools may have changed the tool; not `tools`' own functions.
    let writes = "tools.create(spec)\nlocal r = tools.text.wordCount(s)\nlocal m = tools.get(x)\nreturn r.note, m.nope\n";
    assert_eq!(result(writes, "note", 4, 8), None);
    assert_eq!(result(writes, "nope", 4, 16), tool("tools.get"));
}

#[test]
fn a_write_of_a_data_file_does_not_count_as_writing_tools() {
    for (script, authors) in [
        ("vfs.write('report.txt', s)", false),
        ("vfs.write(\"out/\" .. name .. \".csv\", s)", false),
        ("vfs.write(`out/{name}.json`, s)", false),
        ("vfs.remove 'notes.md'", false),
        ("vfs.write('mine.toolbox/a.tool/init.luau', s)", true),
        ("vfs.write(box .. '.toolbox/README.md', s)", true),
        ("vfs.write(dir .. '/init.luau', s)", true),
        ("vfs.write(path, s)", true),
        ("vfs.write(`{box}.toolbox/{name}.tool/notes.txt`, s)", true),
        ("vfs.write(name .. '.md', s)", true),
        ("vfs.write(`{name}`, s)", true),
        ("tools.create(spec)", true),
        // Writers reached by a key, and tool paths spelt in pieces or escapes.
        ("vfs['write']('mine.toolbox/a.tool/init.luau', s)", true),
        ("vfs[op]('notes.txt', s)", true),
        ("tools[how](spec)", true),
        ("tools[b].slugify(s)", false),
        ("vfs.write('mine.' .. 'toolbox/README.md', s)", true),
        ("vfs.write('mine\\x2etoolbox/README.md', s)", true),
        ("loadstring(src)()", true),
        ("_G.tools.create(spec)", true),
        ("local t = _G", true),
    ] {
        assert_eq!(read(script).authors, authors, "{script}");
    }
}

#[test]
fn a_local_naming_a_toolbox_or_tool_calls_it() {
    let named = |source: &str| -> Vec<Option<String>> {
        let calls = read(source);
        calls
            .calls
            .iter()
            .filter(|c| c.2)
            .map(|c| c.3.clone())
            .collect()
    };
    assert_eq!(
        named("local text = tools.text\nreturn text.slugfy(s)\n"),
        vec![tool("text.slugfy")]
    );
    assert_eq!(
        named("local cmp = tools.semver.compare\nreturn cmp(a)\n"),
        vec![tool("semver.compare")]
    );
    // Given another value, or shadowed, the local names no tool for certain.
    assert!(named("local text = tools.text\ntext = other\nreturn text.slugfy(s)\n").is_empty());
    assert!(named("local text = tools.text\ndo local text = x\ntext.f() end\n").is_empty());
    // Another local of the same name, given another value, leaves this one naming its
    // toolbox.
    let other = "local text = tools.text\nlocal function f()\nlocal text = ''\ntext = text .. 'x'\nend\nreturn text.slugfy(s)\n";
    assert_eq!(named(other), vec![tool("text.slugfy")]);
}

#[test]
fn an_element_of_a_result_list_is_the_tools_result() {
    let head = "local d = tools.text.lineDiff(a, b)\n";
    let read_at = |rest: &str| {
        let column = rest.find("l.kind").unwrap() as u32 + 1;
        result(&format!("{head}{rest}"), "kind", 2, column)
    };
    assert_eq!(
        read_at("for _, l in ipairs(d.lines) do print(l.kind) end\n"),
        tool("text.lineDiff")
    );
    assert_eq!(
        read_at("for _, l in d.lines do print(l.kind) end\n"),
        tool("text.lineDiff")
    );
    // The list was changed, or its elements given the field, another way.
    for after in [
        "d.lines = {}\n",
        "table.insert(d.lines, x)\n",
        "for _, row in d.lines do row.kind = 1 end\n",
        "local copy = d\n",
    ] {
        let rest = format!("for _, l in ipairs(d.lines) do print(l.kind) end\n{after}");
        assert_eq!(read_at(&rest), None, "{after}");
    }
}

#[test]
fn a_slip_is_a_case_a_swap_or_a_letter_left_out_or_added_never_another_name() {
    for (wanted, real) in [
        ("slugfy", "slugify"),
        ("slugiffy", "slugify"),
        ("wordcount", "wordCount"),
        ("Slugify", "slugify"),
        ("sulgify", "slugify"),
        ("txet", "text"),
    ] {
        assert!(slip(wanted, real), "{wanted} for {real}");
    }
    for (wanted, real) in [
        ("parseTsv", "parseCsv"),
        ("sha224", "sha256"),
        ("base32Encode", "base64Encode"),
        ("lint", "list"),
        ("set", "get"),
        ("test", "text"),
        ("uri", "url"),
        ("server", "semver"),
        ("decoding", "encoding"),
        ("csvExport", "csvReport"),
        ("unescape", "escape"),
        ("slugify2", "slugify"),
        ("mail", "email"),
        ("txt", "text"),
    ] {
        assert!(!slip(wanted, real), "{wanted} for {real}");
    }
}

#[test]
fn a_whole_result_given_to_a_tool_is_known_as_one() {
    let given =
        |source: &str, line: u32, column: u32| read(source).whole_result_given((line, column));
    let head = "local t = tools.table.parseCsv(csv)\n";
    let sorted = format!("{head}return tools.table.sortBy(t, \"age\")\n");
    assert_eq!(given(&sorted, 2, 27), tool("table.sortBy"));
    let straight = "return tools.markdown.table(tools.table.parseCsv(csv))\n";
    assert_eq!(given(straight, 1, 29), tool("markdown.table"));
    // Used as a value elsewhere, given a field, or a part of the result: it may hold a
    // list by then.
    for between in ["f(t)\n", "t.rows = {}\n", "t = t.rows\n"] {
        let source = format!("{head}{between}return tools.table.sortBy(t, \"age\")\n");
        assert_eq!(given(&source, 3, 27), None, "{between}");
    }
    let part = format!("{head}return tools.table.sortBy(t.rows, \"age\")\n");
    assert_eq!(given(&part, 2, 27), None);
}
