//! Tests of `engine/mcp/limits.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_bucket_allows_its_burst_then_refuses_per_address() {
    let limits = HttpLimits {
        new_sessions_burst: 3,
        new_sessions_per_second: 1,
        ..HttpLimits::default()
    };
    let rate = SessionRate::new(&limits);
    let a: IpAddr = "127.0.0.2".parse().unwrap();
    let b: IpAddr = "127.0.0.3".parse().unwrap();
    for _ in 0..3 {
        assert!(rate.take(a).is_ok());
    }
    let wait = rate.take(a).unwrap_err();
    assert!(wait > 0.0 && wait <= 1.0, "{wait}");
    assert!(rate.take(b).is_ok());
}

#[test]
fn only_initialize_opens_a_session() {
    assert!(is_initialize(
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
    ));
    assert!(!is_initialize(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#
    ));
    assert!(!is_initialize(br#"[{"method":"initialize"}]"#));
    assert!(!is_initialize(b"not json"));
}
