//! The process's one set of known secrets and the automaton that finds all their forms.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Arc, RwLock};

use aho_corasick::{AhoCorasick, MatchKind};

use super::forms::forms;

/// What replaces a secret.
pub const MASK: &str = "***";

/// Values (and parts, and encoded forms) shorter than this many bytes are not masked.
pub const MIN_SECRET_LEN: usize = 6;

struct Known {
    values: BTreeSet<String>,
    patterns: Vec<Vec<u8>>,
    automaton: Option<Arc<AhoCorasick>>,
}

static KNOWN: RwLock<Known> = RwLock::new(Known {
    values: BTreeSet::new(),
    patterns: Vec::new(),
    automaton: None,
});

/// Adds `value` to the secrets masked from now on, for the rest of the process (a value
/// a configuration held once may still be in a server's memory or a log). Values shorter
/// than [`MIN_SECRET_LEN`] are ignored.
pub fn remember(value: &str) {
    if value.trim().len() < MIN_SECRET_LEN {
        return;
    }
    if read().values.contains(value) {
        return;
    }
    let mut known = KNOWN.write().unwrap_or_else(|e| e.into_inner());
    if !known.values.insert(value.to_string()) {
        return;
    }
    known.patterns.extend(forms(value));
    known.patterns.sort();
    known.patterns.dedup();
    // Leftmost-longest: a form that contains another (the whole header, its token) is
    // masked whole.
    known.automaton = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&known.patterns)
        .map(Arc::new)
        .map_err(|e| tracing::error!("the secret masks cannot be built ({e})"))
        .ok();
}

fn read() -> std::sync::RwLockReadGuard<'static, Known> {
    KNOWN.read().unwrap_or_else(|e| e.into_inner())
}

fn automaton() -> Option<Arc<AhoCorasick>> {
    read().automaton.clone()
}

/// `text` with every known secret, in every form, replaced by [`MASK`].
pub fn mask(text: &str) -> Cow<'_, str> {
    match automaton() {
        Some(found) if found.is_match(text) => {
            let mut out = String::with_capacity(text.len());
            found.replace_all_with(text, &mut out, |_, _, out| {
                out.push_str(MASK);
                true
            });
            Cow::Owned(out)
        }
        _ => Cow::Borrowed(text),
    }
}

/// [`mask`] for bytes that may not be text (an HTTP body).
pub fn mask_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    match automaton() {
        Some(found) if found.is_match(bytes) => {
            let mut out = Vec::with_capacity(bytes.len());
            found.replace_all_with_bytes(bytes, &mut out, |_, _, out| {
                out.extend_from_slice(MASK.as_bytes());
                true
            });
            Cow::Owned(out)
        }
        _ => Cow::Borrowed(bytes),
    }
}

/// [`mask`] over every string of a JSON value, object keys included.
pub fn mask_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    if automaton().is_none() {
        return;
    }
    match value {
        Value::String(s) => {
            if let Cow::Owned(masked) = mask(s) {
                *s = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_json),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                mask_json(&mut item);
                map.insert(mask(&key).into_owned(), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_masked_in_one_pass_and_short_values_are_not() {
        remember("Bearer set-test-tok3n");
        remember("12345");
        assert_eq!(
            mask("auth: Bearer set-test-tok3n; bare set-test-tok3n; 12345"),
            "auth: ***; bare ***; 12345"
        );
        assert_eq!(&*mask_bytes(b"q=set-test-tok3n&x"), b"q=***&x".as_slice());
        assert!(matches!(mask("nothing here"), Cow::Borrowed(_)));
        let mut json = serde_json::json!({"set-test-tok3n": ["x set-test-tok3n", 1]});
        mask_json(&mut json);
        assert_eq!(json, serde_json::json!({"***": ["x ***", 1]}));
    }
}
