//! The process's one set of known secrets and the automaton that finds all their forms.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Arc, RwLock};

use aho_corasick::{AhoCorasick, MatchKind};

use super::forms::{forms, MIN_SECRET_LEN};

/// What replaces a secret.
pub(crate) const MASK: &str = "***";

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
pub(crate) fn remember(value: &str) {
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
pub(crate) fn mask(text: &str) -> Cow<'_, str> {
    match mask_bytes(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // Only whole forms (valid text) and line ends between ASCII characters are
        // replaced, so the text stays valid.
        Cow::Owned(bytes) => Cow::Owned(
            String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        ),
    }
}

/// [`mask`] for bytes that may not be text (an HTTP body).
pub(crate) fn mask_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    let Some(found) = automaton() else {
        return Cow::Borrowed(bytes);
    };
    let unwrapped = without_wrapped(&found, bytes);
    let text = unwrapped.as_deref().unwrap_or(bytes);
    if !found.is_match(text) {
        return match unwrapped {
            Some(masked) => Cow::Owned(masked),
            None => Cow::Borrowed(bytes),
        };
    }
    let mut out = Vec::with_capacity(text.len());
    found.replace_all_with_bytes(text, &mut out, |_, _, out| {
        out.extend_from_slice(MASK.as_bytes());
        true
    });
    Cow::Owned(out)
}

/// `bytes` with every form that a line end breaks inside a base64 run masked, or `None`
/// when there is none: MIME and PEM writers wrap base64 at 64 or 76 columns, wherever the
/// secret's run falls. The runs are read joined (one pass, only when a line end is there)
/// and each form found across a line end is masked where it stands.
fn without_wrapped(found: &AhoCorasick, bytes: &[u8]) -> Option<Vec<u8>> {
    if !bytes.contains(&b'\n') {
        return None;
    }
    let base64 = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_');
    let mut joined = Vec::with_capacity(bytes.len());
    let mut origin = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let end = match bytes[at] {
            b'\n' => 1,
            b'\r' if bytes.get(at + 1) == Some(&b'\n') => 2,
            _ => 0,
        };
        let inside = joined.last().is_some_and(|b| base64(*b))
            && bytes.get(at + end).is_some_and(|b| base64(*b));
        if end > 0 && inside {
            at += end;
            continue;
        }
        joined.push(bytes[at]);
        origin.push(at);
        at += 1;
    }
    // A form found whole where it stands was no line end's doing: the main pass masks it.
    let broken: Vec<(usize, usize)> = found
        .find_iter(&joined)
        .filter_map(|m| {
            let span = (origin[m.start()], origin[m.end() - 1] + 1);
            (span.1 - span.0 != m.len()).then_some(span)
        })
        .collect();
    if broken.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for (start, end) in broken {
        out.extend_from_slice(&bytes[from..start]);
        out.extend_from_slice(MASK.as_bytes());
        from = end;
    }
    out.extend_from_slice(&bytes[from..]);
    Some(out)
}

/// [`mask`] over every string of a JSON value, object keys included.
pub(crate) fn mask_json(value: &mut serde_json::Value) {
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
#[path = "../../tests/unit/secrets/set.rs"]
mod tests;
