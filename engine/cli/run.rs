//! `codemode run`: a script headless, printing as it goes.

use std::process::ExitCode;

use anyhow::Context;

use crate::runtime::{Output, RunRequest};

use super::globals::Globals;
use super::report::limit_flag;

/// Runs the script; prints its returned value (as JSON) after its own output.
pub(crate) fn run(cli: &Globals, file: &str) -> anyhow::Result<ExitCode> {
    let source = read_script(file)?;
    let mut runtime = cli.one_shot_runtime(&source)?;
    cli.open_audit(runtime.registry(), "run");
    let envelope = runtime
        .run(RunRequest::new(&source).output(Output::Stream))
        .name_limits(limit_flag);
    // As `exec`: the process ends soon, and freeing the runtime would only delay it (its
    // type checker stopped and waited for, where it exits by itself when its input closes
    // with this process).
    std::mem::forget(runtime);
    // What the type checker said without stopping the run is in `codemode exec`'s
    // envelope; here stderr is the script's, so only the log (-v) repeats it.
    for d in &envelope.diagnostics {
        tracing::info!(
            "type check (line {}, column {}): {}",
            d.line,
            d.column,
            d.message
        );
    }
    if let Some(error) = &envelope.error {
        // Only a closed stdout cancels a run here: its reader had all it wanted.
        if error.limit == Some(crate::sandbox::StopCause::Cancelled) {
            return Ok(ExitCode::SUCCESS);
        }
        let line = match (error.line, error.column) {
            (Some(l), Some(c)) => format!(" (line {l}, column {c})"),
            (Some(l), None) => format!(" (line {l})"),
            _ => String::new(),
        };
        eprintln!(
            "error[{}]{line}: {}",
            serde_json::to_value(error.kind)?.as_str().unwrap_or("?"),
            error.message
        );
        if let Some(hint) = &error.hint {
            eprintln!("hint: {hint}");
        }
        return Ok(ExitCode::from(1));
    }
    match &envelope.value {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::String(s)) => outln!("{s}")?,
        Some(value) => outln!("{}", serde_json::to_string_pretty(value)?)?,
    }
    for cut in &envelope.truncation {
        eprintln!("note: {}", cut.note);
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a script from a file, or stdin for `-`.
pub(super) fn read_script(file: &str) -> anyhow::Result<String> {
    use std::io::Read;
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the script from stdin")?;
        Ok(text)
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("cannot read script {file}; give a path or - for stdin"))
    }
}
