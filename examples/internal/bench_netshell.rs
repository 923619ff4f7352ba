//! What the `http` and `shell` capabilities cost over doing the same from Rust directly,
//! measured in the same run, interleaved:
//!
//! - `http.request` of a 5-byte answer from a server on 127.0.0.1 (inside one script, so
//!   the run's own start is not counted) against a reqwest client doing the same GET with
//!   a new connection each time (the test server closes every connection);
//! - `shell.run({ cmd = "true" })` against `std::process::Command` starting `/bin/true`.
//!
//! Run: `cargo run --release --features bench --example bench_netshell`. Medians over rounds of per-call
//! wall-clock time; compare the ratios, not absolute times (the machine may be busy).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::policy::Capabilities;
use crate::registry::Registry;
use crate::{Limits, Output, Runtime};

const CALLS: usize = 200;
const ROUNDS: usize = 7;

/// A server that answers every request with `hello` and closes the connection.
fn server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
                );
            });
        }
    });
    port
}

/// A reqwest client as a Rust program would build it for plain HTTP.
fn direct_client() -> reqwest::Client {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
    reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(0)
        .tls_backend_preconfigured(tls)
        .build()
        .unwrap()
}

fn per_call(started: Instant) -> Duration {
    started.elapsed() / CALLS as u32
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

pub fn main() {
    let port = server();
    let url = format!("http://127.0.0.1:{port}/");
    let world = tempfile::tempdir().unwrap();
    let registry = Registry::open(world.path(), &[], false)
        .unwrap()
        .with_capabilities(Capabilities {
            http: vec![format!("127.0.0.1:{port}")],
            shell: vec!["true".into()],
            ..Capabilities::default()
        });
    let limits = Limits {
        timeout: Duration::from_secs(120),
        ..Limits::default()
    };
    let mut rt = Runtime::new(Arc::new(registry), limits).unwrap();
    let http_script = format!(
        "for i = 1, {CALLS} do local r = http.request({{ url = '{url}' }}) assert(r.body == 'hello') end return true"
    );
    let shell_script = format!(
        "for i = 1, {CALLS} do local r = shell.run({{ cmd = 'true' }}) assert(r.code == 0) end return true"
    );
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = direct_client();
    let true_path = crate::shell::resolve("true", &["true".to_string()]).unwrap();

    let (mut http, mut direct, mut shell, mut spawn) = (vec![], vec![], vec![], vec![]);
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let got = rt.exec(&http_script, Output::Capture);
        assert!(got.ok, "{}", got.to_json());
        http.push(per_call(started));

        let started = Instant::now();
        tokio.block_on(async {
            for _ in 0..CALLS {
                let body = client
                    .get(&url)
                    .send()
                    .await
                    .unwrap()
                    .bytes()
                    .await
                    .unwrap();
                assert_eq!(&body[..], b"hello");
            }
        });
        direct.push(per_call(started));

        let started = Instant::now();
        let got = rt.exec(&shell_script, Output::Capture);
        assert!(got.ok, "{}", got.to_json());
        shell.push(per_call(started));

        let started = Instant::now();
        for _ in 0..CALLS {
            let out = std::process::Command::new(&true_path).output().unwrap();
            assert!(out.status.success());
        }
        spawn.push(per_call(started));
    }
    let (http, direct, shell, spawn) = (median(http), median(direct), median(shell), median(spawn));
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("per call, median of {ROUNDS} rounds of {CALLS} calls (wall clock)");
    println!(
        "http.request, local 5-byte GET   {:>9.1} us   direct reqwest {:>9.1} us   ratio {:.2}x",
        us(http),
        us(direct),
        us(http) / us(direct)
    );
    println!(
        "shell.run 'true'                 {:>9.1} us   std::process   {:>9.1} us   ratio {:.2}x",
        us(shell),
        us(spawn),
        us(shell) / us(spawn)
    );
}
