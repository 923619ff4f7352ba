//! Errors host functions raise into Luau, with a hint for the envelope.

/// An error with a hint for the reader (usually an agent).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct HostError {
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl HostError {
    /// An error without a hint.
    pub fn new(message: impl Into<String>) -> HostError {
        HostError {
            message: bounded(message.into(), super::envelope::MAX_MESSAGE_BYTES),
            hint: None,
        }
    }

    /// An error with a hint.
    pub fn hinted(message: impl Into<String>, hint: impl Into<String>) -> HostError {
        HostError {
            message: bounded(message.into(), super::envelope::MAX_MESSAGE_BYTES),
            hint: Some(bounded(hint.into(), super::envelope::MAX_HINT_BYTES)),
        }
    }

    /// As an `mlua` error, so it travels through Luau and can be found again.
    pub fn into_lua(self) -> mlua::Error {
        mlua::Error::external(self)
    }
}

/// `text` cut to `max` bytes: an error may quote what a script passed (a name of 20 MB),
/// and a script may keep thousands of errors, outside the VM's memory limit.
fn bounded(mut text: String, max: usize) -> String {
    super::envelope::cut(&mut text, max);
    text.shrink_to_fit();
    text
}

/// Finds a [`HostError`] in an `mlua` error chain.
pub fn find_host_error(error: &mlua::Error) -> Option<&HostError> {
    match error {
        mlua::Error::CallbackError { cause, .. } => find_host_error(cause),
        mlua::Error::WithContext { cause, .. } => find_host_error(cause),
        mlua::Error::ExternalError(e) => e.downcast_ref::<HostError>(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_quoting_a_huge_name_stays_small() {
        let name = "n".repeat(20 << 20);
        let error = HostError::hinted(
            format!("no toolbox named '{name}'"),
            format!("not '{name}'"),
        );
        assert!(error.message.len() <= crate::runtime::envelope::MAX_MESSAGE_BYTES);
        assert!(
            error.message.ends_with("bytes cut)"),
            "{}",
            &error.message[4000..]
        );
        assert!(error.hint.unwrap().len() <= crate::runtime::envelope::MAX_HINT_BYTES);
    }
}
