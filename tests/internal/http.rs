//! The `http` capability end to end, against servers this test starts on 127.0.0.1 (no
//! request leaves the machine, even if the guard were broken: every URL here is a
//! loopback one). What the grant does not name is refused before any connection, which
//! the servers' connection counts show.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::World;
use crate::policy::Capabilities;
use crate::registry::Registry;
use crate::{Envelope, ErrorKind, Limits, Output, Runtime};

/// A tiny HTTP/1.1 server on 127.0.0.1 that answers a few fixed paths and records the
/// head of every request it reads.
struct Server {
    port: u16,
    connections: Arc<AtomicUsize>,
    heads: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = Arc::new(AtomicUsize::new(0));
        let heads = Arc::new(Mutex::new(Vec::new()));
        let (count, seen) = (connections.clone(), heads.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                count.fetch_add(1, Ordering::SeqCst);
                let seen = seen.clone();
                std::thread::spawn(move || answer(stream, seen));
            }
        });
        Server {
            port,
            connections,
            heads,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hits(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

fn answer(mut stream: TcpStream, seen: Arc<Mutex<Vec<String>>>) {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        let Ok(n) = stream.read(&mut buf) else { return };
        if n == 0 {
            return;
        }
        raw.extend_from_slice(&buf[..n]);
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).to_string();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap_or(0))
        })
        .unwrap_or(0);
    while raw.len() < head_end + length {
        let Ok(n) = stream.read(&mut buf) else { return };
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let body = String::from_utf8_lossy(&raw[head_end..]).to_string();
    seen.lock().unwrap().push(head.clone());
    let mut first = head.lines().next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let target = first.next().unwrap_or("/").to_string();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let authorization = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("authorization")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_default();
    let (status, headers, body): (&str, Vec<(String, String)>, Vec<u8>) = match path {
        "/ok" => (
            "200 OK",
            vec![("X-Test".into(), "yes".into())],
            b"hello".to_vec(),
        ),
        "/echo" => (
            "201 Created",
            vec![],
            format!("{method} {body}").into_bytes(),
        ),
        "/missing" => ("404 Not Found", vec![], b"nothing here".to_vec()),
        // Echoes the credential it got, in a header and in the body: the script must
        // still never see it.
        "/auth" if authorization == "Bearer s3cret-token" => (
            "200 OK",
            vec![("X-Seen".into(), authorization.clone())],
            format!("authorized as {authorization}").into_bytes(),
        ),
        "/auth" => (
            "401 Unauthorized",
            vec![],
            format!("got '{authorization}'").into_bytes(),
        ),
        "/redirect" => (
            "302 Found",
            vec![(
                "Location".into(),
                query.strip_prefix("to=").unwrap_or("/ok").to_string(),
            )],
            Vec::new(),
        ),
        "/big" => ("200 OK", vec![], vec![b'x'; 64 * 1024]),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(5));
            ("200 OK", vec![], b"late".to_vec())
        }
        _ => ("404 Not Found", vec![], Vec::new()),
    };
    let mut reply = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        reply.push_str(&format!("{name}: {value}\r\n"));
    }
    reply.push_str("\r\n");
    let _ = stream.write_all(reply.as_bytes());
    let _ = stream.write_all(&body);
}

fn limits() -> Limits {
    Limits {
        max_file_bytes: 16 * 1024,
        timeout: Duration::from_secs(8),
        ..Limits::default()
    }
}

fn runtime_granting(world: &World, hosts: &[String], limits: Limits) -> Runtime {
    let registry = Registry::open(world.path(), &[], false)
        .unwrap()
        .with_capabilities(Capabilities {
            http: hosts.to_vec(),
            ..Capabilities::default()
        });
    Runtime::new(Arc::new(registry), limits).unwrap()
}

fn run(rt: &mut Runtime, script: &str) -> Envelope {
    rt.exec(script, Output::Capture)
}

fn error_of(envelope: &Envelope) -> (ErrorKind, String) {
    let error = envelope
        .error
        .as_ref()
        .unwrap_or_else(|| panic!("expected an error: {}", envelope.to_json()));
    (error.kind, error.message.clone())
}

