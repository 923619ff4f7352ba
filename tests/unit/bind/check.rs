//! Tests of `engine/bind/check.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

fn ok(ty: &str, v: serde_json::Value) -> bool {
    check(&Ty::parse(ty), &v).is_ok()
}

#[test]
fn a_literals_field_of_another_kind_than_declared_is_refused() {
    let opts = Ty::parse("{ sep: string?, maxLength: number?, mode: (\"a\" | \"b\")?, v: any }?");
    let names = ["sep", "maxLength", "mode", "v"];
    let wrong = wrong_kind(&opts, &names, &[Some("string"), Some("string"), None, None]);
    let wrong = wrong.unwrap();
    assert_eq!((wrong.at, wrong.refused), (1, true));
    assert!(wrong
        .detail
        .contains("\"maxLength\" is a string, but it takes a number"));
    let right = [
        Some("string"),
        Some("number"),
        Some("string"),
        Some("boolean"),
    ];
    assert_eq!(wrong_kind(&opts, &names, &right), None);
    let mixed = Ty::parse("{ n: (number | string)? }");
    assert_eq!(wrong_kind(&mixed, &["n"], &[Some("boolean")]), None);
    // A literal surely fits only when each of its fields is declared and of its kind,
    // and every field it leaves out may be nil.
    assert!(fits_literal(
        &opts,
        &["sep", "maxLength"],
        &[Some("string"), Some("number")]
    ));
    assert!(!fits_literal(&opts, &["sep"], &[None]));
    assert!(!fits_literal(&opts, &["v"], &[Some("number")]));
    let required = Ty::parse("{ sep: string, n: number? }");
    assert!(!fits_literal(&required, &["n"], &[Some("number")]));
}

#[test]
fn a_literals_stray_field_is_misspelt_when_close_to_one_it_lacks() {
    let opts = Ty::parse("{ sep: string?, maxLength: number? }?");
    let stray = stray_field(&opts, &["sep", "maxLenght"]).unwrap();
    assert_eq!((stray.at, stray.refused), (1, true));
    assert!(
        stray.detail.contains("did you mean \"maxLength\""),
        "{}",
        stray.detail
    );
    // Close to one the literal already has: another field, not a misspelling.
    let stray = stray_field(&opts, &["maxLength", "maxLengths"]).unwrap();
    assert!(!stray.refused);
    assert_eq!(stray_field(&opts, &["sep", "maxLength"]), None);
    // An indexer takes any field, and so does a type that is not one record.
    assert_eq!(
        stray_field(&Ty::parse("{ sep: string?, [string]: any }"), &["x"]),
        None
    );
    assert_eq!(
        stray_field(&Ty::parse("{ a: number } | { b: number }"), &["c"]),
        None
    );
    assert_eq!(stray_field(&Ty::parse("string"), &["c"]), None);
}

#[test]
fn checks_primitives() {
    assert!(ok("string", json!("a")));
    assert!(!ok("string", json!(1)));
    assert!(ok("number?", json!(null)));
    assert!(!ok("number", json!(null)));
    assert!(ok("boolean", json!(false)));
    assert!(ok(r#""a" | "b""#, json!("b")));
    assert!(!ok(r#""a" | "b""#, json!("c")));
    assert!(ok("any", json!({"x": [1]})));
}

#[test]
fn checks_tables() {
    assert!(ok("{number}", json!([1, 2])));
    assert!(!ok("{number}", json!([1, "x"])));
    assert!(!ok("{number}", json!({"a": 1})));
    let err = check(&Ty::parse("{number}"), &json!({"rows": [1]})).unwrap_err();
    assert!(err.detail.contains("(its field \"rows\")"), "{err:?}");
    // The field named is one that holds such a list, whichever comes first.
    let rows = Ty::parse("{ { [string]: any } }");
    let csv = json!({"columns": ["a"], "rows": [{"a": 1}]});
    let err = check(&rows, &csv).unwrap_err();
    assert!(err.detail.contains("(its field \"rows\")"), "{err:?}");
    assert!(ok("{[string]: number}", json!({"a": 1})));
    assert!(ok("{ sep: string?, max: number? }", json!({"sep": "_"})));
    let err = check(&Ty::parse("{ sep: string? }"), &json!({"sepp": "_"})).unwrap_err();
    assert!(err.unknown_field, "{err:?}");
    assert!(err.detail.contains("sepp"), "{err:?}");
    let err = check(&Ty::parse("{ sep: string? }?"), &json!({"sep": 5})).unwrap_err();
    assert_eq!(err.path, ".sep");
    assert!(err.detail.contains("expected string?"), "{err:?}");
    let err = check(&Ty::parse("{ name: string }"), &json!({})).unwrap_err();
    assert!(err.detail.contains("missing"), "{err:?}");
    let err = check_open(&Ty::parse("{ name: string }"), &json!({"nmae": "x"})).unwrap_err();
    assert!(err.detail.contains("misspelt \"name\""), "{err:?}");
}

#[test]
fn open_records_take_extra_fields_but_not_misspelt_ones() {
    let opts = Ty::parse("{ ellipsis: string?, wordBoundary: boolean? }?");
    // What another tool returned may carry more than the next one reads.
    assert!(check_open(&opts, &json!({"ellipsis": "~", "source": "x"})).is_ok());
    for typo in ["elipsis", "Ellipsis", "wordboundary", "wordBoundry"] {
        let err = check_open(&opts, &json!({ typo: true })).unwrap_err();
        assert!(err.unknown_field, "{typo}: {err:?}");
        assert!(err.detail.contains("did you mean"), "{typo}: {err:?}");
    }
    // A near name is fine when the field it resembles is there too.
    let point = Ty::parse("{ x: number, y: number, w: number? }");
    assert!(check_open(&point, &json!({"x": 1, "y": 2, "xs": [1]})).is_ok());
    // Short names are words of their own: `z` is not a misspelt `w`.
    assert!(check_open(&point, &json!({"x": 1, "y": 2, "z": 3})).is_ok());
}

#[test]
fn checks_keys_and_indexers() {
    // Past its fields, a record's entries are the indexer's to check.
    let counts = "{ total: number, [string]: number }";
    assert!(ok(counts, json!({"total": 2, "a": 1})));
    let err = check(&Ty::parse(counts), &json!({"total": 2, "a": "x"})).unwrap_err();
    assert_eq!(err.path, "[\"a\"]", "{err:?}");
    assert!(!ok(counts, json!({"a": 1})));
    // A key fits when it is a value of the key type.
    assert!(ok(r#"{ [("x" | "y")]: number }"#, json!({"y": 1})));
    assert!(!ok(r#"{ [("x" | "y")]: number }"#, json!({"z": 1})));
    assert!(ok("{ [string | number]: boolean }", json!([true])));
    assert!(ok("{ [string | number]: boolean }", json!({"k": false})));
    assert!(!ok("{ [number]: string }", json!({"1": "a"})));
    // What the checker cannot judge takes anything; a function type takes functions.
    assert!(ok("Options?", json!({"deep": [1]})));
    assert!(ok("A & B", json!(3)));
    assert!(!ok("(string) -> number", json!("f")));
}
