//! Tests of `engine/mcp/origin.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn allowed(policy: &OriginPolicy, origin: &str) -> bool {
    policy
        .check(&HeaderValue::from_str(origin).unwrap())
        .is_ok()
}

#[test]
fn loopback_origins_pass_on_any_port() {
    let policy = OriginPolicy::default();
    for origin in [
        "http://localhost",
        "http://localhost:8765",
        "https://localhost:5173",
        "http://127.0.0.1:1",
        "http://[::1]:3000",
        "http://[0:0:0:0:0:0:0:1]",
        "HTTP://LOCALHOST:80",
    ] {
        assert!(allowed(&policy, origin), "{origin}");
    }
}

#[test]
fn other_origins_are_refused() {
    let policy = OriginPolicy::default();
    for origin in [
        "http://evil.example",
        "http://localhost.evil.example",
        "http://127.0.0.1.evil.example:8765",
        "http://127.0.0.2",
        "http://[::2]",
        "null",
        "file://",
        "chrome-extension://abcdef",
        "http://localhost@evil.example",
        "http://localhost:8765/",
        "http://localhost:80x",
        "http://localhost:",
        "",
    ] {
        assert!(!allowed(&policy, origin), "{origin}");
    }
}

#[test]
fn allowed_origins_match_exactly() {
    let policy = OriginPolicy::new([
        Origin::parse_allowed("https://app.example.com/").unwrap(),
        Origin::parse_allowed("http://Dev.Example:3000").unwrap(),
    ]);
    for origin in [
        "https://app.example.com",
        "https://app.example.com:443",
        "http://dev.example:3000",
    ] {
        assert!(allowed(&policy, origin), "{origin}");
    }
    for origin in [
        "http://app.example.com",
        "https://app.example.com:8443",
        "https://sub.app.example.com",
        "https://example.com",
        "http://dev.example",
        "http://dev.example:3001",
    ] {
        assert!(!allowed(&policy, origin), "{origin}");
    }
}

#[test]
fn the_refusal_names_the_origin_and_the_flag() {
    let policy = OriginPolicy::default();
    let refusal = policy
        .check(&HeaderValue::from_static("http://evil.example:8080"))
        .unwrap_err();
    assert!(
        refusal.contains("'http://evil.example:8080'")
            && refusal.contains("--allow-origin http://evil.example:8080"),
        "{refusal}"
    );
    let refusal = policy.check(&HeaderValue::from_static("null")).unwrap_err();
    assert!(refusal.contains("'null'") && refusal.contains("only http://"));
}

#[test]
fn bad_allow_origin_values_say_what_is_wanted() {
    for text in [
        "app.example.com",
        "https://app.example.com/path",
        "ftp://x",
        "null",
    ] {
        let error = Origin::parse_allowed(text).unwrap_err();
        assert!(error.contains("scheme://host[:port]"), "{error}");
    }
}

#[test]
fn rmcp_gets_the_same_list_with_ports_spelt_out() {
    let policy = OriginPolicy::new([Origin::parse_allowed("https://app.example.com").unwrap()]);
    let list = policy.rmcp_allowlist();
    assert!(list.contains(&"http://localhost:*".to_string()));
    assert!(list.contains(&"https://[::1]:*".to_string()));
    assert!(list.contains(&"https://app.example.com:443".to_string()));
}
