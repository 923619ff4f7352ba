//! Tests of `engine/upstream/pending.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn wakes_on_the_result_and_times_out_with_names() {
    let (a, slot_a, _) = PendingCall::new("s.a".into());
    let (b, _slot_b, cancel_b) = PendingCall::new("s.b".into());
    let finisher = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        slot_a.finish(Ok(Value::from(1)));
    });
    let mut calls = [a, b];
    let started = Instant::now();
    let i = wait_any(&mut calls, started + Duration::from_secs(5), &|| false).unwrap();
    assert_eq!(i, Some(0));
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(calls[0].try_take().unwrap().unwrap(), Value::from(1));
    let err = wait_any(
        &mut calls,
        Instant::now() + Duration::from_millis(20),
        &|| false,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        UpstreamError::Timeout {
            call: "s.b (queued behind the other calls MCP server 's' was running)".into()
        }
        .to_string()
    );
    assert!(cancel_b.is_cancelled());
    // The timed-out call holds its error; then nothing is left.
    assert!(calls[1].try_take().unwrap().is_err());
    assert_eq!(
        wait_any(&mut calls, Instant::now(), &|| false).unwrap(),
        None
    );
    finisher.join().unwrap();
}

#[test]
fn stop_and_drop_cancel() {
    let (a, slot, cancel) = PendingCall::new("s.a".into());
    let err = a
        .wait(Instant::now() + Duration::from_secs(5), &|| true)
        .unwrap_err();
    assert!(matches!(err, UpstreamError::Stopped { .. }));
    assert!(cancel.is_cancelled());
    assert_eq!(slot.reason(), "the script was stopped");
    let (b, _slot, cancel) = PendingCall::new("s.b".into());
    drop(b);
    assert!(cancel.is_cancelled());
}
