//! `codemode list [TIER] [TOOLBOX]`: the same as `tools.list`.

use std::process::ExitCode;

use codemode::Output;

use super::{print_value, Cli};

/// Prints `tools.list(...)`'s text, or its value with `--json`.
pub fn list(cli: &Cli, args: &[String], json: bool) -> anyhow::Result<ExitCode> {
    if let Some(bad) = args
        .iter()
        .find(|a| a.parse::<i64>().is_ok_and(|n| !(1..=3).contains(&n)))
    {
        eprintln!("codemode list: the tier is 1, 2 or 3, got {bad}; e.g. `codemode list 2` or `codemode list text 3`");
        return Ok(ExitCode::from(2));
    }
    let call_args: Vec<String> = args
        .iter()
        .map(|a| match a.parse::<u8>() {
            Ok(n) => n.to_string(),
            Err(_) => serde_json::to_string(a).unwrap_or_default(),
        })
        .collect();
    let field = if json { "value" } else { "stdout" };
    let script = format!("return tools.list({}).{field}", call_args.join(", "));
    let mut runtime = cli.runtime()?;
    let envelope = runtime.exec(&script, Output::Capture);
    print_value("codemode list", &envelope)
}
