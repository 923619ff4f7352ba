//! `codemode exec`: one JSON envelope on stdout, whatever the script does.

use std::process::ExitCode;

use codemode::Output;

use super::{limit_flag, read_script, Cli};

/// Runs the script and prints its envelope. Exit 0 ok, 1 script error.
pub fn exec(cli: &Cli, file: &str) -> anyhow::Result<ExitCode> {
    let source = read_script(file)?;
    let mut runtime = cli.runtime()?;
    let envelope = runtime
        .exec(&source, Output::Capture)
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
