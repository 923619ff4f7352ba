//! `codemode search QUERY [--mode M] [--toolbox B] [--limit N] [--all] [--json]`:
//! `tools.search`.

use std::process::ExitCode;

use crate::runtime::Surface;
use crate::search::{Given, SearchRequest};
use serde_json::Value as Json;

use super::globals::Globals;
use super::report::print_value;

/// What `codemode search` was asked, as written on the command line.
pub(crate) struct SearchArgs<'a> {
    /// The query ("" lists).
    pub query: &'a str,
    /// `keyword` or `semantic`.
    pub mode: Option<&'a str>,
    /// Only this toolbox.
    pub toolbox: Option<&'a str>,
    /// Rows to show.
    pub limit: Option<&'a str>,
    /// Print `{value, total, weak}` as JSON instead of text.
    pub json: bool,
    /// Also rows below the relevance threshold.
    pub all: bool,
}

/// Checks the options as `tools.search` checks its own (a refusal is a usage error, exit
/// 2), then prints `tools.search(...)`'s text, or with `--json` its value, total and how
/// many weak rows it hid (so a program tells "nothing at all" from "only weak matches").
pub(crate) fn search(cli: &Globals, args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let text = |v: Option<&str>| v.map_or(Given::Absent, |s| Given::Text(s.to_string()));
    // A word that reads as a number is one, so "1.5" and "0" get the limit's own message.
    let limit = match args.limit {
        None => Given::Absent,
        Some(word) => word
            .parse::<f64>()
            .map_or_else(|_| Given::Text(word.to_string()), Given::Number),
    };
    let options = [
        ("mode".to_string(), text(args.mode)),
        ("toolbox".to_string(), text(args.toolbox)),
        ("limit".to_string(), limit),
        ("all".to_string(), Given::Flag(args.all)),
    ];
    let request = match SearchRequest::check(Given::Text(args.query.to_string()), options) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("codemode search: {}", e.message("--"));
            return Ok(ExitCode::from(2));
        }
    };
    let surface = Surface::new(
        "search",
        vec![
            Json::String(request.query.clone()),
            Json::Object(request.options()),
        ],
    );
    let surface = if args.json {
        surface.pick(&["value", "total", "weak"])
    } else {
        surface.pick(&["stdout"])
    };
    let mut runtime = cli.runtime()?;
    // A search at the shell starts no server: one not fetched yet is searched without
    // its tools, and `codemode mcp sync` fetches them.
    runtime.registry().set_fetch_on_use(false);
    let mut envelope = runtime.run_surface(&surface, None);
    if let Some(Json::String(text)) = &mut envelope.value {
        *text = as_flags(text);
    }
    print_value("codemode search", &envelope)
}

/// `tools.search`'s text names its options as a script writes them; here they are flags.
fn as_flags(text: &str) -> String {
    text.replace("all = true", "--all")
        .replace("mode = \"semantic\"", "--mode semantic")
        .replace("tools.toolboxes()", "codemode list")
}
