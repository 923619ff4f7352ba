//! Property tests that feed generated and mangled Luau to every reader the engine runs on
//! world files and script input: the parse guard, the signature reader, the type model,
//! the docstring reader, the definition-file sanitizer, the MCP schema, and a whole world
//! indexed, listed and typed. The property is the one a hostile file must not break: each
//! reader returns (a value or an error) and the process survives. And the type model
//! prints what it reads: printed or declared, a type reads back the same.
//!
//! Cases per property: `CODEMODE_FUZZ_CASES` (default 128; CI runs the default).

use std::sync::Arc;

use crate::assets::{read_signature, with_luau, Docstring};
use crate::mcp::json_schema;
use crate::registry::Registry;
use crate::types::{declarable, Slot, Ty};
use crate::{Limits, Output, Runtime};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn cases() -> u32 {
    std::env::var("CODEMODE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(128)
}

/// Names as they appear in types: ordinary, non-ASCII letters next to ASCII ones (which
/// once reached an `unreachable!()` in the parser), bidi controls, keywords.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("string".to_string()),
        Just("number".to_string()),
        Just("boolean".to_string()),
        Just("any".to_string()),
        Just("nil".to_string()),
        Just("café".to_string()),
        Just("dé".to_string()),
        Just("é".to_string()),
        Just("a\u{202e}b".to_string()),
        Just("end".to_string()),
        Just("typeof".to_string()),
        "[a-zA-Z_][a-zA-Z0-9_]{0,8}",
        "[a-zé\u{202e}_]{1,4}",
    ]
}

/// Luau types, nested by the usual constructors.
fn luau_type_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        name(),
        "\"[a-z ]{0,6}\"".prop_map(|s| s),
        Just("true".to_string()),
        Just("...".to_string()),
    ];
    leaf.prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| format!("{t}?")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} | {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} & {b}")),
            inner.clone().prop_map(|t| format!("{{ {t} }}")),
            (inner.clone(), inner.clone()).prop_map(|(k, v)| format!("{{ [{k}]: {v} }}")),
            (name(), inner.clone(), name(), inner.clone())
                .prop_map(|(a, t, b, u)| format!("{{ {a}: {t}, {b}: {u} }}")),
            (inner.clone(), inner.clone()).prop_map(|(a, r)| format!("({a}) -> {r}")),
            (name(), inner.clone()).prop_map(|(n, t)| format!("{n}<{t}>")),
            inner.clone().prop_map(|t| format!("typeof({t})")),
            inner.prop_map(|t| format!("({t})")),
        ]
    })
}

/// A long run of one construct that recurses in a parser (up to far past every guard).
fn chain() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("?"),
        Just("<A"),
        Just("{"),
        Just("("),
        Just("() -> "),
        Just("- "),
        Just("not "),
        Just(" .. x"),
        Just(" + 1"),
        Just("do "),
        Just("if x then 1 else "),
        Just("`{"),
    ];
    (piece, 1usize..60_000).prop_map(|(p, n)| p.repeat(n))
}

/// Text mangled the way an attacker or a broken editor would: cut anywhere, a chain
/// spliced in anywhere, a stray character inserted.
fn mangled(text: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    (
        text,
        prop::option::of(chain()),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        prop::option::of(prop_oneof![
            Just('é'),
            Just('\u{202e}'),
            Just('\0'),
            Just('<'),
            Just('`')
        ]),
    )
        .prop_map(|(text, chain, at, cut, stray)| {
            let mut out = text;
            if let Some(chain) = chain {
                let at = floor(&out, at.index(out.len() + 1));
                out.insert_str(at, &chain);
            }
            if let Some(c) = stray {
                let at = floor(&out, at.index(out.len() + 1));
                out.insert(at, c);
            }
            if cut.index(4) == 0 {
                let at = floor(&out, cut.index(out.len() + 1));
                out.truncate(at);
            }
            out
        })
}

fn floor(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// An `init.luau` with docstrings and a typed signature built from generated types.
fn tool_source() -> impl Strategy<Value = String> {
    (luau_type_text(), luau_type_text(), luau_type_text()).prop_map(|(a, b, r)| {
        format!(
            "--!desc A generated tool.\n--!arg x {a} The x.\n--!arg y {b} The y.\n--!return {r} The result.\nlocal function f(x: {a}, y: {b}?): {r}\n\treturn x\nend\n\nreturn f\n"
        )
    })
}

proptest! {
    #![proptest_config(Config { cases: cases(), failure_persistence: None, ..Config::default() })]

    #[test]
    fn parsing_any_source_returns(source in mangled(tool_source())) {
        let _ = with_luau(&source, |ast| ast.nodes().stmts().count());
        let _ = read_signature(&source, "f");
        let _ = Docstring::parse(&source);
    }

    #[test]
    fn reading_any_type_returns(ty in mangled(luau_type_text())) {
        let parsed = Ty::parse(&ty);
        let _ = parsed.to_string();
        let _ = json_schema(&parsed);
        let _ = declarable(&ty, Slot::Param, &[]);
        let _ = declarable(&ty, Slot::Return, &[]);
        let _ = Ty::parse_returns(&ty);
    }

    /// The one model prints what it reads, and a declaration reads back as the type it
    /// declares (or as `any`, when the type names what a definition file cannot see).
    #[test]
    fn a_type_reads_back_from_its_text_and_its_declaration(ty in mangled(luau_type_text())) {
        let parsed = Ty::parse(&ty);
        prop_assert_eq!(Ty::parse(&parsed.to_string()), parsed.clone(), "{} printed {}", ty, parsed);
        let declared = declarable(&ty, Slot::Param, &[]).unwrap_or_else(|(t, _)| t);
        let back = Ty::parse(&declared);
        prop_assert!(back == parsed || back == Ty::Any, "{} declared {} reads {:?}", ty, declared, back);
    }
}

proptest! {
    // Each case builds a world on disk: fewer of them.
    #![proptest_config(Config { cases: (cases() / 8).max(4), failure_persistence: None, ..Config::default() })]

    #[test]
    fn a_world_of_generated_tools_lists_types_and_runs(
        sources in prop::collection::vec(mangled(tool_source()), 1..6)
    ) {
        let world = super::World::new();
        for (i, source) in sources.iter().enumerate() {
            world.tool(&format!("gen.t{i}"), source);
        }
        world.tool(
            "gen.fine",
            "--!desc Doubles.\nlocal function fine(n: number): number\n\treturn n * 2\nend\nreturn fine\n",
        );
        let registry = Arc::new(Registry::open(world.path(), &[], false).unwrap());
        let index = registry.snapshot();
        let _ = crate::host::definitions(&index, &[]);
        for entry in index.tools.values() {
            let _ = crate::mcp::input_schema(entry.meta());
            let _ = entry.reason();
        }
        let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
        let envelope = runtime.exec(
            r#"
            for _, row in tools.list(3, "gen").value do
                tools.bind("gen." .. row.name, { "x", 1 })
                tools.get("gen." .. row.name)
            end
            tools.search("generated tool")
            return tools.gen.fine(21)
            "#,
            Output::Capture,
        );
        let json = envelope.to_json();
        prop_assert_eq!(envelope.value, Some(serde_json::json!(42)), "{}", json);
    }
}
