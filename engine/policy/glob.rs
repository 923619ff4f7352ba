//! Identity globs: `*` stands for any run of characters (dots included), everything else
//! for itself. `text.*`, `*.delete*`, `github.merge_*`.
//!
//! Matched here rather than with `globset`: the policy also asks whether any identity that
//! starts with a toolbox's prefix may match (`may_match_after`, which decides whether a
//! toolbox is shown at all), and a whole-text matcher cannot answer that; with `*` the only
//! special character (every other one is refused when the file is read), a second matcher
//! would only have to agree with the prefix walk below. A test compares both walks with the
//! definition on every short pattern and text.

use serde::{Deserialize, Deserializer};

/// One `allow` or `deny` pattern of a profile, checked when the policy file is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern(String);

impl Pattern {
    /// The pattern, or why it cannot be one: empty, with spaces or control characters, or
    /// naming a toolbox without its tools (`ops` instead of `ops.*`).
    pub(crate) fn new(text: &str) -> Result<Pattern, String> {
        if text.is_empty() {
            return Err("an empty pattern matches no tool; remove it".into());
        }
        if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "pattern \"{}\" has a space or control character; identities have none",
                text.escape_debug()
            ));
        }
        if !text.contains(['.', '*']) {
            return Err(format!(
                "pattern \"{text}\" matches no tool: identities are <box>.<tool>; write \"{text}.*\" for every tool of toolbox {text}"
            ));
        }
        // A server's tool `a.b` is known as `a_b`: an identity holds one dot, so a
        // pattern with more and no star to stand for them matches nothing.
        let written = match text.split_once('.') {
            Some((toolbox, tool)) if !text.contains('*') && tool.contains('.') => {
                format!("{toolbox}.{}", tool.replace('.', "_"))
            }
            _ => text.to_string(),
        };
        let spelt = as_identities(&written);
        if spelt != text {
            // `my-files.write_*` for server "my-files" would deny nothing: scripts (and
            // these rules) know its tools as `my_files.write_file`.
            return Err(format!(
                "pattern \"{}\" matches no tool: identities are Luau names with one dot, and a \
                 server or tool name such as \"my-files\" or \"files.read\" is known as \
                 \"my_files\" or \"files_read\"; write \"{spelt}\" (unless the server also has \
                 a tool of that name: then this one is \"{spelt}_2\", as `codemode mcp sync` \
                 notes; `codemode list 3 <server>` shows every tool's name)",
                text.escape_debug()
            ));
        }
        if let Some(long) = text
            .split('.')
            .find(|name| !name.contains('*') && name.len() > MAX_NAME_BYTES)
        {
            return Err(format!(
                "pattern \"{text}\" matches no tool: a name over {MAX_NAME_BYTES} characters is \
                 known by its first {} and a hash of the whole; write \"{}*\" for it, or its \
                 name as `codemode list 3 <server>` shows it",
                MAX_NAME_BYTES - 9,
                text.replace(long, &long[..MAX_NAME_BYTES - 9])
            ));
        }
        Ok(Pattern(text.to_string()))
    }

    /// The pattern as written.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// True when the whole of `text` matches.
    pub(crate) fn matches(&self, text: &str) -> bool {
        matches(self.0.as_bytes(), text.as_bytes())
    }

    /// True when some text that starts with `prefix` matches: the pattern may allow or
    /// deny something in the toolbox whose identities start with `prefix`.
    pub(crate) fn may_match_after(&self, prefix: &str) -> bool {
        // The pattern positions reachable after reading `prefix`, a star standing for
        // any run: when one is left, the rest of the pattern matches some continuation.
        let pattern = self.0.as_bytes();
        let mut states = closure(pattern, vec![0]);
        for &c in prefix.as_bytes() {
            let mut next = Vec::new();
            for &at in &states {
                match pattern.get(at) {
                    Some(b'*') => next.push(at),
                    Some(&p) if p == c => next.push(at + 1),
                    _ => {}
                }
            }
            states = closure(pattern, next);
            if states.is_empty() {
                return false;
            }
        }
        true
    }

    /// True when every text that starts with `prefix` matches (`ops.*` and `o*` cover
    /// every tool of `ops`): with a trailing star, matching the prefix alone is enough.
    pub(crate) fn covers_all_after(&self, prefix: &str) -> bool {
        self.0.ends_with('*') && self.matches(prefix)
    }
}

/// The longest toolbox or tool name; a server's longer names are cut and hashed.
const MAX_NAME_BYTES: usize = 64;

/// `text` as identities spell it: each name between dots as the upstream servers' names
/// are mapped (every character but letters, digits, `_` and `*` becomes `_`; a name that
/// starts with a digit gets a `_` before it). Identities hold nothing else, so a pattern
/// that this changes matches no tool.
fn as_identities(text: &str) -> String {
    text.split('.')
        .map(|name| {
            let mapped: String = name
                .chars()
                .map(
                    |c| match c.is_ascii_alphanumeric() || c == '_' || c == '*' {
                        true => c,
                        false => '_',
                    },
                )
                .collect();
            match mapped.starts_with(|c: char| c.is_ascii_digit()) {
                true => format!("_{mapped}"),
                false => mapped,
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The states plus those reached by skipping stars (a star may match nothing).
fn closure(pattern: &[u8], mut states: Vec<usize>) -> Vec<usize> {
    let mut i = 0;
    while i < states.len() {
        let at = states[i];
        if pattern.get(at) == Some(&b'*') && !states.contains(&(at + 1)) {
            states.push(at + 1);
        }
        i += 1;
    }
    states.sort_unstable();
    states.dedup();
    states
}

/// Wildcard matching with one backtrack point: linear in practice, at worst the product
/// of the lengths (patterns and identities are short).
fn matches(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Pattern::new(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[path = "../../tests/unit/policy/glob.rs"]
mod tests;
