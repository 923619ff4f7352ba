//! Usage text generated from a tool's schema and docs (`codemode call <tool> --help`).

use crate::assets::ToolMeta;

use super::schema::Schema;
use crate::types::Ty;

/// What a value placeholder looks like for a type: `NUMBER`, `PATH`, `upper|lower`, `VALUE`.
fn placeholder(ty: &Ty) -> String {
    if let Some(choices) = ty.literal_choices() {
        return choices.join("|");
    }
    match ty.without_nil() {
        Ty::Number => "NUMBER".into(),
        Ty::Path => "PATH".into(),
        Ty::Boolean => "true|false".into(),
        Ty::String => "TEXT".into(),
        Ty::Array(_) | Ty::Record(..) | Ty::Map(..) | Ty::Table => "JSON".into(),
        _ => "VALUE".into(),
    }
}

/// One line: `codemode call text.slugify <text> [--sep TEXT] [--verbose|-v] [<words>...]`.
pub(crate) fn usage_line(schema: &Schema) -> String {
    let mut parts = vec![format!("codemode call {}", schema.identity)];
    let options = schema.options.as_ref().map(|(o, _)| *o);
    for i in schema.positional() {
        if Some(i) == options {
            continue;
        }
        let p = &schema.params[i];
        parts.push(if p.ty.accepts_nil() {
            format!("[<{}>]", p.name)
        } else {
            format!("<{}>", p.name)
        });
    }
    for flag in &schema.flags {
        parts.push(match flag.short {
            Some(c) => format!("[--{}|-{c}]", flag.name),
            None => format!("[--{}]", flag.name),
        });
    }
    if let Some((o, fields)) = &schema.options {
        // A field the options table must hold is shown as needed, when the table is.
        let table_needed = !schema.params[*o].ty.accepts_nil();
        for f in fields.iter().filter(|f| schema.flag(&f.name).is_none()) {
            let option = format!("--{} {}", f.name, placeholder(&f.ty));
            parts.push(if table_needed && !f.ty.accepts_nil() {
                option
            } else {
                format!("[{option}]")
            });
        }
    }
    if let Some(r) = schema.rest {
        parts.push(format!("[<{}>...]", schema.params[r].name));
    } else if schema.vararg.is_some() {
        parts.push("[<...>...]".to_string());
    }
    parts.join(" ")
}

/// The full `--help` page.
pub(crate) fn help(schema: &Schema, meta: &ToolMeta) -> String {
    let mut out = String::new();
    out.push_str(&meta.identity);
    if !meta.description.is_empty() {
        out.push_str(&format!(" - {}", meta.description));
    }
    out.push_str(&format!("\n\nusage: {}\n", usage_line(schema)));
    let options = schema.options.as_ref().map(|(o, _)| *o);
    let mut rows: Vec<(String, String)> = Vec::new();
    for (i, p) in schema.params.iter().enumerate() {
        if Some(i) == options {
            continue;
        }
        let flag = schema.flag(&p.name);
        let left = match (flag, Some(i) == schema.rest) {
            (Some(f), _) => flag_name(&p.name, f.short),
            (None, true) => format!("<{}>...", p.name),
            (None, false) => format!("<{}>, --{} {}", p.name, p.name, placeholder(&p.ty)),
        };
        rows.push((left, describe(&p.written, &p.description)));
    }
    if let Some((o, fields)) = &schema.options {
        for f in fields {
            let left = match schema.flag(&f.name) {
                Some(flag) => flag_name(&f.name, flag.short),
                None => format!("--{} {}", f.name, placeholder(&f.ty)),
            };
            rows.push((left, describe(&f.ty.to_string(), "")));
        }
        let p = &schema.params[*o];
        rows.push((
            format!("<{}>", p.name),
            describe(
                &p.written,
                format!("{} (all options as one JSON word)", p.description).trim(),
            ),
        ));
    }
    if let (None, Some(vararg)) = (schema.rest, &meta.vararg) {
        rows.push((
            "<...>...".to_string(),
            format!("{vararg} (any number more)"),
        ));
    }
    if !rows.is_empty() {
        out.push_str("\narguments:\n");
        let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0).min(32);
        for (left, right) in rows {
            out.push_str(&format!("  {left:width$}  {right}\n"));
        }
    }
    if let Some(r) = &meta.returns {
        out.push_str(&format!("\nreturns: {}\n", describe(&r.ty, &r.description)));
    }
    if !meta.examples.is_empty() {
        out.push_str("\nexamples:\n");
        for e in &meta.examples {
            out.push_str(&format!("  {e}\n"));
        }
    }
    out.push_str(
        "\nwords are read by type: numbers and booleans strictly, tables as JSON ('{\"a\":1}', '[1,2]' or 1,2,3),\nPath relative to the current directory; -- ends flags. The result prints through the tool's\nrender.luau, or as JSON.\n",
    );
    out
}

fn flag_name(name: &str, short: Option<char>) -> String {
    match short {
        Some(c) => format!("--{name}, -{c}"),
        None => format!("--{name}"),
    }
}

fn describe(ty: &str, description: &str) -> String {
    if description.is_empty() {
        ty.to_string()
    } else {
        format!("{ty}  {description}")
    }
}