#[test]
fn an_allowed_request_returns_status_headers_and_body() {
    let server = Server::start();
    let world = World::new();
    let mut rt = runtime_granting(&world, &[format!("127.0.0.1:{}", server.port)], limits());
    let got = run(
        &mut rt,
        &format!(
            "local r = http.request({{ url = '{}' }})\n\
             local p = http.request({{ url = '{}', method = 'post', body = 'payload', headers = {{ ['X-Mine'] = 'a' }} }})\n\
             local m = http.request({{ url = '{}' }})\n\
             return {{ r.status, r.headers['x-test'], r.body, p.status, p.body, m.status, m.body }}",
            server.url("/ok"),
            server.url("/echo"),
            server.url("/missing")
        ),
    );
    assert_eq!(
        got.value,
        Some(serde_json::json!([
            200,
            "yes",
            "hello",
            201,
            "POST payload",
            404,
            "nothing here"
        ])),
        "{}",
        got.to_json()
    );
    let heads = server.heads.lock().unwrap().join("\n").to_ascii_lowercase();
    assert!(heads.contains("x-mine: a"), "{heads}");
    // A redirect to an allowed place is followed.
    let got = run(
        &mut rt,
        &format!(
            "return http.request({{ url = '{}' }}).body",
            server.url("/redirect?to=/ok")
        ),
    );
    assert_eq!(
        got.value,
        Some(serde_json::json!("hello")),
        "{}",
        got.to_json()
    );
    // A name granted exactly reaches the loopback address it resolves to.
    let mut rt = runtime_granting(&world, &[format!("localhost:{}", server.port)], limits());
    let got = run(
        &mut rt,
        &format!(
            "return http.request({{ url = 'http://localhost:{}/ok' }}).body",
            server.port
        ),
    );
    assert_eq!(
        got.value,
        Some(serde_json::json!("hello")),
        "{}",
        got.to_json()
    );
}

#[test]
fn a_port_or_name_the_grant_does_not_name_is_refused_before_connecting() {
    let allowed = Server::start();
    let other = Server::start();
    let world = World::new();
    let mut rt = runtime_granting(&world, &[format!("127.0.0.1:{}", allowed.port)], limits());
    for (url, says) in [
        (
            other.url("/ok"),
            format!("the host 127.0.0.1:{} is not allowed", other.port),
        ),
        (
            format!("http://localhost:{}/ok", allowed.port),
            format!("the host localhost:{} is not allowed", allowed.port),
        ),
        (
            // The same address, written as a number: still only the named port.
            format!("http://2130706433:{}/ok", other.port),
            format!("127.0.0.1:{} is not allowed", other.port),
        ),
        // A redirect from the allowed port to the other one is checked like a request.
        (
            allowed.url(&format!("/redirect?to={}", other.url("/ok"))),
            format!("the host 127.0.0.1:{} is not allowed", other.port),
        ),
    ] {
        let got = run(
            &mut rt,
            &format!("return http.request({{ url = '{url}' }})"),
        );
        let (kind, message) = error_of(&got);
        // The profile's word, as for a denied tool: the envelope's kind is `denied`.
        assert_eq!(kind, ErrorKind::Denied);
        assert!(message.contains(&says), "{url}: {message}");
        assert!(
            message.contains("capabilities.http of the profile in .codemode/policy.json"),
            "the refusal names the fix: {message}"
        );
    }
    assert_eq!(other.hits(), 0, "a refused port was connected to");
    // The redirect itself came from the allowed server, which was reached once.
    assert_eq!(allowed.hits(), 1);
}

#[test]
fn credentials_are_attached_for_their_host_only_and_never_seen_by_the_script() {
    let server = Server::start();
    let other = Server::start();
    let world = World::new();
    std::env::set_var("CODEMODE_TEST_HTTP_TOKEN", "s3cret-token");
    world.file(
        ".codemode/http.json",
        &format!(
            r#"{{"credentials": {{"127.0.0.1:{}": {{"headers": {{"Authorization": "Bearer ${{CODEMODE_TEST_HTTP_TOKEN}}"}}}}}}}}"#,
            server.port
        ),
    );
    let grant = [
        format!("127.0.0.1:{}", server.port),
        format!("127.0.0.1:{}", other.port),
    ];
    let mut rt = runtime_granting(&world, &grant, limits());
    let got = run(
        &mut rt,
        &format!(
            "local r = http.request({{ url = '{}' }})\n\
             local moved = http.request({{ url = '{}' }})\n\
             local ok, err = pcall(vfs.read, '.codemode/http.json')\n\
             return {{ status = r.status, body = r.body, seen = r.headers['x-seen'], moved = moved.status, movedBody = moved.body, read = ok, err = err }}",
            server.url("/auth"),
            server.url(&format!("/redirect?to={}", other.url("/auth")))
        ),
    );
    let json = got.to_json();
    assert!(got.ok, "{json}");
    let value = got.value.clone().unwrap();
    assert_eq!(value["status"], 200, "{json}");
    assert_eq!(value["body"], "authorized as ***", "{json}");
    assert_eq!(value["seen"], "***", "{json}");
    // Redirected to another host, the request went without the credential.
    assert_eq!(value["moved"], 401, "{json}");
    assert_eq!(value["movedBody"], "got ''", "{json}");
    assert_eq!(value["read"], false, "{json}");
    assert!(
        !json.contains("s3cret"),
        "the script saw the credential: {json}"
    );
    let heads = other.heads.lock().unwrap().join("\n").to_ascii_lowercase();
    assert!(!heads.contains("authorization"), "{heads}");
    // An unset variable names itself and the file, never a value.
    world.file(
        ".codemode/http.json",
        &format!(
            r#"{{"credentials": {{"127.0.0.1:{}": {{"headers": {{"X-Key": "${{CODEMODE_TEST_UNSET_VARIABLE}}"}}}}}}}}"#,
            server.port
        ),
    );
    let got = run(
        &mut rt,
        &format!("return http.request({{ url = '{}' }})", server.url("/ok")),
    );
    let (_, message) = error_of(&got);
    assert!(
        message.contains(".codemode/http.json") && message.contains("CODEMODE_TEST_UNSET_VARIABLE"),
        "{message}"
    );
}

