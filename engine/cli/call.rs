//! `codemode call <box>.<tool> [words...]`: one tool from a shell, a folder tool or a
//! tool of a configured MCP server (`<server>.<tool> --field value ...`).
//!
//! The words are bound against the tool's schema (as `tools.parseCommandLine` reads
//! them), the tool is called through [`crate::runtime::Runtime::run_call`], and the result
//! prints through its `render.luau` (`err` to stderr, `exit` as the exit code) or, without
//! one, as JSON. A refused command line prints the refusal and exits 2.

use std::process::ExitCode;

use crate::bind::{help, Schema};
use crate::runtime::{Args, Call, Output};
use crate::upstream::UpstreamTool;
use anyhow::Context;
use serde_json::Value as Json;

use super::globals::Globals;

/// Calls the tool named by the first word with the rest.
pub(crate) fn call(cli: &Globals, words: &[String]) -> anyhow::Result<ExitCode> {
    let (identity, words) = match words.split_first() {
        Some((first, rest)) => (first.as_str(), rest),
        None => return Ok(ExitCode::from(2)),
    };
    if !identity
        .split_once('.')
        .is_some_and(|(b, t)| !b.is_empty() && !t.is_empty())
    {
        eprintln!("codemode call: '{identity}' is not a tool; name it as <box>.<tool>, e.g. text.slugify (codemode list shows them)");
        return Ok(ExitCode::from(2));
    }
    let mut runtime = cli.runtime()?;
    cli.open_audit(runtime.registry(), "call");
    let index = runtime.registry().snapshot();
    fetch_named(runtime.registry(), &index, identity, cli.limits().timeout)?;
    let identity = &as_configured(runtime.registry(), &index, identity);
    if let Some(entry) = index.tool(identity) {
        let schema = Schema::from_meta(entry.meta());
        if wants_help(&schema, words) {
            out!("{}", help(&schema, entry.meta()))?;
            return Ok(ExitCode::SUCCESS);
        }
    } else if let Some((server, tool)) = upstream_tool(runtime.registry(), &index, identity) {
        let meta = tool.meta(&server);
        let schema = Schema::from_meta(&meta);
        if wants_help(&schema, words) {
            print!("{}", help(&schema, &meta));
            print!("{}", upstream_fields(&tool));
            return Ok(ExitCode::SUCCESS);
        }
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let args = Args::Words {
        words: words.to_vec(),
        cwd: Some(cwd),
    };
    let called = match runtime.run_call(Call::new(identity, args).rendered(), Output::Stream, None)
    {
        Ok(called) => called,
        Err(refusal) => {
            eprintln!("codemode call: {}", refusal.message);
            if let Some(note) = super::globals::misplaced_global_flag(words) {
                eprintln!("hint: {note}");
            }
            return Ok(ExitCode::from(2));
        }
    };
    let envelope = called.envelope.name_limits(super::report::limit_flag);
    if let Some(error) = &envelope.error {
        eprintln!("codemode call {identity}: {}", error.message);
        // The run's hint names Luau (`tools.get(...)`); at a shell, the usage says more.
        match &error.hint {
            _ if error.kind == crate::runtime::ErrorKind::Denied => {
                eprintln!("hint: the profile decides which tools may be called; `codemode list` shows the ones it allows")
            }
            Some(hint) if hint.contains("tools.get(") => {
                eprintln!("hint: `codemode call {identity} --help` shows what it takes")
            }
            Some(hint) => eprintln!("hint: {hint}"),
            None => {}
        }
        return Ok(ExitCode::from(1));
    }
    let code = match called.rendered {
        Some(shown) => {
            if !shown.out.is_empty() {
                outln!("{}", shown.out.strip_suffix('\n').unwrap_or(&shown.out))?;
            }
            if let Some(err) = shown.err.filter(|s| !s.is_empty()) {
                eprintln!("{}", err.strip_suffix('\n').unwrap_or(&err));
            }
            ExitCode::from(shown.exit.unwrap_or(0).clamp(0, 255) as u8)
        }
        None => {
            match envelope.value.unwrap_or(Json::Null) {
                Json::Null => {}
                value => outln!("{}", serde_json::to_string_pretty(&value)?)?,
            }
            ExitCode::SUCCESS
        }
    };
    for cut in &envelope.truncation {
        eprintln!("note: {}", cut.note);
    }
    Ok(code)
}

/// `--help` or `-h` among the words (before `--`), unless the tool takes a flag of that name.
fn wants_help(schema: &Schema, words: &[String]) -> bool {
    words.iter().take_while(|w| *w != "--").any(|w| {
        (w == "--help" && schema.slot_type("help").is_none())
            || (w == "-h" && schema.short_flag('h').is_none())
    })
}

/// `identity` with an MCP server and tool named as the server and mcp.json write them
/// (`odd-server.get-thing`) turned into the names scripts use (`odd_server.get_thing`).
fn as_configured(
    registry: &crate::registry::Registry,
    index: &crate::assets::AssetIndex,
    identity: &str,
) -> String {
    if index.tool(identity).is_some() {
        return identity.to_string();
    }
    let views = registry.upstream_views(index);
    // A server's own name may hold dots: the longest configured name that fits wins.
    let found = views
        .iter()
        .filter_map(|v| {
            let tool = identity
                .strip_prefix(v.original.as_str())
                .or_else(|| identity.strip_prefix(v.name.as_str()))?
                .strip_prefix('.')?;
            Some((v, tool))
        })
        .max_by_key(|(v, _)| v.original.len());
    let Some((view, tool)) = found else {
        return identity.to_string();
    };
    let tool = view
        .tools()
        .iter()
        .find(|t| t.name == tool)
        .or_else(|| view.tools().iter().find(|t| t.original == tool))
        .map_or(tool, |t| t.name.as_str());
    format!("{}.{tool}", view.name)
}

/// Fetches the tools of the configured MCP server `identity` names (as scripts or its
/// mcp.json name it) when they are not in the cache yet, within `timeout`: its words are
/// read against the tool's input schema.
fn fetch_named(
    registry: &crate::registry::Registry,
    index: &crate::assets::AssetIndex,
    identity: &str,
    timeout: std::time::Duration,
) -> anyhow::Result<()> {
    let Some(upstreams) = registry.upstreams() else {
        return Ok(());
    };
    let named = registry.upstream_views(index).into_iter().find(|v| {
        v.catalogue.is_none()
            && [&v.name, &v.original].iter().any(|n| {
                identity
                    .strip_prefix(n.as_str())
                    .is_some_and(|t| t.starts_with('.'))
            })
    });
    let Some(view) = named else {
        return Ok(());
    };
    let until = std::time::Instant::now() + timeout;
    upstreams
        .start_fetch(&view.name)
        .wait(until, &|| false)
        .map(drop)
        .map_err(|e| {
            let file = upstreams
                .server(&view.name)
                .map_or_else(|| ".codemode/mcp.json".into(), |c| c.file.display().to_string());
            anyhow::anyhow!("{e}\nhint: the call reads its words against the server's tools; fix the entry of '{}' in {file}, then call again", view.original)
        })
}

/// The tool of a configured MCP server that `identity` names, from its cached catalogue.
fn upstream_tool(
    registry: &crate::registry::Registry,
    index: &crate::assets::AssetIndex,
    identity: &str,
) -> Option<(String, UpstreamTool)> {
    let (server, tool) = identity.split_once('.')?;
    let views = registry.upstream_views(index);
    let found = views
        .iter()
        .find(|v| v.name == server)?
        .tools()
        .iter()
        .find(|t| t.name == tool)?
        .clone();
    Some((server.to_string(), found))
}

/// What each property of an MCP tool's input means, which the usage above cannot say.
fn upstream_fields(tool: &UpstreamTool) -> String {
    let types = tool.types();
    let described: Vec<_> = types
        .args
        .iter()
        .filter_map(|a| a.description.as_deref().map(|d| (a, d)))
        .collect();
    if described.is_empty() {
        return String::new();
    }
    let width = described
        .iter()
        .map(|(a, _)| a.name.len() + 2)
        .max()
        .unwrap_or(0)
        .min(32);
    let mut out = String::from("\nfields (from the server's input schema):\n");
    for (arg, description) in described {
        let name = format!("--{}", arg.name);
        let required = if arg.optional { "" } else { " (required)" };
        let line = description.lines().next().unwrap_or("");
        out.push_str(&format!("  {name:width$}  {line}{required}\n"));
    }
    out
}
