//! Tests of `engine/results/store.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn put(store: &mut Store, key: &str, terms: &[&str], now_ms: i64, ttl_ms: u64) -> bool {
    let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
    store
        .put(&NewEntry {
            key,
            scope: "s",
            identity: "box.tool",
            brief: "\"b\"",
            raw: Some(&"r".repeat(1000)),
            terms: &terms,
            now_ms,
            ttl: Duration::from_millis(ttl_ms),
        })
        .unwrap()
}

#[test]
fn rows_expire_and_the_least_recently_used_go_past_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    // Room for about eight rows of ~1.2 KB.
    let mut store = Store::open(&path, 10_000).unwrap();
    assert!(put(&mut store, "short", &["alpha"], 0, 10));
    assert!(store.get("short", "s", 5).unwrap().is_some());
    assert!(
        store.get("short", "s", 10).unwrap().is_none(),
        "past its ttl"
    );
    for i in 0..20 {
        assert!(put(
            &mut store,
            &format!("k{i}"),
            &["beta"],
            100 + i,
            1_000_000
        ));
    }
    let stats = store.stats(200).unwrap();
    assert!(stats.bytes <= 10_000, "{stats:?}");
    assert!(stats.entries >= 6 && stats.entries < 20, "{stats:?}");
    assert!(
        store.get("k0", "s", 200).unwrap().is_none(),
        "the oldest went first"
    );
    assert!(store.get("k19", "s", 200).unwrap().is_some());
    assert_eq!(stats.expired, 0, "expired rows are removed on a write");
    // A row larger than a quarter of the cap is not kept.
    let big = vec!["x".repeat(3000)];
    let kept = store
        .put(&NewEntry {
            key: "big",
            scope: "s",
            identity: "box.tool",
            brief: "1",
            raw: None,
            terms: &big,
            now_ms: 300,
            ttl: Duration::from_secs(9),
        })
        .unwrap();
    assert!(!kept);
}

#[test]
fn search_matches_terms_and_tool_names_and_clear_empties() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join(FILE), DEFAULT_CAP_BYTES).unwrap();
    put(&mut store, "a", &["invoice", "march"], 1, 100_000);
    put(&mut store, "b", &["invoice", "april"], 2, 100_000);
    put(&mut store, "c", &["weather"], 3, 100_000);
    let keys = |rows: Vec<Entry>| rows.into_iter().map(|e| e.key).collect::<Vec<_>>();
    assert_eq!(
        keys(store.search("april invoice", "s", 10, 1 << 20, 50).unwrap())[0],
        "b"
    );
    assert_eq!(
        keys(store.search("march", "s", 10, 1 << 20, 50).unwrap()),
        vec!["a"]
    );
    assert_eq!(
        store.search("tool", "s", 10, 1 << 20, 50).unwrap().len(),
        3,
        "the tool's name is a term"
    );
    assert_eq!(
        keys(store.search("", "s", 2, 1 << 20, 50).unwrap()),
        vec!["c", "b"],
        "newest first"
    );
    // Quotes and FTS operators in a query are words, not syntax.
    assert!(store
        .search("\"a\" OR NEAR( *", "s", 10, 1 << 20, 50)
        .unwrap()
        .is_empty());
    // Each row holds about 1 KB of raw: 1.5 KB of budget gives one row, 2.5 KB two.
    assert_eq!(store.search("tool", "s", 10, 1500, 50).unwrap().len(), 1);
    assert_eq!(store.search("tool", "s", 10, 2500, 50).unwrap().len(), 2);
    assert_eq!(store.clear().unwrap(), 3);
    assert!(store
        .search("invoice", "s", 10, 1 << 20, 50)
        .unwrap()
        .is_empty());
    store.check().unwrap();
}

#[test]
fn a_scope_reads_only_its_own_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join(FILE), DEFAULT_CAP_BYTES).unwrap();
    put(&mut store, "a", &["invoice"], 1, 100_000);
    assert!(store.get("a", "s", 2).unwrap().is_some());
    assert!(store.get("a", "other", 2).unwrap().is_none());
    assert_eq!(
        store.search("invoice", "s", 10, 1 << 20, 2).unwrap().len(),
        1
    );
    assert!(store
        .search("invoice", "other", 10, 1 << 20, 2)
        .unwrap()
        .is_empty());
    assert!(store
        .search("", "other", 10, 1 << 20, 2)
        .unwrap()
        .is_empty());
}

#[test]
fn a_store_of_the_first_schema_is_emptied_not_misread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    let old = Connection::open(&path).unwrap();
    old.execute_batch(
        "CREATE TABLE results (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE,
                 identity TEXT NOT NULL, brief TEXT NOT NULL, raw TEXT, terms TEXT NOT NULL,
                 created INTEGER NOT NULL, expires INTEGER NOT NULL, used INTEGER NOT NULL,
                 bytes INTEGER NOT NULL);
             CREATE VIRTUAL TABLE results_terms USING fts5(identity, terms);
             INSERT INTO results VALUES (1, 'k', 'box.tool', '1', NULL, '', 0, 9999999999999, 0, 1);
             PRAGMA user_version = 1;",
    )
    .unwrap();
    drop(old);
    let mut store = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
    assert_eq!(store.stats(1).unwrap().entries, 0);
    assert!(put(&mut store, "k", &["x"], 1, 100_000));
    assert!(store.get("k", "s", 2).unwrap().is_some());
}

#[test]
fn a_garbage_file_is_reported_as_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);
    std::fs::write(&path, vec![0x5au8; 8192]).unwrap();
    let err = Store::open(&path, DEFAULT_CAP_BYTES).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains("delete it"), "{err}");
}
