//! Tests of `engine/runtime/report.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn finds_the_script_line() {
    assert_eq!(script_line("script:12: boom"), Some(12));
    assert_eq!(
        script_line("text.slugify:3: bad\nstack traceback:\n\tscript:7: in main"),
        Some(7)
    );
    assert_eq!(script_line("myscript:3: x"), None);
}
