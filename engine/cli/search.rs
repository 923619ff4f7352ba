//! `codemode search QUERY [--mode M] [--toolbox B] [--limit N] [--json]`: `tools.search`.

use std::process::ExitCode;

use codemode::Output;

use super::{print_value, Cli};

/// What `codemode search` was asked.
pub struct SearchArgs<'a> {
    /// The query ("" lists).
    pub query: &'a str,
    /// `keyword` or `semantic`.
    pub mode: Option<&'a str>,
    /// Only this toolbox.
    pub toolbox: Option<&'a str>,
    /// Rows to show.
    pub limit: Option<i64>,
    /// Print `{value, total}` as JSON instead of text.
    pub json: bool,
}

/// A Luau string literal holding `text` exactly (every byte that is not plain is escaped).
fn luau_string(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b == b' ' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\{b:03}"));
        }
    }
    out.push('"');
    out
}

/// Prints `tools.search(...)`'s text, or its value and total with `--json`.
pub fn search(cli: &Cli, args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let mut opts = Vec::new();
    if let Some(m) = args.mode {
        opts.push(format!("mode = {}", luau_string(m)));
    }
    if let Some(b) = args.toolbox {
        opts.push(format!("toolbox = {}", luau_string(b)));
    }
    if let Some(n) = args.limit {
        opts.push(format!("limit = {n}"));
    }
    let result = if args.json {
        "{ value = r.value, total = r.total }"
    } else {
        "r.stdout"
    };
    let script = format!(
        "local r = tools.search({}, {{ {} }})\nreturn {result}",
        luau_string(args.query),
        opts.join(", ")
    );
    let mut runtime = cli.runtime()?;
    let envelope = runtime.exec(&script, Output::Capture);
    print_value("codemode search", &envelope)
}
