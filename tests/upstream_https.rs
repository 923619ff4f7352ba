//! `https://` upstream servers: the reference server `@modelcontextprotocol/server-everything`
//! over streamable HTTP, behind a TLS-terminating proxy whose certificate is signed by a
//! certificate authority made for the test. codemode trusts that authority only when
//! `SSL_CERT_FILE` names it; with another authority, or a host name the certificate does
//! not cover, the call fails with a message naming the server and the fix. The proxy reads
//! the decrypted requests, so the test also sees the configured header arrive over TLS,
//! while nothing codemode prints (results, errors, debug logs) ever shows it.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{json, Value};
use servers::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A certificate authority and a server certificate it signed for `localhost` only.
struct Authority {
    ca_pem: String,
    server_chain: Vec<rustls::pki_types::CertificateDer<'static>>,
    server_key: PrivatePkcs8KeyDer<'static>,
}

impl Authority {
    fn new(name: &str) -> Self {
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name.push(DnType::CommonName, name);
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
        let key = KeyPair::generate().unwrap();
        let leaf = CertificateParams::new(vec!["localhost".to_string()])
            .unwrap()
            .signed_by(&key, &ca)
            .unwrap();
        Self {
            ca_pem: ca.pem(),
            server_chain: vec![leaf.der().clone(), ca.der().clone()],
            server_key: PrivatePkcs8KeyDer::from(key.serialize_der()),
        }
    }

    fn write_ca(&self, dir: &Path, file: &str) -> PathBuf {
        let path = dir.join(file);
        std::fs::write(&path, &self.ca_pem).unwrap();
        path
    }
}

/// Accepts TLS on a loopback port and forwards the plain bytes to `backend`. Counts the
/// handshakes that completed and the requests that carried `needle` in the clear.
struct TlsProxy {
    port: u16,
    handshakes: Arc<AtomicUsize>,
    saw_needle: Arc<AtomicUsize>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TlsProxy {
    fn start(authority: &Authority, backend: u16, needle: &'static str) -> Self {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                authority.server_chain.clone(),
                PrivateKeyDer::Pkcs8(authority.server_key.clone_key()),
            )
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let port = listener.local_addr().unwrap().port();
        let handshakes = Arc::new(AtomicUsize::new(0));
        let saw_needle = Arc::new(AtomicUsize::new(0));
        let (done, seen) = (handshakes.clone(), saw_needle.clone());
        runtime.spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let (acceptor, done, seen) = (acceptor.clone(), done.clone(), seen.clone());
                tokio::spawn(async move {
                    // A client that refuses the certificate ends here.
                    let Ok(tls) = acceptor.accept(client).await else {
                        return;
                    };
                    done.fetch_add(1, Ordering::SeqCst);
                    let Ok(server) =
                        TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], backend))).await
                    else {
                        return;
                    };
                    forward(tls, server, needle, seen).await;
                });
            }
        });
        Self {
            port,
            handshakes,
            saw_needle,
            runtime: Some(runtime),
        }
    }
}

impl Drop for TlsProxy {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Copies both ways; the client's side is read here so the proxy can look for `needle`.
async fn forward(
    tls: tokio_rustls::server::TlsStream<TcpStream>,
    server: TcpStream,
    needle: &str,
    seen: Arc<AtomicUsize>,
) {
    let (mut client_read, mut client_write) = tokio::io::split(tls);
    let (mut server_read, mut server_write) = server.into_split();
    let upstream = async {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match client_read.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if String::from_utf8_lossy(&buf[..n]).contains(needle) {
                seen.fetch_add(1, Ordering::SeqCst);
            }
            if server_write.write_all(&buf[..n]).await.is_err() {
                break;
            }
        }
        let _ = server_write.shutdown().await;
    };
    let downstream = async {
        let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
        let _ = client_write.shutdown().await;
    };
    tokio::join!(upstream, downstream);
}

/// Runs codemode in `world` with `SSL_CERT_FILE` set (and debug logs on, so they can be
/// checked for the secret too).
fn codemode(world: &Path, ca_file: &Path, args: &[&str], stdin: &str) -> (String, String, i32) {
    use std::io::Write;
    let mut child = Command::new(common::bin())
        .arg("--world")
        .arg(world)
        .args(args)
        .env("SSL_CERT_FILE", ca_file)
        .env_remove("SSL_CERT_DIR")
        .env("CODEMODE_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).ok();
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    );
    assert!(
        !out.contains(SECRET) && !err.contains(SECRET),
        "the header's secret leaked:\n{out}\n{err}"
    );
    (out, err, status.code().unwrap_or(-1))
}

