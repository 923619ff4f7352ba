//! Values from a server's `env` and `headers`: tokens and keys, by the usual practice of
//! MCP configurations. They reach the server's process or its HTTP requests and nothing
//! else: Debug prints a mask, and every text that comes back from a server (stderr, error
//! messages) passes through a [`Redactor`] before it is put in an error or a log line.
//! Every `${NAME}` a configuration expands is a secret too (`config.rs` remembers it).

use std::fmt;

/// A configuration value that must not be shown. `Debug` and `Display` print `***`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub(crate) fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value itself, for the process environment or an HTTP header only.
    pub(crate) fn expose(&self) -> &str {
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

/// Masks secrets in text that came from a server. Its values join the engine's one set
/// (`crate::secrets`), and it masks every value of that set, whichever server or file it
/// came from: a server may quote another's token, and an argument's `${NAME}` counts too.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    values: usize,
}

impl Redactor {
    pub(crate) fn new<'a>(values: impl IntoIterator<Item = &'a Secret>) -> Self {
        let mut count = 0;
        for secret in values {
            crate::secrets::remember(&secret.0);
            count += 1;
        }
        Self { values: count }
    }

    /// `text` with every known secret replaced by `***`.
    pub(crate) fn redact(&self, text: &str) -> String {
        crate::secrets::mask(text).into_owned()
    }
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Redactor({} secrets)", self.values)
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/secret.rs"]
mod tests;
