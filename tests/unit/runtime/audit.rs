//! Tests of `engine/runtime/audit.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn every_kind_is_named_as_the_envelope_names_it() {
    use ErrorKind::*;
    for kind in [
        Syntax, Runtime, Timeout, Memory, Output, Limit, Input, Denied, Type,
    ] {
        assert_eq!(
            serde_json::to_value(kind).unwrap(),
            serde_json::json!(kind_name(kind))
        );
    }
}
