//! `index.html`: every toolbox and tool on one self-contained page a person can browse and
//! search (inline CSS and script, no network). The search box filters tools as one types.

use std::fmt::Write;

use super::escape::{escape, prose};
use super::gather::{BoxDoc, ToolDoc};
use super::tool_md::{call_line, purpose};
use super::upstream::ServerDoc;

const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// Renders the page for these toolboxes; `title` names the world.
pub(crate) fn render(title: &str, boxes: &[BoxDoc], servers: &[ServerDoc]) -> String {
    let total: usize = boxes.iter().map(|b| b.tools.len()).sum::<usize>()
        + servers.iter().map(|s| s.tools.len()).sum::<usize>();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t} — codemode tools</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n\
         <header>\n<h1>{t}: {total} tools in {n} toolboxes</h1>\n\
         <input id=\"q\" type=\"search\" placeholder=\"Search tools: name, description, argument, tag…\" \
         aria-label=\"Search tools\" autofocus><span id=\"count\"></span>\n</header>\n<main>\n\
         <p id=\"none\" hidden>No tool matches. Try fewer words.</p>\n",
        t = escape(title),
        n = boxes.len() + servers.len()
    );
    for b in boxes {
        toolbox(&mut html, b);
    }
    for s in servers {
        super::upstream::html_section(&mut html, s);
    }
    let _ = write!(
        html,
        "</main>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    html
}

fn toolbox(html: &mut String, b: &BoxDoc) {
    let _ = writeln!(
        html,
        "<section class=\"toolbox\" id=\"box-{slug}\" data-toolbox=\"{name}\">\n<h2>{name}{kind}</h2>\n<p>{purpose}</p>\n\
         <div class=\"links\"><a href=\"{slug}/SKILL.md\">SKILL.md</a></div>",
        slug = escape(&b.slug),
        name = escape(&b.name),
        kind = if b.kind == crate::assets::BoxKind::Workflow { " <span class=\"badge status\">workflow</span>" } else { "" },
        purpose = prose(&b.purpose)
    );
    for t in &b.tools {
        tool(html, b, t);
    }
    html.push_str("</section>\n");
}

/// The lowercased text the search matches against.
fn search_text(b: &BoxDoc, t: &ToolDoc) -> String {
    let meta = &t.entry.meta();
    let mut parts = vec![
        meta.identity.clone(),
        meta.description.clone(),
        call_line(t),
        b.purpose.clone(),
    ];
    parts.extend(
        meta.args
            .iter()
            .map(|a| format!("{} {} {}", a.name, a.ty, a.description)),
    );
    if let Some(r) = &meta.returns {
        parts.push(format!("{} {}", r.ty, r.description));
    }
    parts.extend(t.tags.iter().cloned());
    parts.extend(meta.examples.iter().cloned());
    parts.join(" ").to_lowercase()
}

fn tool(html: &mut String, b: &BoxDoc, t: &ToolDoc) {
    let meta = &t.entry.meta();
    let mut badges = String::new();
    if meta.status != "ready" {
        let _ = write!(
            badges,
            " <span class=\"badge status\">{}</span>",
            escape(&meta.status)
        );
    }
    if let Some(reason) = t.entry.reason() {
        let _ = write!(
            badges,
            " <span class=\"badge broken\" title=\"{}\">not callable</span>",
            escape(reason)
        );
    }
    let _ = writeln!(
        html,
        "<article class=\"tool\" id=\"{id}\" data-identity=\"{id}\" data-search=\"{search}\">\n<h3>{call}{badges}</h3>\n<p>{desc}</p>",
        id = escape(&meta.identity),
        search = escape(&search_text(b, t)),
        call = escape(&call_line(t)),
        desc = prose(&purpose(t, b))
    );
    if !meta.args.is_empty() || meta.returns.is_some() {
        html.push_str("<table><tr><th>name</th><th>type</th><th>description</th></tr>\n");
        for a in &meta.args {
            let _ = writeln!(
                html,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                escape(&a.name),
                escape(&a.ty),
                escape(&a.description)
            );
        }
        if let Some(r) = &meta.returns {
            let _ = writeln!(
                html,
                "<tr><td><em>returns</em></td><td><code>{}</code></td><td>{}</td></tr>",
                escape(&r.ty),
                escape(&r.description)
            );
        }
        html.push_str("</table>\n");
    }
    if !meta.examples.is_empty() {
        let _ = writeln!(html, "<pre>{}</pre>", escape(&meta.examples.join("\n")));
    }
    if let Some(reason) = t.entry.reason() {
        let _ = writeln!(html, "<p class=\"badge broken\">{}</p>", prose(reason));
    }
    let tags: String = t
        .tags
        .iter()
        .map(|g| format!("<span class=\"tag\">{}</span>", escape(g)))
        .collect();
    let _ = writeln!(
        html,
        "<div>{tags}</div>\n<div class=\"links\"><a href=\"{b}/{s}/TOOL.md\">TOOL.md</a></div>\n</article>",
        b = escape(&b.slug),
        s = escape(&t.slug)
    );
}
