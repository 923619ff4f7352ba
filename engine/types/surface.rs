//! The functions of `tools` itself, read from the declarations `codemode types` prints
//! (`surface.d.luau`), so `tools.help`, `tools.get("tools.create")` and search describe
//! them from the one copy an editor also reads.

use std::sync::OnceLock;

use serde::Serialize;

/// One member of `ToolsSurface`: what `tools.help(name)` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SurfaceFunction {
    /// `tools.<name>`.
    pub(crate) identity: String,
    /// The member's name (`create`).
    pub(crate) name: String,
    /// `create(args: CreateArgs) -> WriteResult`, as declared.
    pub(crate) signature: String,
    /// The doc comment without its `e.g.` lines.
    pub(crate) description: String,
    /// The doc comment's `e.g.` lines.
    pub(crate) examples: Vec<String>,
}

/// Every member of `ToolsSurface`, in declaration order.
pub(crate) fn surface_functions() -> &'static [SurfaceFunction] {
    static FUNCTIONS: OnceLock<Vec<SurfaceFunction>> = OnceLock::new();
    FUNCTIONS.get_or_init(|| read(&super::surface_members()))
}

/// Reads `--- doc` lines and the `name: (params) -> returns,` line each of them precedes.
/// A member typed by a table type of the surface (`results: ResultsSurface`) stands for
/// that table's functions, named `results.get`, ...
fn read(members: &str) -> Vec<SurfaceFunction> {
    // Each function's type, read in one parse, makes its signature.
    let found = read_under(members, "");
    let parts = super::read::function_parts(found.iter().map(|f| f.signature.as_str()));
    let signed = found.into_iter().zip(parts).filter_map(|(f, parts)| {
        let (params, returns) = parts?;
        let signature = format!("{}{params} -> {returns}", f.name);
        Some(SurfaceFunction { signature, ..f })
    });
    signed.collect()
}

/// The members of the surface's `export type <name> = { ... }`, as text.
fn type_members(name: &str) -> Option<String> {
    let start = format!("export type {name} = {{\n");
    let (_, rest) = super::SURFACE.split_once(&start)?;
    Some(format!(
        "{}\n",
        rest.split_once("\n}\n").map_or(rest, |(m, _)| m)
    ))
}

fn read_under(members: &str, prefix: &str) -> Vec<SurfaceFunction> {
    let mut out = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    for line in members.lines().map(str::trim) {
        if let Some(text) = line.strip_prefix("---") {
            doc.push(text.trim());
            continue;
        }
        let Some((name, ty)) = line.split_once(": ") else {
            doc.clear();
            continue;
        };
        let ty = ty.trim_end_matches(',');
        let name = format!("{prefix}{name}");
        if !ty.starts_with('(') {
            doc.clear();
            if let Some(inner) = type_members(ty) {
                out.extend(read_under(&inner, &format!("{name}.")));
            }
            continue;
        }
        let (examples, description): (Vec<&str>, Vec<&str>) =
            doc.drain(..).partition(|l| l.starts_with("e.g. "));
        out.push(SurfaceFunction {
            identity: format!("tools.{name}"),
            name: name.to_string(),
            // The type as written until `read` makes it the signature.
            signature: ty.to_string(),
            description: description.join(" "),
            examples: examples.iter().map(|e| e[5..].to_string()).collect(),
        });
    }
    out
}

#[cfg(test)]
#[path = "../../tests/unit/types/surface.rs"]
mod tests;
