//! Tests of `engine/assets/docstring.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn control_characters_in_docstrings_are_written_as_escapes() {
    let doc = Docstring::parse(
        "--!desc Clears\u{1b}[2J the\rscreen.\n--!arg s string The \u{9b}text\tto use.\n--!example tools.a.b(\"\u{7}\")\n",
    );
    assert_eq!(doc.desc, ["Clears\\u{1b}[2J the\\u{d}screen."]);
    assert_eq!(doc.args[0].description, "The \\u{9b}text\tto use.");
    assert_eq!(doc.examples, ["tools.a.b(\"\\u{7}\")"]);
    assert!(matches!(
        printable("plain\ntext"),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn a_first_sentence_ends_where_a_sentence_does() {
    assert_eq!(first_sentence("Slugify text. Then more."), "Slugify text.");
    assert_eq!(
        first_sentence("Parse a date, e.g. 2024-01-01, into fields. More."),
        "Parse a date, e.g. 2024-01-01, into fields."
    );
    assert_eq!(
        first_sentence("Wochentag eines Datums — z. B. «Montag» 📅."),
        "Wochentag eines Datums — z. B. «Montag» 📅."
    );
    assert_eq!(
        first_sentence("Steps: 1. read 2. write"),
        "Steps: 1. read 2. write"
    );
    assert_eq!(
        first_sentence("Dates, times etc. in ISO. Rest"),
        "Dates, times etc. in ISO."
    );
    assert_eq!(first_sentence("Ask (see below). Then"), "Ask (see below).");
    assert_eq!(first_sentence(""), "");
    assert_eq!(
        first_sentence("Returns all pets\nthe user sees\n\nMore text. Here."),
        "Returns all pets\nthe user sees"
    );
}

#[test]
fn a_type_may_hold_spaces_inside_brackets() {
    let doc = Docstring::parse(
        "--!arg opts { sep: string?, f: (x: number) -> number } How to split.\n--!return (string, number) The parts.\n",
    );
    assert_eq!(doc.args[0].ty, "{ sep: string?, f: (x: number) -> number }");
    assert_eq!(doc.args[0].description, "How to split.");
    assert_eq!(doc.returns.as_ref().unwrap().0, "(string, number)");
    assert_eq!(doc.returns.as_ref().unwrap().1, "The parts.");
    let doc = Docstring::parse(
        "--!arg cb (number) -> string The callback.\n--!arg v string | number The value.\n",
    );
    assert_eq!(doc.args[0].ty, "(number) -> string");
    assert_eq!(doc.args[0].description, "The callback.");
    assert_eq!(doc.args[1].ty, "string | number");
    assert_eq!(doc.args[1].description, "The value.");
}

#[test]
fn reads_every_key() {
    let doc = Docstring::parse(
        "--!strict\n--!desc Turn text\n--!desc into a slug.\n--!arg text string The text.\n\
             --!arg opts {sep:string?}? Options.\n--!return string The slug.\n\
             --!example tools.text.slugify(\"A B\") --> \"a-b\"\n--!flag verbose v\n--!rest words\n",
    );
    assert_eq!(doc.description(), "Turn text into a slug.");
    assert_eq!(doc.args.len(), 2);
    assert_eq!(doc.args[1].ty, "{sep:string?}?");
    assert_eq!(doc.args[0].description, "The text.");
    assert_eq!(doc.returns, Some(("string".into(), "The slug.".into())));
    assert_eq!(
        doc.examples,
        vec!["tools.text.slugify(\"A B\") --> \"a-b\""]
    );
    assert_eq!(doc.flags, vec![("verbose".into(), Some("v".into()))]);
    assert_eq!(doc.rest.as_deref(), Some("words"));
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
}

#[test]
fn reports_malformed_lines_and_ignores_luau_directives() {
    let doc = Docstring::parse("--!optimize 2\n--!arg onlyname\n--!bogus x\n");
    assert!(doc.args.is_empty());
    assert_eq!(doc.problems.len(), 2);
    assert!(doc.problems[0].contains("line 2"));
    assert!(doc.problems[1].contains("--!bogus"));
}
