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
mod tests {
    use super::*;
    use crate::assets::names::RESERVED;

    #[test]
    fn every_member_has_a_signature_a_description_and_an_example() {
        let functions = surface_functions();
        let create = functions.iter().find(|f| f.name == "create").unwrap();
        assert_eq!(create.signature, "create(args: CreateArgs) -> WriteResult");
        let parallel = functions.iter().find(|f| f.name == "parallel").unwrap();
        assert_eq!(
            parallel.signature,
            "parallel(fns: { () -> any }) -> { { ok: boolean, value: any?, error: string? } }"
        );
        assert!(
            create.description.starts_with("Save a new tool"),
            "{create:?}"
        );
        assert!(create.examples[0].starts_with("local made = tools.create({"));
        let get = functions.iter().find(|f| f.name == "results.get").unwrap();
        assert_eq!(get.identity, "tools.results.get");
        assert_eq!(get.signature, "results.get(key: string) -> CachedResult?");
        for f in functions {
            assert!(!f.description.is_empty(), "{f:?}");
            assert!(!f.examples.is_empty(), "{} has no `e.g.` line", f.name);
            assert!(!f.description.contains("e.g. "), "{f:?}");
        }
    }

    #[test]
    fn the_names_no_toolbox_may_take_are_the_members() {
        // A table of functions (`results.get`) takes its table's name.
        let mut members: Vec<&str> = surface_functions()
            .iter()
            .map(|f| f.name.split('.').next().unwrap_or_default())
            .collect();
        members.dedup();
        let mut reserved = RESERVED.to_vec();
        members.sort_unstable();
        reserved.sort_unstable();
        assert_eq!(members, reserved);
    }
}
