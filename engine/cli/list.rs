//! `codemode list [TIER] [TOOLBOX]`: the same as `tools.list`.

use std::process::ExitCode;

use crate::runtime::Surface;
use serde_json::Value as Json;

use super::globals::Globals;
use super::report::print_value;

/// Prints `tools.list(...)`'s text, or its value with `--json`.
pub(crate) fn list(cli: &Globals, args: &[String], json: bool) -> anyhow::Result<ExitCode> {
    if let Some(bad) = args
        .iter()
        .find(|a| a.parse::<i64>().is_ok_and(|n| !(1..=3).contains(&n)))
    {
        eprintln!("codemode list: the tier is 1, 2 or 3, got {bad}; e.g. `codemode list 2` or `codemode list text 3`");
        return Ok(ExitCode::from(2));
    }
    let field = if json { "value" } else { "stdout" };
    let mut runtime = cli.listing_runtime()?;
    // A tier is a number and anything else a toolbox name, as `tools.list` reads them; an
    // MCP server may be named as its mcp.json writes it.
    let call_args: Vec<Json> = args
        .iter()
        .map(|a| match a.parse::<u8>() {
            Ok(n) => Json::from(n),
            Err(_) => Json::String(
                runtime
                    .registry()
                    .upstream_toolbox(a)
                    .unwrap_or_else(|| a.clone()),
            ),
        })
        .collect();
    let envelope = runtime.run_surface(&Surface::new("list", call_args).pick(&[field]), None);
    let code = print_value("codemode list", &envelope)?;
    // What the listing cannot show (a toolbox skipped, a file unread) is said where the
    // reader of a terminal sees it, without changing what stdout holds.
    let problems = runtime.registry().snapshot().problems.len();
    if problems > 0 {
        eprintln!(
            "note: {problems} {} in the world's toolboxes (a folder skipped or a file not read); `codemode check` lists them",
            if problems == 1 { "problem" } else { "problems" }
        );
    }
    // The process ends here: freeing the VM's rows and the index one by one took a tenth
    // of a 100,000-tool listing, and exiting frees them at once. A listing starts no
    // server and writes nothing after this, so nothing is left undone.
    std::mem::forget(runtime);
    Ok(code)
}
