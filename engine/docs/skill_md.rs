//! A toolbox's SKILL.md: frontmatter (`name`, `description`) an agent's skill loader
//! matches requests against, then when to use the toolbox and the workflow to follow.

use std::fmt::Write;

use crate::assets::BoxKind;

use super::gather::{first_sentence, BoxDoc, ToolDoc};
use super::tool_md::{call_line, cell};

/// Skill loaders cap the description; stay under the common 1024-character limit.
const MAX_DESCRIPTION: usize = 1000;

/// The frontmatter description: purpose, then when to use it and which tools it offers.
pub(crate) fn description(toolbox: &BoxDoc) -> String {
    let purpose = toolbox.purpose.trim().trim_end_matches('.');
    let purpose = if purpose.is_empty() {
        format!("Tools of the codemode toolbox '{}'", toolbox.name)
    } else {
        purpose.to_string()
    };
    let names: Vec<&str> = callable(toolbox)
        .map(|t| t.entry.meta().name.as_str())
        .collect();
    let mut text = format!(
        "{purpose}. Use when a task needs {}: call them from a codemode Luau script as tools.{}.<tool>(...).",
        if names.is_empty() { "this toolbox".to_string() } else { names.join(", ") },
        toolbox.name
    );
    let tags = tags(toolbox);
    if !tags.is_empty() {
        let _ = write!(text, " Keywords: {}.", tags.join(", "));
    }
    if text.chars().count() > MAX_DESCRIPTION {
        text = text.chars().take(MAX_DESCRIPTION - 1).collect::<String>() + "…";
    }
    text
}

/// The tools a call can reach; the others are listed only under Failure modes.
fn callable(toolbox: &BoxDoc) -> impl Iterator<Item = &ToolDoc> {
    toolbox.tools.iter().filter(|t| t.entry.is_registered())
}

fn tags(toolbox: &BoxDoc) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in toolbox
        .tags
        .iter()
        .chain(toolbox.tools.iter().flat_map(|t| t.tags.iter()))
    {
        if !out.contains(t) {
            out.push(t.clone());
        }
    }
    out
}

/// A YAML double-quoted scalar (JSON string syntax is a subset YAML reads the same way).
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

/// Renders the whole SKILL.md.
pub(crate) fn render(toolbox: &BoxDoc) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "---\nname: {}\ndescription: {}\n---\n",
        toolbox.slug,
        yaml_string(&description(toolbox))
    );
    let _ = writeln!(md, "# {}\n", toolbox.name);
    if !toolbox.purpose.is_empty() {
        let _ = writeln!(md, "{}\n", toolbox.purpose);
    }
    md.push_str("## When to Use This Skill\n\n");
    if !toolbox.purpose.is_empty() {
        let _ = writeln!(
            md,
            "- The request is about: {}",
            toolbox.purpose.trim_end_matches('.')
        );
    }
    let tags = tags(toolbox);
    if !tags.is_empty() {
        let _ = writeln!(md, "- It mentions: {}", tags.join(", "));
    }
    for tool in callable(toolbox) {
        let meta = &tool.entry.meta();
        let what = first_sentence(&meta.description);
        let _ = writeln!(
            md,
            "- It needs `tools.{}.{}`{}",
            meta.toolbox,
            meta.name,
            colon(what)
        );
    }
    if callable(toolbox).next().is_none() {
        md.push_str("- It needs a new tool in this toolbox: it holds no callable one yet (add one with `tools.create`).\n");
    }
    md.push('\n');
    workflow(&mut md, toolbox);
    md.push_str("## Inputs\n\n| Tool | Call | Arguments |\n| ---- | ---- | --------- |\n");
    for tool in &toolbox.tools {
        let args: Vec<String> = tool
            .entry
            .meta()
            .args
            .iter()
            .map(|a| {
                let what = a.description.trim_end_matches('.');
                format!("`{}`{}", a.name, colon(what))
            })
            .collect();
        let _ = writeln!(
            md,
            "| [{}]({}/TOOL.md) | `{}` | {} |",
            tool.entry.meta().name,
            tool.slug,
            cell(&call_line(tool)),
            cell(&if args.is_empty() {
                "none".to_string()
            } else {
                args.join("; ")
            })
        );
    }
    md.push_str("\n## Outputs\n\nEach call returns the tool's value; through `tool_exec` or `codemode exec` the script's return value comes back as JSON in `value`, and what it printed in `stdout`.\n\n");
    for tool in &toolbox.tools {
        if let Some(r) = &tool.entry.meta().returns {
            let _ = writeln!(
                md,
                "- `{}` returns `{}`{}",
                tool.entry.meta().name,
                r.ty,
                colon(&r.description)
            );
        }
    }
    md.push_str("\n## Failure modes\n\n");
    for tool in toolbox.tools.iter().filter(|t| !t.entry.is_registered()) {
        let _ = writeln!(
            md,
            "- `{}` is not callable: {}",
            tool.entry.identity,
            tool.entry.reason().unwrap_or("")
        );
    }
    md.push_str("- A failed script returns `{ok = false, error = {kind, message, line?, hint?}}`; `kind` is `syntax`, `runtime`, `timeout`, `memory`, `output` or `limit`. Read `hint` first: it often names the call you meant.\n");
    md.push_str("- Each tool's TOOL.md lists the errors it raises itself.\n");
    md
}

fn workflow(md: &mut String, toolbox: &BoxDoc) {
    let name = &toolbox.name;
    md.push_str("## Workflow\n\n");
    let _ = writeln!(md, "1. See the tools and their signatures: `tools.list(\"{name}\", 3)` in a script, or `codemode list 3 {name}`.");
    let _ = writeln!(md, "2. Read the TOOL.md of the tool you need (linked under Inputs) or `tools.get(\"{name}.<tool>\")`.");
    let shown = callable(toolbox)
        .find(|t| !t.entry.meta().examples.is_empty())
        .or_else(|| callable(toolbox).next());
    match (toolbox.kind, shown) {
        (BoxKind::Workflow, _) => {
            let _ = writeln!(md, "3. Start the workflow with its entry tool: `return tools.{name}.start(...)` in one script (`tool_exec` over MCP, or `codemode exec`).");
        }
        (BoxKind::Toolbox, Some(tool)) => {
            let example = tool
                .entry
                .meta()
                .examples
                .first()
                .map(|e| e.split("-->").next().unwrap_or("").trim().to_string())
                .unwrap_or_else(|| format!("tools.{name}.{}(...)", tool.entry.meta().name));
            let _ = writeln!(md, "3. Call it from one Luau script and return what you need, e.g. `return {example}`, through `tool_exec` (MCP) or `codemode exec`.");
        }
        (BoxKind::Toolbox, None) => {
            let _ = writeln!(md, "3. Add a tool with `tools.create{{ toolbox = \"{name}\", name = ..., code = ..., description = ... }}`, then call it as `tools.{name}.<name>(...)`.");
        }
    }
    md.push_str("4. Chain several calls in the same script instead of one call per request; only the returned value comes back.\n");
    md.push_str("5. If the result has `ok = false`, fix the call using `error.message` and `error.hint`, then run again.\n\n");
}

/// `": text"`, or nothing when `text` is empty.
fn colon(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!(": {text}")
    }
}
