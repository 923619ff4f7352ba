//! `codemode exec`: one JSON envelope on stdout, whatever the script does.

use std::process::ExitCode;

use crate::runtime::ScriptError;
use crate::runtime::{Envelope, ErrorKind, RunRequest};

use super::globals::Globals;
use super::report::limit_flag;
use super::run::read_script;

/// Runs the script and prints its envelope. Exit 0 ok, 1 script error, 2 no script to run.
pub(crate) fn exec(cli: &Globals, file: &str) -> anyhow::Result<ExitCode> {
    // An agent's wrapper parses stdout: even a script that cannot be read gets its envelope.
    let source = match read_script(file) {
        Ok(source) => source,
        Err(e) => {
            let envelope = Envelope {
                ok: false,
                value: None,
                error: Some(ScriptError {
                    kind: ErrorKind::Input,
                    message: format!("{e:#}"),
                    line: None,
                    column: None,
                    hint: Some(
                        "pass the path of a Luau file that exists, or - to read the script from stdin"
                            .to_string(),
                    ),
                    limit: None,
                }),
                stdout: String::new(),
                truncated: false,
                truncation: Vec::new(),
                diagnostics: Vec::new(),
                elapsed_ms: 0.0,
            };
            println!("{}", envelope.to_json());
            eprintln!("codemode: {e:#}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut runtime = cli.one_shot_runtime(&source)?;
    cli.open_audit(runtime.registry(), "exec");
    let envelope = runtime
        .run(RunRequest::new(&source))
        .name_limits(limit_flag);
    outln!("{}", envelope.to_json())?;
    // The process ends here: freeing the VM and the index would only delay the exit (a
    // sixth of a one-line script's start-up). Upstream servers are still stopped by the
    // exit hook that started them.
    std::mem::forget(runtime);
    Ok(if envelope.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
