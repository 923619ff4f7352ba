//! Type checking before a script runs, through the binary and the library: what stops a
//! run, what is only reported, each mode, the checker missing, crashing or hanging (the
//! run goes on unchecked and says so), tools checked by `codemode check`, and the two
//! Luau copies kept in separate binaries.

use super::common;
use super::servers;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::check::Checking;
use crate::check::{Checked, Checker, Declarations, Mode, Severity};
use crate::registry::Registry;
use crate::{ErrorKind, Limits, Output, Pool, RunRequest, Runtime, Session};
use common::{codemode, exec, text, World};
use serde_json::{json, Value};

use common::checker_bin;

fn runtime(world: &World, mode: Mode) -> Runtime {
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(5));
    runtime.set_checking(Some(Arc::new(Checking::new(mode, checker))));
    runtime
}

/// The hint of `script`'s refusal in `world`; fails unless the check refused it.
fn refusal_hint(world: &World, script: &str) -> String {
    let (envelope, _) = exec(world.path(), &[], script);
    assert_eq!(envelope["error"]["kind"], "type", "{script}\n{envelope}");
    envelope["error"]["hint"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn notes(envelope: &Value) -> String {
    envelope["diagnostics"]
        .as_array()
        .map(|d| {
            d.iter()
                .map(|d| d["message"].as_str().unwrap_or_default().to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

#[test]
fn a_misspelt_tool_stops_the_run_before_its_first_side_effect() {
    let world = World::new();
    let script = "print('started')\nlocal slug = tools.text.slugfy('Hello')\nreturn slug\n";
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(code, 1, "{envelope}");
    let error = &envelope["error"];
    assert_eq!(error["kind"], "type", "{envelope}");
    assert_eq!(error["line"], 2, "{envelope}");
    assert_eq!(error["column"], 14, "{envelope}");
    assert!(
        error["message"].as_str().unwrap().contains("slugfy"),
        "{envelope}"
    );
    let hint = error["hint"].as_str().unwrap();
    assert!(hint.contains("did you mean `slugify`"), "{hint}");
    assert_eq!(
        envelope["stdout"], "",
        "the script's first line ran before the check stopped it"
    );
}

#[test]
fn a_misspelt_option_in_a_table_literal_stops_the_run_and_an_unknown_one_is_noted() {
    let world = World::new();
    let script =
        "print('started')\nreturn tools.text.slugify('A b c', { sep = '_', maxLenght = 3 })\n";
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(code, 1, "{envelope}");
    let error = &envelope["error"];
    assert_eq!(error["kind"], "type", "{envelope}");
    assert_eq!(
        (error["line"].clone(), error["column"].clone()),
        (json!(2), json!(49))
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("opts: has no field \"maxLenght\"; did you mean \"maxLength\"?"),
        "{message}"
    );
    assert!(error["hint"]
        .as_str()
        .unwrap()
        .contains("tools.text.slugify(text: string"));
    assert_eq!(
        envelope["stdout"], "",
        "the first line ran before the check"
    );

    // A field no declared one is close to runs (the call lets it through), with a word.
    let script = "return tools.text.slugify('A b', { seperator = '_' })";
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(
        (code, envelope["value"].clone()),
        (0, json!("a-b")),
        "{envelope}"
    );
    assert!(notes(&envelope).contains("has no field \"seperator\" (fields: sep, maxLength)"));

    // Under --check warn the misspelt one runs into the call's own refusal.
    let script = "return tools.text.slugify('A b', { maxLenght = 3 })";
    let (envelope, _) = exec(world.path(), &["--check", "warn"], script);
    assert_eq!(envelope["error"]["kind"], "runtime", "{envelope}");
    assert!(
        notes(&envelope).contains("did you mean \"maxLength\""),
        "{envelope}"
    );
}

#[test]
fn a_tool_written_as_one_name_or_a_toolbox_called_is_pointed_at_the_tool() {
    let world = World::new();
    let (envelope, _) = exec(world.path(), &[], "return tools.text_slugify('Hello')");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    let hint = envelope["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("the tool is tools.text.slugify(...)"),
        "{hint}"
    );
    let (envelope, _) = exec(world.path(), &[], "return tools.text('Hello')");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    let hint = envelope["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("`tools.text` is a toolbox"), "{hint}");
}

#[test]
fn a_wrong_argument_names_the_tools_signature() {
    let world = World::new();
    let (envelope, _) = exec(
        world.path(),
        &[],
        "return tools.text.truncate('Hello', '3')",
    );
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    let hint = envelope["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("tools.text.truncate(text: string, maxChars: number"),
        "{hint}"
    );
    // The same when a field is read straight off the call, through an alias, or inside
    // a helper: the call is still the tool's.
    for (script, tool) in [
        ("return tools.text.wordCount(5).words", "tools.text.wordCount(text: string)"),
        (
            "local text = tools.text\nreturn text.wordCount(5).words",
            "tools.text.wordCount(text: string)",
        ),
        (
            "local function words(s: string) return tools.text.wordcount(s).words end\nreturn words('a b')",
            "did you mean `wordCount`?",
        ),
    ] {
        let hint = refusal_hint(&world, script);
        assert!(hint.contains(tool), "{script}\n{hint}");
    }
    let (envelope, _) = exec(
        world.path(),
        &[],
        "local text = tools.text\nlocal function words(s: string) return text.wordCount(s).words end\nreturn words('a b') + tools.text.wordCount('c').words",
    );
    assert_eq!(envelope["value"], 3, "{envelope}");
}

#[test]
fn each_mode_does_what_it_says() {
    let world = World::new();
    let wrong = "local n = tools.text.wordCount('a b')\nreturn n.wordz + 1\n";
    // warn: the script runs (and fails at run time); the checker's error is reported.
    let (warned, _) = exec(world.path(), &["--check", "warn"], wrong);
    assert_eq!(warned["error"]["kind"], "runtime", "{warned}");
    assert!(notes(&warned).contains("wordz"), "{warned}");
    // certain: a field the declared result lacks stops it.
    let (stopped, _) = exec(world.path(), &["--check", "certain"], wrong);
    assert_eq!(stopped["error"]["kind"], "type", "{stopped}");
    // The field meant is named, as Luau names a toolbox's tool.
    let message = stopped["error"]["message"].as_str().unwrap();
    assert!(message.ends_with("Did you mean 'words'?"), "{message}");
    // off: no check, no diagnostics.
    let (off, _) = exec(world.path(), &["--check", "off"], wrong);
    assert_eq!(off["error"]["kind"], "runtime", "{off}");
    assert!(off.get("diagnostics").is_none(), "{off}");
    // A correct script strict mode refuses (a row table where `{ [string]: any }` is
    // wanted: Luau's tables are invariant) runs in the default mode, and its success
    // carries none of the checker's errors; `warn` shows them, once each.
    let rows = "local rows = { { name = 'ada', lang = 'a' }, { name = 'grace', lang = 'b' } }\nreturn tools.markdown.table(rows)\n";
    let (default, code) = exec(world.path(), &[], rows);
    assert_eq!(
        (default["ok"].as_bool(), code),
        (Some(true), 0),
        "{default}"
    );
    assert!(default.get("diagnostics").is_none(), "{default}");
    let (warned, _) = exec(world.path(), &["--check", "warn"], rows);
    let shown = warned["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!shown.is_empty(), "{warned}");
    for (i, d) in shown.iter().enumerate() {
        assert!(!shown[..i].contains(d), "shown twice: {d}");
    }
    let (strict, _) = exec(world.path(), &["--check", "strict"], rows);
    assert_eq!(strict["error"]["kind"], "type", "{strict}");
    let bad = codemode(world.path(), &["--check", "loose", "exec"], "return 1");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("certain"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn a_whole_result_given_where_its_list_goes_is_stopped_with_the_list_to_pass() {
    let world = World::new();
    let whole = "local parsed = tools.table.parseCsv('name,age\\nada,36')\nreturn tools.table.sortBy(parsed, 'age')\n";
    let (stopped, _) = exec(world.path(), &[], whole);
    assert_eq!(stopped["error"]["kind"], "type", "{stopped}");
    let message = stopped["error"]["message"].as_str().unwrap();
    assert!(message.ends_with("pass parsed.rows"), "{message}");
    // Given straight, as an argument other than the last (a call in last place is
    // expanded into the arguments, and the checker places its complaint at the outer call).
    let inline = "return tools.table.sortBy(tools.table.parseCsv('a,b\\n1,2'), 'a')\n";
    let (stopped, _) = exec(world.path(), &[], inline);
    let message = stopped["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with("pass tools.table.parseCsv(...).rows"),
        "{stopped}"
    );
    let helper = "local function load(csv) return tools.table.parseCsv(csv) end\nlocal parsed = load('a,b\\n1,2')\nreturn tools.markdown.table(parsed)\n";
    let (stopped, _) = exec(world.path(), &[], helper);
    assert_eq!(stopped["error"]["kind"], "type", "{stopped}");
    // The list itself, or a local that may hold something else by then, runs.
    for fine in [
        "local parsed = tools.table.parseCsv('name,age\\nada,36')\nreturn tools.table.sortBy(parsed.rows, 'age')\n",
        "local parsed = tools.table.parseCsv('name,age\\nada,36')\nparsed = parsed.rows\nreturn tools.table.sortBy(parsed, 'age')\n",
        "return tools.table.sortBy(tools.table.parseCsv('name,age\\nada,36').rows, 'age')\n",
    ] {
        let (ran, code) = exec(world.path(), &[], fine);
        assert_eq!((ran["ok"].as_bool(), code), (Some(true), 0), "{ran}");
    }
}

#[test]
fn an_options_local_that_fits_draws_no_complaint_and_one_of_the_wrong_kind_is_stopped() {
    let world = World::new();
    let fits = "local opts = { sep = '_', maxLength = 12 }\nreturn tools.text.slugify('Hello World', opts)\n";
    let (ran, _) = exec(world.path(), &[], fits);
    assert_eq!(ran["ok"], true, "{ran}");
    assert!(!notes(&ran).contains("but got 'opts'"), "{ran}");
    // A value the engine cannot read keeps the checker's complaint beside the result.
    let computed = "local n = 12\nlocal opts = { sep = '_', maxLength = n }\nreturn tools.text.slugify('Hello World', opts)\n";
    let (ran, _) = exec(world.path(), &[], computed);
    assert_eq!(ran["ok"], true, "{ran}");
    let wrong = "local opts = { sep = '_', maxLength = '12' }\nreturn tools.text.slugify('Hello World', opts)\n";
    let (stopped, _) = exec(world.path(), &[], wrong);
    assert_eq!(stopped["error"]["kind"], "type", "{stopped}");
    assert_eq!(
        stopped["error"]["message"],
        "argument opts (the table in `opts`, passed on line 2): field \"maxLength\" is a string, but it takes a number (maxLength: number?)",
        "{stopped}"
    );
    assert_eq!(stopped["error"]["line"], 1, "{stopped}");
}

#[test]
fn a_missing_or_crashing_checker_never_blocks_a_run() {
    let world = World::new();
    for program in ["/nonexistent/codemode-check", "/bin/false", "/bin/cat"] {
        let out = common::output(
            common::command()
                .env("CODEMODE_CHECKER", program)
                .arg("--world")
                .arg(world.path())
                .arg("exec"),
            "return tools.text.slugify('Hello World')",
        );
        let envelope = common::envelope(&out);
        assert_eq!(envelope["value"], "hello-world", "{program}: {envelope}");
        assert!(
            notes(&envelope).contains("ran unchecked"),
            "{program}: {envelope}"
        );
    }
}

#[test]
fn a_check_whose_reply_is_left_unread_does_not_answer_the_next_one() {
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(5));
    let declarations = Declarations::new("declare x: number\n");
    let wrong = "local y: string = x\nreturn y";
    let right = "local y: number = x\nreturn y";
    let errors = |checked: Checked| {
        checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    };
    // A caller that gives up between sending and reading (a run that panicked while it
    // was readied) must not leave its reply in the pipe for the next script.
    drop(
        checker
            .send(&declarations, wrong, checker.timeout())
            .unwrap(),
    );
    assert_eq!(errors(checker.check(&declarations, right).unwrap()), 0);
    let pending = checker
        .send(&declarations, wrong, checker.timeout())
        .unwrap();
    assert_eq!(errors(pending.finish().unwrap()), 1);
    assert_eq!(errors(checker.check(&declarations, right).unwrap()), 0);
}

#[test]
fn a_refused_script_leaves_the_runtime_ready_for_the_next() {
    let world = World::new();
    let mut runtime = runtime(&world, Mode::Certain);
    // The run is readied while the checker works; a refusal hands it back unstarted.
    for _ in 0..3 {
        let refused = runtime.exec(
            "print('refused')\nreturn tools.text.slugfy('Hello')",
            Output::Capture,
        );
        assert_eq!(
            refused.error.as_ref().map(|e| e.kind),
            Some(ErrorKind::Type),
            "{refused:?}"
        );
        assert_eq!(refused.stdout, "", "{refused:?}");
        let ran = runtime.exec(
            "print('ran')\nreturn tools.text.slugify('Hello World')",
            Output::Capture,
        );
        assert!(ran.ok, "{ran:?}");
        assert_eq!(ran.value, Some(json!("hello-world")), "{ran:?}");
        assert_eq!(ran.stdout, "ran\n", "{ran:?}");
    }
}

#[test]
fn a_hanging_checker_is_stopped_and_the_run_goes_on() {
    let world = World::new();
    let hang = world.path().join("hang.sh");
    std::fs::write(&hang, "#!/bin/sh\nsleep 30\n").unwrap();
    std::fs::set_permissions(&hang, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let started = Instant::now();
    let out = common::output(
        common::command()
            .env("CODEMODE_CHECKER", &hang)
            .arg("--world")
            .arg(world.path())
            .arg("exec"),
        // It names a toolbox: a script that reaches nothing of the host is not checked.
        "return tools.text and 1 + 1",
    );
    let envelope = common::envelope(&out);
    assert_eq!(envelope["value"], 2, "{envelope}");
    assert!(notes(&envelope).contains("unchecked"), "{envelope}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_script_that_makes_the_checker_slow_is_cut_off_by_its_timeout() {
    let world = World::new();
    // Thousands of chained tool calls: slow to check, quick to skip past.
    let mut script = String::from("local s = 'a'\nif false then\n");
    for _ in 0..4000 {
        script.push_str("s = tools.text.slugify(s .. tools.text.truncate(s, 3)) .. s\n");
    }
    script.push_str("end\nreturn #s\n");
    let started = Instant::now();
    let (envelope, _) = exec(world.path(), &["--check-timeout-ms", "20"], &script);
    assert_eq!(envelope["value"], 1, "{envelope}");
    let said = notes(&envelope);
    assert!(
        said.contains("ms limit") || said.contains("was stopped"),
        "{said}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_repl_session_sees_its_earlier_globals() {
    let world = World::new();
    let mut rt = runtime(&world, Mode::Certain);
    let mut session = Session::new();
    let first = rt.run(RunRequest::new("name = 'Hello World'").session(&mut session));
    assert!(first.ok, "{}", first.to_json());
    let second = rt.run(RunRequest::new("return tools.text.slugify(name)").session(&mut session));
    assert_eq!(
        second.value,
        Some(serde_json::json!("hello-world")),
        "{}",
        second.to_json()
    );
    assert!(second
        .diagnostics
        .iter()
        .all(|d| !d.message.contains("Unknown global")));
    let wrong = rt.run(RunRequest::new("return tools.text.slugify(name, 1)").session(&mut session));
    assert_eq!(wrong.error.map(|e| e.kind), Some(ErrorKind::Type));
}

#[test]
fn the_pool_checks_what_tool_exec_runs() {
    let world = World::new();
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let pool = Pool::new(registry, Limits::default(), 2, 8).unwrap();
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(5));
    pool.set_checking(Some(Arc::new(Checking::new(Mode::Certain, checker))));
    let envelope = pool.exec("return tools.json.decode('{}')");
    assert_eq!(envelope.error.map(|e| e.kind), Some(ErrorKind::Type));
    let fine = pool.exec("return tools.json.parse('{\"a\": 1}').a");
    assert_eq!(fine.value, Some(serde_json::json!(1)), "{}", fine.to_json());
}

#[test]
fn codemode_check_reports_a_tools_type_errors_and_keeps_it_callable() {
    let world = World::new();
    world.tool(
        "mine.shout",
        "--!desc Shout.\n--!arg text string The text.\n--!return string Loud.\nlocal function shout(text: string): string\n\treturn tools.text.slugfy(text)\nend\nreturn shout\n",
    );
    let out = codemode(world.path(), &["check"], "");
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("mine.shout")
            && said.contains("type error at line 5")
            && said.contains("slugfy"),
        "{said}"
    );
    assert!(said.contains("35 callable"), "{said}");
    let off = codemode(world.path(), &["--check", "off", "check"], "");
    assert_eq!(off.status.code(), Some(0), "{}", text(&off.stdout));
}

#[test]
fn strict_check_speaks_of_the_worlds_own_tools_only() {
    // An empty world: the bundled toolboxes alone pass `check --check strict`.
    let world = World::new();
    let out = codemode(world.path(), &["--check", "strict", "check"], "");
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(!said.contains("strict mode says"), "{said}");
    // A world tool written loosely is told about in strict mode, not in the default one.
    world.tool(
        "mine.loose",
        "--!desc Loose.\nreturn function()\n\tlocal rows = { { name = 'ada', lang = 'a' } }\n\tlocal n: number = rows[1].name\n\treturn tools.markdown.table(rows), n\nend\n",
    );
    world.tool(
        "mine.typed",
        "--!desc Twice x.\n--!arg x number A number.\n--!return number Twice x.\nlocal function twice(x: number): number\n\treturn x * 2\nend\nreturn twice\n",
    );
    let strict = codemode(world.path(), &["--check", "strict", "check"], "");
    let said = text(&strict.stdout);
    assert!(said.contains("mine.loose"), "{said}");
    // Codemode's docstring lines are not Luau's comment directives.
    assert!(!said.to_lowercase().contains("comment directive"), "{said}");
    assert!(!said.contains("mine.typed"), "{said}");
    let default = codemode(world.path(), &["check"], "");
    let said = text(&default.stdout);
    assert_eq!(default.status.code(), Some(0), "{said}");
    assert!(said.contains("strict mode says"), "{said}");
}

#[test]
fn the_two_luau_copies_live_in_separate_binaries() {
    let engine = std::fs::read(common::bin()).unwrap();
    let checker = std::fs::read(checker_bin()).unwrap();
    let has =
        |bytes: &[u8], needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    // Luau's type checker (Luau::Frontend) is only in the checker; mlua only in codemode.
    assert!(has(&checker, "_ZN4Luau8Frontend"));
    assert!(!has(&engine, "_ZN4Luau8Frontend"));
    assert!(has(&engine, "4mlua"));
    assert!(!has(&checker, "4mlua"));
}

#[test]
fn tools_create_returns_what_the_checker_says_and_keeps_the_tool() {
    let world = World::new();
    let mut rt = runtime(&world, Mode::Certain);
    let script = r#"
local box = tools.createToolbox({ name = "mine", description = "My helpers." })
assert(box.ok, box.error)
local made = tools.create({ name = "shout", toolbox = "mine", description = "Shout.",
	args = { { name = "text", type = "string", description = "What to shout." } },
	returns = { type = "string", description = "Loud." },
	code = "return tools.text.slugfy(text)" })
return made
"#;
    let envelope = rt.exec(script, Output::Capture);
    let made = envelope.value.clone().unwrap_or_default();
    assert_eq!(made["ok"], true, "{}", envelope.to_json());
    let first = &made["diagnostics"][0];
    assert_eq!(first["severity"], "error", "{made}");
    assert!(
        first["message"].as_str().unwrap().contains("slugfy"),
        "{made}"
    );
    let clean = rt.exec(
        "return tools.create({ name = 'calm', toolbox = 'mine', description = 'Calm.', \
         args = { { name = 'text', type = 'string', description = 'Text.' } }, \
         returns = { type = 'string', description = 'Quiet.' }, code = 'return string.lower(text)' })",
        Output::Capture,
    );
    let calm = clean.value.unwrap_or_default();
    assert_eq!(calm["ok"], true, "{calm}");
    assert!(calm.get("diagnostics").is_none(), "{calm}");
    // One mistake the checker finds at several places of an expression is said once.
    let twice = rt.exec(
        "return tools.create({ name = 'odd', toolbox = 'mine', description = 'Odd.', \
         args = { { name = 'x', type = 'number', description = 'X.' } }, code = 'return x .. nil + {}' })",
        Output::Capture,
    );
    let odd = twice.value.unwrap_or_default();
    assert_eq!(odd["ok"], true, "{odd}");
    let said: Vec<&str> = odd["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    let mut unique = said.clone();
    unique.sort();
    unique.dedup();
    assert!(!said.is_empty(), "{odd}");
    assert_eq!(said.len(), unique.len(), "{odd}");
}

/// A world of more tools than are declared whole: `boxes` toolboxes of 50 tools each,
/// tool `t<i>` taking a string and returning `{ text: string }`.
fn large_world(boxes: usize) -> World {
    let world = World::new();
    for b in 0..boxes {
        world.file(&format!("box{b}.toolbox/README.md"), "Generated tools.\n");
        for t in 0..50 {
            world.tool(
                &format!("box{b}.t{t}"),
                &format!(
                    "--!desc Tool {t}.\n--!arg text string The text.\n--!return table The text.\n\
                     local function t{t}(text: string): {{ text: string }}\n\treturn {{ text = text }}\nend\n\nreturn t{t}\n"
                ),
            );
        }
    }
    world
}

#[test]
fn a_large_world_declares_only_the_toolboxes_a_script_names() {
    let boxes = crate::check::WHOLE_WORLD_TOOLS / 50 + 1;
    let world = large_world(boxes);
    let registry = Arc::new(Registry::open(world.path(), &[], false).unwrap());
    let index = registry.snapshot();
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(5));
    let checking = Arc::new(Checking::new(Mode::Certain, checker));
    let script = "local r = tools.box3.t7('a')\nreturn r.text";
    let text = checking
        .declarations(&registry, &index, script)
        .text()
        .expect("built here")
        .to_string();
    assert!(text.contains("export type Toolbox_box3 = {"), "{text}");
    assert!(text.contains("\tt7: (text: string) -> { text: string },"));
    assert!(
        !text.contains("Toolbox_box4"),
        "only box3 is declared in full"
    );
    assert!(
        text.contains("\tbox4: any,"),
        "every toolbox is still a field"
    );
    // A small world is declared whole, whatever the script names.
    let small = World::new();
    let small_registry = Arc::new(Registry::open(small.path(), &[], true).unwrap());
    let whole = checking.declarations(&small_registry, &small_registry.snapshot(), "return 1");
    assert!(whole
        .text()
        .is_some_and(|t| t.contains("export type Toolbox_text = {")));

    let mut rt = Runtime::new(registry, Limits::default()).unwrap();
    rt.set_checking(Some(checking));
    let fine = rt.exec(script, Output::Capture);
    assert_eq!(
        fine.value,
        Some(serde_json::json!("a")),
        "{}",
        fine.to_json()
    );
    // Certain errors in the toolbox named, and a misspelt toolbox, still stop the run.
    for (wrong, said) in [
        ("print('ran')\nreturn tools.box3.t70('a')", "t70"),
        ("print('ran')\nreturn tools.box3.t7(1)", "number"),
        (
            "print('ran')\nlocal r = tools.box3.t7('a')\nreturn r.txt",
            "txt",
        ),
        ("print('ran')\nreturn tools.bx3.t7('a')", "bx3"),
    ] {
        let stopped = rt.exec(wrong, Output::Capture);
        let error = stopped.error.as_ref().unwrap_or_else(|| panic!("{wrong}"));
        assert_eq!(error.kind, ErrorKind::Type, "{}", stopped.to_json());
        assert!(error.message.contains(said), "{}", stopped.to_json());
        assert_eq!(stopped.stdout, "", "{wrong}");
    }
    // A toolbox reached by a computed name is not declared in full, and runs.
    let dynamic = rt.exec(
        "local name = 'box' .. tostring(2)\nreturn tools[name].t1('b').text",
        Output::Capture,
    );
    assert_eq!(
        dynamic.value,
        Some(serde_json::json!("b")),
        "{}",
        dynamic.to_json()
    );
}

#[test]
fn style_lints_are_not_reported() {
    let world = World::new();
    let (envelope, code) = exec(
        world.path(),
        &[],
        "local r = tools.text.slugify('a b') local unused = 1 return 2",
    );
    assert_eq!(
        (envelope["value"].as_i64(), code),
        (Some(2), 0),
        "{envelope}"
    );
    let said = notes(&envelope);
    assert!(!said.contains("same line"), "{said}");
    assert!(!said.contains("never used"), "{said}");
    // A result iterated with `pairs` (or passed to a helper that does) is fine as it is.
    let (envelope, code) = exec(
        world.path(),
        &[],
        "local function keys(t) local n = 0 for _ in pairs(t) do n += 1 end return n end\nlocal r = tools.search('slug')\nfor k in pairs(r) do end\nreturn keys(tools.text.wordCount('a b'))",
    );
    assert_eq!(
        (envelope["value"].as_i64(), code),
        (Some(4), 0),
        "{envelope}"
    );
    let said = notes(&envelope);
    assert!(!said.contains("[K]: V"), "{said}");
}

#[test]
fn what_the_checker_says_stays_within_the_output_cap() {
    // A long type quoted in each of 100 errors: unbounded, this was a 2 MB envelope.
    let world = World::new();
    let long = "A".repeat(20_000);
    let mut script = format!("type T = \"{long}\"\nlocal x: T = nil :: any\n");
    script.push_str(&"x = \"b\"\n".repeat(100));
    script.push_str("return 1\n");
    let cap = 64 * 1024;
    let (envelope, code) = exec(
        world.path(),
        &[
            "--check",
            "warn",
            "--check-timeout-ms",
            "30000",
            "--max-output-bytes",
            &cap.to_string(),
        ],
        &script,
    );
    assert_eq!(
        (envelope["value"].as_i64(), code),
        (Some(1), 0),
        "{envelope:.300}"
    );
    let size = envelope.to_string().len();
    assert!(size < cap + 16 * 1024, "an envelope of {size} bytes");
    let said = notes(&envelope);
    assert!(said.contains("more diagnostics left out"), "{said:.2000}");
}

#[test]
fn arguments_pcall_passes_on_are_not_certain_errors() {
    let world = World::new();
    world.file(
        ".codemode/policy.json",
        r#"{"profiles": {"default": {"default": "allow", "capabilities": {"http": ["127.0.0.1:9"]}}}}"#,
    );
    // The solver infers `http.request`'s parameter through pcall's generics and refuses a
    // table literal that fits: not an error.
    let (fits, _) = exec(
        world.path(),
        &[],
        "local ok, err = pcall(http.request, { url = 'http://127.0.0.1:9/' })\nreturn ok",
    );
    assert_eq!(fits["value"], false, "{fits}");
    assert!(!notes(&fits).contains("HttpRequest"), "{fits}");
    // One that cannot fit is reported, as a warning (pcall catches what it raises).
    let (wrong, _) = exec(
        world.path(),
        &[],
        "local ok = pcall(tools.text.slugify, 42)\nreturn ok",
    );
    assert_eq!(wrong["value"], false, "{wrong}");
    let reported = wrong["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(
        reported
            .iter()
            .any(|d| d["severity"] == "warning" && d["line"] == 1),
        "{wrong}"
    );
    assert!(reported.iter().all(|d| d["severity"] != "error"), "{wrong}");
    // A function whose last parameters are optional, given fewer arguments: the solver
    // counts them all, so it is a warning that says so.
    let (fewer, _) = exec(
        world.path(),
        &[],
        "local ok, v = pcall(tools.json.parse, '[1]')\nreturn v",
    );
    assert_eq!(fewer["value"], json!([1]), "{fewer}");
    let reported = fewer["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(reported.iter().all(|d| d["severity"] != "error"), "{fewer}");
}

#[test]
fn the_checker_keeps_a_few_declaration_sets_apart() {
    let mut checker = CheckerProcess::start();
    let mut ask = |request: Value| checker.ask(request);
    let script = "local y: string = x\nreturn y";
    let errors = |reply: &Value| {
        assert_eq!(reply["ok"], true, "{reply}");
        reply["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .count()
    };
    for (key, ty) in [(1, "number"), (2, "string")] {
        let loaded = ask(serde_json::json!({"defs": format!("declare x: {ty}\n"), "key": key}));
        assert_eq!(loaded["ok"], true, "{loaded}");
    }
    // Each check sees its own key's declarations, whichever was loaded last.
    assert_eq!(
        errors(&ask(serde_json::json!({"check": script, "key": 1}))),
        1
    );
    assert_eq!(
        errors(&ask(serde_json::json!({"check": script, "key": 2}))),
        0
    );
    // Loading more sets lets the least recently used go; a check of it says so.
    for key in 3..=5 {
        ask(serde_json::json!({"defs": "declare x: boolean\n", "key": key}));
    }
    let gone = ask(serde_json::json!({"check": script, "key": 1}));
    assert_eq!(
        (gone["ok"].as_bool(), gone["unloaded"].as_bool()),
        (Some(false), Some(true)),
        "{gone}"
    );
    assert_eq!(
        errors(&ask(serde_json::json!({"check": script, "key": 2}))),
        0
    );
}

/// A `codemode-check` process spoken to over its pipes, one JSON line each way; stopped
/// when dropped.
struct CheckerProcess {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    replies: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl CheckerProcess {
    fn start() -> CheckerProcess {
        use std::io::BufRead;
        let mut child = std::process::Command::new(checker_bin())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let replies = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        CheckerProcess {
            child,
            stdin,
            replies,
        }
    }

    fn ask(&mut self, request: Value) -> Value {
        use std::io::Write;
        writeln!(self.stdin, "{request}").unwrap();
        serde_json::from_str(&self.replies.next().unwrap().unwrap()).unwrap()
    }
}

impl Drop for CheckerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_tools_required_module_is_typed_from_its_source() {
    let world = World::new();
    world.file("mine.toolbox/README.md", "My helpers.\n");
    world.file(
        "mine.toolbox/shared.module/init.luau",
        "local M = {}\n\nfunction M.double(n: number): number\n\treturn n * 2\nend\n\nreturn M\n",
    );
    let mut rt = runtime(&world, Mode::Certain);
    let create = |name: &str, code: &str| {
        format!(
            "return tools.create({{ name = '{name}', toolbox = 'mine', description = 'Double.', \
             args = {{ {{ name = 'text', type = 'string', description = 'Text.' }} }}, \
             returns = {{ type = 'string', description = 'Doubled.' }}, code = '{code}' }})"
        )
    };
    let wrong = rt.exec(
        &create("twice", "return tostring(shared.double(text))"),
        Output::Capture,
    );
    let made = wrong.value.clone().unwrap_or_default();
    assert_eq!(made["ok"], true, "{}", wrong.to_json());
    let first = &made["diagnostics"][0];
    assert!(
        first["message"]
            .as_str()
            .unwrap_or_default()
            .contains("number"),
        "{made}"
    );
    // At the tool's own line, not the module's.
    let written =
        std::fs::read_to_string(world.path().join("mine.toolbox/twice.tool/init.luau")).unwrap();
    let line = written
        .lines()
        .position(|l| l.contains("shared.double(text)"))
        .unwrap()
        + 1;
    assert_eq!(first["line"], line, "{made}\n{written}");
    let fine = rt.exec(
        &create("again", "return tostring(shared.double(#text))"),
        Output::Capture,
    );
    let made = fine.value.unwrap_or_default();
    assert_eq!(made["ok"], true, "{made}");
    assert!(made.get("diagnostics").is_none(), "{made}");
}

#[test]
fn an_edited_tool_is_type_checked_when_it_is_saved_and_stays_callable() {
    use crate::runtime::{check_edits, EditReport};
    let world = World::new();
    let tool = |body: &str| {
        format!(
            "--!desc Shout.\n--!arg text string Text.\n--!return string Loud.\n\
             local function shout(text: string): string\n\t{body}\nend\n\nreturn shout\n"
        )
    };
    world.tool("mine.shout", &tool("return string.upper(text)"));
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(5));
    let checking = Arc::new(Checking::new(Mode::Certain, checker));
    let (send, reports) = std::sync::mpsc::channel();
    check_edits(checking, &registry, move |r| {
        let _ = send.send(r);
    })
    .unwrap();
    let path = world.path().join("mine.toolbox/shout.tool/init.luau");
    let edit = |source: &str| {
        std::fs::write(&path, source).unwrap();
        registry.apply_changes(std::slice::from_ref(&path));
        reports.recv_timeout(Duration::from_secs(30)).unwrap()
    };
    match edit(&tool("return tools.text.slugfy(text)")) {
        EditReport::Typed { identity, errors } => {
            assert_eq!(identity, "mine.shout");
            assert_eq!(errors[0].line, 5, "{errors:?}");
            assert!(errors[0].message.contains("slugfy"), "{errors:?}");
        }
        other => panic!("{other:?}"),
    }
    let index = registry.snapshot();
    assert!(index.tool("mine.shout").unwrap().is_registered());
    match edit(&tool("return string.upper(text")) {
        EditReport::Broken { identity, reason } => {
            assert_eq!(identity, "mine.shout");
            assert!(!reason.is_empty());
        }
        other => panic!("{other:?}"),
    }
    // A clean edit reports nothing.
    std::fs::write(&path, tool("return string.lower(text)")).unwrap();
    registry.apply_changes(std::slice::from_ref(&path));
    assert!(reports.recv_timeout(Duration::from_secs(3)).is_err());
}

#[test]
fn correct_dynamic_and_self_authoring_scripts_are_never_refused() {
    let world = World::new();
    for (script, expected) in [
        // A tool named by a computed key: the checker cannot know it, the run can.
        (
            "local n = 'slugify'\nreturn tools.text[n]('Hi There')",
            json!("hi-there"),
        ),
        (
            "local b = 'text'\nreturn tools[b].slugify('Hi There')",
            json!("hi-there"),
        ),
        // A script that redefines a tool with another signature, then calls it: checked
        // against the world as it was, the call is the script's own business.
        (
            r#"tools.createToolbox({ name = "mine", description = "Mine." })
tools.create({ toolbox = "mine", name = "shout", description = "Shouts.", args = { { name = "s", type = "string" } }, code = "return string.upper(s)" })
tools.delete("mine.shout")
tools.create({ toolbox = "mine", name = "shout", description = "Shouts n times.", args = { { name = "s", type = "string" }, { name = "n", type = "number" } }, code = "return string.rep(string.upper(s), n)" })
return tools.mine.shout("hi", 2)"#,
            json!("HIHI"),
        ),
        // Writers reached through a value, not called by name: as much a script that
        // writes tools as one that calls `vfs.write(...)`.
        (
            r##"pcall(vfs.write, "m1.toolbox/README.md", "# m1\nHelpers.\n")
local ok, err = pcall(vfs.write, "m1.toolbox/twice.tool/init.luau", "--!desc Twice.\nreturn function(s: string): string return s .. s end\n")
assert(ok, err)
return tools.m1.twice("ab")"##,
            json!("abab"),
        ),
        (
            r##"local write = vfs.write
write("m2.toolbox/README.md", "# m2\nHelpers.\n")
write("m2.toolbox/twice.tool/init.luau", "--!desc Twice.\nreturn function(s: string): string return s .. s end\n")
return tools.m2.twice("cd")"##,
            json!("cdcd"),
        ),
        (
            r##"local v = vfs
v.write("m3.toolbox/README.md", "# m3\nHelpers.\n")
v.write("m3.toolbox/twice.tool/init.luau", "--!desc Twice.\nreturn function(s: string): string return s .. s end\n")
return tools.m3.twice("ef")"##,
            json!("efef"),
        ),
        (
            r##"local t = tools
t.createToolbox({ name = "m4", description = "Mine." })
t.create({ toolbox = "m4", name = "one", description = "One.", code = "return 1" })
return tools.m4.one()"##,
            json!(1),
        ),
    ] {
        let (envelope, code) = exec(world.path(), &[], script);
        assert_eq!(code, 0, "{script}\n{envelope}");
        assert_eq!(envelope["value"], expected, "{script}\n{envelope}");
    }
    // The computed key is worth a warning, not an error beside a script that works.
    let (envelope, _) = exec(
        world.path(),
        &[],
        "local n = 'slugify'\nreturn tools.text[n]('Hi There')",
    );
    let errors: Vec<&Value> = envelope["diagnostics"]
        .as_array()
        .map(|d| d.iter().filter(|d| d["severity"] == "error").collect())
        .unwrap_or_default();
    assert!(errors.is_empty(), "{envelope}");
    // A plain misspelt call is still stopped.
    let (envelope, _) = exec(world.path(), &[], "return tools.text.slugfy('x')");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
}

/// A world of one tool, `c.slow`, written as `source`, whose results are cached.
fn cached_tool_world(source: &str) -> World {
    let world = World::new();
    world.tool("c.slow", source).file(
        "c.toolbox/slow.tool/.metadata",
        r#"{"cache": {"ttlSeconds": 60}}"#,
    );
    world
}

#[test]
fn a_cached_tool_whose_contract_is_a_named_type_gives_its_caller_brief() {
    let world = cached_tool_world(
        "export type Summary = { brief: { summary: string, n: number }, raw: { text: string }, indexTerms: { string } }\n--!desc Summarise.\n--!arg text string The text.\n--!return Summary The summary and the raw text.\nreturn function(text: string): Summary\n\treturn { brief = { summary = string.sub(text, 1, 5), n = #text }, raw = { text = text }, indexTerms = { 'summary' } }\nend\n",
    );
    let (envelope, _) = exec(
        world.path(),
        &[],
        "local s, key = tools.c.slow('hello world')\nreturn { s.summary, s.n, tools.c.slow('hello').summary, key ~= nil }",
    );
    assert_eq!(
        envelope["value"],
        json!(["hello", 11, "hello", true]),
        "{envelope}"
    );
    // A field brief lacks is still certain.
    let (envelope, _) = exec(world.path(), &[], "return tools.c.slow('hello').summry");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
}

#[test]
fn guarded_and_defensive_scripts_are_never_refused() {
    let world = cached_tool_world(
        "--!desc Slow lookup.\n--!arg q string the query\n--!return {brief: string, raw: {string}, indexTerms: {string}} the contract\nreturn function(q: string)\n\treturn { brief = q .. '!', raw = { q, q }, indexTerms = { q } }\nend\n",
    );
    let diff = "local d = tools.text.lineDiff('a\\nb', 'a\\nc')\n";
    for (script, expected) in [
        // An optional tool, looked up before it is called, or called where its absence
        // is caught.
        (
            "if tools.callable('extra.fancify') then return tools.extra.fancify('x') end\nreturn 'plain'".to_string(),
            json!("plain"),
        ),
        (
            "if tools.callable('extra', 'fancify') then return tools.extra.fancify('x') end\nreturn 'plain'".to_string(),
            json!("plain"),
        ),
        (
            "if tools.get('extra.fancify') ~= nil then return tools.extra.fancify('x') end\nreturn 'plain'".to_string(),
            json!("plain"),
        ),
        (
            "local ok = pcall(function() return tools.extra.fancify('x') end)\nreturn ok".to_string(),
            json!(false),
        ),
        // A probed name that extends a real one, or is far from every one, is another tool.
        (
            "local ok, r = pcall(function() return tools.text.slugify2('A b') end)\nreturn if ok then r else tools.text.slugify('A b')".to_string(),
            json!("a-b"),
        ),
        (
            "local ok = pcall(function() return tools.text.fancify('x') end)\nreturn ok".to_string(),
            json!(false),
        ),
        // An optional tool called in a branch that a test the check cannot follow guards.
        (
            "local names = {}\nfor _, row in tools.list(1, 'text').value do names[row.name] = true end\nif names.reverse then return tools.text.reverse('abc') end\nreturn 'no reverse'".to_string(),
            json!("no reverse"),
        ),
        (
            "if vfs.exists('github.toolbox') then\n\treturn tools.github.searchIssues({ query = 'bug' })\nend\nreturn 'none'".to_string(),
            json!("none"),
        ),
        // A function given to a helper of the script's own, which runs it under pcall.
        (
            "local function try(f, ...) local ok, v = pcall(f, ...); return ok and v or nil end\nreturn try(function() return tools.markdown.lint('# x') end) or 'no lint'".to_string(),
            json!("no lint"),
        ),
        // Names one letter from a real one that are names of their own.
        (
            "local ok = pcall(function() return tools.encoding.sha224('abc') end)\nreturn ok".to_string(),
            json!(false),
        ),
        (
            "local has = pcall(function() return tools.test end)\nreturn has".to_string(),
            json!(false),
        ),
        (
            "local ok = pcall(function() return tools.table.parseTsv('a\\tb') end)\nreturn ok".to_string(),
            json!(false),
        ),
        (
            "if tools.callable('text.slugfy') then\n\tlocal _, r = pcall(function() return tools.text.slugfy('x') end)\n\treturn r\nend\nreturn 'none'".to_string(),
            json!("none"),
        ),
        // Fields read defensively: through a local that is tested, by type, compared
        // with nil or a boolean, or by a literal key.
        (
            "local c = tools.text.wordCount('a b. c')\nlocal v = c.sentences\nif v then return v end\nreturn c.words".to_string(),
            json!(3),
        ),
        (
            "local c = tools.text.wordCount('a b')\nif type(c.sentences) == 'number' then return 0 end\nreturn c.words".to_string(),
            json!(2),
        ),
        (
            "local c = tools.text.wordCount('a b')\nif c['sentences'] == nil then return c.words end\nreturn 0".to_string(),
            json!(2),
        ),
        (
            format!("{diff}for _, l in d.lines do if l.flagged == true then return 1 end end\nreturn #d.lines"),
            json!(3),
        ),
        // Elements given a field by a helper, or a list changed by a function it is
        // passed to.
        (
            format!("{diff}local function mark(item, field, value) item[field] = value end\nfor _, l in d.lines do mark(l, 'score', 2) end\nlocal n = 0\nfor _, l in d.lines do n += l.score end\nreturn n"),
            json!(6),
        ),
        (
            "local d = tools.text.lineDiff('a', 'a')\ntable.move({ { weight = 2 } }, 1, 1, 1, d.lines)\nlocal w = 0\nfor _, l in d.lines do w += l.weight end\nreturn w".to_string(),
            json!(2),
        ),
        // Elements given a field through a local, then read down a path off the result.
        (
            format!("{diff}for _, l in ipairs(d.lines) do l.kind = 'x' end\nreturn d.lines[2].kind"),
            json!("x"),
        ),
        (
            format!("{diff}local function tag(l) l.tag = 1 end\nfor _, l in d.lines do tag(l) end\nreturn d.lines[1].tag"),
            json!(1),
        ),
        (
            format!("{diff}local first = d.lines[1]\nfirst.note = 'n'\nreturn d.lines[1].note"),
            json!("n"),
        ),
        // A table held in a local, given to a function of `tools` whose option type is
        // named (Luau's tables are invariant in their fields, so it need not fit the type).
        (
            "local o = { limit = 1 }\nreturn #tools.search('slug', o).value <= 1".to_string(),
            json!(true),
        ),
        (
            "local spec = { name = 'notes', description = 'Note helpers.' }\nreturn tools.createToolbox(spec).ok".to_string(),
            json!(true),
        ),
        // Functions run in parallel that return nothing.
        (
            "local slots = tools.parallel({ function() print('x') end })\nreturn slots[1].ok".to_string(),
            json!(true),
        ),
        // A cached tool's caller gets `brief`.
        (
            "local brief, key = tools.c.slow('q')\nreturn { string.upper(brief), key ~= nil }".to_string(),
            json!(["Q!", true]),
        ),
        // A tool written again with a new field in its result, then read.
        (
            r#"tools.createToolbox({ name = "m7", description = "Mine." })
tools.create({ toolbox = "m7", name = "pair", description = "A pair.", returns = { type = "{a: number}" }, code = "return { a = 1 }" })
tools.delete("m7.pair")
tools.create({ toolbox = "m7", name = "pair", description = "A pair.", returns = { type = "{a: number, b: number}" }, code = "return { a = 1, b = 2 }" })
local r = tools.m7.pair()
return r.b"#.to_string(),
            json!(2),
        ),
    ] {
        let (envelope, code) = exec(world.path(), &[], &script);
        assert_eq!(code, 0, "{script}\n{envelope}");
        assert_eq!(envelope["value"], expected, "{script}\n{envelope}");
    }
    // The same mistakes unguarded are still stopped.
    for wrong in [
        "return tools.extra.fancify('x')",
        "local c = tools.text.wordCount('a b')\nreturn c.sentences + 1",
        "local brief = tools.c.slow('q')\nreturn brief.raw",
        "local d = tools.text.lineDiff('a', 'b')\nreturn d.lines[1].kindd",
        "local d = tools.text.lineDiff('a', 'b')\nlocal out = {}\nfor _, l in d.lines do out[#out + 1] = l.kindd end\nreturn out",
    ] {
        let (envelope, _) = exec(world.path(), &[], wrong);
        assert_eq!(envelope["error"]["kind"], "type", "{wrong}\n{envelope}");
    }
    // A name one slip from a real tool or toolbox is a misspelling, even inside pcall,
    // which would only hide it.
    for (wrong, meant) in [
        (
            "local ok, r = pcall(function() return tools.text.slugfy('x') end)\nreturn r",
            "did you mean `slugify`?",
        ),
        (
            "local ok, r = pcall(function() return tools.txet.slugify('x') end)\nreturn r",
            "did you mean `text`?",
        ),
        (
            "local ok, r = pcall(function() return tools.text.Slugify('x') end)\nreturn r",
            "did you mean `slugify`?",
        ),
    ] {
        let hint = refusal_hint(&world, wrong);
        assert!(hint.contains(meant), "{wrong}\n{hint}");
    }
}

#[test]
fn writing_a_report_file_keeps_the_check_certain_and_nothing_is_written() {
    let world = World::new();
    // A literal path, and one built from pieces that ends in a data file's extension,
    // cannot define a tool: the misspelt call is as certain as without the writes.
    let script = r#"local counts = tools.text.wordCount("one two")
vfs.write("report.txt", tostring(counts.words))
vfs.write("out/" .. counts.words .. ".csv", "n")
return tools.text.slugfy("x")"#;
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(
        (code, envelope["error"]["kind"].clone()),
        (1, json!("type")),
        "{envelope}"
    );
    assert_eq!(envelope["error"]["line"], 4, "{envelope}");
    assert!(
        !world.path().join("report.txt").exists(),
        "the write took effect before the verdict"
    );
    assert!(
        !world.path().join("out").exists(),
        "the write took effect before the verdict"
    );

    // A write whose path may lie in a toolbox folder still lets the script call what it
    // wrote.
    let script = r##"local box = "m5"
vfs.write(box .. ".toolbox/README.md", "# m5\nHelpers.\n")
vfs.write(`{box}.toolbox/twice.tool/init.luau`, "--!desc Twice.\nreturn function(s: string): string return s .. s end\n")
return tools.m5.twice("ab")"##;
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(
        (code, envelope["value"].clone()),
        (0, json!("abab")),
        "{envelope}"
    );
}

#[test]
fn a_local_naming_a_toolbox_or_tool_is_checked_as_the_tool() {
    let world = World::new();
    for (script, line, hint) in [
        (
            "local text = tools.text\nprint('started')\nreturn text.slugfy('A')",
            3,
            "did you mean `slugify`",
        ),
        (
            "local compare = tools.semver.compare\nprint('started')\nreturn compare('1.0.0')",
            3,
            "the signature is tools.semver.compare(",
        ),
    ] {
        let (envelope, code) = exec(world.path(), &[], script);
        assert_eq!(
            (code, envelope["error"]["kind"].clone()),
            (1, json!("type")),
            "{envelope}"
        );
        assert_eq!(envelope["error"]["line"], line, "{envelope}");
        assert!(
            envelope["error"]["hint"].as_str().unwrap().contains(hint),
            "{envelope}"
        );
        assert_eq!(envelope["stdout"], "", "{envelope}");
    }
    // Called right, or given another value first, it runs.
    for (script, expected) in [
        (
            "local text = tools.text\nreturn text.slugify(text.truncate('A long title', 6))",
            json!("a-lon"),
        ),
        (
            "local text = tools.text\ntext = { slugfy = function() return 1 end }\nreturn text.slugfy()",
            json!(1),
        ),
    ] {
        let (envelope, code) = exec(world.path(), &[], script);
        assert_eq!((code, envelope["value"].clone()), (0, expected), "{envelope}");
    }
}

#[test]
fn a_wrong_field_of_a_result_lists_element_stops_the_run() {
    let world = World::new();
    // Unchecked, this counts nothing and says nothing: `kind` is always nil.
    let script = "local d = tools.text.lineDiff('a\\nb', 'a\\nc')\nlocal n = 0\nfor _, l in ipairs(d.lines) do if l.kind == 'add' then n += 1 end end\nreturn n";
    let (envelope, _) = exec(world.path(), &["--check", "off"], script);
    assert_eq!(envelope["value"], 0, "{envelope}");
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(
        (code, envelope["error"]["kind"].clone()),
        (1, json!("type")),
        "{envelope}"
    );
    assert_eq!(
        (
            envelope["error"]["line"].clone(),
            envelope["error"]["column"].clone()
        ),
        (json!(3), json!(35)),
        "{envelope}"
    );
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("op: string"),
        "{envelope}"
    );
    // Elements given the field by the script are its own business.
    let script = "local d = tools.text.lineDiff('a', 'b')\nfor _, l in d.lines do l.kind = l.op end\nlocal kinds = {}\nfor _, l in ipairs(d.lines) do table.insert(kinds, l.kind) end\nreturn #kinds";
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(code, 0, "{envelope}");
}

#[test]
fn a_misspelt_option_of_a_tools_function_stops_the_run() {
    let world = World::new();
    let (envelope, code) = exec(
        world.path(),
        &[],
        "print('started')\nreturn tools.search('slug', { limt = 3 })",
    );
    assert_eq!(
        (code, envelope["error"]["kind"].clone()),
        (1, json!("type")),
        "{envelope}"
    );
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("has no field \"limt\"; did you mean \"limit\"?"),
        "{message}"
    );
    let hint = envelope["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("tools.search(query: string?, opts: SearchOptions?)"),
        "{hint}"
    );
    // In a script that writes tools too: the functions of `tools` do not change.
    let script = r#"tools.createToolbox({ name = "m6", description = "Mine." })
return tools.create({ toolbox = "m6", nmae = "one", description = "One.", code = "return 1" })"#;
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(
        (code, envelope["error"]["kind"].clone()),
        (1, json!("type")),
        "{envelope}"
    );
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean \"name\""),
        "{envelope}"
    );
    assert!(
        !world.path().join("m6.toolbox").exists(),
        "the toolbox was written before the verdict"
    );
}

#[test]
fn a_cut_message_keeps_its_suggestion_and_columns_count_characters() {
    let world = World::new();
    let (envelope, _) = exec(
        world.path(),
        &[],
        "return tools.datetime.parse('2020-01-01').weekDay",
    );
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(
        message.ends_with("…'.  Did you mean 'weekday'?"),
        "{message}"
    );
    // A toolbox `tools` lacks: the table is named, not spelt out.
    let (envelope, _) = exec(world.path(), &[], "return tools.txt.slugify('a')");
    assert_eq!(
        envelope["error"]["message"],
        "Key 'txt' not found in table 'tools': no toolbox or function of tools has that name",
        "{envelope}"
    );
    // `tools` is the 23rd character of the line and its 24th byte.
    let (envelope, _) = exec(
        world.path(),
        &[],
        "local s = 'é'; return tools.text.slugfy(s)",
    );
    assert_eq!(envelope["error"]["column"], 23, "{envelope}");
    let (envelope, _) = exec(
        world.path(),
        &["--check", "warn"],
        "local s = '😀'; return tools.text.slugfy(s)",
    );
    assert_eq!(envelope["diagnostics"][0]["column"], 23, "{envelope}");
}

#[test]
fn a_script_the_solver_gives_up_on_runs_with_one_note() {
    // Long enough that Luau's solver stops short ("Type inference failed to complete")
    // and leaves `*blocked*` types in what it says: none of that is about the script.
    let world = World::new();
    let mut script = String::from("local acc = {}\n");
    for i in 0..1100 {
        script.push_str(&format!(
            "do local wc = tools.text.wordCount(\"a b c {i}\")\nacc[{}] = tools.text.truncate(tools.text.slugify(\"Item {i}\", {{ maxLength = wc.words + 3 }}), wc.chars) .. wc.lines end\n",
            i + 1
        ));
    }
    script.push_str("return #acc\n");
    let (envelope, code) = exec(world.path(), &["--check-timeout-ms", "5000"], &script);
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], json!(1100), "{envelope}");
    let diagnostics = envelope["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let text = serde_json::to_string(&diagnostics).unwrap();
    assert!(
        !text.contains("*blocked") && !text.contains("report this bug"),
        "{text}"
    );
    assert!(
        diagnostics.iter().all(|d| d["severity"] == "warning"),
        "{text}"
    );
}

#[test]
fn a_carriage_return_in_a_description_cannot_switch_the_check_off() {
    let world = World::new();
    let plant = r#"
local box = tools.createToolbox({ name = "mine", description = "Helpers.\rdeclare broken: here" })
assert(box.ok, box.error)
local made = tools.create({
	toolbox = "mine",
	name = "shout",
	description = "Upper-case text.\rdeclare also: broken",
	args = { { name = "text", type = "string", description = "What\rto shout." } },
	returns = { type = "string", description = "The text.\r-- upper-cased" },
	code = "return string.upper(text)",
})
assert(made.ok, made.error)
return tools.mine.shout("hi")
"#;
    let (envelope, code) = exec(world.path(), &[], plant);
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], "HI", "{envelope}");
    // The next script's misspelling is still stopped: the declarations loaded.
    let (envelope, code) = exec(world.path(), &[], "return tools.text.slugfy('x')\n");
    assert_eq!(code, 1, "{envelope}");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    assert!(!notes(&envelope).contains("did not load"), "{envelope}");
    let types = text(&codemode(world.path(), &["types"], "").stdout);
    assert!(types.contains("Helpers."), "{types}");
    assert!(
        !types.contains('\r'),
        "a carriage return reached the declarations"
    );
}

/// A world whose `.codemode/mcp.json` serves the fixture server in its `typed` mode as
/// each of `servers` (name, extra tools), with the catalogues synced (the declarations
/// are read from them).
fn typed_world(servers: &[(&str, usize)]) -> tempfile::TempDir {
    let config: serde_json::Map<String, Value> = servers
        .iter()
        .map(|(name, extra)| {
            let extra = extra.to_string();
            (
                name.to_string(),
                servers::fixture_server("typed", &[extra.as_str()]),
            )
        })
        .collect();
    let world = servers::world(Value::Object(config));
    let synced = codemode(world.path(), &["mcp", "sync"], "");
    assert!(synced.status.success(), "{}", text(&synced.stderr));
    world
}

#[test]
fn each_certain_error_is_judged_on_its_own_and_upstream_calls_take_one_table() {
    let world = typed_world(&[("fx", 0)]);
    // An upstream call first does not hide the misspelt folder tool after it.
    let script = "print('this line ran')\nlocal sum = tools.fx.get_sum({ a = 2, b = 40 })\nreturn tools.text.slugfy(sum)\n";
    let (envelope, _) = exec(world.path(), &[], script);
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    assert_eq!(envelope["error"]["line"], 3, "{envelope}");
    assert_eq!(envelope["stdout"], "", "{envelope}");
    // The same with the upstream call after the mistake, and with two upstream calls
    // whose arguments the (maybe stale) catalogue types otherwise before it.
    let script = "local a = tools.fx.get_sum({ a = '2' })\nlocal b = tools.fx.get_sm({ a = 1, b = 2 })\nreturn tools.text.slugfy(tostring(a) .. tostring(b))\n";
    let (envelope, _) = exec(world.path(), &[], script);
    assert_eq!(envelope["error"]["line"], 3, "{envelope}");
    assert!(notes(&envelope).contains("get_sm"), "{envelope}");
    // Arguments by position are refused by the run whatever the catalogue says, so the
    // check stops them, naming the one table the tool takes.
    for positional in [
        "return tools.fx.get_sum(2, 40)",
        "return tools.fx.get_sum('2')",
    ] {
        let (unchecked, _) = exec(world.path(), &["--check", "off"], positional);
        assert!(
            unchecked["error"]["message"]
                .as_str()
                .unwrap()
                .contains("one table"),
            "{unchecked}"
        );
        let (envelope, _) = exec(world.path(), &[], positional);
        assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
        let hint = envelope["error"]["hint"].as_str().unwrap();
        assert!(
            hint.contains("one table of named arguments")
                && hint.contains("tools.fx.get_sum(args: { a: number, b: number })"),
            "{hint}"
        );
    }
    // A tool the catalogue lacks may be on the server by now: it runs, reported.
    let (envelope, _) = exec(
        world.path(),
        &[],
        "return tools.fx.get_sm({ a = 1, b = 2 })",
    );
    assert_eq!(envelope["error"]["kind"], "runtime", "{envelope}");
    assert!(notes(&envelope).contains("get_sm"), "{envelope}");
    // An enum of mixed types is declared as wide as its values: 5 is one of them.
    let types = codemode(world.path(), &["types"], "");
    assert!(
        text(&types.stdout).contains("e: (string | number)?"),
        "{}",
        text(&types.stdout)
    );
    let (envelope, code) = exec(world.path(), &[], "return tools.fx.echo({ e = 5 })");
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], "{\"e\": 5}", "{envelope}");
}

#[test]
fn a_huge_upstream_server_is_typed_any_and_the_rest_stay_checked() {
    // Past 2,000 tools in one type, Luau refuses the whole declaration file ("Code is too
    // complex to typecheck"); the server is typed `any` instead.
    let world = typed_world(&[("fx", 0), ("big", 2_500)]);
    let types = text(&codemode(world.path(), &["types"], "").stdout);
    assert!(types.contains("\tbig: any,"), "{types}");
    assert!(
        types.contains("The toolbox `big` is typed `any`"),
        "{types}"
    );
    let (envelope, _) = exec(world.path(), &[], "return tools.text.slugfy('x')");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    let (envelope, _) = exec(world.path(), &[], "return tools.fx.get_sum(1, 2)");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    // Its tools run, unchecked, whether the script names it or not.
    let (envelope, code) = exec(
        world.path(),
        &[],
        "return tools.big.get_sum({ a = 1, b = 2 })",
    );
    assert_eq!((code, &envelope["value"]), (0, &json!("3")), "{envelope}");
    assert!(!notes(&envelope).contains("unchecked"), "{envelope}");
}

#[test]
fn declarations_that_do_not_load_are_cut_back_only_as_far_as_needed() {
    let world = typed_world(&[("fx", 0)]);
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let index = registry.snapshot();
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(5));
    let checking = Checking::new(Mode::Certain, checker);
    let upstream = [("fx", 4)];
    let asked = std::sync::Mutex::new(Vec::new());
    let text = |named: Option<&std::collections::BTreeSet<String>>| {
        let named = named.map(|n| n.iter().cloned().collect::<Vec<_>>());
        asked.lock().unwrap().push(named.clone());
        format!("{named:?}")
    };
    let full = checking.declarations_for(&index, &upstream, 0, "return 1", text);
    assert_eq!(asked.lock().unwrap().pop(), Some(None));
    // First the upstream servers go `any` (every folder toolbox stays declared)...
    let fewer = checking.degraded(&index, &upstream, &full, text).unwrap();
    let kept = asked.lock().unwrap().pop().flatten().unwrap();
    assert!(kept.contains(&"text".to_string()) && !kept.contains(&"fx".to_string()));
    // ...and they are what later scripts get, not the declarations that failed.
    let again = checking.declarations_for(&index, &upstream, 0, "return 2", text);
    assert_eq!(again.text(), fewer.text());
    // Then every toolbox; then there is nothing left to cut.
    let bare = checking.degraded(&index, &upstream, &fewer, text).unwrap();
    assert_eq!(bare.text(), Some("Some([])"));
    assert!(checking.degraded(&index, &upstream, &bare, text).is_none());
}

#[test]
fn a_tool_called_by_a_literal_key_is_judged_as_by_its_name() {
    let world = World::new();
    world.file(
        ".codemode/policy.json",
        r#"{ "profiles": { "default": { "default": "allow", "deny": ["text.wrap"] } } }"#,
    );
    for script in [
        "return tools.text.wrap('a b', 3)",
        "return tools.text['wrap']('a b', 3)",
    ] {
        let (envelope, _) = exec(world.path(), &[], script);
        assert_eq!(envelope["error"]["kind"], "denied", "{envelope}");
        assert!(
            envelope["error"]["message"]
                .as_str()
                .unwrap()
                .contains("text.wrap"),
            "{envelope}"
        );
    }
    let (envelope, _) = exec(world.path(), &[], "return tools.text[\"slugfy\"]('x')");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    let hint = envelope["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("did you mean `slugify`"), "{hint}");
}

const LOOPING_TYPE_FUNCTION: &str =
    "local _ = tools\ntype function loop(t)\n  while true do end\n  return t\nend\ntype X = loop<number>\nreturn 'ran'\n";

#[test]
fn the_check_comes_out_of_the_runs_deadline() {
    let world = World::new();
    let started = Instant::now();
    let (envelope, _) = exec(
        world.path(),
        &["--timeout-ms", "1000", "--check-timeout-ms", "60000"],
        LOOPING_TYPE_FUNCTION,
    );
    assert_eq!(envelope["value"], "ran", "{envelope}");
    assert!(notes(&envelope).contains("ms limit"), "{envelope}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the check took {:?} of a 1 s run",
        started.elapsed()
    );
}

#[test]
fn a_script_that_holds_the_checker_never_makes_others_wait_past_their_bound() {
    let world = World::new();
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(1));
    let checking = Arc::new(Checking::new(Mode::Certain, checker));
    let runtime = || {
        let mut rt = Runtime::new(registry.clone(), Limits::default()).unwrap();
        rt.set_checking(Some(checking.clone()));
        rt
    };
    // Loaded first, so no check below is told the checker is loading.
    assert!(runtime().exec("return 1", Output::Capture).ok);
    let hostile: Vec<_> = (0..8)
        .map(|_| {
            let mut rt = runtime();
            std::thread::spawn(move || rt.exec(LOOPING_TYPE_FUNCTION, Output::Capture))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut rt = runtime();
    let started = Instant::now();
    let harmless = rt.exec("return tools.text.slugify('Hello World')", Output::Capture);
    let waited = started.elapsed();
    assert_eq!(
        harmless.value,
        Some(json!("hello-world")),
        "{}",
        harmless.to_json()
    );
    // Eight checks of 1 s each in turn would be 8 s; it waits at most its own 1 s
    // (and the grace a checker gets to answer).
    assert!(waited < Duration::from_secs(4), "waited {waited:?}");
    for thread in hostile {
        let envelope = thread.join().unwrap();
        assert_eq!(envelope.value, Some(json!("ran")), "{}", envelope.to_json());
    }
}

#[test]
fn a_refused_server_is_named_with_its_reason_where_its_toolbox_is_called() {
    let world = World::new();
    std::fs::create_dir_all(world.path().join(".codemode")).unwrap();
    std::fs::write(
        world.path().join(".codemode/mcp.json"),
        r#"{"mcpServers": {"files": {"command": "no-such-server", "args": ["."]}}}"#,
    )
    .unwrap();
    let script = "return tools.files.read_text_file({ path = 'notes.txt' })\n";
    for (mode, kind) in [("certain", "type"), ("off", "runtime")] {
        let (envelope, code) = exec(world.path(), &["--check", mode], script);
        assert_eq!(code, 1, "{envelope}");
        assert_eq!(envelope["error"]["kind"], kind, "{envelope}");
        let hint = envelope["error"]["hint"].as_str().unwrap();
        assert!(hint.contains("configured but cannot be used"), "{hint}");
        assert!(hint.contains("allowWorldAccess"), "{hint}");
    }
    // A profile denied the server is told so, and nothing of its entry (its command, its
    // folders, the names of its variables).
    std::fs::write(
        world.path().join(".codemode/policy.json"),
        r#"{ "profiles": { "default": { "default": "allow" },
                "guest": { "default": "allow", "deny": ["files.*"] } } }"#,
    )
    .unwrap();
    for mode in ["certain", "off"] {
        let (envelope, code) = exec(
            world.path(),
            &["--profile", "guest", "--check", mode],
            script,
        );
        assert_eq!(code, 1, "{envelope}");
        let error = envelope["error"].to_string();
        assert!(error.contains("denied"), "{error}");
        assert!(
            !error.contains("no-such-server") && !error.contains("allowWorldAccess"),
            "{error}"
        );
    }
}

#[test]
fn search_rows_and_cached_calls_are_typed_as_they_come_back() {
    let world = cached_tool_world(
        "--!desc Slow lookup.\n--!arg q string the query\nreturn function(q: string)\n\treturn { brief = q, raw = { q, q }, indexTerms = { q } }\nend\n",
    );
    // Fields every search row carries, and the key a cached call returns second: correct
    // scripts strict mode must not refuse.
    let script = "local row = tools.search('slug').value[1]\nlocal line = row.description .. (row.signature or '') .. (row.toolbox or '')\nlocal brief, key = tools.c.slow('q')\nreturn { line ~= '', brief ~= nil, key ~= nil }\n";
    let (envelope, code) = exec(world.path(), &["--check", "strict"], script);
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], json!([true, true, true]), "{envelope}");
    // A field no row has is still refused.
    let wrong = "return tools.search('slug').value[1].signatur\n";
    let (envelope, _) = exec(world.path(), &["--check", "strict"], wrong);
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
}

#[test]
fn a_toolbox_the_script_creates_is_a_warning_not_an_error() {
    let world = World::new();
    let script = "local box = tools.createToolbox({ name = 'mine', description = 'My helpers.' })\nassert(box.ok, box.error)\nlocal made = tools.create({ name = 'shout', toolbox = 'mine', description = 'Upper-case text.', args = { { name = 'text', type = 'string' } }, code = \"return string.upper(text) .. '!'\" })\nassert(made.ok, made.error)\nreturn tools.mine.shout('hi')\n";
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], "HI!", "{envelope}");
    // The default mode does not say so beside a run that worked; `warn` does.
    assert!(envelope.get("diagnostics").is_none(), "{envelope}");
    std::fs::remove_dir_all(world.path().join("mine.toolbox")).unwrap();
    let (envelope, code) = exec(world.path(), &["--check", "warn"], script);
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], "HI!", "{envelope}");
    let said = &envelope["diagnostics"][0];
    assert_eq!(said["severity"], "warning", "{envelope}");
    assert!(
        said["message"]
            .as_str()
            .unwrap()
            .starts_with("tools.mine is not a toolbox yet"),
        "{envelope}"
    );
    // A script that writes no tools still hears of a toolbox that does not exist.
    let (envelope, _) = exec(world.path(), &[], "return tools.theirs.shout('hi')\n");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
}

