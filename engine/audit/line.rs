//! One line of the log.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// What a line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// A whole run (a script, a `codemode call`, an MCP request).
    Run,
    /// One tool call inside a run, or one refused.
    Call,
}

/// One line: serialised with `serde_json` as one object, read back the same way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Line<'a> {
    /// When it ended, RFC 3339 in UTC to the millisecond.
    pub time: Cow<'a, str>,
    /// The agent the run acted for.
    pub agent: Cow<'a, str>,
    /// The profile the run was held to.
    pub profile: Cow<'a, str>,
    /// A run or a call.
    pub kind: Kind,
    /// The tool (`<box>.<tool>`), or `run:<front end>` (`run:exec`, `run:serve`, ...).
    pub identity: Cow<'a, str>,
    /// `ok`, or the kind of error that ended it (`runtime`, `denied`, `timeout`, ...).
    pub outcome: Cow<'a, str>,
    /// How long it took, in milliseconds.
    pub ms: f64,
    /// The bytes it gave back: a tool's result as JSON (about), a run's output and value.
    pub bytes: u64,
    /// A tool call answered from the result cache, without running the tool.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cached: bool,
    /// The run, `<process id>-<n>`: a run's call lines and its run line share it.
    pub(crate) run: Cow<'a, str>,
    /// How many tool calls a run made (run lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<u64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Now, as a line's `time`.
pub(crate) fn now() -> String {
    format!("{:.3}", jiff::Timestamp::now())
}

/// `elapsed` in milliseconds, to the microsecond.
pub(crate) fn millis(elapsed: std::time::Duration) -> f64 {
    (elapsed.as_secs_f64() * 1e6).round() / 1e3
}
