//! Tests of `engine/net/credentials.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn env(name: &str) -> Option<String> {
    (name == "TOKEN").then(|| "s3cret".to_string())
}

#[test]
fn headers_are_expanded_and_given_to_their_hosts_only() {
    let c = Credentials::parse(
        r#"{"credentials": {"api.example.com": {"headers": {"Authorization": "Bearer ${TOKEN}"}},
                "127.0.0.1:8080": {"headers": {"X-Key": "k-${TOKEN}-${TOKEN}"}}}}"#,
        &env,
    )
    .unwrap();
    let for_host = |host, port, default| c.for_host(host, port, default).unwrap();
    assert_eq!(
        for_host("api.example.com", 443, 443),
        [("Authorization".to_string(), "Bearer s3cret".to_string())]
    );
    assert!(for_host("other.example.com", 443, 443).is_empty());
    assert!(for_host("api.example.com", 8443, 443).is_empty());
    assert_eq!(for_host("127.0.0.1", 8080, 80)[0].1, "k-s3cret-s3cret");
    assert!(!format!("{c:?}").contains("s3cret"));
}

#[test]
fn problems_name_the_file_and_never_a_value() {
    // An unset variable fails the requests to its own hosts only.
    let c = Credentials::parse(
        r#"{"credentials": {"a.com": {"headers": {"X": "${NOPE}"}},
                "b.com": {"headers": {"Y": "${TOKEN}"}}}}"#,
        &env,
    )
    .unwrap();
    let e = c.for_host("a.com", 443, 443).unwrap_err().to_string();
    assert!(
        e.contains(".codemode/http.json") && e.contains("${NOPE}") && e.contains("not set"),
        "{e}"
    );
    assert_eq!(c.for_host("b.com", 443, 443).unwrap()[0].1, "s3cret");
    assert!(c.for_host("c.com", 443, 443).unwrap().is_empty());
    // A value that is not visible ASCII is refused for its hosts, never quoted.
    let c = Credentials::parse(
        r#"{"credentials": {"a.com": {"headers": {"X": "s3crét"}}}}"#,
        &env,
    )
    .unwrap();
    let e = c.for_host("a.com", 443, 443).unwrap_err().to_string();
    assert!(
        e.contains("only visible ASCII") && !e.contains("s3cr"),
        "{e}"
    );
    let e = Credentials::parse(r#"{"credentials": {"a.com": {"header": {}}}}"#, &env)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("is not valid") && e.contains("the shape is"),
        "{e}"
    );
    let e = Credentials::parse(r#"{"credentials": {"a.com": "Bearer s3cret"}}"#, &env)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 1") && !e.contains("s3cret"), "{e}");
    let e = Credentials::parse(r#"{"credentials": {"a b": {"headers": {}}}}"#, &env)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a host pattern"), "{e}");
    let e = Credentials::parse(
        r#"{"credentials": {"a.com": {"headers": {"Bad Name": "s3cret"}}}}"#,
        &env,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("not a header name") && !e.contains("s3cret"),
        "{e}"
    );
}
