//! `codemode serve --http`: who may call it. A browser page marks its requests with an
//! `Origin` header; only loopback origins and those allowed with `--allow-origin` get
//! through (DNS-rebinding protection). Spoken to as raw HTTP/1.1, so every header is ours.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::Duration;

use common::http::{parse_response, Reply};
use common::World;
use serde_json::{json, Value};

/// A world whose scripts leave a file behind, and a server over it.
struct Server {
    child: Child,
    addr: SocketAddr,
    world: World,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let world = World::new();
        let mut child = common::command()
            .arg("--world")
            .arg(world.path())
            .args([
                "serve",
                "--http",
                "127.0.0.1:0",
                "--no-auth",
                "--workers",
                "1",
                "--no-bundled",
            ])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("codemode serve starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let addr = loop {
            line.clear();
            let read = stderr.read_line(&mut line).unwrap();
            assert!(read > 0, "the server exited before serving");
            if let Some(rest) = line.split("serving MCP at http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        // Keep draining stderr, so logging never blocks the server.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server { child, addr, world }
    }

    /// POSTs `body` to /mcp with `headers` (and a loopback Host unless one is given).
    fn post(&self, headers: &[(&str, &str)], body: &Value) -> Reply {
        self.send("POST", headers, &body.to_string())
    }

    /// Sends a `method` request to /mcp.
    fn send(&self, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut request = format!(
            "{method} /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            request.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(body);
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("a whole response");
        parse_response(&raw)
    }

    /// Opens a session without an Origin header; its id and protocol version.
    fn session(&self) -> Vec<(String, String)> {
        let init = self.post(
            &[],
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "raw-http", "version": "1"}}}),
        );
        assert_eq!(init.status, 200, "{}", init.body);
        let id = init.header("mcp-session-id").expect("a session id");
        let version = init.messages()[0]["result"]["protocolVersion"]
            .as_str()
            .unwrap()
            .to_string();
        let headers = vec![
            ("Mcp-Session-Id".to_string(), id.to_string()),
            ("MCP-Protocol-Version".to_string(), version),
        ];
        let ack = self.post(
            &borrow(&headers),
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        );
        assert!(ack.status < 300, "{} {}", ack.status, ack.body);
        headers
    }

    /// Calls tool_exec with a script that writes `file` into the world, with `extra`
    /// headers on top of the session's.
    fn write_file(
        &self,
        session: &[(String, String)],
        extra: &[(&str, &str)],
        file: &str,
    ) -> Reply {
        let mut headers = borrow(session);
        headers.extend_from_slice(extra);
        self.post(
            &headers,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "tool_exec",
                "arguments": {"script": format!("vfs.write('{file}', 'ran') return 'wrote'")}}}),
        )
    }

    fn has_file(&self, file: &str) -> bool {
        self.world.path().join(file).exists()
    }

    fn initialize_with(&self, headers: &[(&str, &str)]) -> Reply {
        self.post(
            headers,
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "raw-http", "version": "1"}}}),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn borrow(headers: &[(String, String)]) -> Vec<(&str, &str)> {
    headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

#[test]
fn a_foreign_origin_is_refused_with_403_and_runs_nothing() {
    let s = Server::start(&[]);
    let session = s.session();
    let refused = s.write_file(&session, &[("Origin", "http://evil.example")], "evil.txt");
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains("'http://evil.example'")
            && refused.body.contains("--allow-origin http://evil.example"),
        "the refusal must name the origin and the flag: {}",
        refused.body
    );
    // Origins that only look loopback, and ones no flag can allow.
    let port = s.addr.port().to_string();
    for origin in [
        format!("http://localhost.evil.example:{port}"),
        "https://127.0.0.1.evil.example".to_string(),
        "http://localhost@evil.example".to_string(),
        "null".to_string(),
        "file://".to_string(),
    ] {
        let refused = s.write_file(&session, &[("Origin", &origin)], "evil.txt");
        assert_eq!(refused.status, 403, "{origin}: {}", refused.body);
        assert!(refused.body.contains("Forbidden"), "{}", refused.body);
    }
    // A page cannot open a session either.
    let refused = s.initialize_with(&[("Origin", "http://evil.example")]);
    assert_eq!(refused.status, 403, "{}", refused.body);
    // One bad Origin among several is enough.
    let refused = s.write_file(
        &session,
        &[
            ("Origin", "http://localhost"),
            ("Origin", "http://evil.example"),
        ],
        "evil.txt",
    );
    assert_eq!(refused.status, 403, "{}", refused.body);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!s.has_file("evil.txt"), "a refused request ran its script");
}

