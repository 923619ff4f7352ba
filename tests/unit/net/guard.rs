//! Tests of `engine/net/guard.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn allow(p: &[&str]) -> Allow {
    Allow::new(&p.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn every_reserved_range_is_refused_and_public_addresses_pass() {
    let refused = [
        "127.0.0.1",
        "127.255.255.254",
        "0.0.0.0",
        "10.1.2.3",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "100.127.255.255",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fc00::1",
        "fdff::1",
        "fe80::1",
        "febf::1",
        "::ffff:127.0.0.1",
        "::ffff:169.254.169.254",
        "::ffff:10.0.0.1",
        "::127.0.0.1",
        "64:ff9b::7f00:1",
        "2002:7f00:1::",
        "ff02::1",
        "2001:0:4136:e378::1",
    ];
    for ip in refused {
        let ip: IpAddr = ip.parse().unwrap();
        assert!(refused_range(ip).is_some(), "{ip} should be refused");
        assert!(check_address(false, ip).is_err(), "{ip}");
        assert!(
            check_address(true, ip).is_ok(),
            "{ip}: an exact grant reaches it"
        );
    }
    for ip in [
        "93.184.216.34",
        "172.32.0.1",
        "100.128.0.1",
        "8.8.8.8",
        "2606:4700::1111",
        "::ffff:93.184.216.34",
        "64:ff9b::5db8:d822",
    ] {
        let ip: IpAddr = ip.parse().unwrap();
        assert_eq!(refused_range(ip), None, "{ip} is public");
    }
}

/// What the guard says about `url` under a wildcard grant that covers every name, and
/// patterns for the literals.
fn refusal(url: &str, grant: &[&str]) -> String {
    match Target::parse(url, &allow(grant)) {
        Ok(t) => panic!("{url} was allowed: {t:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn encoded_and_literal_addresses_are_refused_unless_named_exactly() {
    // Hosts a careless allow list might let through: the guard sees the address.
    for (url, range) in [
        ("http://2130706433/", "loopback"),
        ("http://0x7f000001/", "loopback"),
        ("http://0177.0.0.1/", "loopback"),
        ("http://127.1/", "loopback"),
        ("http://[::1]/", "loopback"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://10.0.0.1/", "private"),
        ("http://[fe80::1]/", "link-local"),
        ("http://0.0.0.0/", "unspecified"),
    ] {
        // The guard sees the address the encoding stands for.
        let host = Url::parse(url).unwrap().host_str().unwrap().to_string();
        let ip: IpAddr = host.trim_matches(['[', ']']).parse().unwrap();
        assert!(refused_range(ip).unwrap().contains(range), "{url}: {ip}");
        // Allowed only by a pattern for another host or a wildcard: refused.
        let text = refusal(url, &["example.com", "*.example.com"]);
        assert!(
            text.contains("is not allowed") && text.contains("capabilities.http"),
            "{text}"
        );
    }
    // A wildcard never reaches a reserved address, even when a name resolves there;
    // literals cannot match a wildcard, so the only way in is an exact name.
    let ok = Target::parse("http://0x7f000001:8080/x", &allow(&["127.0.0.1:8080"])).unwrap();
    assert_eq!(ok.ip, Some("127.0.0.1".parse().unwrap()));
    assert!(ok.exact);
    let ok = Target::parse("http://[::ffff:7f00:1]:8080/", &allow(&["127.0.0.1:8080"])).unwrap();
    assert!(ok.exact);
    // The exact grant is for that port only.
    let text = refusal("http://127.0.0.1:8081/", &["127.0.0.1:8080"]);
    assert!(text.contains("127.0.0.1:8081 is not allowed"), "{text}");
    assert!(
        text.contains("add `127.0.0.1:8081` to capabilities.http"),
        "{text}"
    );
    // localhost is a name of its own: granting 127.0.0.1 does not grant it.
    let text = refusal("http://localhost:8080/", &["127.0.0.1:8080"]);
    assert!(text.contains("localhost:8080 is not allowed"), "{text}");
}

#[test]
fn other_schemes_and_bad_urls_are_refused() {
    let text = refusal("file:///etc/passwd", &["example.com"]);
    assert!(text.contains("scheme 'file'"), "{text}");
    let text = refusal("ftp://example.com/", &["example.com"]);
    assert!(text.contains("scheme 'ftp'"), "{text}");
    let text = refusal("not a url", &["example.com"]);
    assert!(text.contains("absolute http://"), "{text}");
    let ok = Target::parse("https://api.example.com/v1", &allow(&["api.example.com"])).unwrap();
    assert_eq!(
        (ok.host.as_str(), ok.port, ok.ip, ok.exact),
        ("api.example.com", 443, None, true)
    );
    let ok = Target::parse("https://a.example.org/", &allow(&["*.example.org"])).unwrap();
    assert!(!ok.exact);
}
