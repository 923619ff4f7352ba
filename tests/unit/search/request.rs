//! Tests of `engine/search/request.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn check(query: Given, options: &[(&str, Given)]) -> Result<SearchRequest, BadRequest> {
    SearchRequest::check(
        query,
        options.iter().map(|(k, v)| (k.to_string(), v.clone())),
    )
}

fn text(s: &str) -> Given {
    Given::Text(s.into())
}

#[test]
fn defaults_fill_what_is_not_given() {
    let r = check(
        Given::Absent,
        &[("toolbox", text("")), ("limit", Given::Absent)],
    )
    .unwrap();
    assert_eq!(r, SearchRequest::new(""));
}

#[test]
fn limits_are_whole_numbers_from_1_to_100() {
    for ok in [1.0, 10.0, 100.0] {
        let r = check(text("x"), &[("limit", Given::Number(ok))]).unwrap();
        assert_eq!(r.limit, ok as usize);
    }
    for (bad, shown) in [
        (Given::Number(0.0), "0"),
        (Given::Number(-1.0), "-1"),
        (Given::Number(101.0), "101"),
        (Given::Number(1.5), "1.5"),
        (Given::Number(f64::INFINITY), "inf"),
        (Given::Number(f64::NAN), "NaN"),
        (text("ten"), "the string \"ten\""),
        (Given::Other("a table"), "a table"),
    ] {
        let e = check(text("x"), &[("limit", bad)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("limit must be a whole number from 1 to 100, got {shown}")
        );
    }
}

#[test]
fn mode_toolbox_and_query_are_checked() {
    let e = check(text("x"), &[("mode", text("fuzzy"))]).unwrap_err();
    assert_eq!(
        e.message("--"),
        "--mode must be \"keyword\" or \"semantic\" (by words, or by meaning: the default), got 'fuzzy'"
    );
    let e = check(text("x"), &[("mode", Given::Number(3.0))]).unwrap_err();
    assert_eq!(
        e.message("opts."),
        "opts.mode must be \"keyword\" or \"semantic\", got a number"
    );
    let e = check(text("x"), &[("toolbox", text("a b"))]).unwrap_err();
    assert!(
        e.message("--")
            .starts_with("--toolbox must be a toolbox name"),
        "{e}"
    );
    let e = check(Given::Number(42.0), &[]).unwrap_err();
    assert!(e.to_string().contains("needs a query string"), "{e}");
    let long = "x".repeat(MAX_QUERY_BYTES + 1);
    assert_eq!(
        check(text(&long), &[]).unwrap_err(),
        BadRequest::QueryTooLong(MAX_QUERY_BYTES + 1)
    );
    let r = check(
        text("x"),
        &[("mode", text("keyword")), ("toolbox", text("text"))],
    )
    .unwrap();
    assert_eq!(
        (r.mode, r.toolbox.as_deref()),
        (Mode::Keyword, Some("text"))
    );
}

#[test]
fn all_is_a_boolean() {
    let r = check(text("x"), &[("all", Given::Flag(true))]).unwrap();
    assert!(r.all);
    assert!(!check(text("x"), &[("all", Given::Absent)]).unwrap().all);
    for (bad, shown) in [
        (text("yes"), "the string \"yes\""),
        (Given::Number(1.0), "1"),
    ] {
        let e = check(text("x"), &[("all", bad)]).unwrap_err();
        assert_eq!(
            e.message("opts."),
            format!(
                "opts.all must be true (every row up to limit, however weak) or false, got {shown}"
            )
        );
    }
}

#[test]
fn unknown_options_are_named_as_the_caller_wrote_them() {
    let e = check(text("x"), &[("colour", text("red"))]).unwrap_err();
    assert_eq!(
        e.message(""),
        "unknown search option \"colour\"; the options are mode, toolbox, limit and all"
    );
    assert_eq!(
        e.message("opts."),
        "unknown search option \"opts.colour\"; the options are opts.mode, opts.toolbox, opts.limit and opts.all"
    );
}

#[test]
fn options_round_trip_through_the_check() {
    let mut asked = SearchRequest::new("q");
    asked.mode = Mode::Keyword;
    asked.toolbox = Some("text".into());
    asked.limit = 3;
    asked.all = true;
    let again = SearchRequest::check(
        text("q"),
        asked
            .options()
            .iter()
            .map(|(k, v)| (k.clone(), Given::from_json(v))),
    )
    .unwrap();
    assert_eq!(again, asked);
}
