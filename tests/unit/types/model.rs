//! Tests of `engine/types/model.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn unions_are_flat_with_nil_last() {
    let ty = Ty::union(vec![
        Ty::String,
        Ty::Nil,
        Ty::union(vec![Ty::Number, Ty::String]),
    ]);
    assert_eq!(ty, Ty::Union(vec![Ty::String, Ty::Number, Ty::Nil]));
    assert_eq!(ty.to_string(), "(string | number)?");
    assert_eq!(Ty::union(vec![Ty::String, Ty::Any]), Ty::Any);
}

#[test]
fn shorthands_print_as_real_types_in_declarations() {
    let ty = Ty::union(vec![Ty::Function, Ty::Nil]);
    assert_eq!(ty.to_string(), "function?");
    assert_eq!(ty.declaration(), "((...any) -> ...any)?");
    assert_eq!(Ty::Table.declaration(), "{ [any]: any }");
}

#[test]
fn odd_field_names_and_literals_are_quoted() {
    let ty = Ty::Record(
        vec![
            Field {
                name: "end".into(),
                ty: Ty::Literal("say \"hi\"\n".into()),
            },
            Field {
                name: "a b".into(),
                ty: Ty::Number,
            },
        ],
        None,
    );
    assert_eq!(
        ty.to_string(),
        r#"{ ["end"]: "say \"hi\"\n", ["a b"]: number }"#
    );
}
