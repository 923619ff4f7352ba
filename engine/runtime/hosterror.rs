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
            message: message.into(),
            hint: None,
        }
    }

    /// An error with a hint.
    pub fn hinted(message: impl Into<String>, hint: impl Into<String>) -> HostError {
        HostError {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }

    /// As an `mlua` error, so it travels through Luau and can be found again.
    pub fn into_lua(self) -> mlua::Error {
        mlua::Error::external(self)
    }
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
