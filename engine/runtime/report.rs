//! Turning a failed run into the envelope's error: kind, message, line and hint.

use super::deadline::Cutoff;
use super::envelope::{ErrorKind, ScriptError};
use super::hosterror::find_host_error;
use super::limits::Limits;
use super::state::Breach;
use crate::assets::AssetIndex;

/// What the runtime knows about how a run ended besides the error itself.
pub struct Ending {
    /// The interrupt cut the run off (deadline, or its caller asked it to stop).
    pub cutoff: Option<Cutoff>,
    /// A limit tracked by the run state was hit.
    pub breach: Option<Breach>,
}

/// For an error raised inside a tool (`text.slugify:7: ...`), the tool's signature: a
/// wrong or missing argument is the usual cause, and the message alone does not say so.
pub fn inside_tool_hint(message: &str, index: &AssetIndex) -> Option<String> {
    let identity = message.split(':').next()?.trim();
    let entry = index.tool(identity)?;
    let meta = entry.meta();
    let signature = meta.signature.as_deref()?;
    Some(format!(
        "the error was raised inside tools.{identity}; check the call against its signature: tools.{}.{signature} (tools.get('{identity}') has the details)",
        meta.toolbox
    ))
}

/// Classifies an error into the envelope's shape.
pub fn script_error(error: &mlua::Error, ending: &Ending, limits: &Limits) -> ScriptError {
    let raw = error.to_string();
    let line = script_line(&raw);
    let host = find_host_error(error);
    let (kind, message, hint) = if ending.cutoff == Some(Cutoff::Stopped) {
        (
            ErrorKind::Limit,
            "the run was stopped by its caller before it finished (the request was cancelled)"
                .to_string(),
            Some(
                "nothing to fix in the script: send it again if its result is still wanted"
                    .to_string(),
            ),
        )
    } else if ending.cutoff == Some(Cutoff::Deadline) {
        (
            ErrorKind::Timeout,
            format!(
                "the script ran past its deadline of {} ms",
                limits.timeout.as_millis()
            ),
            Some(
                "do less per call (split the work over several scripts) or raise --timeout-ms"
                    .to_string(),
            ),
        )
    } else if is_memory(error, &raw) {
        (
            ErrorKind::Memory,
            format!(
                "the script used more than the memory limit of {} MiB",
                limits.memory_bytes >> 20
            ),
            Some(
                "build smaller values (stream or page through data) or raise --memory-mb"
                    .to_string(),
            ),
        )
    } else if ending.breach == Some(Breach::Output) {
        (
            ErrorKind::Output,
            format!(
                "print output passed the cap of {} bytes; stdout holds the first part",
                limits.max_output_bytes
            ),
            Some(
                "print less (return a summary value instead) or raise --max-output-bytes"
                    .to_string(),
            ),
        )
    } else if ending.breach == Some(Breach::Coroutines) {
        (
            ErrorKind::Limit,
            format!(
                "the script created more than {} coroutines",
                limits.max_coroutines
            ),
            Some("reuse coroutines instead of creating one per item".to_string()),
        )
    } else if raw.contains("stack overflow") {
        (
            ErrorKind::Limit,
            "stack overflow: recursion went too deep".to_string(),
            Some("turn the recursion into a loop, or bound its depth".to_string()),
        )
    } else if let mlua::Error::SyntaxError { message, .. } = error {
        (
            ErrorKind::Syntax,
            clean(message),
            Some(syntax_hint(message)),
        )
    } else {
        let message = host
            .map(|h| h.message.clone())
            .unwrap_or_else(|| clean(&raw));
        (
            ErrorKind::Runtime,
            message,
            host.and_then(|h| h.hint.clone()),
        )
    };
    ScriptError {
        kind,
        message,
        line,
        hint,
    }
}

fn is_memory(error: &mlua::Error, raw: &str) -> bool {
    matches!(error, mlua::Error::MemoryError(_)) || raw.contains("not enough memory")
}

fn syntax_hint(message: &str) -> String {
    if message.contains("recursion depth") {
        "the source nests too deeply; flatten it".to_string()
    } else {
        "scripts are Luau source text; fix the line named above".to_string()
    }
}

/// The first line of an error, without mlua's wrapping or the traceback.
fn clean(raw: &str) -> String {
    let first = raw.split("\nstack traceback:").next().unwrap_or(raw);
    let first = first.strip_prefix("runtime error: ").unwrap_or(first);
    let first = first.strip_prefix("syntax error: ").unwrap_or(first);
    first.trim().to_string()
}

/// The line of the script (chunk `script`) an error names, if any.
pub fn script_line(raw: &str) -> Option<u32> {
    raw.match_indices("script:").find_map(|(at, _)| {
        let before = raw[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '/') {
            return None;
        }
        let digits: String = raw[at + 7..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_script_line() {
        assert_eq!(script_line("script:12: boom"), Some(12));
        assert_eq!(
            script_line("text.slugify:3: bad\nstack traceback:\n\tscript:7: in main"),
            Some(7)
        );
        assert_eq!(script_line("myscript:3: x"), None);
    }
}
