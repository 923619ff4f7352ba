//! Calls without source: `Runtime::call` / `run_call` and `Runtime::surface` / `run_surface`
//! bind in Rust and run through the same path as `exec` (snapshot, limits, envelope).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::World;
use crate::bind::Reason;
use crate::registry::Registry;
use crate::{Args, Call, ErrorKind, Limits, Output, Runtime, Surface};
use serde_json::{json, Map, Value};

fn runtime_in(world: &Path, limits: Limits) -> Runtime {
    let registry = Arc::new(Registry::open(world, &[], false).unwrap());
    Runtime::new(registry, limits).unwrap()
}

/// The `codemode call` fixture world: demo.echo, demo.plain, demo.show (with render), demo.sum.
fn demo() -> Runtime {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/cmdline");
    runtime_in(&world, Limits::default())
}

fn named(value: Value) -> Args {
    match value {
        Value::Object(map) => Args::Named(map),
        _ => Args::Named(Map::new()),
    }
}

#[test]
fn positional_named_and_word_arguments_reach_the_tool() {
    let mut rt = demo();
    let doubled = rt
        .call("demo.plain", Args::Positional(vec![json!(4)]))
        .unwrap();
    assert_eq!(doubled.value, Some(json!(8)), "{}", doubled.to_json());

    // Names of the options table's fields fill that table, as tools.bind reads them.
    let echoed = rt
        .call(
            "demo.echo",
            named(json!({"text": "hi", "sep": "_", "count": null})),
        )
        .unwrap();
    let value = echoed.value.unwrap();
    assert_eq!(value["text"], "hi");
    assert_eq!(value["opts"]["sep"], "_");
    assert!(value.get("count").is_none(), "null is not given: {value}");

    let words = Args::Words {
        words: ["hi", "-5", "--sep=_", "-v", "--file", "notes.txt"]
            .map(String::from)
            .to_vec(),
        cwd: Some("demo.toolbox".into()),
    };
    let value = rt.call("demo.echo", words).unwrap().value.unwrap();
    assert_eq!(value["count"], -5);
    assert_eq!(value["verbose"], true);
    assert!(
        value["file"]
            .as_str()
            .unwrap()
            .ends_with("cmdline/demo.toolbox/notes.txt"),
        "{value}"
    );

    // A trailing `...` takes the values past the parameters.
    let sum = rt
        .call(
            "demo.sum",
            Args::Positional(vec![json!(1), json!(2), json!(3)]),
        )
        .unwrap();
    assert_eq!(sum.value, Some(json!(6)));
}

#[test]
fn refused_arguments_run_nothing_and_say_what_is_allowed() {
    let mut rt = demo();
    let missing = rt.call("demo.echo", named(json!({}))).unwrap_err();
    assert_eq!(missing.reason, Reason::MissingArgument);
    assert!(
        missing
            .message
            .starts_with("demo.echo: missing argument \"text\" (string); it takes text: string"),
        "{}",
        missing.message
    );

    let typed = rt.call("demo.echo", named(json!({"text": 5}))).unwrap_err();
    assert_eq!(typed.reason, Reason::WrongType);
    assert!(
        typed
            .message
            .contains("argument \"text\" must be a string (Luau type string), got a number"),
        "{}",
        typed.message
    );

    let field = rt
        .call(
            "demo.echo",
            named(json!({"text": "x", "opts": {"sepp": "_"}})),
        )
        .unwrap_err();
    assert_eq!(field.reason, Reason::UnknownField);
    assert!(field.message.contains("\"opts\""), "{}", field.message);

    let unknown = rt
        .call("demo.echo", named(json!({"text": "x", "colour": 1})))
        .unwrap_err();
    assert_eq!(unknown.reason, Reason::UnknownArgument);

    let many = rt
        .call("demo.plain", Args::Positional(vec![json!(1), json!(2)]))
        .unwrap_err();
    assert_eq!(many.reason, Reason::TooManyArguments);

    let words = rt
        .call(
            "demo.plain",
            Args::Words {
                words: vec!["four".into()],
                cwd: None,
            },
        )
        .unwrap_err();
    assert!(
        words.message.contains("expected a number, got \"four\""),
        "{}",
        words.message
    );

    let tool = rt.call("demo.ecko", Args::Positional(vec![])).unwrap_err();
    assert_eq!(tool.reason, Reason::UnknownTool);
    assert!(
        tool.message.contains("did you mean tools.demo.echo?"),
        "{}",
        tool.message
    );
}

