//! The secrets an operator hands codemode (the `${NAME}` values of `.codemode/mcp.json`,
//! the headers of `.codemode/http.json`) never reach a script, an envelope, a warning or a
//! log line, whatever path they come back by: a host that echoes a credential (compressed,
//! bare, in `WWW-Authenticate`, base64 or percent-encoded, in a redirect), a refused
//! server's hint, a dying server's stderr. Every server here is on 127.0.0.1 or a local
//! process.

use super::common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::policy::Capabilities;
use crate::registry::Registry;
use crate::{Envelope, Limits, Output, Runtime};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use common::World;

/// The bare token, with characters percent- and base64-encodings change.
const TOKEN: &str = "tok-9Zq/Xy+w83Lm";
/// The variable `.codemode/http.json` takes it from.
const TOKEN_VAR: &str = "CODEMODE_TEST_SECRETS_TOKEN";
/// A secret a server's argument holds through `${NAME}`.
const ARG_SECRET: &str = "sk-arg-5ecret-7781";
const ARG_VAR: &str = "CODEMODE_TEST_SECRETS_ARG";

/// The forms of `secret` a leak would show: as written, base64, URL-safe base64,
/// percent-encoded and hex.
fn leaked_forms(secret: &str) -> Vec<String> {
    vec![
        secret.to_string(),
        STANDARD.encode(secret),
        URL_SAFE_NO_PAD.encode(secret),
        percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
            .to_string(),
        secret.bytes().map(|b| format!("{b:02x}")).collect(),
    ]
}

fn assert_no_leak(text: &str, secret: &str) {
    for form in leaked_forms(secret) {
        assert!(!text.contains(&form), "'{form}' leaked in: {text}");
    }
}

/// An HTTP/1.1 server on 127.0.0.1 that echoes the `Authorization` it gets, in the ways
/// real hosts do, and records each request's `Accept-Encoding`.
struct Echo {
    port: u16,
    encodings: Arc<Mutex<Vec<String>>>,
}

impl Echo {
    fn start() -> Echo {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let encodings = Arc::new(Mutex::new(Vec::new()));
        let seen = encodings.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                std::thread::spawn(move || answer(stream, seen));
            }
        });
        Echo { port, encodings }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

fn header<'a>(head: &'a str, name: &str) -> &'a str {
    head.lines()
        .find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
        .unwrap_or("")
}

