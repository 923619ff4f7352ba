//! Tests of `engine/interop/date.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn today_is_a_date() {
    let day = today();
    assert!(is_iso_date(&day), "{day}");
    assert_eq!(day.len(), 10);
}

#[test]
fn recognises_iso_dates() {
    assert!(is_iso_date("2026-05-09") && is_iso_date("2026-05-09T10:00:00Z"));
    assert!(is_iso_date("2000-02-29"));
    assert!(!is_iso_date("09/05/2026") && !is_iso_date("2026-13-01") && !is_iso_date(""));
    assert!(!is_iso_date("2026-02-30") && !is_iso_date("2026-05-9"));
}
