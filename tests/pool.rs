//! The runtime pool: runs side by side, isolation between runs, and refusals.

use std::path::Path;
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

use codemode::{ErrorKind, Limits, Pool, Registry};

fn pool(workers: usize, max_pending: usize, timeout_ms: u64) -> Pool {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/mcp");
    let registry = Arc::new(Registry::open(&world, &[], true).unwrap());
    let limits = Limits {
        timeout: Duration::from_millis(timeout_ms),
        memory_bytes: 64 * 1024 * 1024,
        ..Limits::default()
    };
    Pool::new(registry, limits, workers, max_pending).unwrap()
}

#[test]
fn a_stuck_script_does_not_hold_up_the_queue() {
    let pool = pool(2, 64, 3000);
    let (tx, rx) = channel();
    let stuck = tx.clone();
    pool.submit(
        "while true do end".into(),
        move |e| stuck.send(("stuck", e)).unwrap(),
        || true,
    )
    .unwrap();
    for _ in 0..20 {
        let tx = tx.clone();
        pool.submit(
            "return 1".into(),
            move |e| tx.send(("quick", e)).unwrap(),
            || true,
        )
        .unwrap();
    }
    // All 20 quick scripts finish on the other worker before the stuck one times out.
    for _ in 0..20 {
        let (which, envelope) = rx.recv().unwrap();
        assert_eq!(which, "quick");
        assert!(envelope.ok);
    }
    let (which, envelope) = rx.recv().unwrap();
    assert_eq!(which, "stuck");
    assert_eq!(envelope.error.unwrap().kind, ErrorKind::Timeout);
}

#[test]
fn globals_and_memory_breaches_stay_inside_their_run() {
    let pool = pool(2, 64, 5000);
    for _ in 0..4 {
        assert!(pool.exec("leak = 1 return leak").ok);
    }
    for _ in 0..4 {
        assert_eq!(
            pool.exec("return leak == nil").value,
            Some(serde_json::json!(true))
        );
    }
    let bomb = pool.exec("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end");
    assert_eq!(bomb.error.unwrap().kind, ErrorKind::Memory);
    for _ in 0..4 {
        assert!(pool.exec("return tools.text.words('a b')").ok);
    }
}

#[test]
fn a_full_queue_refuses_with_a_busy_error() {
    let pool = pool(1, 2, 1000);
    let mut refused = None;
    for _ in 0..10 {
        if let Err(e) = pool.submit("while true do end".into(), |_| {}, || true) {
            refused = Some(e.to_string());
            break;
        }
    }
    let message = refused.expect("the queue has a cap");
    assert!(
        message.contains("busy") && message.contains("--workers"),
        "{message}"
    );
}

#[test]
fn a_job_nobody_waits_for_is_skipped() {
    let pool = pool(1, 8, 1000);
    let (tx, rx) = channel();
    pool.submit("return 1".into(), move |_| tx.send(()).unwrap(), || false)
        .unwrap();
    assert!(rx.recv_timeout(Duration::from_millis(500)).is_err());
    assert!(pool.exec("return 2").ok);
}
