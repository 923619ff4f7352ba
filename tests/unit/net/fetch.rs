//! Tests of `engine/net/fetch.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

/// A name is judged by the addresses it resolves to (`localhost`, from the hosts file:
/// nothing leaves the machine): loopback is reached only when named exactly.
#[test]
fn resolved_addresses_are_checked() {
    let target = |exact| Target {
        url: reqwest::Url::parse("http://localhost:9/").unwrap(),
        host: "localhost".into(),
        port: 9,
        ip: None,
        exact,
    };
    let runtime = runtime().unwrap();
    let e = runtime
        .block_on(addresses(&target(false), "http://localhost:9/"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("localhost is at") && e.contains("loopback"),
        "{e}"
    );
    assert!(e.contains("name the host exactly (`localhost:9`)"), "{e}");
    let found = runtime
        .block_on(addresses(&target(true), "http://localhost:9/"))
        .unwrap();
    assert!(!found.is_empty() && found.iter().all(|a| a.ip().is_loopback() && a.port() == 9));
}

#[test]
fn refusals_come_before_any_connection() {
    let allow = Allow::new(&["example.com".to_string()]);
    let request = Request {
        method: "GET".into(),
        url: "http://169.254.169.254/latest/meta-data/".into(),
        headers: Vec::new(),
        body: None,
        timeout: Duration::from_secs(1),
        max_body: 1024,
    };
    let e = fetch(request.clone(), &allow, &Credentials::default(), &|| false).unwrap_err();
    assert!(matches!(e, NetError::Refused { .. }), "{e}");
    let bad = Request {
        method: "GET X".into(),
        url: "http://example.com/".into(),
        ..request.clone()
    };
    assert!(matches!(
        fetch(bad, &allow, &Credentials::default(), &|| false),
        Err(NetError::Invalid(_))
    ));
    let host = Request {
        url: "http://example.com/".into(),
        headers: vec![("Host".into(), "internal".into())],
        ..request
    };
    let e = fetch(host, &allow, &Credentials::default(), &|| false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Host header"), "{e}");
}

#[test]
fn credentials_go_over_https_or_to_this_machine_only() {
    assert!(credentials_may_go("https", "api.example.com"));
    assert!(credentials_may_go("https", "93.184.216.34"));
    for host in [
        "localhost",
        "127.0.0.1",
        "127.8.9.10",
        "[::1]",
        "::1",
        "LOCALHOST",
    ] {
        assert!(credentials_may_go("http", host), "{host}");
    }
    for host in [
        "api.example.com",
        "93.184.216.34",
        "[2001:db8::1]",
        "localhost.example.com",
    ] {
        assert!(!credentials_may_go("http", host), "{host}");
    }
}
