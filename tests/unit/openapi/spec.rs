//! Tests of `engine/openapi/spec.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn swagger_and_other_versions_are_refused_with_the_fix() {
    let e = parse(r#"{"swagger": "2.0", "info": {}, "paths": {}}"#).unwrap_err();
    assert!(e.contains("Swagger 2.0") && e.contains("convert it"), "{e}");
    let e = parse("openapi: 4.0.0\n").unwrap_err();
    assert!(e.contains("reads OpenAPI 3.0 and 3.1"), "{e}");
    let e = parse("openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n").unwrap_err();
    assert!(e.contains("not a valid OpenAPI 3.0"), "{e}");
    let (doc, version) =
        parse("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n").unwrap();
    assert_eq!(version, Version::V31);
    assert_eq!(doc["info"]["title"], "t");
}
