//! `codemode repl`: the interactive session (scriptable when stdin is not a terminal).

use std::process::ExitCode;

use codemode::repl::Repl;

use super::Cli;

/// Runs the REPL. Exit 0, or 1 when stdin is not a terminal and an entry failed.
pub fn repl(cli: &Cli) -> anyhow::Result<ExitCode> {
    let runtime = cli.runtime()?;
    // Edits made in an editor show in the next entry, without :reload.
    let _watcher = cli.watch(runtime.registry());
    let failures = Repl::new(runtime).run()?;
    let scripted = !std::io::IsTerminal::is_terminal(&std::io::stdin());
    Ok(if scripted && failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
