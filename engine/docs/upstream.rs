//! Pages for the tools of upstream MCP servers: a SKILL.md per server, a TOOL.md per
//! tool and their entries on `index.html`, all from the cached catalogues (no server is
//! started to write docs). Nothing from a server's `env` or `headers` is ever shown: the
//! pages name the configuration, never its values.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::interop::name::kebab;
use crate::upstream::{ServerView, ToolTypes, UpstreamTool};

use super::escape::{escape, prose};
use super::gather::first_sentence;
use super::tool_md::cell;

/// The largest input schema printed whole in a TOOL.md; a bigger one is summarized by
/// its Inputs table only.
const MAX_SCHEMA_BYTES: usize = 16 * 1024;

/// One server's pages, gathered once.
pub(crate) struct ServerDoc<'a> {
    /// The server as listings show it.
    pub(crate) view: &'a ServerView,
    /// Folder and skill name in the docs.
    pub(crate) slug: String,
    /// Its tools with their folder names and Luau types.
    pub(crate) tools: Vec<(&'a UpstreamTool, String, ToolTypes)>,
}

/// Gathers every server. Folder names come from the mapped names; names another party
/// chose may clash (`get_thing` and `getThing` are both `get-thing`) or have nothing left
/// (`日本語` maps to `___`), so a taken name gets `-2`, `-3`, ... as mapped names get `_2`,
/// and an empty one is `tool` (or `server`). A server's folder never takes one of
/// `folders` (the toolbox folders' names).
pub(crate) fn gather<'a>(
    upstream: &'a [ServerView],
    folders: impl IntoIterator<Item = String>,
) -> Vec<ServerDoc<'a>> {
    let mut servers: BTreeSet<String> = folders.into_iter().collect();
    let mut out = Vec::new();
    for view in upstream {
        let mut taken = BTreeSet::new();
        let tools: Vec<_> = view
            .tools()
            .iter()
            .map(|t| {
                (
                    t,
                    unique_slug(&mut taken, &kebab(&t.name), "tool"),
                    t.types(),
                )
            })
            .collect();
        out.push(ServerDoc {
            view,
            slug: unique_slug(&mut servers, &kebab(&view.name), "server"),
            tools,
        });
    }
    out
}

/// `base` (or `fallback` when it is empty), with the first free `-N` when it is taken.
fn unique_slug(taken: &mut BTreeSet<String>, base: &str, fallback: &str) -> String {
    let base = if base.is_empty() { fallback } else { base };
    if taken.insert(base.to_string()) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|slug| taken.insert(slug.clone()))
        .unwrap_or_default()
}

fn call_line(server: &str, tool: &UpstreamTool, types: &ToolTypes) -> String {
    format!("tools.{server}.{}", tool.signature_of(types))
}

