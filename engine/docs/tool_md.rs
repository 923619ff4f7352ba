//! A tool's TOOL.md: the contract an agent reads (purpose, commands, inputs, outputs,
//! data flow, configuration, dependencies, tests, failure modes), from its own metadata.
//! Every section is filled from what is known; none is left as an empty heading.

use std::fmt::Write;

use crate::assets::Origin;
use crate::interop::name::kebab;
use crate::sandbox::Limits;

use super::gather::{first_sentence, BoxDoc, ToolDoc};

/// Escapes text for one Markdown table cell.
pub(crate) fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// `tools.box.name(a: T): R`, the call line every surface shows.
pub(crate) fn call_line(tool: &ToolDoc) -> String {
    let meta = &tool.entry.meta();
    let sig = meta
        .signature
        .clone()
        .unwrap_or_else(|| format!("{}(...)", meta.name));
    format!("tools.{}.{sig}", meta.toolbox)
}

/// The tool's description (its README's purpose when it has no `--!desc`), or what is
/// known when it has neither.
pub(crate) fn purpose(tool: &ToolDoc, toolbox: &BoxDoc) -> String {
    let meta = &tool.entry.meta();
    let mut text = meta.description.trim().to_string();
    if text.is_empty() {
        text = format!(
            "`{}` is a tool of the `{}` toolbox ({}). It has no description yet: add `--!desc` lines above its function in `{}`.",
            call_line(tool),
            toolbox.name,
            toolbox.purpose.trim_end_matches('.'),
            tool.source_path
        );
    }
    text
}

/// Renders the whole TOOL.md.
pub(crate) fn render(tool: &ToolDoc, toolbox: &BoxDoc) -> String {
    let meta = &tool.entry.meta();
    let mut md = String::new();
    let _ = writeln!(md, "# Tool Spec: {}\n", kebab(&meta.identity));
    let first = first_sentence(&meta.description);
    let _ = writeln!(
        md,
        "`{}`{}\n",
        call_line(tool),
        if first.is_empty() {
            String::new()
        } else {
            format!(": {first}.")
        }
    );
    if let Some(reason) = tool.entry.reason() {
        let _ = writeln!(md, "> **Not callable:** {reason}\n");
    }
    let _ = writeln!(md, "## Purpose\n\n{}\n", purpose(tool, toolbox));
    commands(&mut md, tool);
    inputs(&mut md, tool);
    outputs(&mut md, tool);
    data_flow(&mut md, tool);
    configuration(&mut md, tool);
    dependencies(&mut md, tool, toolbox);
    tests(&mut md, tool);
    failure_modes(&mut md, tool);
    if !meta.examples.is_empty() {
        md.push_str("## Examples\n\n```lua\n");
        for e in &meta.examples {
            let _ = writeln!(md, "{e}");
        }
        md.push_str("```\n\n");
    }
    readme(&mut md, tool);
    let _ = writeln!(
        md,
        "## References\n\n- Toolbox skill: [`../SKILL.md`](../SKILL.md)\n- Source: `{}` ({})\n- All tools: [`../../index.html`](../../index.html)",
        tool.source_path,
        origin(tool)
    );
    md
}

fn origin(tool: &ToolDoc) -> &'static str {
    match tool.entry.origin {
        Origin::World => "in the world",
        Origin::Library => "in a library",
    }
}

