//! One thing the type checker said about a script.

use serde::{Deserialize, Serialize};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A type error: in strict mode the run does not start.
    Error,
    /// A lint or a note (including "the script was not checked").
    Warning,
}

/// A diagnostic at a place in the script (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The line it starts on.
    pub line: u32,
    /// The column it starts at.
    pub column: u32,
    /// Error or warning.
    pub severity: Severity,
    /// What the checker said.
    pub message: String,
    /// Said only beside a run that failed (see [`super::Mode::shown`]): a note about the
    /// check's own state that tells the author of a script that worked nothing to act on.
    #[serde(skip)]
    pub quiet: bool,
}

impl Diagnostic {
    /// A note about the check itself (the checker was missing, slow or broken), placed at
    /// the script's start.
    pub(crate) fn note(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            line: 1,
            column: 1,
            severity: Severity::Warning,
            message: message.into(),
            quiet: false,
        }
    }

    /// This diagnostic, said only beside a run that failed.
    #[cfg(test)]
    pub(crate) fn quiet(mut self) -> Diagnostic {
        self.quiet = true;
        self
    }
}
