//! Tests of `engine/net/allow.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn allow(p: &[&str]) -> Allow {
    Allow::new(&p.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn patterns_match_host_wildcard_and_port() {
    let a = allow(&[
        "api.example.com",
        "*.example.org",
        "127.0.0.1:8080",
        "[::1]:9000",
    ]);
    assert_eq!(a.grant("api.example.com", 443, 443), Grant::Exactly);
    assert_eq!(a.grant("API.example.com.", 80, 80), Grant::Exactly);
    // Without a port in the pattern, only the scheme's default port.
    assert_eq!(a.grant("api.example.com", 8443, 443), Grant::No);
    assert_eq!(a.grant("a.example.org", 443, 443), Grant::ByWildcard);
    assert_eq!(a.grant("a.b.example.org", 80, 80), Grant::ByWildcard);
    // A wildcard covers names below the domain, not the domain or look-alikes.
    assert_eq!(a.grant("example.org", 443, 443), Grant::No);
    assert_eq!(a.grant("evilexample.org", 443, 443), Grant::No);
    assert_eq!(a.grant("127.0.0.1", 8080, 80), Grant::Exactly);
    assert_eq!(a.grant("127.0.0.1", 8081, 80), Grant::No);
    assert_eq!(a.grant("localhost", 8080, 80), Grant::No);
    assert_eq!(a.grant("[::1]", 9000, 80), Grant::Exactly);
    assert_eq!(a.grant("[::ffff:127.0.0.1]", 8080, 80), Grant::Exactly);
}

#[test]
fn malformed_patterns_are_refused_with_the_shape_to_use() {
    for bad in [
        "",
        "*.1.2.3.4",
        "*.1",
        "*.0.0.1:8765",
        "host:port",
        "a b",
        "*.",
        "exa mple.com:80",
        "http://x",
    ] {
        let err = HostPattern::parse(bad).unwrap_err();
        assert!(err.contains("optionally with :port"), "{bad}: {err}");
    }
    assert_eq!(HostPattern::parse("::1").unwrap().to_string(), "[::1]");
    assert_eq!(
        HostPattern::parse("*.Example.org:8443")
            .unwrap()
            .to_string(),
        "*.example.org:8443"
    );
}
