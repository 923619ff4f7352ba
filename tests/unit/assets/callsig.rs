//! Tests of `engine/assets/callsig.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn arg(name: &str, ty: &str) -> Arg {
    Arg {
        name: name.into(),
        ty: ty.into(),
        description: String::new(),
        optional: ty.ends_with('?'),
    }
}

#[test]
fn renders_params_varargs_and_return() {
    let returns = Returns {
        ty: "string".into(),
        description: String::new(),
    };
    let line = call_signature(
        "slugify",
        &[arg("text", "string"), arg("opts", "{ sep: string? }?")],
        Some("any"),
        Some(&returns),
    );
    assert_eq!(
        line,
        "slugify(text: string, opts: { sep: string? }?, ...: any): string"
    );
    assert_eq!(call_signature("f", &[], None, None), "f()");
}