/// The server's SKILL.md.
pub(crate) fn skill_md(doc: &ServerDoc) -> String {
    let name = &doc.view.name;
    let names: Vec<&str> = doc.tools.iter().map(|(t, _, _)| t.name.as_str()).collect();
    let purpose = doc.view.purpose();
    let mut description = format!(
        "{} (the MCP server '{}'). Use when a task needs {}: call them from a codemode Luau script as tools.{name}.<tool>({{ ... }}).",
        purpose.trim_end_matches('.'),
        doc.view.original,
        if names.is_empty() { "this server".to_string() } else { names.join(", ") }
    );
    if description.chars().count() > 1000 {
        description = description.chars().take(999).collect::<String>() + "…";
    }
    let mut md = String::new();
    let _ = writeln!(
        md,
        "---\nname: {}\ndescription: {}\n---\n\n# {name}\n\n{}.\n",
        doc.slug,
        serde_json::to_string(&description).unwrap_or_default(),
        purpose.trim_end_matches('.')
    );
    if let Some(instructions) = doc.view.about().and_then(|a| a.instructions.as_deref()) {
        // The server's own guidance for the model that uses it, as it sent it.
        let _ = writeln!(md, "## Server instructions\n\n{}\n", instructions.trim());
    }
    md.push_str("## Workflow\n\n");
    let _ = writeln!(md, "1. See the tools and their signatures: `tools.list(\"{name}\", 3)` in a script, or `codemode list 3 {name}`.");
    let _ = writeln!(md, "2. Call a tool with one table of named arguments, e.g. `return tools.{name}.<tool>({{ ... }})`, through `tool_exec` (MCP) or `codemode exec`. The server starts on the first call.");
    md.push_str("3. Run calls that do not depend on each other side by side with `tools.parallel({ function() ... end, ... })`.\n\n");
    if doc.tools.is_empty() {
        let _ = writeln!(md, "Its tools are not fetched yet: run `codemode mcp sync {name}`, then write the docs again.\n");
        return md;
    }
    md.push_str("## Inputs\n\n| Tool | Call | Arguments |\n| ---- | ---- | --------- |\n");
    for (tool, slug, types) in &doc.tools {
        let args: Vec<String> = types
            .args
            .iter()
            .map(|a| match a.description.as_deref().map(first_sentence) {
                Some(d) if !d.is_empty() => format!("`{}`: {d}", a.name),
                _ => format!("`{}`", a.name),
            })
            .collect();
        let _ = writeln!(
            md,
            "| [{}]({slug}/TOOL.md) | `{}` | {} |",
            tool.name,
            cell(&call_line(name, tool, types)),
            cell(&if args.is_empty() {
                "none".to_string()
            } else {
                args.join("; ")
            })
        );
    }
    md.push_str("\n## Failure modes\n\n");
    md.push_str("- A tool that reports an error (`isError`) raises a Luau error with the server's message; `pcall` catches it.\n");
    md.push_str("- A server that cannot start, crashes or writes garbage fails the call with its reason and the end of its stderr; the next call starts it again.\n");
    md.push_str("- A call still waiting at the script's deadline is cancelled upstream and the envelope says `timeout`.\n");
    md
}

/// One tool's TOOL.md.
pub(crate) fn tool_md(doc: &ServerDoc, tool: &UpstreamTool, types: &ToolTypes) -> String {
    let name = &doc.view.name;
    let call = call_line(name, tool, types);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Tool Spec: {}\n",
        kebab(&format!("{name}.{}", tool.name))
    );
    let first = first_sentence(&tool.description);
    let _ = writeln!(
        md,
        "`{call}`{}\n",
        if first.is_empty() {
            String::new()
        } else {
            format!(": {first}.")
        }
    );
    let _ = writeln!(
        md,
        "## Purpose\n\n{}\n",
        if tool.description.trim().is_empty() {
            format!("The server gives no description of `{}`.", tool.original)
        } else {
            tool.description.trim().to_string()
        }
    );
    let _ = writeln!(
        md,
        "## Source\n\nTool `{}` of the MCP server '{}', configured in `.codemode/mcp.json` (or a `--mcp-config` file); codemode sends it the name `{}`.\n",
        tool.name, doc.view.original, tool.original
    );
    md.push_str("## Inputs\n\n");
    if types.args.is_empty() {
        md.push_str("None: call it with an empty table, `{}`.\n\n");
    } else {
        md.push_str("One table with these fields:\n\n| Name | Type | Required | Description |\n| ---- | ---- | -------- | ----------- |\n");
        for a in &types.args {
            let _ = writeln!(
                md,
                "| `{}` | `{}` | {} | {} |",
                a.name,
                cell(&a.luau_type),
                if a.optional { "no" } else { "yes" },
                cell(a.description.as_deref().unwrap_or("(undocumented)"))
            );
        }
        md.push('\n');
    }
    let schema = serde_json::to_string_pretty(&tool.input_schema).unwrap_or_default();
    if schema.len() <= MAX_SCHEMA_BYTES {
        let _ = writeln!(
            md,
            "Input schema, as the server declares it:\n\n```json\n{schema}\n```\n"
        );
    }
    md.push_str("## Outputs\n\n");
    match &tool.output_schema {
        Some(_) => {
            let _ = writeln!(
                md,
                "Returns `{}`{}: the server's structured result, as a Luau table.\n",
                types.returns,
                types
                    .returns_description
                    .as_deref()
                    .map_or(String::new(), |d| format!(" ({d})"))
            );
        }
        None => md.push_str("Not declared (`any`): one text item comes back as a string; several items as a list of `{ type, text | data, mimeType, ... }`.\n\n"),
    }
    md.push_str(
        "## Failure modes\n\n| Failure | Result | Recovery |\n| ------- | ------ | -------- |\n",
    );
    let _ = writeln!(md, "| The server reports an error | A Luau error with its message; the hint shows `{}` | Fix the arguments as the message says. |", cell(&call));
    md.push_str("| The server cannot start or crashes | A Luau error with the reason and the end of its stderr | Fix its entry in `.codemode/mcp.json`; the next call starts it again. |\n");
    md.push_str("| The call outlasts the script's deadline | The request is cancelled upstream; error kind `timeout` | Raise `--timeout-ms`, or ask the tool for less. |\n");
    md.push_str("| The answer is larger than the output cap | A Luau error saying so | Ask for a page or a filter, or raise `--max-output-bytes`. |\n\n");
    md.push_str("## References\n\n- Server skill: [`../SKILL.md`](../SKILL.md)\n- All tools: [`../../index.html`](../../index.html)\n");
    md
}

