//! Command-line reading and binding, refusal by refusal.

use std::path::Path;

use serde_json::{json, Value as Json};

use super::usage::usage_line;
use super::*;
use crate::assets::{Arg, Flag, ToolMeta};

fn meta(args: &[(&str, &str)], flags: &[(&str, Option<&str>)], rest: Option<&str>) -> ToolMeta {
    ToolMeta {
        identity: "demo.echo".into(),
        name: "echo".into(),
        toolbox: "demo".into(),
        description: "Echo.".into(),
        signature: None,
        args: args
            .iter()
            .map(|(n, t)| Arg {
                name: n.to_string(),
                ty: t.to_string(),
                description: String::new(),
                optional: t.ends_with('?'),
            })
            .collect(),
        returns: None,
        examples: vec![],
        tags: vec![],
        flags: flags
            .iter()
            .map(|(n, s)| Flag {
                name: n.to_string(),
                short: s.map(str::to_string),
            })
            .collect(),
        rest: rest.map(str::to_string),
        vararg: None,
        status: "ready".into(),
        purpose: None,
        has_render: false,
        limits: None,
        cache: None,
    }
}

/// A tool with one of everything: text, count, mode, file, verbose flag, rest words, options.
fn demo() -> Schema {
    Schema::from_meta(&meta(
        &[
            ("text", "string"),
            ("count", "number?"),
            ("mode", r#"("upper" | "lower")?"#),
            ("file", "Path?"),
            ("verbose", "boolean?"),
            ("extra", "{string}?"),
            (
                "opts",
                "{ sep: string?, max: number?, point: {number}?, dry: boolean?, data: any }?",
            ),
        ],
        &[("verbose", Some("v")), ("dry", Some("n"))],
        Some("extra"),
    ))
}

fn parse(words: &[&str]) -> Result<Vec<Option<Json>>, Refusal> {
    let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    parse_command_line(&demo(), &words, Path::new("/home/me"))
}

fn refused(words: &[&str]) -> Refusal {
    parse(words).expect_err("should be refused")
}

#[test]
fn fills_positionals_in_order() {
    let slots = parse(&["hi", "3", "upper", "notes.txt"]).unwrap();
    assert_eq!(slots[0], Some(json!("hi")));
    assert_eq!(slots[1], Some(json!(3)));
    assert_eq!(slots[2], Some(json!("upper")));
    assert_eq!(slots[3], Some(json!("/home/me/notes.txt")));
    assert_eq!(slots[4], None);
    assert_eq!(slots[6], None);
}

#[test]
fn reads_named_values_both_ways() {
    let slots = parse(&["--count", "2", "--text=a b", "--file=../x/./y"]).unwrap();
    assert_eq!(slots[0], Some(json!("a b")));
    assert_eq!(slots[1], Some(json!(2)));
    assert_eq!(slots[3], Some(json!("/home/x/y")));
}

#[test]
fn named_then_positional_fill_the_remaining_slots() {
    let slots = parse(&["--text", "t", "5"]).unwrap();
    assert_eq!(slots[0], Some(json!("t")));
    assert_eq!(slots[1], Some(json!(5)));
}

#[test]
fn flags_long_short_and_clustered() {
    let slots = parse(&["x", "--verbose"]).unwrap();
    assert_eq!(slots[4], Some(json!(true)));
    let slots = parse(&["x", "-vn"]).unwrap();
    assert_eq!(slots[4], Some(json!(true)));
    assert_eq!(slots[6], Some(json!({"dry": true})));
    let slots = parse(&["x", "--verbose=false"]).unwrap();
    assert_eq!(slots[4], Some(json!(false)));
}

#[test]
fn options_fields_are_flags() {
    let slots = parse(&["x", "--sep", "_", "--max=10", "--point", "0,5,0"]).unwrap();
    assert_eq!(
        slots[6],
        Some(json!({"sep": "_", "max": 10, "point": [0, 5, 0]}))
    );
}

#[test]
fn rest_takes_the_remaining_words() {
    let slots = parse(&["x", "1", "lower", "f", "a", "b", "--", "--not-a-flag"]).unwrap();
    assert_eq!(slots[5], Some(json!(["a", "b", "--not-a-flag"])));
}

#[test]
fn negative_numbers_are_values() {
    let slots = parse(&["x", "-5"]).unwrap();
    assert_eq!(slots[1], Some(json!(-5)));
    let slots = parse(&["x", "--max", "-0.5"]).unwrap();
    assert_eq!(slots[6], Some(json!({"max": -0.5})));
    let slots = parse(&["-"]).unwrap();
    assert_eq!(slots[0], Some(json!("-")));
}

#[test]
fn generic_slots_read_json_and_scalars() {
    for (word, want) in [
        (r#"{"a":[1,2]}"#, json!({"a": [1, 2]})),
        ("[1,2]", json!([1, 2])),
        ("true", json!(true)),
        ("12.5", json!(12.5)),
        ("1,2,3", json!([1, 2, 3])),
        ("plain text", json!("plain text")),
    ] {
        let slots = parse(&["x", "--data", word]).unwrap();
        assert_eq!(slots[6], Some(json!({ "data": want })), "{word}");
    }
    let slots = parse(&["x", "--data", "null"]).unwrap();
    assert_eq!(slots[6], None, "null leaves the field out");
}

#[test]
fn the_options_table_can_be_one_json_word() {
    let slots = parse(&["--opts", r#"{"sep":"-"}"#, "x"]).unwrap();
    assert_eq!(slots[6], Some(json!({"sep": "-"})));
}

#[test]
fn arrays_gather_repeated_values() {
    let schema = Schema::from_meta(&meta(&[("tag", "{string}")], &[], None));
    let words: Vec<String> = ["--tag", "a", "--tag", "b"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let slots = parse_command_line(&schema, &words, Path::new("/")).unwrap();
    assert_eq!(slots[0], Some(json!(["a", "b"])));
}

#[test]
fn refuses_unknown_flags_with_a_suggestion() {
    let r = refused(&["x", "--sepp", "_"]);
    assert_eq!(r.reason, Reason::UnknownFlag);
    assert!(r.message.contains("--sepp"), "{}", r.message);
    assert!(r.message.contains("did you mean --sep?"), "{}", r.message);
    assert!(r.message.contains("--help"), "{}", r.message);
    assert_eq!(refused(&["x", "-q"]).reason, Reason::UnknownFlag);
    assert_eq!(refused(&["x", "-vq"]).reason, Reason::UnknownFlag);
}

#[test]
fn refuses_missing_values() {
    let r = refused(&["x", "--sep"]);
    assert_eq!(r.reason, Reason::MissingValue);
    assert!(
        r.message.contains("--sep VALUE or --sep=VALUE"),
        "{}",
        r.message
    );
    assert_eq!(
        refused(&["x", "--sep", "--max", "3"]).reason,
        Reason::MissingValue
    );
    let slots = parse(&["x", "--sep=--"]).unwrap();
    assert_eq!(slots[6], Some(json!({"sep": "--"})));
}

#[test]
fn refuses_bad_values() {
    let r = refused(&["x", "ten"]);
    assert_eq!(r.reason, Reason::BadValue);
    assert!(
        r.message
            .contains("<count>: expected a number, got \"ten\""),
        "{}",
        r.message
    );
    let r = refused(&["x", "1", "sideways"]);
    assert_eq!(r.reason, Reason::BadValue);
    assert!(r.message.contains("upper, lower"), "{}", r.message);
    let r = refused(&["x", "--verbose=yes"]);
    assert_eq!(r.reason, Reason::BadValue);
    let r = refused(&["x", "--data", "{\"a\":"]);
    assert_eq!(r.reason, Reason::BadValue);
    assert!(
        r.message.contains("'{\"a\":' is not valid JSON: EOF"),
        "{}",
        r.message
    );
    assert_eq!(refused(&["x", "--max", "1e"]).reason, Reason::BadValue);
    assert_eq!(refused(&["x", "--max", "inf"]).reason, Reason::BadValue);
    assert_eq!(refused(&["x", "--point", "[1,"]).reason, Reason::BadValue);
}

#[test]
fn refuses_values_given_twice() {
    let r = refused(&["--text", "a", "--text", "b"]);
    assert_eq!(r.reason, Reason::GivenTwice);
    assert!(
        r.message.contains("--text was given twice"),
        "{}",
        r.message
    );
    assert_eq!(
        refused(&["x", "--sep", "a", "--sep=b"]).reason,
        Reason::GivenTwice
    );
    assert_eq!(
        refused(&["x", "-v", "--verbose"]).reason,
        Reason::GivenTwice
    );
    assert_eq!(
        refused(&["x", "--opts", "{}", "--sep", "_"]).reason,
        Reason::GivenTwice
    );
}

#[test]
fn refuses_missing_arguments_with_usage() {
    let r = refused(&["--count", "1"]);
    assert_eq!(r.reason, Reason::MissingArgument);
    assert!(r.message.contains("needs <text> (string)"), "{}", r.message);
    assert!(
        r.message.contains("usage: codemode call demo.echo <text>"),
        "{}",
        r.message
    );
}

#[test]
fn refuses_wrong_types_after_reading() {
    let r = refused(&["x", "--point", r#"["a"]"#]);
    assert_eq!(r.reason, Reason::WrongType);
    assert!(
        r.message.contains("--point[1]: expected number"),
        "{}",
        r.message
    );
    let r = refused(&["x", "--opts", r#"{"bogus":1}"#]);
    assert_eq!(r.reason, Reason::UnknownField);
}

#[test]
fn refuses_extra_words_without_rest() {
    let schema = Schema::from_meta(&meta(&[("a", "string")], &[], None));
    let words = vec!["one".to_string(), "two".to_string()];
    let r = parse_command_line(&schema, &words, Path::new("/")).unwrap_err();
    assert_eq!(r.reason, Reason::TooManyArguments);
    assert!(
        r.message.contains("\"two\" is one too many"),
        "{}",
        r.message
    );
}

#[test]
fn checks_slots_as_bind_does() {
    let schema = demo();
    let slots: Vec<Option<Json>> = vec![Some(json!(1))];
    let r = check_slots(&schema, &slots, Style::Luau).unwrap_err();
    assert_eq!(r.reason, Reason::WrongType);
    assert!(
        r.message
            .contains("argument text: expected string, got a number"),
        "{}",
        r.message
    );
    let none: Vec<Option<Json>> = vec![];
    let r = check_slots(&schema, &none, Style::Luau).unwrap_err();
    assert_eq!(r.reason, Reason::MissingArgument);
    assert!(
        r.message.contains("demo.echo needs argument text (string)"),
        "{}",
        r.message
    );
    let good: Vec<Option<Json>> = vec![Some(json!("x")), None, Some(json!("lower"))];
    assert!(check_slots(&schema, &good, Style::Luau).is_ok());
}

#[test]
fn usage_names_every_slot() {
    let line = usage_line(&demo());
    assert_eq!(
        line,
        "codemode call demo.echo <text> [<count>] [<mode>] [<file>] [--verbose|-v] [--dry|-n] [--sep TEXT] [--max NUMBER] [--point JSON] [--data VALUE] [<extra>...]"
    );
    let page = help(&demo(), &meta(&[], &[], None));
    assert!(page.contains("usage: codemode call demo.echo"), "{page}");
    assert!(page.contains("--verbose, -v"), "{page}");
}

#[test]
fn a_parameter_typed_by_an_alias_is_needed_unless_optional() {
    let needed = Schema::from_meta(&meta(&[("person", "Person")], &[], None));
    let none: Vec<Option<Json>> = vec![None];
    let r = check_slots(&needed, &none, Style::Luau).unwrap_err();
    assert_eq!(r.reason, Reason::MissingArgument, "{}", r.message);
    assert!(check_slots(&needed, &[Some(json!({ "name": "Ann" }))], Style::Luau).is_ok());
    assert_eq!(usage_line(&needed), "codemode call demo.echo <person>");
    let optional = Schema::from_meta(&meta(&[("person", "Person?")], &[], None));
    assert!(check_slots(&optional, &none, Style::Luau).is_ok());
}

#[test]
fn usage_shows_what_a_needed_options_table_must_hold_as_needed() {
    let needed = meta(&[("args", "{ a: number, b: number? }")], &[], None);
    let line = usage_line(&Schema::from_meta(&needed));
    assert_eq!(line, "codemode call demo.echo --a NUMBER [--b NUMBER]");
    let optional = meta(&[("args", "{ a: number, b: number? }?")], &[], None);
    let line = usage_line(&Schema::from_meta(&optional));
    assert_eq!(line, "codemode call demo.echo [--a NUMBER] [--b NUMBER]");
}

#[test]
fn words_past_the_parameters_go_to_a_trailing_vararg() {
    let mut m = meta(&[("first", "number")], &[], None);
    m.vararg = Some("number".into());
    let schema = Schema::from_meta(&m);
    let words: Vec<String> = ["1", "2", "3"].iter().map(|w| w.to_string()).collect();
    let slots = parse_command_line(&schema, &words, Path::new("/")).unwrap();
    assert_eq!(slots, vec![Some(json!(1)), Some(json!(2)), Some(json!(3))]);
    let words = vec!["1".to_string(), "x".to_string()];
    let refusal = parse_command_line(&schema, &words, Path::new("/")).unwrap_err();
    assert!(
        refusal.message.contains("expected a number"),
        "{}",
        refusal.message
    );
    // An options table before the `...` is filled by its flags, not by the extra words.
    let mut m = meta(
        &[("text", "string"), ("opts", "{ sep: string? }?")],
        &[],
        None,
    );
    m.vararg = Some("string".into());
    let schema = Schema::from_meta(&m);
    let words: Vec<String> = ["hi", "--sep", ",", "a", "b"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let slots = parse_command_line(&schema, &words, Path::new("/")).unwrap();
    assert_eq!(
        slots,
        vec![
            Some(json!("hi")),
            Some(json!({"sep": ","})),
            Some(json!("a")),
            Some(json!("b"))
        ]
    );
    // Without a vararg the same words are one too many.
    let plain = Schema::from_meta(&meta(&[("first", "number")], &[], None));
    let words = vec!["1".to_string(), "2".to_string()];
    let refusal = parse_command_line(&plain, &words, Path::new("/")).unwrap_err();
    assert_eq!(refusal.reason, Reason::TooManyArguments);
}

/// Binds JSON arguments as `Runtime::call` does: collect, then check in the JSON style.
fn bind_json(args: Json) -> Result<Vec<Option<Json>>, Refusal> {
    let schema = demo();
    let slots = collect_json(&schema, args)?;
    check_slots(&schema, &slots, Style::Json)?;
    Ok(slots)
}

#[test]
fn json_arguments_bind_by_position_and_by_name() {
    let slots = bind_json(json!(["hi", 2, null, null])).unwrap();
    assert_eq!(slots[0], Some(json!("hi")));
    assert_eq!(slots[1], Some(json!(2)));
    assert_eq!(slots.len(), 7, "trailing nulls are not given");
    let slots = bind_json(json!({"text": "hi", "sep": "_", "dry": true, "mode": null})).unwrap();
    assert_eq!(slots[6], Some(json!({"sep": "_", "dry": true})));
    assert_eq!(slots[2], None);
}

#[test]
fn json_refusals_name_arguments_as_json() {
    let e = bind_json(json!({})).unwrap_err();
    assert_eq!(e.reason, Reason::MissingArgument);
    assert!(
        e.message.starts_with(
            "demo.echo: missing argument \"text\" (string); it takes text: string, count: number?"
        ),
        "{}",
        e.message
    );
    let e = bind_json(json!({"text": ["a"]})).unwrap_err();
    assert!(
        e.message
            .contains("argument \"text\" must be a string (Luau type string), got a table"),
        "{}",
        e.message
    );
    let e = bind_json(json!({"text": "x", "opts": {"max": "ten"}})).unwrap_err();
    assert!(
        e.message
            .contains("argument \"opts.max\": expected number?"),
        "{}",
        e.message
    );
    let e = bind_json(json!({"text": "x", "sepp": "_"})).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownArgument);
    assert!(e.message.contains("did you mean sep?"), "{}", e.message);
    let e = bind_json(json!({"text": "x", "opts": {}, "sep": "_"})).unwrap_err();
    assert_eq!(e.reason, Reason::GivenTwice);
    let e = bind_json(json!(["x", 1, "upper", "f", true, [], {}, "more"])).unwrap_err();
    assert_eq!(e.reason, Reason::TooManyArguments);
    assert!(e.message.contains("position 8"), "{}", e.message);
    let e = bind_json(json!("x")).unwrap_err();
    assert_eq!(e.reason, Reason::WrongType);
}

#[test]
fn a_command_line_of_too_many_words_is_refused() {
    let words = vec!["w".to_string(); MAX_WORDS + 1];
    let e = parse_command_line(&demo(), &words, Path::new("/")).unwrap_err();
    assert_eq!(e.reason, Reason::TooManyArguments);
}