#[test]
fn a_script_runs_while_it_is_checked_but_nothing_it_does_takes_effect_before_the_verdict() {
    let world = World::new();
    // Files written and a tool published before the mistaken line: the script's own
    // computation may go on while the checker works, its effects may not.
    let script = r#"print("started")
local n = 0
for i = 1, 1000 do n += i end
vfs.write("before.txt", tostring(n))
tools.createToolbox({ name = "mine", description = "Mine." })
tools.create({ toolbox = "mine", name = "early", description = "Returns one.", code = "return 1" })
local ok = pcall(vfs.write, "caught.txt", "x")
return tools.lsit()
"#;
    let (envelope, code) = exec(world.path(), &[], script);
    assert_eq!(code, 1, "{envelope}");
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    assert_eq!(envelope["error"]["line"], 8, "{envelope}");
    assert!(
        envelope["error"]["hint"]
            .as_str()
            .unwrap()
            .starts_with("nothing took effect"),
        "{envelope}"
    );
    assert_eq!(envelope["stdout"], "", "{envelope}");
    for written in ["before.txt", "caught.txt", "mine.toolbox"] {
        assert!(
            !world.path().join(written).exists(),
            "{written} was written by a refused script"
        );
    }
    // The same effects in a script the check lets through happen as written.
    let (envelope, code) = exec(
        world.path(),
        &[],
        &script.replace("tools.lsit()", "tools.list('mine').value[1].name"),
    );
    assert_eq!(code, 0, "{envelope}");
    assert_eq!(envelope["value"], "early", "{envelope}");
    assert_eq!(
        std::fs::read_to_string(world.path().join("before.txt")).unwrap(),
        "500500"
    );
}