/// The server's section of `index.html`.
pub(crate) fn html_section(html: &mut String, doc: &ServerDoc) {
    let name = &doc.view.name;
    let _ = writeln!(
        html,
        "<section class=\"toolbox\" id=\"box-{slug}\" data-toolbox=\"{n}\">\n<h2>{n} <span class=\"badge status\">{from}</span></h2>\n<p>{purpose}</p>\n\
         <div class=\"links\"><a href=\"{slug}/SKILL.md\">SKILL.md</a></div>",
        slug = escape(&doc.slug),
        n = escape(name),
        from = escape(&doc.view.from()),
        purpose = prose(&doc.view.purpose())
    );
    for (tool, slug, types) in &doc.tools {
        let call = call_line(name, tool, types);
        let mut search = vec![
            format!("{name}.{}", tool.name),
            tool.description.clone(),
            call.clone(),
            doc.view.from(),
        ];
        search.extend(types.args.iter().map(|a| {
            format!(
                "{} {} {}",
                a.name,
                a.luau_type,
                a.description.as_deref().unwrap_or("")
            )
        }));
        let _ = writeln!(
            html,
            "<article class=\"tool\" id=\"{id}\" data-identity=\"{id}\" data-search=\"{search}\">\n<h3>{call}</h3>\n<p>{desc}</p>",
            id = escape(&format!("{name}.{}", tool.name)),
            search = escape(&search.join(" ").to_lowercase()),
            call = escape(&call),
            desc = escape(&tool.description)
        );
        if !types.args.is_empty() {
            html.push_str("<table><tr><th>name</th><th>type</th><th>description</th></tr>\n");
            for a in &types.args {
                let _ = writeln!(
                    html,
                    "<tr><td><code>{}{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                    escape(&a.name),
                    if a.optional { "?" } else { "" },
                    escape(&a.luau_type),
                    escape(a.description.as_deref().unwrap_or(""))
                );
            }
            html.push_str("</table>\n");
        }
        let _ = writeln!(
            html,
            "<div class=\"links\"><a href=\"{b}/{s}/TOOL.md\">TOOL.md</a></div>\n</article>",
            b = escape(&doc.slug),
            s = escape(slug)
        );
    }
    html.push_str("</section>\n");
}
