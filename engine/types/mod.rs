//! Luau types: the one model of a type a tool declares ([`Ty`], read by [`Ty::parse`]).
//!
//! Every surface judges a tool's types from the same [`Ty`]: `tools.bind` and command
//! lines check values against it, `--expose-tools` makes JSON Schema of it, and the
//! definition file `codemode types` writes prints it (see `sanitize`).

mod inline;
mod known;
mod model;
mod read;
mod sanitize;
mod surface;

pub(crate) use inline::inline_aliases;
pub(crate) use known::{type_problem, KNOWN_TYPES};
pub(crate) use model::{Field, Ty};
pub(crate) use read::Slot;
pub(crate) use sanitize::declarable;
pub(crate) use surface::{surface_functions, SurfaceFunction};

/// The hand-written declarations of the `tools` surface and the types it shares.
pub(crate) const SURFACE: &str = include_str!("surface.d.luau");

/// The members of `ToolsSurface` in `surface.d.luau`, repeated inside `declare tools`.
pub(crate) fn surface_members() -> String {
    const START: &str = "export type ToolsSurface = {\n";
    let body = SURFACE.split_once(START).map_or("", |(_, rest)| rest);
    let members = body
        .split_once("\n}\n")
        .map_or(body, |(members, _)| members);
    format!("{members}\n")
}