#[test]
fn a_refused_script_that_computes_without_end_is_stopped_when_the_verdict_comes() {
    let world = World::new();
    let started = Instant::now();
    let (envelope, _) = exec(
        world.path(),
        &["--timeout-ms", "60000"],
        "local n = 0\nwhile true do n += 1 end\nreturn tools.text.slugfy(tostring(n))\n",
    );
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "a refused endless loop ran for {:?}",
        started.elapsed()
    );
}

#[test]
fn a_long_computation_frees_the_checker_for_other_scripts_once_it_is_checked() {
    let world = World::new();
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let checker = Checker::with_program(Ok(checker_bin()), Duration::from_secs(10));
    let checking = Arc::new(Checking::new(Mode::Certain, checker));
    let runtime = || {
        let mut rt = Runtime::new(registry.clone(), Limits::default()).unwrap();
        rt.set_checking(Some(checking.clone()));
        rt
    };
    // Loaded first, so no check below is told the checker is loading.
    assert!(runtime().exec("return 1", Output::Capture).ok);
    let mut long = runtime();
    let computing = std::thread::spawn(move || {
        long.exec(
            "local t = os.clock()\nwhile os.clock() - t < 4 do end\nreturn tools.text.slugify('done now')",
            Output::Capture,
        )
    });
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let refused = runtime().exec("return tools.text.slugfy('x')", Output::Capture);
    let waited = started.elapsed();
    assert_eq!(
        refused.error.as_ref().map(|e| e.kind),
        Some(ErrorKind::Type),
        "{}",
        refused.to_json()
    );
    assert!(
        !computing.is_finished(),
        "the long script ended first: the test shows nothing"
    );
    assert!(
        waited < Duration::from_millis(2500),
        "a check waited {waited:?} for another script's run"
    );
    let long = computing.join().unwrap();
    assert_eq!(long.value, Some(json!("done-now")), "{}", long.to_json());
}

