//! What a command prints of a run at the shell: the value, or the error with its hint in
//! the shell's own words; and the flag that raises a limit a run hit.

use std::process::ExitCode;

/// The flag that raises the limit a run hit, for hints.
pub(crate) fn limit_flag(cause: crate::sandbox::StopCause) -> Option<String> {
    use crate::sandbox::StopCause as S;
    match cause {
        S::Deadline => Some("--timeout-ms".into()),
        S::Memory => Some("--memory-mb".into()),
        S::Output => Some("--max-output-bytes".into()),
        S::Cancelled | S::Coroutines | S::Stack => None,
    }
}

/// A hint written for scripts, in the commands a person at a shell types instead:
/// `tools.toolboxes()` is `codemode list`, `tools.list('text', 2)` is `codemode list 2 text`.
fn at_the_shell(hint: &str) -> String {
    let mut out = hint
        .replace("tools.toolboxes()", "`codemode list`")
        .replace("did you mean tools.", "did you mean ");
    while let Some(start) = out.find("tools.list('") {
        let rest = &out[start + "tools.list('".len()..];
        let Some((name, after)) = rest.split_once("', ") else {
            break;
        };
        let Some((tier, tail)) = after.split_once(')') else {
            break;
        };
        let command = format!("`codemode list {tier} {name}`");
        out = format!("{}{command}{tail}", &out[..start]);
    }
    out
}

/// Prints what a command's script returned: text as is, other values as JSON; an error
/// and its hint go to stderr with exit 1.
pub(super) fn print_value(
    command: &str,
    envelope: &crate::runtime::Envelope,
) -> anyhow::Result<ExitCode> {
    // A cut listing must not pass for the whole one: say so where the reader looks last.
    let named = crate::runtime::Envelope {
        value: None,
        ..envelope.clone()
    }
    .name_limits(limit_flag);
    for cut in &named.truncation {
        eprintln!(
            "{command}: the {} was cut at {} bytes: {}",
            cut.what, cut.cap_bytes, cut.note
        );
    }
    match (&envelope.error, &envelope.value) {
        (Some(error), _) => {
            eprintln!("{command}: {}", error.message);
            if let Some(hint) = &error.hint {
                eprintln!("hint: {}", at_the_shell(hint));
            }
            Ok(ExitCode::from(1))
        }
        (None, Some(serde_json::Value::String(text))) => {
            outln!("{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        (None, value) => {
            outln!("{}", serde_json::to_string_pretty(&value)?)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
