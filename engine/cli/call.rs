//! `codemode call <box>.<tool> [words...]`: one tool from a shell.
//!
//! The words are read by `tools.parseCommandLine` against the tool's schema, the tool is
//! called, and the result prints through its `render.luau` (`err` to stderr, `exit` as
//! the exit code) or, without one, as JSON. A refused command line prints the refusal
//! and exits 2.

use std::process::ExitCode;

use anyhow::Context;
use codemode::bind::{help, Schema};
use codemode::Output;
use serde_json::Value as Json;

use super::Cli;

/// Calls the tool named by the first word with the rest.
pub fn call(cli: &Cli, words: &[String]) -> anyhow::Result<ExitCode> {
    let (identity, words) = match words.split_first() {
        Some((first, _)) if first == "--help" || first == "-h" => {
            let mut command = <Cli as clap::CommandFactory>::command();
            if let Some(call) = command.find_subcommand_mut("call") {
                call.print_help()?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        Some((first, rest)) => (first.as_str(), rest),
        None => return Ok(ExitCode::from(2)),
    };
    let mut runtime = cli.runtime()?;
    let index = runtime.registry().snapshot();
    let Some((toolbox, tool)) = identity.split_once('.') else {
        eprintln!("codemode call: '{identity}' is not a tool; name it as <box>.<tool>, e.g. text.slugify (codemode list shows them)");
        return Ok(ExitCode::from(2));
    };
    let Some(entry) = index.tool(identity) else {
        let script = format!("return tools.bind({}, {{}})", luau_quote(identity));
        let message = match runtime.exec(&script, Output::Capture).value {
            Some(Json::Object(r)) => r.get("message").and_then(Json::as_str).map(str::to_string),
            _ => None,
        };
        eprintln!(
            "codemode call: {}",
            message.unwrap_or_else(|| format!("no tool {identity}"))
        );
        return Ok(ExitCode::from(2));
    };
    let schema = Schema::from_meta(entry.meta());
    if wants_help(&schema, words) {
        print!("{}", help(&schema, entry.meta()));
        return Ok(ExitCode::SUCCESS);
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let quoted: Vec<String> = words.iter().map(|w| luau_quote(w)).collect();
    let script = format!(
        r#"local r = tools.parseCommandLine({id}, {{ {words} }}, {{ cwd = {cwd} }})
if not r.ok then
	return {{ stage = "refused", message = r.message }}
end
local value = tools.use({toolbox}, {tool})(table.unpack(r.args, 1, r.n))
local shown = tools.render({id}, value)
if shown == nil then
	return {{ stage = "value", value = value }}
end
return {{ stage = "rendered", out = shown.out, err = shown.err, exit = shown.exit }}
"#,
        id = luau_quote(identity),
        words = quoted.join(", "),
        cwd = luau_quote(&cwd.to_string_lossy()),
        toolbox = luau_quote(toolbox),
        tool = luau_quote(tool),
    );
    let envelope = runtime
        .exec(&script, Output::Stream)
        .name_limits(super::limit_flag);
    if let Some(error) = &envelope.error {
        // No line number: it would point into the generated call script, not the tool.
        eprintln!("codemode call {identity}: {}", error.message);
        if let Some(hint) = &error.hint {
            eprintln!("hint: {hint}");
        }
        return Ok(ExitCode::from(1));
    }
    let result = envelope.value.unwrap_or(Json::Null);
    let field = |name: &str| result.get(name).cloned().unwrap_or(Json::Null);
    let code = match field("stage").as_str() {
        Some("refused") => {
            eprintln!(
                "codemode call: {}",
                field("message").as_str().unwrap_or("refused")
            );
            ExitCode::from(2)
        }
        Some("rendered") => {
            if let Some(out) = field("out").as_str().filter(|s| !s.is_empty()) {
                println!("{}", out.strip_suffix('\n').unwrap_or(out));
            }
            if let Some(err) = field("err").as_str().filter(|s| !s.is_empty()) {
                eprintln!("{}", err.strip_suffix('\n').unwrap_or(err));
            }
            let exit = field("exit").as_f64().unwrap_or(0.0).clamp(0.0, 255.0);
            ExitCode::from(exit as u8)
        }
        _ => {
            match field("value") {
                Json::Null => {}
                value => println!("{}", serde_json::to_string_pretty(&value)?),
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

/// `text` as a Luau string literal: quotes, backslashes and control bytes escaped.
fn luau_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
