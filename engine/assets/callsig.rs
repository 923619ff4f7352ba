//! The one signature line every surface shows for a tool: `name(a: T, b: U?): R`.
//!
//! `tools.list(3)`, `tools.get(...).signature`, the `.d.luau` definitions and the rendered
//! docs all print this line, so a model and an editor see the same contract. It is built
//! from the merged parameters (signature types first, then `--!arg` types, else `any`),
//! so a tool typed only by its docstring still shows its types.

use super::meta::{Arg, Returns};

/// Renders `name(a: T, ...): R`; `vararg` is the type of a trailing `...` when there is one.
pub(crate) fn call_signature(
    name: &str,
    args: &[Arg],
    vararg: Option<&str>,
    returns: Option<&Returns>,
) -> String {
    let mut params: Vec<String> = args
        .iter()
        .map(|a| format!("{}: {}", a.name, a.ty))
        .collect();
    if let Some(ty) = vararg {
        params.push(format!("...: {ty}"));
    }
    let mut line = format!("{name}({})", params.join(", "));
    if let Some(r) = returns {
        line.push_str(": ");
        line.push_str(&r.ty);
    }
    line
}

#[cfg(test)]
#[path = "../../tests/unit/assets/callsig.rs"]
mod tests;
