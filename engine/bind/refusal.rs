//! Why a set of arguments or a command line was refused.

use serde::Serialize;

/// The reason code of a refusal, stable for programs (`"unknown-flag"`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A command line named a flag the tool does not have.
    UnknownFlag,
    /// A flag that takes a value came last, or was followed by another flag.
    MissingValue,
    /// A word could not be read as its slot's type.
    BadValue,
    /// The same parameter or option was given twice.
    GivenTwice,
    /// A required parameter was not given.
    MissingArgument,
    /// A value has the wrong type for its parameter.
    WrongType,
    /// More positional values than the tool has parameters.
    TooManyArguments,
    /// A named argument that is neither a parameter nor an option field.
    UnknownArgument,
    /// A table field the parameter's table type does not declare.
    UnknownField,
    /// The identity names no tool.
    UnknownTool,
    /// The run's profile does not allow the tool.
    Denied,
}

impl Reason {
    /// The code as Luau sees it.
    pub fn code(self) -> &'static str {
        match self {
            Reason::UnknownFlag => "unknown-flag",
            Reason::MissingValue => "missing-value",
            Reason::BadValue => "bad-value",
            Reason::GivenTwice => "given-twice",
            Reason::MissingArgument => "missing-argument",
            Reason::WrongType => "wrong-type",
            Reason::TooManyArguments => "too-many-arguments",
            Reason::UnknownArgument => "unknown-argument",
            Reason::UnknownField => "unknown-field",
            Reason::UnknownTool => "unknown-tool",
            Reason::Denied => "denied",
        }
    }
}

/// A refusal: a reason code and a message that says what to do.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// The reason code.
    pub reason: Reason,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Refusal {
    /// A refusal with a reason and a message.
    pub(crate) fn new(reason: Reason, message: impl Into<String>) -> Refusal {
        Refusal {
            reason,
            message: message.into(),
        }
    }
}
