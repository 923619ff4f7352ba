//! Tests of `engine/upstream/http_client.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn names_the_certificate_problem_and_the_fix() {
    let io = std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer),
    );
    let text = tls_failure(&io, "https://h/mcp").unwrap();
    assert!(
        text.contains("https://h/mcp is not signed by a certificate authority")
            && text.contains("SSL_CERT_FILE"),
        "{text}"
    );
    let plain = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
    assert!(tls_failure(&plain, "https://h/mcp").is_none());
}

#[test]
fn plain_http_needs_no_trust_store() {
    assert!(client("http://127.0.0.1:9/mcp").is_ok());
    assert!(is_https("HTTPS://x/") && !is_https("http://x/"));
}
