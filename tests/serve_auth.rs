//! `codemode serve --http` as an operator exposes it: agents with tokens, each under its
//! own profile, JWT access tokens, the protected-resource metadata, and the limits that
//! keep slow or flooding clients from taking the server (spoken to as raw HTTP/1.1, and
//! by the official MCP Python SDK in `tests/mcp/auth_test.py`).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine;
use common::http::{parse_response, Reply};
use common::World;
use serde_json::{json, Value};

const POLICY: &str = r#"{ "profiles": {
    "default": { "default": "allow" },
    "full":    { "default": "allow" },
    "locked":  { "default": "allow", "deny": ["t.echo"] } } }"#;

/// A world with one tool `t.echo` and a policy whose `locked` profile denies it.
fn world() -> World {
    let world = World::new();
    world.tool(
        "t.echo",
        "--!desc Echo.\n--!arg s string What.\n--!return string The same.\nlocal function echo(s: string): string\n\treturn s\nend\nreturn echo\n",
    );
    world.file(".codemode/policy.json", POLICY);
    world
}

/// `codemode agent add NAME --profile P` in `world`: the token it printed.
fn add_agent(world: &World, name: &str, profile: &str) -> String {
    let out = common::command()
        .arg("--world")
        .arg(world.path())
        .args(["agent", "add", name, "--profile", profile])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert!(token.starts_with("cm_"), "{token}");
    token
}

fn agent_cmd(world: &World, args: &[&str]) -> std::process::Output {
    common::command()
        .arg("--world")
        .arg(world.path())
        .arg("agent")
        .args(args)
        .output()
        .unwrap()
}

struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(world: &World, extra: &[&str]) -> Server {
        let mut child = common::command()
            .arg("--world")
            .arg(world.path())
            .args([
                "serve",
                "--http",
                "127.0.0.1:0",
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
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
            self.addr,
            body.len()
        );
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
        let _ = stream.read_to_end(&mut raw);
        parse_response(&raw)
    }

    fn initialize(&self, token: Option<&str>) -> Reply {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        self.request(
            "POST",
            "/mcp",
            &headers,
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-http", "version": "1"}}})
            .to_string(),
        )
    }

    /// A session for `token`: initialize, then the initialized notification.
    fn session(&self, token: Option<&str>) -> Session {
        let init = self.initialize(token);
        assert_eq!(init.status, 200, "{}", init.body);
        let session = Session {
            id: init
                .header("mcp-session-id")
                .expect("a session id")
                .to_string(),
            auth: token.map(|t| format!("Bearer {t}")),
        };
        let ack = self.post(
            &session,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        );
        assert!(ack.status < 300, "{} {}", ack.status, ack.body);
        session
    }

    fn post(&self, session: &Session, body: &Value) -> Reply {
        let mut headers = vec![
            ("Mcp-Session-Id", session.id.as_str()),
            ("MCP-Protocol-Version", "2025-06-18"),
        ];
        if let Some(auth) = &session.auth {
            headers.push(("Authorization", auth.as_str()));
        }
        self.request("POST", "/mcp", &headers, &body.to_string())
    }

    /// tool_exec of `script` in `session`: the envelope.
    fn exec(&self, session: &Session, script: &str) -> Value {
        let reply = self.post(
            session,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "tool_exec", "arguments": {"script": script}}}),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        let message = reply.messages().pop().expect("an answer");
        message["result"]["structuredContent"].clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Session {
    id: String,
    auth: Option<String>,
}

#[test]
fn without_a_token_the_server_answers_401_naming_the_metadata() {
    let world = world();
    let token = add_agent(&world, "ci", "full");
    let server = Server::start(&world, &[]);
    let refused = server.initialize(None);
    assert_eq!(refused.status, 401, "{}", refused.body);
    let challenge = refused.header("www-authenticate").unwrap();
    let metadata = format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        server.addr
    );
    assert_eq!(
        challenge,
        format!("Bearer resource_metadata=\"{metadata}\"")
    );
    assert!(
        refused.body.contains("codemode agent add"),
        "{}",
        refused.body
    );
    let wrong = server.initialize(Some("cm_not-a-real-token"));
    assert_eq!(wrong.status, 401);
    assert!(wrong
        .header("www-authenticate")
        .unwrap()
        .contains("error=\"invalid_token\""));
    let basic = server.request("POST", "/mcp", &[("Authorization", "Basic Y2k6eA==")], "{}");
    assert_eq!(basic.status, 401);
    assert_eq!(server.initialize(Some(&token)).status, 200);

    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let doc = server.request("GET", path, &[], "");
        assert_eq!(doc.status, 200, "{path}");
        let doc: Value = serde_json::from_str(&doc.body).unwrap();
        assert_eq!(doc["resource"], server.url());
        assert_eq!(doc["bearer_methods_supported"], json!(["header"]));
    }
}