#[test]
fn requests_without_an_origin_are_accepted() {
    let s = Server::start(&[]);
    let session = s.session();
    let ran = s.write_file(&session, &[], "plain.txt");
    assert_eq!(ran.status, 200, "{}", ran.body);
    let result = &ran.messages()[0]["result"];
    assert_eq!(
        result["structuredContent"]["value"], "wrote",
        "{}",
        ran.body
    );
    assert!(s.has_file("plain.txt"));
}

#[test]
fn loopback_origins_are_accepted_on_any_port() {
    let s = Server::start(&[]);
    let port = s.addr.port().to_string();
    for origin in [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        "http://localhost:5173".to_string(),
        "https://localhost".to_string(),
        "http://[::1]:3000".to_string(),
    ] {
        let init = s.initialize_with(&[("Origin", &origin)]);
        assert_eq!(init.status, 200, "{origin}: {}", init.body);
    }
    let session = s.session();
    let origin = format!("http://localhost:{port}");
    let ran = s.write_file(&session, &[("Origin", &origin)], "local.txt");
    assert_eq!(ran.status, 200, "{}", ran.body);
    assert!(s.has_file("local.txt"));
}

#[test]
fn allow_origin_allows_exactly_that_origin() {
    let s = Server::start(&[
        "--allow-origin",
        "https://app.example.com",
        "--allow-origin",
        "http://tools.example:8080/",
    ]);
    for origin in [
        "https://app.example.com",
        "https://app.example.com:443",
        "http://tools.example:8080",
        "http://localhost:1234",
    ] {
        let init = s.initialize_with(&[("Origin", origin)]);
        assert_eq!(init.status, 200, "{origin}: {}", init.body);
    }
    for origin in [
        "http://app.example.com",
        "https://app.example.com:8443",
        "https://sub.app.example.com",
        "https://example.com",
        "http://tools.example",
        "http://tools.example:8081",
        "http://evil.example",
    ] {
        let init = s.initialize_with(&[("Origin", origin)]);
        assert_eq!(init.status, 403, "{origin}: {}", init.body);
    }
    let session = s.session();
    let ran = s.write_file(
        &session,
        &[("Origin", "https://app.example.com")],
        "app.txt",
    );
    assert_eq!(ran.status, 200, "{}", ran.body);
    assert!(s.has_file("app.txt"));
}

#[test]
fn a_session_delete_is_answered_200_and_ends_the_session() {
    let s = Server::start(&[]);
    let session = s.session();
    let deleted = s.send("DELETE", &borrow(&session), "");
    // MCP clients take anything but 200 as a failed termination.
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    let after = s.write_file(&session, &[], "after-delete.txt");
    assert_eq!(after.status, 404, "{}", after.body);
    assert!(!s.has_file("after-delete.txt"));
}

#[test]
fn a_foreign_host_is_still_refused() {
    let s = Server::start(&[]);
    for headers in [
        vec![("Host", "evil.example")],
        vec![("Host", "evil.example"), ("Origin", "http://localhost")],
    ] {
        let refused = s.initialize_with(&headers);
        assert_eq!(refused.status, 403, "{headers:?}: {}", refused.body);
    }
}

#[test]
fn bad_allow_origin_values_are_refused_at_start() {
    for (args, wanted) in [
        (
            vec!["--http", "127.0.0.1:0", "--allow-origin", "app.example.com"],
            "scheme://host[:port]",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--allow-origin",
                "https://a.example/x",
            ],
            "scheme://host[:port]",
        ),
        (vec!["--allow-origin", "https://a.example"], "--http"),
    ] {
        let out = common::command()
            .arg("serve")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
}

#[test]
fn serve_help_documents_allow_origin() {
    let out = common::command()
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--allow-origin <ORIGIN>"), "{help}");
}

#[test]
fn connections_that_never_finish_their_headers_are_closed_and_others_are_served() {
    use std::io::{Read, Write};
    let s = Server::start(&[]);
    // Slow clients: half a request line each, then silence.
    let mut slow: Vec<std::net::TcpStream> = (0..200)
        .map(|_| {
            let mut c = std::net::TcpStream::connect(s.addr).unwrap();
            c.write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
                .unwrap();
            c
        })
        .collect();
    // A real client is still served while they wait.
    let session = s.session();
    let ran = s.write_file(&session, &[], "served.txt");
    assert_eq!(ran.status, 200, "{}", ran.body);
    // The server closes the slow ones once the header deadline passes.
    let started = std::time::Instant::now();
    let mut closed = 0;
    for c in &mut slow {
        c.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        let mut buf = [0u8; 512];
        // A close reads as 0 bytes (or an error reply, or a reset); a timeout is not one.
        match c.read(&mut buf) {
            Ok(_) => closed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => closed += 1,
            Err(_) => {}
        }
    }
    assert_eq!(closed, 200);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(25),
        "slow connections were held for {:?}",
        started.elapsed()
    );
}
