//! The runtime pool: runs side by side, isolation between runs, and refusals.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use codemode::{CheckMode, ErrorKind, Limits, Options, Pool, PoolError, World};

fn pool_over(world: &Path, workers: usize, max_pending: usize, timeout_ms: u64) -> Arc<Pool> {
    let limits = Limits {
        timeout: Duration::from_millis(timeout_ms),
        memory_bytes: 64 * 1024 * 1024,
        ..Limits::default()
    };
    let options = Options {
        limits,
        check: CheckMode::Off,
        ..Options::default()
    };
    let world = World::open_with(world, &options).unwrap();
    Arc::new(world.pool(workers, max_pending).unwrap())
}

fn pool(workers: usize, max_pending: usize, timeout_ms: u64) -> Arc<Pool> {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/mcp");
    pool_over(&world, workers, max_pending, timeout_ms)
}

/// The server's kind of async runtime: scripts run on its threads via `block_in_place`.
fn tokio() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Waits until `pool` has `n` scripts waiting or running.
async fn until_pending(pool: &Pool, n: usize) {
    while pool.pending() != n {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[test]
fn a_stuck_script_does_not_hold_up_the_queue() {
    let pool = pool(2, 64, 3000);
    tokio().block_on(async {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (p, stuck) = (pool.clone(), tx.clone());
        tokio::spawn(async move {
            let envelope = p.run("while true do end").await.unwrap();
            stuck.send(("stuck", envelope)).unwrap();
        });
        until_pending(&pool, 1).await;
        for _ in 0..20 {
            let (p, tx) = (pool.clone(), tx.clone());
            tokio::spawn(async move {
                tx.send(("quick", p.run("return 1").await.unwrap()))
                    .unwrap();
            });
        }
        // All 20 quick scripts finish on the other VM before the stuck one times out.
        for _ in 0..20 {
            let (which, envelope) = rx.recv().await.unwrap();
            assert_eq!(which, "quick");
            assert!(envelope.ok);
        }
        let (which, envelope) = rx.recv().await.unwrap();
        assert_eq!(which, "stuck");
        assert_eq!(envelope.error.unwrap().kind, ErrorKind::Timeout);
    });
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
    // One VM and room for two waiting: of ten stuck scripts, three are taken.
    let pool = pool(1, 2, 300);
    let results = tokio().block_on(async {
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                let pool = pool.clone();
                tokio::spawn(async move { pool.run("while true do end").await })
            })
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap());
        }
        results
    });
    let taken = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(taken, 3);
    for refused in results.iter().filter_map(|r| r.as_ref().err()) {
        // The count is read as the refusal is made: a script being handed to the worker
        // may still be counted as waiting on a loaded machine.
        assert!(
            matches!(refused, PoolError::Busy(n) if (2..=3).contains(n)),
            "{refused:?}"
        );
        let message = refused.to_string();
        assert!(
            message.contains("busy") && message.contains("more workers"),
            "{message}"
        );
    }
    assert_eq!(pool.pending(), 0);
}

#[test]
fn a_caller_that_stops_waiting_leaves_its_script_unrun() {
    let world = tempfile::tempdir().unwrap();
    let pool = pool_over(world.path(), 1, 8, 500);
    tokio().block_on(async {
        let p = pool.clone();
        let stuck = tokio::spawn(async move { p.run("while true do end").await });
        until_pending(&pool, 1).await;
        // Waits behind the stuck script, then its caller gives up (a cancelled request).
        let gave_up = tokio::time::timeout(
            Duration::from_millis(50),
            pool.run(r#"vfs.write("ran.txt", "yes")"#),
        )
        .await;
        assert!(
            gave_up.is_err(),
            "the script should still have been waiting"
        );
        assert_eq!(pool.pending(), 1);
        let stuck = stuck.await.unwrap().unwrap();
        assert_eq!(stuck.error.unwrap().kind, ErrorKind::Timeout);
        let next = pool.run("return 2").await.unwrap();
        assert_eq!(next.value, Some(serde_json::json!(2)));
    });
    assert!(!world.path().join("ran.txt").exists());
}

#[test]
fn the_pool_works_from_a_current_thread_runtime_too() {
    let pool = pool(1, 8, 60_000);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let envelope = pool.run("return 40 + 2").await.unwrap();
        assert_eq!(envelope.value, Some(serde_json::json!(42)));
        // There the script runs on a blocking thread, so its caller can give up mid-run:
        // the run is stopped and its VM comes back (the deadline is a minute away).
        let gave_up =
            tokio::time::timeout(Duration::from_millis(200), pool.run("while true do end")).await;
        assert!(gave_up.is_err());
        let started = std::time::Instant::now();
        let next = pool.run("return 3").await.unwrap();
        assert_eq!(next.value, Some(serde_json::json!(3)));
        assert!(started.elapsed() < Duration::from_secs(10));
    });
}

#[test]
fn a_run_whose_caller_says_stop_ends_early_and_the_next_run_is_unaffected() {
    let pool = pool(1, 8, 60_000);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let check: codemode::StopCheck = Arc::new(move || flag.load(Ordering::Relaxed));
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
    });
    let started = std::time::Instant::now();
    // Inside pcall, so the stop must not be swallowed by the script.
    let script = "while true do pcall(function() while true do end end) end";
    let envelope = futures_executor::block_on(pool.run_stoppable(script, Some(check))).unwrap();
    setter.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    let error = envelope.error.unwrap();
    assert_eq!(error.kind, ErrorKind::Limit);
    assert!(
        error.message.contains("stopped by its caller"),
        "{}",
        error.message
    );
    assert_eq!(pool.exec("return 7").value, Some(serde_json::json!(7)));
}
