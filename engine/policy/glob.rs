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
mod tests {
    use super::*;

    fn p(text: &str) -> Pattern {
        Pattern::new(text).unwrap()
    }

    #[test]
    fn stars_match_any_run_and_the_rest_matches_itself() {
        assert!(p("text.*").matches("text.slugify"));
        assert!(p("text.*").matches("text."));
        assert!(!p("text.*").matches("texts.slugify"));
        assert!(p("*.delete*").matches("files.delete"));
        assert!(p("*.delete*").matches("files.delete_all"));
        assert!(!p("*.delete*").matches("files.undelete"));
        assert!(p("github.merge_*").matches("github.merge_pull_request"));
        assert!(!p("github.merge_*").matches("github.merge"));
        assert!(p("*").matches("any.thing"));
        assert!(p("a*b*c.d").matches("aXbYbc.d"));
        assert!(!p("ops.read").matches("ops.reader"));
    }

    #[test]
    fn a_toolbox_is_covered_or_possibly_touched() {
        assert!(p("ops.*").covers_all_after("ops."));
        assert!(p("o*").covers_all_after("ops."));
        assert!(!p("ops.drop*").covers_all_after("ops."));
        assert!(!p("*.delete*").covers_all_after("ops."));
        assert!(p("*.delete*").may_match_after("ops."));
        assert!(p("ops.read").may_match_after("ops."));
        assert!(!p("text.*").may_match_after("ops."));
        assert!(!p("op.read").may_match_after("ops."));
    }

    #[test]
    fn bad_patterns_say_why() {
        assert!(Pattern::new("").is_err());
        assert!(Pattern::new("text .x").is_err());
        assert!(Pattern::new("ops").unwrap_err().contains("ops.*"));
        assert!(Pattern::new("ops*").is_ok());
    }

    #[test]
    fn a_name_spelt_as_the_server_list_writes_it_is_refused_with_the_identity_spelling() {
        for (written, spelling) in [
            ("my-files.write_*", "my_files.write_*"),
            ("my-files.*", "my_files.*"),
            ("*.get-env", "*.get_env"),
            ("2fa.*", "_2fa.*"),
            ("my_srv.a.b", "my_srv.a_b"),
            ("srv.delete-all", "srv.delete_all\" (unless the server also has a tool of that name: then this one is \"srv.delete_all_2"),
            ("my files.*", ""),
        ] {
            match Pattern::new(written) {
                Err(e) if spelling.is_empty() => assert!(e.contains("space"), "{e}"),
                Err(e) => assert!(
                    e.contains(&format!("write \"{spelling}\"")),
                    "{written}: {e}"
                ),
                Ok(_) => assert_eq!(written, spelling, "{written} was taken"),
            }
        }
        let long = format!("srv.{}", "x".repeat(70));
        let e = Pattern::new(&long).unwrap_err();
        assert!(
            e.contains(&format!("write \"srv.{}*\"", "x".repeat(55))),
            "{e}"
        );
        assert!(Pattern::new(&format!("srv.{}*", "x".repeat(55))).is_ok());
        for fine in [
            "my_files.write_*",
            "*.delete*",
            "_2fa.*",
            "github.merge_*",
            "*",
        ] {
            assert!(Pattern::new(fine).is_ok(), "{fine}");
        }
    }

    /// The definition: a star takes any run, everything else itself.
    fn by_definition(p: &[u8], t: &[u8]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some((b'*', rest)) => (0..=t.len()).any(|i| by_definition(rest, &t[i..])),
            Some((c, rest)) => t.first() == Some(c) && by_definition(rest, &t[1..]),
        }
    }

    /// Every word over `alphabet` of at most `max` letters.
    fn words(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|w: &Vec<u8>| {
                    alphabet.iter().map(move |&c| {
                        let mut w = w.clone();
                        w.push(c);
                        w
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn both_walks_agree_with_the_definition_on_every_short_pattern() {
        let texts = words(b"a.b", 4);
        for pattern in words(b"a.*", 5) {
            let glob = Pattern(String::from_utf8(pattern.clone()).unwrap());
            for text in &texts {
                let shown = String::from_utf8_lossy(text);
                assert_eq!(
                    glob.matches(&shown),
                    by_definition(&pattern, text),
                    "{} on {shown}",
                    glob.0
                );
                // Some continuation matches when the prefix matches some start of the
                // pattern (the rest of a pattern always matches something).
                let some = (0..=pattern.len()).any(|i| by_definition(&pattern[..i], text));
                assert_eq!(
                    glob.may_match_after(&shown),
                    some,
                    "{} after {shown}",
                    glob.0
                );
            }
        }
    }
}