/// The checker's address space is capped (a script written to make it allocate without
/// end kills only the checker), counted from what it holds once started: its allocator
/// reserves an arena up front, and the cap leaves the checker its 2 GiB beyond that.
#[test]
fn the_checker_may_take_two_gib_beyond_what_it_holds_at_start() {
    let mut checker = CheckerProcess::start();
    let loaded = checker.ask(json!({"defs": "declare x: number\n", "key": 1}));
    assert_eq!(loaded["ok"], true, "{loaded}");
    let checked = checker.ask(json!({"check": "return x + 1", "key": 1, "timeoutMs": 5000}));
    assert_eq!(checked["ok"], true, "{checked}");
    let proc = std::path::PathBuf::from(format!("/proc/{}", checker.child.id()));
    let limits = std::fs::read_to_string(proc.join("limits")).unwrap();
    let cap: u64 = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))
        .and_then(|l| l.split_whitespace().nth(3)?.parse().ok())
        .unwrap_or_else(|| panic!("no finite address-space cap: {limits}"));
    let status = std::fs::read_to_string(proc.join("status")).unwrap();
    let held_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap();
    let (held, gib) = (held_kib * 1024, 1u64 << 30);
    assert!(
        cap <= held + 2 * gib && cap >= held + 2 * gib - 256 * (1 << 20),
        "the cap is {cap} bytes with {held} held"
    );
}
