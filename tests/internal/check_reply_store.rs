//! What the checker said about a script, kept for its next run (`engine/check/replies.rs`).

use std::time::Duration;

use crate::check::Severity;
use crate::check::*;

fn checked(message: &str) -> Checked {
    Checked {
        diagnostics: vec![Diagnostic {
            line: 2,
            column: 7,
            severity: Severity::Error,
            message: message.into(),
            // What the verdict reads: kept with the entry (the envelope leaves it out).
            kind: Kind::MissingKey {
                of: "{ a: number }".into(),
                key: "b".into(),
                owner: crate::check::KeyOwner::Table,
            },
            quiet: false,
        }],
        timed_out: false,
        limit: Duration::from_millis(500),
    }
}

#[test]
fn an_entry_is_read_back_only_for_the_same_declarations_checker_and_script() {
    let world = tempfile::tempdir().unwrap();
    assert!(
        Replies::of(world.path(), "check 1".into()).is_none(),
        "a world without .codemode/ keeps nothing"
    );
    std::fs::create_dir(world.path().join(".codemode")).unwrap();
    let replies = Replies::of(world.path(), "check 1".into()).unwrap();
    let declarations = Declarations::new("declare x: number");
    assert!(!replies.holds("return x"));
    replies.put(&declarations, "return x", &checked("bad"));
    assert!(replies.holds("return x"));
    let got = replies.get(&declarations, "return x").unwrap();
    assert_eq!(got.diagnostics, checked("bad").diagnostics);
    assert!(!got.timed_out);
    let other = Declarations::new("declare x: string");
    assert!(
        replies.get(&other, "return x").is_none(),
        "other declarations"
    );
    assert!(
        replies.get(&declarations, "return x + 1").is_none(),
        "another script"
    );
    let newer = Replies::of(world.path(), "check 2".into()).unwrap();
    assert!(
        newer.get(&declarations, "return x").is_none(),
        "another checker"
    );
    // A reply cut short is not kept.
    let mut cut = checked("partial");
    cut.timed_out = true;
    replies.put(&declarations, "return y", &cut);
    assert!(!replies.holds("return y"));
}

#[test]
fn a_process_keeps_the_last_replies_for_the_same_declarations_and_script() {
    let recent = Recent::default();
    let declarations = Declarations::new("declare x: number");
    recent.put(&declarations, "return x", &checked("bad"));
    assert_eq!(
        recent.get(&declarations, "return x").map(|c| c.diagnostics),
        Some(checked("bad").diagnostics)
    );
    let same_text = Declarations::new("declare x: number");
    assert!(recent.get(&same_text, "return x").is_some());
    let other = Declarations::new("declare x: string");
    assert!(recent.get(&other, "return x").is_none());
    assert!(recent.get(&declarations, "return x ").is_none());
    let mut cut = checked("partial");
    cut.timed_out = true;
    recent.put(&declarations, "return y", &cut);
    assert!(recent.get(&declarations, "return y").is_none());
    for i in 0..RECENT {
        recent.put(&declarations, &format!("return {i}"), &checked("x"));
    }
    assert!(
        recent.get(&declarations, "return x").is_none(),
        "the oldest goes"
    );
    assert!(recent.get(&declarations, "return 0").is_some());
}

#[test]
fn a_damaged_entry_is_not_read_and_old_ones_are_removed_in_batches() {
    let world = tempfile::tempdir().unwrap();
    std::fs::create_dir(world.path().join(".codemode")).unwrap();
    let replies = Replies::of(world.path(), "check".into()).unwrap();
    let declarations = Declarations::new("declare x: number");
    replies.put(&declarations, "return x", &checked("bad"));
    let file = replies.file("return x").unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    assert!(replies.get(&declarations, "return x").is_none());

    for i in 0..=MAX_ENTRIES {
        replies.put(&declarations, &format!("return {i}"), &checked("x"));
    }
    let kept = std::fs::read_dir(file.parent().unwrap()).unwrap().count();
    assert!(kept <= MAX_ENTRIES * 3 / 4 + 1, "{kept} entries kept");
    assert!(
        replies.holds(&format!("return {MAX_ENTRIES}")),
        "the newest stays"
    );
}
