//! Tests of `engine/docs/escape.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn escapes_markup_and_quotes() {
    assert_eq!(
        escape("<a href=\"x\">&'"),
        "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
    );
}