#[test]
fn https_servers_are_called_when_their_authority_is_trusted_and_refused_otherwise() {
    let _serial = serial();
    let trusted = Authority::new("codemode test CA");
    let stranger = Authority::new("someone else's CA");
    let backend = HttpServer::start(None);
    let proxy = TlsProxy::start(&trusted, backend.port, SECRET);
    let files = tempfile::tempdir().unwrap();
    let trusted_ca = trusted.write_ca(files.path(), "trusted.pem");
    let stranger_ca = stranger.write_ca(files.path(), "stranger.pem");
    let dir = world(json!({
        "secure": {
            "type": "http",
            "url": format!("https://localhost:{}/mcp", proxy.port),
            "headers": { "Authorization": format!("Bearer {SECRET}") }
        },
        "by-address": { "url": format!("https://127.0.0.1:{}/mcp", proxy.port) },
        "not-tls": { "url": format!("https://localhost:{}/mcp", backend.port) }
    }));

    // Trusted: the catalogue is fetched over TLS and a script calls two tools.
    let (out, err, code) = codemode(dir.path(), &trusted_ca, &["mcp", "sync", "secure"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("echo"), "{out}");
    let script = r#"
        local echoed = tools.secure.echo({ message = "over tls" })
        local sum = tools.secure.get_sum({ a = 2, b = 40 })
        return { echoed = echoed, sum = sum }
    "#;
    let (out, err, code) = codemode(dir.path(), &trusted_ca, &["exec", "-"], script);
    assert_eq!(code, 0, "{out}{err}");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(envelope["value"]["echoed"], "Echo: over tls", "{envelope}");
    assert!(
        envelope["value"]["sum"].as_str().unwrap().contains("42"),
        "{envelope}"
    );
    assert!(proxy.handshakes.load(Ordering::SeqCst) > 0);
    assert!(
        proxy.saw_needle.load(Ordering::SeqCst) > 0,
        "the configured header reached the server, inside TLS"
    );

    // Another authority: the handshake is refused, and the error names the server, the
    // reason and the fix, in sync's report and in a script's envelope.
    let before = proxy.handshakes.load(Ordering::SeqCst);
    let (out, err, code) = codemode(dir.path(), &stranger_ca, &["mcp", "sync", "secure"], "");
    assert_eq!(code, 1, "{out}{err}");
    let report = format!("{out}{err}");
    eprintln!("untrusted authority: {report}");
    for needle in [
        "secure",
        "not signed by a certificate authority codemode trusts",
        "SSL_CERT_FILE",
    ] {
        assert!(
            report.contains(needle),
            "{needle:?} missing from:\n{report}"
        );
    }
    let (out, err, code) = codemode(
        dir.path(),
        &stranger_ca,
        &["exec", "-"],
        r#"return tools.secure.echo({ message = "x" })"#,
    );
    assert_eq!(code, 1, "{out}{err}");
    let envelope: Value = serde_json::from_str(&out).unwrap();
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("MCP server 'secure' failed to start")
            && message.contains("is not signed by a certificate authority codemode trusts")
            && message.contains("SSL_CERT_FILE"),
        "{envelope}"
    );
    assert_eq!(
        proxy.handshakes.load(Ordering::SeqCst),
        before,
        "no handshake completed with an untrusted certificate"
    );

    // A trusted certificate for another host name is refused too, saying so.
    let (out, err, code) = codemode(dir.path(), &trusted_ca, &["mcp", "sync", "by_address"], "");
    assert_eq!(code, 1, "{out}{err}");
    let report = format!("{out}{err}");
    eprintln!("another host name: {report}");
    assert!(
        report.contains("by-address") || report.contains("by_address"),
        "{report}"
    );
    assert!(
        report.contains("is not issued for that host name"),
        "{report}"
    );

    // SSL_CERT_FILE naming no readable certificate says so.
    let missing = files.path().join("missing.pem");
    let (out, err, code) = codemode(dir.path(), &missing, &["mcp", "sync", "secure"], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("cannot load the trusted certificate authorities")
            && err.contains(&format!("SSL_CERT_FILE={} holds none", missing.display())),
        "{err}"
    );

    // An https:// URL for a server that speaks plain HTTP says to check the scheme.
    let (out, err, code) = codemode(dir.path(), &trusted_ca, &["mcp", "sync", "not_tls"], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("MCP server 'not_tls' failed to start: the TLS handshake with")
            && err.contains("check that the server speaks https at that address"),
        "{err}"
    );
}
