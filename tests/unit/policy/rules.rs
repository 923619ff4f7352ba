//! Tests of `engine/policy/rules.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn rules(default: Verdict, allow: &[&str], deny: &[&str]) -> ToolRules {
    let patterns = |list: &[&str]| list.iter().map(|p| Pattern::new(p).unwrap()).collect();
    ToolRules {
        profile: "p".into(),
        default,
        allow: patterns(allow),
        deny: patterns(deny),
    }
}

#[test]
fn deny_beats_allow_and_the_default_decides_the_rest() {
    let r = rules(Verdict::Deny, &["text.*", "ops.read"], &["text.slug*"]);
    assert!(r.allows("text.truncate"));
    assert!(r.allows("ops.read"));
    let denied = r.denial("text.slugify").unwrap();
    assert_eq!(denied.pattern.as_deref(), Some("text.slug*"));
    assert!(denied.to_string().contains("\"text.slug*\""), "{denied}");
    let by_default = r.denial("ops.drop").unwrap();
    assert_eq!(by_default.pattern, None);
    assert!(by_default.to_string().contains("default"), "{by_default}");

    let r = rules(Verdict::Allow, &[], &["*.delete*"]);
    assert!(r.allows("files.read"));
    assert!(!r.allows("files.delete_all"));
    assert!(!r.is_open());
    assert!(rules(Verdict::Allow, &["x.*"], &[]).is_open());
}

#[test]
fn a_toolbox_is_denied_only_when_no_tool_of_it_could_be_allowed() {
    let r = rules(Verdict::Deny, &["text.*", "*.read"], &["ops.*"]);
    assert_eq!(
        r.toolbox_denial("ops").unwrap().pattern.as_deref(),
        Some("ops.*")
    );
    assert!(r.toolbox_denial("text").is_none());
    // `*.read` could allow files.read.
    assert!(r.toolbox_denial("files").is_none());
    let r = rules(Verdict::Deny, &["text.*"], &[]);
    assert_eq!(r.toolbox_denial("files").unwrap().pattern, None);
    let r = rules(Verdict::Allow, &[], &["ops.drop"]);
    assert!(r.toolbox_denial("ops").is_none());
}