#[test]
fn a_revoked_token_stops_working_without_a_restart() {
    let world = world();
    let token = add_agent(&world, "ci", "full");
    let server = Server::start(&world, &[]);
    let session = server.session(Some(&token));
    assert_eq!(server.exec(&session, "return 1 + 1")["value"], 2);
    let listed = agent_cmd(&world, &["list"]);
    let listed = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(listed.starts_with("ci\tfull\t"), "{listed}");
    assert!(!listed.contains(&token[3..]));
    let revoked = agent_cmd(&world, &["revoke", "ci"]);
    assert!(revoked.status.success());
    let reply = server.post(
        &session,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    );
    assert_eq!(reply.status, 401, "{}", reply.body);
    assert_eq!(server.initialize(Some(&token)).status, 401);
    let again = agent_cmd(&world, &["revoke", "ci"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("no agent 'ci'"));
}

#[test]
fn each_agent_runs_under_its_own_profile_in_one_server() {
    let world = world();
    let full = add_agent(&world, "builder", "full");
    let locked = add_agent(&world, "reader", "locked");
    let server = Server::start(&world, &[]);
    let (a, b) = (server.session(Some(&full)), server.session(Some(&locked)));
    let script = "return tools.t.echo('hi')";
    assert_eq!(server.exec(&a, script)["value"], "hi");
    let denied = server.exec(&b, script);
    assert_eq!(denied["error"]["kind"], "denied", "{denied}");
    assert!(
        denied["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'locked'"),
        "{denied}"
    );
    // The allowed agent is still allowed after the other's denial.
    assert_eq!(server.exec(&a, script)["value"], "hi");
    // The operator's audit log names each agent and the profile its runs got, the denial
    // included (a run's lines are written when it ends, before its answer goes out).
    let log = std::fs::read_to_string(world.path().join(".codemode/audit.jsonl")).unwrap();
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let calls = |agent: &str, profile: &str, outcome: &str| {
        lines
            .iter()
            .filter(|l| {
                l["kind"] == "call"
                    && l["identity"] == "t.echo"
                    && l["agent"] == agent
                    && l["profile"] == profile
                    && l["outcome"] == outcome
            })
            .count()
    };
    assert_eq!(calls("builder", "full", "ok"), 2, "{log}");
    assert_eq!(calls("reader", "locked", "denied"), 1, "{log}");
    assert!(
        !log.contains("local"),
        "a request logged without its agent: {log}"
    );
}

/// A session is its agent's: another agent holding its id can neither call in it, read
/// its stream nor close it, and the owner goes on using it.
#[test]
fn an_agent_cannot_use_or_close_another_agents_session() {
    let world = world();
    let alice = add_agent(&world, "alice", "full");
    let bob = add_agent(&world, "bob", "locked");
    let server = Server::start(&world, &[]);
    let hers = server.session(Some(&alice));
    let stolen = Session {
        id: hers.id.clone(),
        auth: Some(format!("Bearer {bob}")),
    };
    let call = server.post(
        &stolen,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    assert_eq!(call.status, 404, "{}", call.body);
    let as_bob = format!("Bearer {bob}");
    let headers = [
        ("Mcp-Session-Id", hers.id.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
        ("Authorization", as_bob.as_str()),
    ];
    let stream = server.request("GET", "/mcp", &headers, "");
    assert_eq!(stream.status, 404, "{}", stream.body);
    let close = server.request("DELETE", "/mcp", &headers, "");
    assert_eq!(close.status, 404, "{}", close.body);
    // Hers still works, and bob's own session too.
    assert_eq!(
        server.exec(&hers, "return tools.t.echo('hi')")["value"],
        "hi"
    );
    let his = server.session(Some(&bob));
    assert_eq!(server.exec(&his, "return 1")["value"], 1);
}

#[test]
fn an_agent_whose_profile_the_policy_lacks_is_refused_clearly() {
    let world = world();
    let out = agent_cmd(&world, &["add", "x", "--profile", "nope"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nope") && err.contains("was not added"),
        "{err}"
    );
    // A profile removed from the policy after the agent was added.
    let token = add_agent(&world, "x", "full");
    world.file(
        ".codemode/policy.json",
        r#"{ "profiles": { "default": { "default": "allow" } } }"#,
    );
    let server = Server::start(&world, &[]);
    let session = server.session(Some(&token));
    let refused = server.exec(&session, "return 1");
    assert_eq!(refused["ok"], false, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("profile 'full'") && message.contains("policy.json"),
        "{message}"
    );
}

#[test]
fn no_auth_is_refused_off_loopback() {
    let out = common::command()
        .args([
            "serve",
            "--http",
            "0.0.0.0:0",
            "--allow-remote",
            "--no-auth",
            "--no-bundled",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--no-auth is only for loopback"), "{err}");
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// An ES256 key pair: the JWKS (public half) and a signer.
fn key_pair() -> (Value, jsonwebtoken::EncodingKey) {
    let pair = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let raw = pair.public_key_raw();
    let jwks = json!({"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "alg": "ES256", "use": "sig",
        "x": b64(&raw[1..33]), "y": b64(&raw[33..65])}]});
    (
        jwks,
        jsonwebtoken::EncodingKey::from_ec_der(&pair.serialize_der()),
    )
}

fn jwt(key: &jsonwebtoken::EncodingKey, claims: Value) -> String {
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
    header.kid = Some("k1".into());
    jsonwebtoken::encode(&header, &claims, key).unwrap()
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[test]
fn jwts_are_checked_for_signature_issuer_audience_and_expiry() {
    let world = world();
    let (jwks, key) = key_pair();
    let (_, other_key) = key_pair();
    world.file("jwks.json", &jwks.to_string());
    let jwks_path = world.path().join("jwks.json");
    let server = Server::start(
        &world,
        &[
            "--jwks",
            jwks_path.to_str().unwrap(),
            "--issuer",
            "https://idp.test",
            "--audience",
            "https://codemode.test/mcp",
            "--profile-claim",
            "cm_profile",
        ],
    );
    let claims = |iss: &str, aud: &str, exp: u64, profile: &str| json!({"iss": iss, "aud": aud, "exp": exp, "sub": "alice", "cm_profile": profile});
    let good = jwt(
        &key,
        claims(
            "https://idp.test",
            "https://codemode.test/mcp",
            now() + 600,
            "locked",
        ),
    );
    let session = server.session(Some(&good));
    let denied = server.exec(&session, "return tools.t.echo('x')");
    assert_eq!(denied["error"]["kind"], "denied", "{denied}");
    assert_eq!(server.exec(&session, "return 40 + 2")["value"], 42);
    // The same subject with another profile is another caller: it cannot close (or use)
    // the session made for the first.
    let full = jwt(
        &key,
        claims(
            "https://idp.test",
            "https://codemode.test/mcp",
            now() + 600,
            "full",
        ),
    );
    let as_full = format!("Bearer {full}");
    let headers = [
        ("Mcp-Session-Id", session.id.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
        ("Authorization", as_full.as_str()),
    ];
    let close = server.request("DELETE", "/mcp", &headers, "");
    assert_eq!(close.status, 404, "{}", close.body);
    assert_eq!(server.exec(&session, "return 1 + 1")["value"], 2);
    for (token, why) in [
        (
            jwt(
                &key,
                claims(
                    "https://evil.test",
                    "https://codemode.test/mcp",
                    now() + 600,
                    "full",
                ),
            ),
            "issuer",
        ),
        (
            jwt(
                &key,
                claims(
                    "https://idp.test",
                    "https://other.test",
                    now() + 600,
                    "full",
                ),
            ),
            "audience",
        ),
        (
            jwt(
                &key,
                claims(
                    "https://idp.test",
                    "https://codemode.test/mcp",
                    now() - 600,
                    "full",
                ),
            ),
            "expired",
        ),
        (
            jwt(
                &other_key,
                claims(
                    "https://idp.test",
                    "https://codemode.test/mcp",
                    now() + 600,
                    "full",
                ),
            ),
            "signature",
        ),
        (
            jwt(
                &key,
                json!({"iss": "https://idp.test", "aud": "https://codemode.test/mcp", "exp": now() + 600, "sub": "bob"}),
            ),
            "cm_profile",
        ),
        (
            jwt(
                &key,
                json!({"iss": "https://idp.test", "aud": "https://codemode.test/mcp", "exp": now() + 20_000,
                "nbf": now() + 10_000, "sub": "bob", "cm_profile": "full"}),
            ),
            "not valid yet",
        ),
    ] {
        let refused = server.initialize(Some(&token));
        assert_eq!(refused.status, 401, "{why}: {}", refused.body);
        assert!(refused.body.contains(why), "{why}: {}", refused.body);
    }
    let doc = server.request("GET", "/.well-known/oauth-protected-resource", &[], "");
    let doc: Value = serde_json::from_str(&doc.body).unwrap();
    assert_eq!(doc["authorization_servers"], json!(["https://idp.test"]));
}

/// A JWKS served over HTTP by Python's own file server on loopback.
struct JwksServer(Child);

impl Drop for JwksServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_jwks_from_a_url_is_fetched_and_checks_tokens() {
    let world = world();
    let (jwks, key) = key_pair();
    let served = tempfile::tempdir().unwrap();
    std::fs::write(served.path().join("jwks.json"), jwks.to_string()).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _files = JwksServer(
        Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .arg("--directory")
            .arg(served.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves files"),
    );
    let url = format!("http://127.0.0.1:{port}/jwks.json");
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the file server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let server = Server::start(
        &world,
        &[
            "--jwks",
            &url,
            "--issuer",
            "https://idp.test",
            "--audience",
            "https://codemode.test/mcp",
        ],
    );
    let claims = json!({"iss": "https://idp.test", "aud": "https://codemode.test/mcp",
        "exp": now() + 600, "sub": "alice", "codemode_profile": "full"});
    let accepted = server.initialize(Some(&jwt(&key, claims.clone())));
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    // A key the JWKS does not hold.
    let (_, other) = key_pair();
    let refused = server.initialize(Some(&jwt(&other, claims)));
    assert_eq!(refused.status, 401, "{}", refused.body);
}

#[test]
fn the_python_sdk_authenticates_with_a_bearer_token() {
    let world = world();
    let full = add_agent(&world, "builder", "full");
    let locked = add_agent(&world, "reader", "locked");
    let revoked = add_agent(&world, "gone", "full");
    assert!(agent_cmd(&world, &["revoke", "gone"]).status.success());
    let (jwks, key) = key_pair();
    world.file("jwks.json", &jwks.to_string());
    let jwks_path = world.path().join("jwks.json");
    let server = Server::start(
        &world,
        &[
            "--jwks",
            jwks_path.to_str().unwrap(),
            "--issuer",
            "https://idp.test",
            "--audience",
            "https://codemode.test/mcp",
        ],
    );
    let claims = |aud: &str| {
        json!({"iss": "https://idp.test", "aud": aud, "exp": now() + 600,
        "sub": "alice", "codemode_profile": "full"})
    };
    let cases = json!([
        {"name": "agent token", "token": full, "expect": "ok"},
        {"name": "no token", "token": null, "expect": "401"},
        {"name": "revoked token", "token": revoked, "expect": "401"},
        {"name": "locked profile", "token": locked, "expect": "denied"},
        {"name": "jwt", "token": jwt(&key, claims("https://codemode.test/mcp")), "expect": "ok"},
        {"name": "jwt for another audience", "token": jwt(&key, claims("https://other.test")), "expect": "401"},
    ]);
    let python = common::mcp_python();
    let out = Command::new(python)
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/auth_test.py"))
        .arg(server.url())
        .arg(cases.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Sends headers announcing a body, then one byte of it a second: the connection.
fn slow_body(addr: SocketAddr) -> Option<TcpStream> {
    let mut stream = TcpStream::connect(addr).ok()?;
    let head = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{");
    stream.write_all(head.as_bytes()).ok()?;
    Some(stream)
}

#[test]
fn a_body_that_does_not_arrive_in_time_is_cut() {
    let world = world();
    let server = Server::start(&world, &["--no-auth", "--http-timeout-ms", "1000"]);
    let mut stream = slow_body(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let started = Instant::now();
    // A byte every 200 ms: each arrives well within any per-read timeout.
    let mut raw = Vec::new();
    for _ in 0..30 {
        if stream.write_all(b" ").is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
        stream.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 4096];
        if let Ok(n) = stream.read(&mut buf) {
            raw.extend_from_slice(&buf[..n]);
            if n == 0 || !raw.is_empty() {
                break;
            }
        }
        stream.set_nonblocking(false).unwrap();
    }
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(4), "cut after {elapsed:?}");
    let reply = parse_response(&raw);
    assert_eq!(reply.status, 408, "{}", reply.body);
    assert!(
        reply.body.contains("did not arrive within 1 s"),
        "{}",
        reply.body
    );
}

#[test]
fn an_idle_keep_alive_connection_is_closed() {
    let world = world();
    let server = Server::start(&world, &["--no-auth", "--http-timeout-ms", "500"]);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let request = format!(
        "GET /.well-known/oauth-protected-resource HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let started = Instant::now();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    assert!(String::from_utf8_lossy(&raw).starts_with("HTTP/1.1 200"));
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_secs(3),
        "an idle connection was kept {elapsed:?}"
    );
}

#[test]
fn past_the_session_bound_the_idle_longest_is_closed_and_told_why() {
    let world = world();
    let server = Server::start(&world, &["--no-auth", "--max-sessions", "2"]);
    let first = server.session(None);
    let second = server.session(None);
    assert_eq!(server.exec(&second, "return 2")["value"], 2);
    let third = server.session(None);
    let reply = server.post(
        &first,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    );
    assert_eq!(reply.status, 404, "{}", reply.body);
    assert!(
        reply.body.contains("too many sessions") && reply.body.contains("initialize again"),
        "{}",
        reply.body
    );
    assert_eq!(server.exec(&second, "return 2")["value"], 2);
    assert_eq!(server.exec(&third, "return 3")["value"], 3);
}

/// Opens `n` sessions from 127.0.0.2 as fast as it can: how many were refused with 429.
fn flood_initialize(addr: SocketAddr, n: usize) -> usize {
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "flood", "version": "1"}}})
    .to_string();
    let mut refused = 0;
    for _ in 0..n {
        let Some(mut stream) = connect_from([127, 0, 0, 2], addr) else {
            continue;
        };
        let request = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        if stream.write_all(request.as_bytes()).is_err() {
            continue;
        }
        let mut head = [0u8; 12];
        if stream.read_exact(&mut head).is_ok() && &head[9..12] == b"429" {
            refused += 1;
        }
    }
    refused
}

/// A connection from `source`, another client address on the loopback (all of 127/8 is
/// this machine's), so a flood is told apart from the real client.
fn connect_from(source: [u8; 4], addr: SocketAddr) -> Option<TcpStream> {
    use std::os::fd::FromRawFd;
    let SocketAddr::V4(target) = addr else {
        return None;
    };
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return None;
        }
        let mut local: libc::sockaddr_in = std::mem::zeroed();
        local.sin_family = libc::AF_INET as libc::sa_family_t;
        local.sin_addr.s_addr = u32::from_ne_bytes(source);
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        if libc::bind(fd, &local as *const _ as *const libc::sockaddr, len) != 0 {
            libc::close(fd);
            return None;
        }
        let mut remote: libc::sockaddr_in = std::mem::zeroed();
        remote.sin_family = libc::AF_INET as libc::sa_family_t;
        remote.sin_port = target.port().to_be();
        remote.sin_addr.s_addr = u32::from_ne_bytes(target.ip().octets());
        if libc::connect(fd, &remote as *const _ as *const libc::sockaddr, len) != 0 {
            libc::close(fd);
            return None;
        }
        Some(TcpStream::from_raw_fd(fd))
    }
}

fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    kib / 1024.0
}

#[test]
fn a_flood_of_sessions_and_slow_bodies_leaves_a_real_client_served() {
    let world = world();
    let server = Server::start(&world, &["--no-auth"]);
    let addr = server.addr;
    // 100 slow-body connections from another client address, held open.
    let slow: Vec<TcpStream> = (0..100)
        .filter_map(|_| {
            let mut stream = connect_from([127, 0, 0, 3], addr)?;
            let head = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{");
            stream.write_all(head.as_bytes()).ok()?;
            Some(stream)
        })
        .collect();
    assert!(
        slow.len() >= 60,
        "only {} slow connections opened",
        slow.len()
    );
    let flood = std::thread::spawn(move || flood_initialize(addr, 2000));
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let session = server.session(None);
    assert_eq!(server.exec(&session, "return 'served'")["value"], "served");
    let took = started.elapsed();
    let refused = flood.join().unwrap();
    assert!(
        took < Duration::from_secs(2),
        "the real client waited {took:?}"
    );
    assert!(
        refused > 1500,
        "only {refused} of 2000 new sessions from one address were refused"
    );
    let rss = rss_mib(server.child.id());
    assert!(rss < 200.0, "the server holds {rss} MiB");
    drop(slow);
}