#[test]
fn a_rendered_call_returns_what_render_showed() {
    let mut rt = demo();
    let call = Call::new(
        "demo.show",
        Args::Positional(vec![json!("table"), json!("x")]),
    )
    .rendered();
    let called = rt.run_call(call, Output::Capture, None).unwrap();
    let shown = called.rendered.expect("demo.show has a render.luau");
    assert_eq!(shown.out, "out: x");
    assert_eq!(shown.err.as_deref(), Some("warning: x"));
    assert_eq!(shown.exit, Some(3));

    // Without a render.luau, a rendered call is the tool's first value.
    let plain = Call::new("demo.plain", Args::Positional(vec![json!(2)])).rendered();
    let called = rt.run_call(plain, Output::Capture, None).unwrap();
    assert!(called.rendered.is_none());
    assert_eq!(called.envelope.value, Some(json!(4)));

    let failing = Call::new(
        "demo.show",
        Args::Positional(vec![json!("error"), json!("purpose")]),
    )
    .rendered();
    let called = rt.run_call(failing, Output::Capture, None).unwrap();
    let error = called.envelope.error.expect("render raised");
    assert!(
        error
            .message
            .contains("demo.show/render.luau:7: render exploded on purpose"),
        "{}",
        error.message
    );
}

#[test]
fn a_call_is_held_to_the_run_limits() {
    let world = World::new();
    world
        .tool(
            "t.spin",
            "local function spin(): number\n\twhile true do end\n\treturn 1\nend\nreturn spin\n",
        )
        .tool(
            "t.big",
            "local function big(n: number): string\n\tprint('hi')\n\treturn string.rep('x', n)\nend\nreturn big\n",
        );
    let limits = Limits {
        timeout: Duration::from_millis(200),
        max_output_bytes: 1024,
        ..Limits::default()
    };
    let mut rt = runtime_in(world.path(), limits);
    let spun = rt.call("t.spin", Args::Positional(vec![])).unwrap();
    assert_eq!(spun.error.unwrap().kind, ErrorKind::Timeout);

    let big = rt
        .call("t.big", Args::Positional(vec![json!(5000)]))
        .unwrap();
    assert!(big.ok && big.truncated, "{}", big.to_json());
    assert_eq!(big.stdout, "hi\n");
    assert!(big.value.unwrap().as_str().unwrap().len() < 1024);

    // The VM goes on serving after both.
    let again = rt.exec("return 1 + 1", Output::Capture);
    assert_eq!(again.value, Some(json!(2)));
}

#[test]
fn a_call_sees_its_own_snapshot_and_no_state_of_another_run() {
    let world = World::new();
    world.tool(
        "t.count",
        "local n = 0\nlocal function count(): number\n\tn += 1\n\treturn n\nend\nreturn count\n",
    );
    let mut rt = runtime_in(world.path(), Limits::default());
    for _ in 0..3 {
        let once = rt.call("t.count", Args::Positional(vec![])).unwrap();
        assert_eq!(
            once.value,
            Some(json!(1)),
            "each run instantiates the tool afresh"
        );
    }
}

#[test]
fn surface_functions_run_without_source() {
    let mut rt = demo();
    let listed = rt.surface("list", vec![json!(2), json!("demo")]);
    let value = listed.value.unwrap();
    assert!(
        value["stdout"].as_str().unwrap().contains("echo"),
        "{value}"
    );
    assert!(value["value"].as_array().unwrap().len() >= 4);

    let text = rt.run_surface(
        &Surface::new("list", vec![json!(1)]).pick(&["stdout"]),
        None,
    );
    assert!(text.value.unwrap().is_string());

    let got = rt.surface("get", vec![json!("demo.plain")]);
    assert_eq!(got.value.unwrap()["name"], "plain");

    let refused = rt.surface("search", vec![json!("x"), json!({"limit": 0})]);
    let error = refused.error.unwrap();
    assert_eq!(
        error.message,
        "tools.search: opts.limit must be a whole number from 1 to 100, got 0"
    );

    let unknown = rt.surface("nope", vec![]);
    assert!(unknown
        .error
        .unwrap()
        .message
        .contains("tools.nope is not a function"),);
}
