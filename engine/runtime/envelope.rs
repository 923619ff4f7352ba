//! The result envelope: what `codemode exec` prints and MCP `tool_exec` returns.
//!
//! The engine's secrets (`crate::secrets`) are masked in every run's envelope as it is
//! built, and again in its JSON ([`Envelope::to_json`], [`Envelope::to_value`]), so an
//! envelope built anywhere else is masked where it is serialised.

use serde::Serialize;

use crate::check::Diagnostic;
use crate::sandbox::{cut, StopCause, MAX_HINT_BYTES, MAX_MESSAGE_BYTES};

/// What went wrong, by cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The script does not compile (or is not text).
    Syntax,
    /// The script raised an error.
    Runtime,
    /// The deadline passed.
    Timeout,
    /// The memory limit was reached.
    Memory,
    /// `print` output passed the cap.
    Output,
    /// Another engine limit (coroutines, stack depth) was reached.
    Limit,
    /// The script could not be read (`codemode exec` given a missing file): nothing ran.
    Input,
    /// The profile the run serves does not allow what it asked for (a tool, authoring,
    /// file writes); the message names the rule.
    Denied,
    /// The type checker found a certain mistake (an unknown tool, a call that does not fit
    /// its signature): nothing the script did took effect.
    Type,
}

/// A failed run's error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScriptError {
    /// The cause.
    pub kind: ErrorKind,
    /// What happened.
    pub message: String,
    /// Line in the script, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Column in the line, when known (type errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The limit that stopped the run, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<StopCause>,
}

impl ScriptError {
    /// Cuts the message and hint to `MAX_MESSAGE_BYTES` and `MAX_HINT_BYTES`: a script
    /// can raise (or name a tool with) megabytes of text, and the envelope must stay
    /// within the output cap plus a small fixed margin whatever failed.
    pub(crate) fn bounded(mut self) -> ScriptError {
        cut(&mut self.message, MAX_MESSAGE_BYTES);
        if let Some(hint) = &mut self.hint {
            cut(hint, MAX_HINT_BYTES);
        }
        self
    }
}

/// Where output was cut, so a reader knows the data is partial.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Truncation {
    /// `"value"`, `"stdout"`, or `"tools.<box>.<tool>"` for a result cut to its tool's own cap.
    pub what: String,
    /// The cap in bytes.
    #[serde(rename = "capBytes")]
    pub cap_bytes: usize,
    /// How to get the rest.
    pub note: String,
}

/// The one JSON object every run produces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Envelope {
    /// True when the script returned normally.
    pub ok: bool,
    /// The returned value as JSON (`null` when nothing was returned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// Why the run failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ScriptError>,
    /// What the script printed.
    pub stdout: String,
    /// True when the value or stdout was cut at the output cap.
    pub truncated: bool,
    /// Where and why, when truncated.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub truncation: Vec<Truncation>,
    /// What the type checker said about the script that did not stop it (and notes when
    /// the script could not be checked).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    /// Wall-clock time of the run.
    #[serde(rename = "elapsedMs")]
    pub elapsed_ms: f64,
}

impl Envelope {
    /// Names, in hints and truncation notes, the setting that raises the limit that was
    /// hit, as the front end calls it (`flag(StopCause::Deadline)` might be
    /// `"--timeout-ms"`). The library's own text never names a front end's flag.
    pub(crate) fn name_limits(mut self, flag: impl Fn(StopCause) -> Option<String>) -> Envelope {
        if let Some(error) = &mut self.error {
            if let (Some(cause), Some(hint)) = (error.limit, &mut error.hint) {
                if let Some(flag) = flag(cause) {
                    hint.push_str(&format!(" ({flag})"));
                }
            }
        }
        if let Some(flag) = flag(StopCause::Output) {
            for cut in &mut self.truncation {
                if cut.note.contains("output cap") {
                    cut.note.push_str(&format!(" ({flag})"));
                }
            }
        }
        self
    }

    /// The envelope as one line of JSON, secrets masked.
    pub fn to_json(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"ok":false,"error":{{"kind":"runtime","message":"envelope not serializable: {e}"}},"stdout":""}}"#)
        });
        crate::secrets::mask(&json).into_owned()
    }

    /// The envelope as a JSON value, secrets masked.
    pub fn to_value(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        crate::secrets::mask_json(&mut value);
        value
    }

    /// The envelope with every secret the engine knows masked in its text.
    pub(crate) fn masked(mut self) -> Envelope {
        use crate::secrets::{mask, mask_json};
        let text = |s: &mut String| {
            if let std::borrow::Cow::Owned(masked) = mask(s) {
                *s = masked;
            }
        };
        text(&mut self.stdout);
        if let Some(value) = &mut self.value {
            mask_json(value);
        }
        if let Some(error) = &mut self.error {
            text(&mut error.message);
            error.hint.as_mut().map(text);
        }
        for cut in &mut self.truncation {
            text(&mut cut.what);
            text(&mut cut.note);
        }
        for diagnostic in &mut self.diagnostics {
            text(&mut diagnostic.message);
        }
        self
    }
}

/// An error envelope for a script that never ran.
pub(crate) fn refused(kind: ErrorKind, message: &str) -> Envelope {
    Envelope {
        ok: false,
        value: None,
        error: Some(
            ScriptError {
                kind,
                message: message.to_string(),
                line: None,
                column: None,
                hint: None,
                limit: None,
            }
            .bounded(),
        ),
        stdout: String::new(),
        truncated: false,
        truncation: Vec::new(),
        diagnostics: Vec::new(),
        elapsed_ms: 0.0,
    }
}