fn commands(md: &mut String, tool: &ToolDoc) {
    let meta = &tool.entry.meta();
    md.push_str("## Commands\n\n");
    let _ = writeln!(md, "### `{}`\n", call_line(tool));
    let inputs = if meta.args.is_empty() {
        "none".to_string()
    } else {
        meta.args
            .iter()
            .map(|a| format!("`{}: {}`", a.name, a.ty))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(md, "- Input: {inputs} (see Inputs)");
    let _ = writeln!(md, "- Output: {}", output_summary(tool));
    let _ = writeln!(md, "- Source: `{}`", tool.source_path);
    let _ = writeln!(
        md,
        "- From a script (`codemode run`, `codemode exec`, MCP `tool_exec`): `return {}(...)`\n",
        format_args!("tools.{}.{}", meta.toolbox, meta.name)
    );
    let _ = writeln!(md, "### `codemode call {} [words...]`\n", meta.identity);
    let _ = writeln!(
        md,
        "- Input: shell words read against the signature: positional words fill the parameters in order{}{}",
        if meta.flags.is_empty() {
            String::new()
        } else {
            format!(
                "; flags {}",
                meta.flags
                    .iter()
                    .map(|f| match &f.short {
                        Some(s) => format!("`--{}`/`-{s}`", f.name),
                        None => format!("`--{}`", f.name),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        match &meta.rest {
            Some(r) => format!("; the remaining words go to `{r}`"),
            None => String::new(),
        }
    );
    let _ = writeln!(
        md,
        "- Output: {}\n",
        if meta.has_render {
            "the result printed through the tool's `render.luau`"
        } else {
            "the result printed as JSON (the tool has no `render.luau`)"
        }
    );
}

fn output_summary(tool: &ToolDoc) -> String {
    match &tool.entry.meta().returns {
        Some(r) if !r.description.is_empty() => format!("`{}`: {}", r.ty, r.description),
        Some(r) => format!("`{}`", r.ty),
        None => "not declared (`any`)".into(),
    }
}

fn inputs(md: &mut String, tool: &ToolDoc) {
    let meta = &tool.entry.meta();
    md.push_str("## Inputs\n\n");
    if meta.args.is_empty() && meta.vararg.is_none() {
        md.push_str("None: the tool takes no arguments.\n\n");
        return;
    }
    md.push_str(
        "| Name | Type | Required | Description |\n| ---- | ---- | -------- | ----------- |\n",
    );
    for a in &meta.args {
        let flag = meta
            .flags
            .iter()
            .find(|f| f.name == a.name)
            .map(|f| match &f.short {
                Some(s) => format!(" Flag `--{}`/`-{s}` on a command line.", f.name),
                None => format!(" Flag `--{}` on a command line.", f.name),
            });
        let _ = writeln!(
            md,
            "| `{}` | `{}` | {} | {}{} |",
            a.name,
            cell(&a.ty),
            if a.optional { "no" } else { "yes" },
            cell(if a.description.is_empty() {
                "(undocumented)"
            } else {
                &a.description
            }),
            flag.unwrap_or_default()
        );
    }
    if let Some(vararg) = &meta.vararg {
        let _ = writeln!(
            md,
            "| `...` | `{}` | no | Any number more values, after the parameters. |",
            cell(vararg)
        );
    }
    md.push('\n');
}

fn outputs(md: &mut String, tool: &ToolDoc) {
    let meta = &tool.entry.meta();
    md.push_str("## Outputs\n\n");
    match &meta.returns {
        Some(r) => {
            let _ = writeln!(md, "Returns `{}`{}", r.ty, if r.description.is_empty() { ".".to_string() } else { format!(": {}", r.description) });
        }
        None => md.push_str(
            "Not declared: the function has no return annotation and no `--!return` line, so callers get `any`.\n",
        ),
    }
    md.push_str("\nIn a `tool_exec` result envelope the returned value is `value` (as JSON) and anything the tool prints is in `stdout`.");
    if meta.has_render {
        md.push_str(
            " On a command line, `render.luau` turns the value into text (`{out, err?, exit?}`).",
        );
    }
    md.push_str("\n\n");
}

fn data_flow(md: &mut String, tool: &ToolDoc) {
    let meta = &tool.entry.meta();
    md.push_str("## Data flow\n\n```text\n");
    let _ = writeln!(
        md,
        "caller: a Luau script (tools.{0}.{1}(...)) or a shell (codemode call {0}.{1} ...)",
        meta.toolbox, meta.name
    );
    md.push_str("    ↓\narguments checked against the signature (tools.bind / tools.parseCommandLine)\n    ↓\n");
    let _ = writeln!(
        md,
        "{} runs in the sandbox (deadline, memory and output limits)",
        tool.source_path
    );
    let mut uses: Vec<String> = tool
        .facts
        .requires
        .iter()
        .map(|r| format!("require(\"{r}\")"))
        .collect();
    uses.extend(tool.facts.calls.iter().map(|c| format!("tools.{c}")));
    if tool.facts.uses_vfs {
        uses.push("vfs (world files)".into());
    }
    if tool.facts.uses_http {
        uses.push("http (allowed hosts)".into());
    }
    if tool.facts.uses_shell {
        uses.push("shell (allowed commands)".into());
    }
    if !uses.is_empty() {
        let _ = writeln!(md, "    ↓ uses {}", uses.join(", "));
    }
    let _ = writeln!(
        md,
        "    ↓\nreturn value: {}",
        meta.returns.as_ref().map_or("any", |r| r.ty.as_str())
    );
    if meta.has_render {
        md.push_str("    ↓\nrender.luau: text for the shell\n");
    }
    md.push_str("```\n\n");
}

fn configuration(md: &mut String, tool: &ToolDoc) {
    let limits = Limits::default();
    md.push_str(
        "## Configuration\n\n| Variable | Default | Purpose |\n| -------- | ------- | ------- |\n",
    );
    let _ = writeln!(
        md,
        "| `--timeout-ms` | `{}` | Wall-clock deadline of the script that calls the tool. |",
        limits.timeout.as_millis()
    );
    let _ = writeln!(
        md,
        "| `--memory-mb` | `{}` | Memory limit of the Luau VM. |",
        limits.memory_bytes / (1024 * 1024)
    );
    let _ = writeln!(md, "| `--max-output-bytes` | `{}` | Cap on printed output and the returned value, as the JSON envelope carries them. |", limits.max_output_bytes);
    md.push_str("| `--world` / `CODEMODE_WORLD` | current directory | The world whose toolboxes (and `vfs` paths) the engine uses. |\n");
    let _ = writeln!(
        md,
        "| `status` in `.metadata` | `ready` (now `{}`) | Only `ready` tools are callable. |\n",
        tool.entry.meta().status
    );
}

fn dependencies(md: &mut String, tool: &ToolDoc, toolbox: &BoxDoc) {
    md.push_str("## Dependencies\n\n");
    let mut lines = Vec::new();
    for r in &tool.facts.requires {
        let module = r.trim_start_matches('.');
        let known = toolbox.modules.iter().any(|m| m == module);
        lines.push(format!(
            "- `{r}`: the `{module}.module/` of the `{}` toolbox{}",
            toolbox.name,
            if known {
                ""
            } else {
                " (not found: the require fails)"
            }
        ));
    }
    for c in &tool.facts.calls {
        lines.push(format!("- `tools.{c}`: another tool, called at run time"));
    }
    if tool.facts.uses_vfs {
        lines.push("- `vfs`: reads or writes files of the world".into());
    }
    if tool.facts.uses_http {
        lines.push("- `http`: sends requests; works only under a profile whose `capabilities.http` allows the hosts it reaches (otherwise `http` is nil)".into());
    }
    if tool.facts.uses_shell {
        lines.push("- `shell`: starts commands; works only under a profile whose `capabilities.shell` lists them (otherwise `shell` is nil)".into());
    }
    if lines.is_empty() {
        md.push_str("None: the tool uses only the Luau standard library of the sandbox.\n\n");
    } else {
        let _ = writeln!(md, "{}\n", lines.join("\n"));
    }
}

fn tests(md: &mut String, tool: &ToolDoc) {
    let meta = &tool.entry.meta();
    md.push_str("## Tests\n\n");
    md.push_str("`codemode check` validates the tool: its folder parses and compiles, it returns a function, and its docstring agrees with its signature.");
    if meta.examples.is_empty() {
        md.push_str(
            " The tool has no `--!example` lines yet; add some to document and smoke-test it.\n\n",
        );
    } else {
        let _ = writeln!(
            md,
            " Its examples double as a smoke test: `codemode run` a script that calls each one, e.g.\n\n```sh\necho 'return {}' | codemode run -\n```\n",
            meta.examples[0].split("-->").next().unwrap_or("").trim()
        );
    }
}

fn failure_modes(md: &mut String, tool: &ToolDoc) {
    let meta = &tool.entry.meta();
    md.push_str(
        "## Failure modes\n\n| Failure | Result | Recovery |\n| ------- | ------ | -------- |\n",
    );
    if let Some(reason) = tool.entry.reason() {
        let _ = writeln!(
            md,
            "| The tool does not load | Calling it raises an error | {} |",
            cell(reason)
        );
    }
    if meta.args.iter().any(|a| !a.optional) {
        md.push_str("| A required argument is missing or has the wrong type | The call is refused with a message naming the argument | Pass the arguments listed under Inputs. |\n");
    }
    for e in &tool.facts.errors {
        let _ = writeln!(md, "| The tool raises `{}` | The script fails with a runtime error | Read the message; it says what to change. |", cell(e));
    }
    md.push_str("| The script passes its deadline | Error kind `timeout` | Raise `--timeout-ms` or give the tool less work. |\n");
    md.push_str("| The VM runs out of memory | Error kind `memory` | Raise `--memory-mb` or process less data per call. |\n");
    md.push_str("| The output is too large | Output cut; `truncated` is true | Raise `--max-output-bytes` or return less. |\n\n");
}

fn readme(md: &mut String, tool: &ToolDoc) {
    let Some(readme) = tool.entry.readme() else {
        return;
    };
    // Headings move one level down so they sit under this section; fenced code stays as is.
    let mut in_fence = false;
    let body: Vec<String> = readme
        .lines()
        .skip_while(|l| l.trim().is_empty() || l.starts_with("# "))
        .map(|l| {
            if l.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            if !in_fence && l.starts_with('#') {
                format!("#{l}")
            } else {
                l.to_string()
            }
        })
        .collect();
    let body = body.join("\n");
    if !body.trim().is_empty() {
        let _ = writeln!(md, "## Details (README.md)\n\n{}\n", body.trim());
    }
}
