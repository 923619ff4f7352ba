//! Values from a server's `env` and `headers`: tokens and keys, by the usual practice of
//! MCP configurations. They reach the server's process or its HTTP requests and nothing
//! else: Debug prints a mask, and every text that comes back from a server (stderr, error
//! messages) passes through a [`Redactor`] before it is put in an error or a log line.

use std::fmt;

/// A configuration value that must not be shown. `Debug` and `Display` print `***`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value itself, for the process environment or an HTTP header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Masks a server's secret values in text that came from that server.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    /// Longest first, so a secret that contains another is masked whole.
    secrets: Vec<String>,
}

/// Values shorter than this are not masked: `"1"` or `"true"` in an env block are
/// settings, and masking them would garble every message that contains the letter.
const MIN_SECRET_LEN: usize = 5;

impl Redactor {
    pub(crate) fn new<'a>(values: impl IntoIterator<Item = &'a Secret>) -> Self {
        let mut secrets: Vec<String> = values
            .into_iter()
            .map(|s| s.0.clone())
            .filter(|s| s.len() >= MIN_SECRET_LEN)
            .collect();
        // A header such as `Authorization: Bearer TOKEN` is masked by its token too.
        let tokens: Vec<String> = secrets
            .iter()
            .filter_map(|s| s.split_once(' ').map(|(_, t)| t.trim().to_string()))
            .filter(|t| t.len() >= MIN_SECRET_LEN)
            .collect();
        secrets.extend(tokens);
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Self { secrets }
    }

    /// `text` with every secret replaced by `***`.
    pub(crate) fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), "***");
            }
        }
        out
    }
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Redactor({} secrets)", self.secrets.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print() {
        let s = Secret::new("hunter2-token");
        assert_eq!(format!("{s:?} {s}"), "*** ***");
        let r = Redactor::new([&s, &Secret::new("Bearer abcdef123"), &Secret::new("1")]);
        assert_eq!(
            r.redact("token hunter2-token and abcdef123 and 1"),
            "token *** and *** and 1"
        );
    }
}