fn answer(mut stream: TcpStream, seen: Arc<Mutex<Vec<String>>>) {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    while !raw.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&raw).to_string();
    let path = head.split(' ').nth(1).unwrap_or("/").to_string();
    let auth = header(&head, "authorization").to_string();
    let accept = header(&head, "accept-encoding").to_string();
    seen.lock().unwrap().push(accept.clone());
    let bare = auth.strip_prefix("Bearer ").unwrap_or(&auth).to_string();
    let pct = |s: &str| {
        percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    let mut headers: Vec<(String, String)> = Vec::new();
    let (status, body): (&str, Vec<u8>) = match path.as_str() {
        // Compressed when asked for, as any host behind a CDN answers.
        "/gzip" => {
            let text = format!("you sent authorization: {auth}");
            if accept.contains("gzip") {
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                gz.write_all(text.as_bytes()).unwrap();
                headers.push(("Content-Encoding".into(), "gzip".into()));
                ("200 OK", gz.finish().unwrap())
            } else {
                ("200 OK", text.into_bytes())
            }
        }
        // A refusal that quotes the bare token, in its body and its challenge.
        "/bare" => {
            headers.push((
                "WWW-Authenticate".into(),
                format!("Bearer realm=\"api\", error=\"invalid_token\", token=\"{bare}\""),
            ));
            (
                "401 Unauthorized",
                format!("token {bare} is not valid").into_bytes(),
            )
        }
        // The whole header line base64-encoded at an odd offset, the token URL-safe
        // base64, percent-encoded and as JSON.
        "/encoded" => {
            headers.push(("X-Echo".into(), format!("t={}", pct(&bare))));
            let body = format!(
                "{{\"line\": \"{}\", \"token\": \"{}\", \"query\": \"?t={}\", \"json\": {}}}",
                STANDARD.encode(format!("x-Authorization: {auth}\r\n")),
                URL_SAFE_NO_PAD.encode(&bare),
                pct(&bare),
                serde_json::to_string(&bare).unwrap()
            );
            ("200 OK", body.into_bytes())
        }
        // A redirect to a host the grant does not name, carrying the token.
        "/away" => {
            headers.push((
                "Location".into(),
                format!("http://127.0.0.1:1/collect?t={}", pct(&bare)),
            ));
            ("302 Found", Vec::new())
        }
        _ => ("404 Not Found", Vec::new()),
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

/// A world whose `.codemode/http.json` gives `echo` the bearer token, and a runtime
/// granted `echo`.
fn runtime_for(echo: &Echo) -> (World, Runtime) {
    std::env::set_var(TOKEN_VAR, TOKEN);
    let world = World::new();
    world.file(
        ".codemode/http.json",
        &format!(
            r#"{{"credentials": {{"127.0.0.1:{}": {{"headers": {{"Authorization": "Bearer ${{{TOKEN_VAR}}}"}}}}}}}}"#,
            echo.port
        ),
    );
    let registry = Registry::open(world.path(), &[], false)
        .unwrap()
        .with_capabilities(Capabilities {
            http: vec![format!("127.0.0.1:{}", echo.port)],
            ..Capabilities::default()
        });
    let limits = Limits {
        timeout: Duration::from_secs(8),
        ..Limits::default()
    };
    (world, Runtime::new(Arc::new(registry), limits).unwrap())
}

fn run(rt: &mut Runtime, script: &str) -> Envelope {
    rt.exec(script, Output::Capture)
}

#[test]
fn a_compressed_echo_is_decoded_then_masked_and_the_script_cannot_ask_for_compression() {
    let echo = Echo::start();
    let (_world, mut rt) = runtime_for(&echo);
    // The script may not choose the encoding: it would read the echo before decoding.
    let got = run(
        &mut rt,
        &format!(
            "return http.request({{ url = '{}', headers = {{ ['Accept-Encoding'] = 'gzip' }} }})",
            echo.url("/gzip")
        ),
    );
    let json = got.to_json();
    let error = got.error.as_ref().unwrap_or_else(|| panic!("{json}"));
    assert!(
        error.message.contains("Accept-Encoding") && error.message.contains("leave it out"),
        "{json}"
    );
    // codemode asks for gzip itself, decodes it, and masks the decoded text; what the
    // script gets is masked before it can transform it.
    let got = run(
        &mut rt,
        &format!(
            "local r = http.request({{ url = '{}' }})\n\
             return {{ body = r.body, reversed = string.reverse(r.body), encoding = r.headers['content-encoding'] }}",
            echo.url("/gzip")
        ),
    );
    let json = got.to_json();
    let value = got.value.clone().unwrap_or_else(|| panic!("{json}"));
    assert_eq!(value["body"], "you sent authorization: ***", "{json}");
    assert!(value["encoding"].is_null(), "{json}");
    let reversed: String = TOKEN.chars().rev().collect();
    assert!(
        !value["reversed"].as_str().unwrap().contains(&reversed),
        "{json}"
    );
    assert_no_leak(&json, TOKEN);
    let asked = echo.encodings.lock().unwrap().join(" | ");
    assert!(asked.contains("gzip") && asked.contains("br"), "{asked}");
}

#[test]
fn a_refusal_quoting_the_bare_token_is_masked_in_body_and_challenge() {
    let echo = Echo::start();
    let (_world, mut rt) = runtime_for(&echo);
    let got = run(
        &mut rt,
        &format!(
            "local r = http.request({{ url = '{}' }})\n\
             return {{ status = r.status, body = r.body, challenge = r.headers['www-authenticate'] }}",
            echo.url("/bare")
        ),
    );
    let json = got.to_json();
    let value = got.value.clone().unwrap_or_else(|| panic!("{json}"));
    assert_eq!(value["status"], 401, "{json}");
    assert_eq!(value["body"], "token *** is not valid", "{json}");
    assert_eq!(
        value["challenge"], "Bearer realm=\"api\", error=\"invalid_token\", token=\"***\"",
        "{json}"
    );
    assert_no_leak(&json, TOKEN);
}

#[test]
fn base64_percent_and_json_echoes_are_masked() {
    let echo = Echo::start();
    let (_world, mut rt) = runtime_for(&echo);
    let got = run(
        &mut rt,
        &format!(
            "local r = http.request({{ url = '{}' }})\n\
             return {{ body = r.body, echo = r.headers['x-echo'] }}",
            echo.url("/encoded")
        ),
    );
    let json = got.to_json();
    let value = got.value.clone().unwrap_or_else(|| panic!("{json}"));
    let body = value["body"].as_str().unwrap();
    assert_eq!(value["echo"], "t=***", "{json}");
    assert!(
        body.contains("\"token\": \"***\"")
            && body.contains("\"query\": \"?t=***\"")
            && body.contains("\"json\": \"***\""),
        "{body}"
    );
    // The whole line was encoded: the part that encodes the token is masked, whatever
    // its alignment.
    let line = STANDARD.encode(format!("x-Authorization: Bearer {TOKEN}\r\n"));
    assert!(!body.contains(&line[8..line.len() - 8]), "{body}");
    assert!(body.contains("***"), "{body}");
    assert_no_leak(body, TOKEN);
    assert_no_leak(&json, TOKEN);
}

#[test]
fn a_redirect_carrying_the_token_fails_without_quoting_it() {
    let echo = Echo::start();
    let (_world, mut rt) = runtime_for(&echo);
    // The message is read inside the script (pcall) as well as in the envelope.
    let got = run(
        &mut rt,
        &format!(
            "local ok, err = pcall(http.request, {{ url = '{}' }})\n\
             assert(not ok)\n\
             return tostring(err)",
            echo.url("/away")
        ),
    );
    let json = got.to_json();
    let message = got.value.clone().unwrap_or_else(|| panic!("{json}"));
    let message = message.as_str().unwrap();
    assert!(message.contains("127.0.0.1:1/collect?t=***"), "{message}");
    assert_no_leak(&json, TOKEN);
}

/// A world whose server `leaky` is refused (its argument names the world's folder) and
/// quotes a `${NAME}` secret in that argument, and whose server `dying` prints its
/// arguments, the secret among them, to stderr and exits before the handshake.
fn world_with_servers(scripts: &Path) -> World {
    let dying = scripts.join("dying.py");
    std::fs::write(
        &dying,
        "import sys\nsys.stderr.write('starting with ' + ' '.join(sys.argv[1:]) + '\\n')\nsys.stderr.flush()\nsys.exit(3)\n",
    )
    .unwrap();
    let world = World::new();
    world.file(
        ".codemode/mcp.json",
        &serde_json::json!({ "mcpServers": {
            "leaky": { "command": "node", "args": ["/srv/server.js", format!("--key=${{{ARG_VAR}}} .")] },
            "dying": { "command": "python3", "args": [dying.display().to_string(), format!("--key=${{{ARG_VAR}}}")] },
        }})
        .to_string(),
    );
    world
}

/// The refused argument as mcp.json writes it.
fn written_argument() -> String {
    format!("--key=${{{ARG_VAR}}} .")
}

fn codemode_with_secret(world: &World, args: &[&str], stdin: &str) -> (String, String) {
    let out = common::output(
        common::command()
            .env(ARG_VAR, ARG_SECRET)
            .arg("--world")
            .arg(world.path())
            .args(args),
        stdin,
    );
    (common::text(&out.stdout), common::text(&out.stderr))
}

#[test]
fn a_refused_servers_hint_masks_the_secret_in_its_argument() {
    let scripts = tempfile::tempdir().unwrap();
    let world = world_with_servers(scripts.path());
    let (stdout, stderr) = codemode_with_secret(&world, &["exec"], "return tools.leaky.anything()");
    let both = format!("{stdout}\n{stderr}");
    assert!(stdout.contains("\"ok\":false"), "{both}");
    // The argument is quoted as mcp.json writes it, never with the value put in; paths
    // are the world's own, not where it lies on the machine.
    assert!(stdout.contains(&written_argument()), "{both}");
    assert!(
        stdout.contains(".codemode/mcp.json: server 'leaky'"),
        "{stdout}"
    );
    let world_path = world.path().display().to_string();
    assert!(!stdout.contains(&world_path), "{stdout}");
    assert_no_leak(&both, ARG_SECRET);
}

#[test]
fn what_codemode_run_prints_as_it_goes_is_masked() {
    let scripts = tempfile::tempdir().unwrap();
    let world = world_with_servers(scripts.path());
    let script = format!("print('key: {ARG_SECRET}')\nreturn 'done {ARG_SECRET}'");
    let (stdout, stderr) = codemode_with_secret(&world, &["run", "-"], &script);
    let both = format!("{stdout}\n{stderr}");
    assert!(stdout.contains("key: ***"), "{both}");
    assert_no_leak(&both, ARG_SECRET);
}

#[test]
fn list_types_and_check_warnings_mask_the_secret() {
    let scripts = tempfile::tempdir().unwrap();
    let world = world_with_servers(scripts.path());
    for args in [&["list"][..], &["types"], &["check"], &["-v", "list"]] {
        let (stdout, stderr) = codemode_with_secret(&world, args, "");
        let both = format!("{stdout}\n{stderr}");
        assert!(
            both.contains("server 'leaky'") && both.contains(&written_argument()),
            "codemode {args:?} did not warn of the refused server: {both}"
        );
        assert_no_leak(&both, ARG_SECRET);
    }
}

#[test]
fn a_dying_servers_stderr_tail_and_its_debug_log_mask_the_secret() {
    let scripts = tempfile::tempdir().unwrap();
    let world = world_with_servers(scripts.path());
    let (stdout, stderr) = codemode_with_secret(&world, &["-vv", "mcp", "sync", "dying"], "");
    let both = format!("{stdout}\n{stderr}");
    // The failure quotes the tail, and the debug log each of its lines.
    assert!(
        both.matches("starting with --key=***").count() >= 2,
        "{both}"
    );
    assert_no_leak(&both, ARG_SECRET);
}
