//! Tests of `engine/types/read.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_docstring_type_ends_where_the_reader_reads_one_type() {
    let lines = [
        (
            "{ sep: string?, f: (x: number) -> number }",
            "How to split.",
        ),
        ("(number) -> string", "The callback."),
        ("string | number", "The value."),
        ("{ [string]: { number } }?", "Counts by key."),
        ("\"upper\" | \"lower\"", "The case."),
        ("Map<string, number>", "A generic."),
        ("(a: number, b: number) -> (number, string)", "Returns two."),
    ];
    for (ty, description) in lines {
        let doc = crate::assets::Docstring::parse(&format!("--!arg x {ty} {description}\n"));
        assert_eq!(doc.args[0].ty, ty);
        assert_eq!(doc.args[0].description, description);
        assert!(read(ty, Slot::Param).is_ok(), "{ty} does not read");
    }
}

#[test]
fn reads_primitives_and_optionals() {
    assert_eq!(Ty::parse("string"), Ty::String);
    assert_eq!(Ty::parse("number?"), Ty::Union(vec![Ty::Number, Ty::Nil]));
    assert!(Ty::parse("number?").accepts_nil());
    assert!(!Ty::parse("number").accepts_nil());
    assert_eq!(Ty::parse("Path"), Ty::Path);
    assert_eq!(Ty::parse("table"), Ty::Table);
    // A name defined elsewhere is kept by name, and judged as anything.
    let named = Ty::parse("Whatever<T>");
    assert_eq!(
        named,
        Ty::Named {
            name: "Whatever".into(),
            args: vec![Ty::Named {
                name: "T".into(),
                args: vec![]
            }]
        }
    );
    // Any value fits a type known by name only, but the value must be given.
    assert!(named.accepts_anything() && !named.accepts_nil());
    assert_eq!(Ty::parse("not a type ((("), Ty::Any);
}

#[test]
fn reads_literal_unions() {
    let ty = Ty::parse(r#"("upper" | "lower")?"#);
    assert_eq!(ty.literal_choices(), Some(vec!["upper", "lower"]));
    assert!(ty.accepts_nil());
    assert_eq!(ty.to_string(), r#"("upper" | "lower")?"#);
    assert_eq!(Ty::parse("string | number").literal_choices(), None);
    assert_eq!(
        Ty::parse(r#"'it\'s' | "a\tb" | "\65\x42\u{43}""#),
        Ty::Union(vec![
            Ty::Literal("it's".into()),
            Ty::Literal("a\tb".into()),
            Ty::Literal("ABC".into())
        ])
    );
}

#[test]
fn reads_tables() {
    let ty = Ty::parse("{ sep: string?, max: number? }?");
    let fields = ty.record_fields().unwrap();
    assert_eq!(fields[0].name, "sep");
    assert_eq!(fields[1].ty, Ty::Union(vec![Ty::Number, Ty::Nil]));
    assert_eq!(Ty::parse("{number}"), Ty::Array(Box::new(Ty::Number)));
    assert_eq!(
        Ty::parse("{[string]: boolean}"),
        Ty::Map(Box::new(Ty::String), Box::new(Ty::Boolean))
    );
    // A function type is kept whole; `(...any) -> ...any` is any function.
    assert!(matches!(
        Ty::parse("(string) -> number"),
        Ty::Callback(cb) if cb.params == [(None, Ty::String)] && cb.returns == Ty::Number
    ));
    assert_eq!(Ty::parse("(...any) -> ...any"), Ty::Function);
    assert_eq!(Ty::parse("{}"), Ty::Table);
    assert_eq!(Ty::parse("{ [any]: any }"), Ty::Table);
    assert_eq!(
        Ty::parse(r#"{ ["a b"]: number, read c: string }"#).record_fields(),
        Some(vec![
            Field {
                name: "a b".into(),
                ty: Ty::Number
            },
            Field {
                name: "c".into(),
                ty: Ty::String
            }
        ])
    );
}

#[test]
fn reads_shorthands_and_says_so() {
    for (text, ty) in [
        ("int", Ty::Number),
        ("bool?", Ty::Union(vec![Ty::Boolean, Ty::Nil])),
        ("function", Ty::Function),
        ("function?", Ty::Union(vec![Ty::Function, Ty::Nil])),
        ("list", Ty::Array(Box::new(Ty::Any))),
        ("dict", Ty::Table),
    ] {
        let r = read(text, Slot::Param).unwrap();
        assert_eq!(r.ty, ty, "{text}");
        assert!(r.shorthand, "{text}");
    }
    assert!(!read("{ number }", Slot::Param).unwrap().shorthand);
}

#[test]
fn reads_returns_as_packs() {
    assert_eq!(
        Ty::parse_returns("(string, number)"),
        Ty::Pack(vec![Ty::String, Ty::Number])
    );
    assert_eq!(Ty::parse_returns("()"), Ty::Pack(vec![]));
    assert_eq!(
        Ty::parse_returns("...string"),
        Ty::Variadic(Box::new(Ty::String))
    );
    assert_eq!(Ty::parse_returns("(string)"), Ty::String);
    // A parameter is one type, never a pack.
    assert_eq!(Ty::parse("(string, number)"), Ty::Any);
    assert_eq!(Ty::parse("string\ntype X = number"), Ty::Any);
}

#[test]
fn printed_types_read_back_the_same() {
    for text in [
        "string",
        "{ sep: string?, max: number? }?",
        "(number, string) -> boolean",
        "<T, U...>(x: T, U...) -> (T, U...)",
        "((string) -> ())?",
        "(A & B) | C",
        "{ Path }",
        "{ [string]: { number } }",
        r#""a" | "b" | nil"#,
        "mod.Type<string>",
        "typeof(x)",
        r#"{ ["end"]: number, [number]: string }"#,
        r#"{ [("x" | "y")]: number }"#,
        r#"{ a: string, [("z")]: boolean }"#,
        "() -> () -> number",
        "{ f: () -> string | number, g: boolean }",
    ] {
        let ty = Ty::parse(text);
        assert_ne!(ty, Ty::Any, "{text}");
        assert_eq!(Ty::parse(&ty.to_string()), ty, "{text} printed {ty}");
        assert_eq!(Ty::parse(&ty.declaration()), ty, "{text} declared");
    }
}
