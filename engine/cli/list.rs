//! `codemode list [TIER] [TOOLBOX]`: the same as `tools.list`.

use std::process::ExitCode;

use codemode::Output;

use super::{print_value, Cli};

/// Prints `tools.list(...)`'s text, or its value with `--json`.
pub fn list(cli: &Cli, args: &[String], json: bool) -> anyhow::Result<ExitCode> {
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
