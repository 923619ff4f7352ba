//! Tests of `engine/types/sanitize.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn keeps_types_made_of_known_names() {
    for ty in [
        "string",
        "{ sep: string? }?",
        "(number, string) -> boolean",
        "{ Path }",
        "\"a\" | \"b\"",
        "<T>(T) -> T",
    ] {
        assert_eq!(
            declarable(ty, Slot::Param, &["Path"]),
            Ok(ty.to_string()),
            "{ty}"
        );
    }
}

#[test]
fn replaces_local_names_shorthands_and_garbage() {
    assert_eq!(
        declarable("Options?", Slot::Param, &[]).unwrap_err().0,
        "any"
    );
    assert!(declarable("Options?", Slot::Param, &[])
        .unwrap_err()
        .1
        .contains("Options"));
    assert_eq!(
        declarable("table", Slot::Param, &[]).unwrap_err().0,
        "{ [any]: any }"
    );
    assert_eq!(
        declarable("function?", Slot::Param, &[]).unwrap_err().0,
        "((...any) -> ...any)?"
    );
    assert_eq!(declarable("{{{", Slot::Param, &[]).unwrap_err().0, "any");
    assert_eq!(declarable("mod.T", Slot::Param, &[]).unwrap_err().0, "any");
    // What a docstring line can smuggle in besides a type.
    for garbage in [
        "string,number",
        "string--x",
        "string=x",
        "string\nx",
        "string;print(1)",
    ] {
        let (ty, why) = declarable(garbage, Slot::Param, &[]).unwrap_err();
        assert_eq!(ty, "any", "{garbage}: {why}");
    }
    assert!(declarable("string,number", Slot::Return, &[]).is_err());
    assert!(declarable("(string,", Slot::Return, &[]).is_err());
}

#[test]
fn a_return_may_be_a_list_of_types() {
    assert_eq!(
        declarable("(string, number)", Slot::Return, &[]),
        Ok("(string, number)".to_string())
    );
    assert!(declarable("(string, number)", Slot::Param, &[]).is_err());
}

#[test]
fn generics_are_names_only_inside_their_function() {
    assert!(declarable("<T>(T) -> T", Slot::Param, &[]).is_ok());
    assert!(declarable("<T...>(T...) -> T...", Slot::Param, &[]).is_ok());
    let (ty, why) = declarable("{ (T) -> T }", Slot::Param, &[]).unwrap_err();
    assert_eq!(ty, "any");
    assert!(why.contains("names T"), "{why}");
    assert!(declarable("typeof(x)", Slot::Param, &[])
        .unwrap_err()
        .1
        .contains("typeof"));
}
