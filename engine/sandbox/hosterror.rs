//! Errors host functions raise into Luau, with a hint for the envelope.

/// The most bytes of an error's message that reach the envelope.
pub(crate) const MAX_MESSAGE_BYTES: usize = 4096;
/// The most bytes of an error's hint that reach the envelope.
pub(crate) const MAX_HINT_BYTES: usize = 2048;

/// What a script sees of an error a host function raised and it caught (`pcall`,
/// `tostring`, `print`, a returned value): the message, without mlua's prefix or the
/// Rust-side traceback, which name frames a script cannot act on.
pub(crate) fn caught_text(error: &mlua::Error) -> String {
    let raw = error.to_string();
    let first = raw.split("\nstack traceback:").next().unwrap_or(&raw);
    first
        .strip_prefix("runtime error: ")
        .unwrap_or(first)
        .to_string()
}

/// An error with a hint for the reader (usually an agent).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub(crate) struct HostError {
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
    /// True when the host refused because the run is not allowed to (its profile): the
    /// envelope's kind is then `denied`, not `runtime`.
    pub denied: bool,
    /// True when a limit of its own ended the call (a tool's `limits.timeoutMs`): the
    /// envelope reports such an error as a `timeout`.
    pub timed_out: bool,
}

impl HostError {
    /// An error without a hint.
    pub(crate) fn new(message: impl Into<String>) -> HostError {
        HostError {
            message: bounded(message.into(), MAX_MESSAGE_BYTES),
            hint: None,
            denied: false,
            timed_out: false,
        }
    }

    /// An error with a hint.
    pub(crate) fn hinted(message: impl Into<String>, hint: impl Into<String>) -> HostError {
        HostError {
            message: bounded(message.into(), MAX_MESSAGE_BYTES),
            hint: Some(bounded(hint.into(), MAX_HINT_BYTES)),
            denied: false,
            timed_out: false,
        }
    }

    /// A refusal the run's profile decided, with a hint.
    pub(crate) fn denied(message: impl Into<String>, hint: impl Into<String>) -> HostError {
        HostError {
            denied: true,
            ..HostError::hinted(message, hint)
        }
    }

    /// A call that outlived a budget of its own (not the run's deadline): the caller may
    /// catch it; uncaught, the envelope's kind is `timeout`.
    pub(crate) fn timeout(message: impl Into<String>, hint: impl Into<String>) -> HostError {
        HostError {
            timed_out: true,
            ..HostError::hinted(message, hint)
        }
    }

    /// The same error, `more` added to its hint (after it, or as the hint).
    pub(crate) fn and_hint(mut self, more: impl Into<String>) -> HostError {
        let more = more.into();
        let hint = match self.hint.take() {
            Some(hint) => format!("{hint}; {more}"),
            None => more,
        };
        self.hint = Some(bounded(hint, MAX_HINT_BYTES));
        self
    }

    /// As an `mlua` error, so it travels through Luau and can be found again.
    pub(crate) fn into_lua(self) -> mlua::Error {
        mlua::Error::external(self)
    }
}

/// `text` cut to `max` bytes: an error may quote what a script passed (a name of 20 MB),
/// and a script may keep thousands of errors, outside the VM's memory limit.
fn bounded(mut text: String, max: usize) -> String {
    cut(&mut text, max);
    text.shrink_to_fit();
    text
}

/// Cuts `text` to at most `max` bytes at a character boundary, saying how much was cut.
pub(crate) fn cut(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let note = format!("… ({} bytes cut)", text.len() - max);
    let mut at = max.saturating_sub(note.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    text.push_str(&note);
}

/// Finds a [`HostError`] in an `mlua` error chain.
pub(crate) fn find_host_error(error: &mlua::Error) -> Option<&HostError> {
    match error {
        mlua::Error::CallbackError { cause, .. } => find_host_error(cause),
        mlua::Error::WithContext { cause, .. } => find_host_error(cause),
        mlua::Error::ExternalError(e) => e.downcast_ref::<HostError>(),
        _ => None,
    }
}

#[cfg(test)]
#[path = "../../tests/unit/sandbox/hosterror.rs"]
mod tests;
