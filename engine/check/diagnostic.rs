//! One thing the type checker said about a script: where, how serious, its message for
//! the reader, and what it is as data ([`Kind`]), which is all a verdict reads.

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
    /// What it is, as the checker knows it: verdicts read this, never `message`, so a
    /// Luau that words its messages otherwise judges scripts the same. Not in the envelope.
    #[serde(skip)]
    pub(crate) kind: Kind,
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
            kind: Kind::Note,
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

/// What a diagnostic is: the kind of Luau's error (its `TypeErrorData`) or lint, and the
/// fields a verdict reads, types as Luau prints them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(crate) enum Kind {
    /// Codemode's own finding or note, not the checker's (the checker was missing, slow or
    /// broken; a misspelt field of a table literal).
    #[default]
    Note,
    /// An error of a kind no verdict reads apart, with the types it names.
    Other {
        /// The types, as Luau prints them.
        #[serde(default)]
        types: Vec<String>,
    },
    /// A lint, by Luau's name for it (`LocalUnused`).
    Lint {
        /// The lint's name.
        name: String,
    },
    /// A value of type `given` where `wanted` is (Luau's `TypeMismatch`, or
    /// `TypePackMismatch` for lists of values).
    Mismatch {
        /// The type wanted.
        wanted: String,
        /// The type given.
        given: String,
    },
    /// A key a type does not have (`UnknownProperty`).
    MissingKey {
        /// The type read, as Luau prints it.
        of: String,
        /// The key.
        key: String,
        /// What `of` is.
        owner: KeyOwner,
    },
    /// A count of values that does not match (`CountMismatch`).
    Count {
        /// Of what.
        of: Counted,
        /// How many are expected (the fewest, when a range is).
        expected: u32,
        /// How many there are.
        actual: u32,
    },
    /// A value that may be nil, read as a table (`OptionalValueAccess`).
    MaybeNil,
    /// A global nothing assigned (`UnknownSymbol` of a binding).
    UnknownGlobal {
        /// Its name.
        name: String,
    },
    /// A function some of whose paths return nothing (`FunctionExitsWithoutReturning`).
    NoReturn,
    /// A table that cannot take what is added to it (`CannotExtendTable`).
    CannotExtend {
        /// The table's type.
        table: String,
        /// What is added.
        what: Extension,
    },
    /// A call of something that is not a function (`CannotCallNonFunction`).
    NotCallable,
    /// The solver stopped short of the whole script: too complex, or incomplete.
    GaveUp,
    /// The checker's own failure (`InternalError`).
    Internal,
    /// The check's time ran out.
    TimedOut,
}

/// What a [`Kind::MissingKey`] is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum KeyOwner {
    /// A table type.
    Table,
    /// An external type (a declared class).
    Extern,
    /// A table type with a key of that name in another case (Luau suggests it).
    Suggested,
    /// Another type: `number`, `string`, a union.
    Scalar,
}

/// What a [`Kind::Count`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Counted {
    /// A call's arguments.
    Arguments,
    /// A function's results.
    Results,
    /// An expression list's values.
    Values,
    /// What a `return` returns.
    Returns,
}

/// What a [`Kind::CannotExtend`] adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Extension {
    /// A property.
    Property,
    /// An indexer.
    Indexer,
    /// A metatable.
    Metatable,
}
