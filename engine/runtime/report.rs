//! Turning a failed run into the envelope's error: kind, message, line and hint.

use super::envelope::{ErrorKind, ScriptError};
use crate::assets::AssetIndex;
use crate::sandbox::{find_host_error, Limits, StopCause};

/// For an error raised inside a tool (`text.slugify:7: ...`), or a call of it refused
/// before it ran (`script:3: text.slugify: argument text: ...`), the tool's signature: a
/// wrong or missing argument is the usual cause, and the message alone does not say so.
pub(crate) fn inside_tool_hint(message: &str, index: &AssetIndex) -> Option<String> {
    let first = message.split(':').next()?.trim();
    let (identity, inside) = match index.tool(first) {
        Some(_) => (first, true),
        None => {
            // After the caller's position, the refusal starts with the identity.
            let rest = message.splitn(3, ':').nth(2)?.trim_start();
            (rest.split([':', ' ']).next()?, false)
        }
    };
    let entry = index.tool(identity)?;
    let meta = entry.meta();
    let signature = meta.signature.as_deref()?;
    let call = format!(
        "tools.{}.{signature} (tools.get('{identity}') has the details)",
        meta.toolbox
    );
    Some(if inside {
        format!("the error was raised inside tools.{identity}; check the call against its signature: {call}")
    } else {
        format!("the call does not fit the tool's signature: {call}")
    })
}

/// The envelope's error for a run that failed with `error` (none when only a limit
/// stopped it) or that `cause` stopped; `waited` is what the deadline ended a wait for.
pub(crate) fn script_error(
    error: Option<&mlua::Error>,
    cause: Option<StopCause>,
    waited: Option<&str>,
    limits: &Limits,
) -> ScriptError {
    let raw = error.map(ToString::to_string).unwrap_or_default();
    let line = script_line(&raw);
    if let Some(cause) = cause {
        let (kind, mut message) = stopped(cause, limits);
        // A wait for something outside the VM (an upstream call) that the deadline ended
        // names what it waited for: the limit alone does not say which call to blame.
        let raised = error
            .and_then(find_host_error)
            .filter(|h| h.timed_out)
            .map(|h| h.message.as_str());
        if let Some(waited) = raised.or(waited).filter(|_| cause == StopCause::Deadline) {
            message = format!("{message}: {waited}");
        }
        return ScriptError {
            kind,
            message,
            line,
            column: None,
            hint: Some(cause.remedy().to_string()),
            limit: Some(cause),
        };
    }
    let host = error.and_then(find_host_error);
    let (kind, message, hint) = match error {
        Some(mlua::Error::SyntaxError { message, .. }) => (
            ErrorKind::Syntax,
            clean(message),
            Some(syntax_hint(message)),
        ),
        _ => (
            match host {
                Some(h) if h.denied => ErrorKind::Denied,
                Some(h) if h.timed_out => ErrorKind::Timeout,
                _ => ErrorKind::Runtime,
            },
            host.map(|h| h.message.clone())
                .unwrap_or_else(|| clean(&raw)),
            host.and_then(|h| h.hint.clone()),
        ),
    };
    // Luau's own words when turning the error value into text raised again: say which.
    let (message, hint) = match (message.as_str(), hint) {
        ("error in error handling", None) => (
            "the script raised an error value that could not be turned into text (its __tostring raised an error in turn)".to_string(),
            Some("raise a string, such as error(\"what went wrong\"), or a table whose __tostring returns one".to_string()),
        ),
        (_, hint) => (message, hint),
    };
    ScriptError {
        kind,
        message,
        line,
        column: None,
        hint,
        limit: None,
    }
}

/// The kind and message for a run a limit stopped.
fn stopped(cause: StopCause, limits: &Limits) -> (ErrorKind, String) {
    match cause {
        StopCause::Cancelled => (
            ErrorKind::Limit,
            "the run was stopped by its caller before it finished (the request was cancelled)"
                .to_string(),
        ),
        StopCause::Deadline => (
            ErrorKind::Timeout,
            format!(
                "the script ran past its deadline of {} ms",
                limits.timeout.as_millis()
            ),
        ),
        StopCause::Memory => (
            ErrorKind::Memory,
            format!(
                "the script used more than the memory limit of {} MiB",
                limits.memory_bytes >> 20
            ),
        ),
        StopCause::Output => (
            ErrorKind::Output,
            format!(
                "print output passed the cap of {} bytes; stdout holds the first part",
                limits.max_output_bytes
            ),
        ),
        StopCause::Coroutines => (
            ErrorKind::Limit,
            format!(
                "the script created more than {} coroutines",
                limits.max_coroutines
            ),
        ),
        StopCause::Stack => (
            ErrorKind::Limit,
            "stack overflow: recursion went too deep".to_string(),
        ),
    }
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
pub(crate) fn script_line(raw: &str) -> Option<u32> {
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
#[path = "../../tests/unit/runtime/report.rs"]
mod tests;