#[test]
fn a_body_over_the_cap_fails_and_says_the_cap() {
    let server = Server::start();
    let world = World::new();
    let mut rt = runtime_granting(&world, &[format!("127.0.0.1:{}", server.port)], limits());
    let got = run(
        &mut rt,
        &format!("return http.request({{ url = '{}' }})", server.url("/big")),
    );
    let (kind, message) = error_of(&got);
    assert_eq!(kind, ErrorKind::Runtime);
    assert!(
        message.contains("larger than the cap of 16384 bytes"),
        "{message}"
    );
}

#[test]
fn time_is_capped_by_timeout_ms_by_the_deadline_and_by_a_stop() {
    let server = Server::start();
    let world = World::new();
    let grant = [format!("127.0.0.1:{}", server.port)];
    let mut rt = runtime_granting(&world, &grant, limits());
    let started = Instant::now();
    let got = run(
        &mut rt,
        &format!(
            "return http.request({{ url = '{}', timeoutMs = 200 }})",
            server.url("/slow")
        ),
    );
    let (kind, message) = error_of(&got);
    assert_eq!(kind, ErrorKind::Runtime);
    assert!(
        message.contains("longer than its timeoutMs of 200 ms"),
        "{message}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );

    // Without timeoutMs, the run's deadline ends the request, and the run.
    let short = Limits {
        timeout: Duration::from_millis(400),
        ..limits()
    };
    let mut rt = runtime_granting(&world, &grant, short);
    let started = Instant::now();
    let got = run(
        &mut rt,
        &format!("return http.request({{ url = '{}' }})", server.url("/slow")),
    );
    assert_eq!(error_of(&got).0, ErrorKind::Timeout, "{}", got.to_json());
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );

    // A run its caller stops cancels the request at once.
    let mut rt = runtime_granting(&world, &grant, limits());
    let asked = Instant::now();
    let stop: crate::StopCheck = Arc::new(move || asked.elapsed() > Duration::from_millis(300));
    let got = rt.run(
        crate::RunRequest::new(&format!(
            "return http.request({{ url = '{}' }})",
            server.url("/slow")
        ))
        .stop(stop),
    );
    let error = got.error.as_ref().expect("stopped");
    assert_eq!(
        error.limit,
        Some(crate::StopCause::Cancelled),
        "{}",
        got.to_json()
    );
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}

#[test]
fn http_is_absent_and_undeclared_unless_granted() {
    let world = World::new();
    let mut rt = runtime_granting(&world, &[], limits());
    let got = run(&mut rt, "return { http == nil, shell == nil, vfs ~= nil }");
    assert_eq!(
        got.value,
        Some(serde_json::json!([true, true, true])),
        "{}",
        got.to_json()
    );
    let registry = Registry::open(world.path(), &[], false).unwrap();
    let index = registry.snapshot();
    let plain = crate::host::definitions_granted(&index, &[], &Capabilities::default());
    assert!(!plain.contains("declare http") && !plain.contains("declare shell"));
    let granted = Capabilities {
        http: vec!["example.com".into()],
        ..Capabilities::default()
    };
    let with_http = crate::host::definitions_granted(&index, &[], &granted);
    assert!(with_http.contains("declare http:") && with_http.contains("export type HttpResponse"));
    assert!(!with_http.contains("declare shell"));
}
