//! How much the type checker may stop.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use super::{Diagnostic, Severity};

/// What a run does with the checker's verdict (`--check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Do not check.
    Off,
    /// Check and report every diagnostic; never stop a run.
    Warn,
    /// Stop a run on an error that is certain to fail at a tool call (an unknown toolbox
    /// or tool, a wrong argument count or type, a missing field of a tool's declared
    /// result); report the rest. The default: on the corpus in `tests/check_corpus/` it
    /// stops the mistakes agents make and refuses no correct script, where `strict`
    /// refuses correct dynamic ones.
    #[default]
    Certain,
    /// Stop a run on any type error.
    Strict,
}

impl Mode {
    /// Every mode, as the flag spells them.
    pub(crate) const NAMES: [&'static str; 4] = ["off", "warn", "certain", "strict"];

    /// What a run's envelope carries of the check's report, none twice. Under `certain` a
    /// script that ran to its end carries no errors: the run answered the checker's doubts,
    /// and an error beside working code invites a reader to "fix" it. Warnings stay (a
    /// misspelt option the tool ignored), quiet notes do not (see [`Diagnostic::quiet`]).
    /// `warn` and `strict` keep everything, as does a run that failed (the doubts may say
    /// why).
    pub(crate) fn shown(self, ran_ok: bool, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut seen = HashSet::new();
        diagnostics.retain(|d| {
            // A note about the check's own state is said once a line.
            let column = if d.quiet { 0 } else { d.column };
            !(self == Mode::Certain && ran_ok && (d.severity == Severity::Error || d.quiet))
                && seen.insert((d.line, column, d.message.clone()))
        });
        diagnostics
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(word: &str) -> Result<Mode, String> {
        match word {
            "off" => Ok(Mode::Off),
            "warn" => Ok(Mode::Warn),
            "certain" => Ok(Mode::Certain),
            "strict" => Ok(Mode::Strict),
            _ => Err(format!(
                "unknown check mode `{word}`; use one of {}",
                Mode::NAMES.join(", ")
            )),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Off => "off",
            Mode::Warn => "warn",
            Mode::Certain => "certain",
            Mode::Strict => "strict",
        })
    }
}
