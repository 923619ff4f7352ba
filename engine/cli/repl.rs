//! `codemode repl`: the interactive session (scriptable when stdin is not a terminal).

use std::process::ExitCode;

use crate::repl::Repl;

use super::globals::Globals;

/// Runs the REPL. Exit 0, or 1 when stdin is not a terminal and an entry failed.
pub(crate) fn repl(cli: &Globals) -> anyhow::Result<ExitCode> {
    let runtime = cli.script_runtime()?;
    cli.open_audit(runtime.registry(), "repl");
    // As `serve`: the memory freed reading a large world goes back to the system.
    crate::cache::release_freed_memory();
    // Edits made in an editor show in the next entry, without :reload.
    let _watcher = cli.keep_current(runtime.registry());
    if let Some(checking) = runtime.checking() {
        report_edits(checking.clone(), runtime.registry());
    }
    let failures = Repl::new(runtime).run()?;
    let scripted = !std::io::IsTerminal::is_terminal(&std::io::stdin());
    Ok(if scripted && failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reports on stderr what is wrong with each tool the watcher sees edited (it does not
/// compile, or has type errors), as it is saved.
pub(crate) fn report_edits(
    checking: std::sync::Arc<crate::check::Checking>,
    registry: &std::sync::Arc<crate::registry::Registry>,
) {
    let started = crate::runtime::check_edits(checking, registry, |report| {
        tracing::warn!("{report}");
    });
    if let Err(e) = started {
        tracing::info!("edited tools are not checked as they are saved: {e}");
    }
}
