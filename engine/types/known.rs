//! Whether a type written by an author names only types Luau knows, so a misspelt `strin`
//! is refused when a tool is created instead of accepting every value forever after.

use super::read::{read, Slot};
use super::Ty;

/// The type names an author may write besides the forms (`{T}`, `{name: T}`, `T?`, `A | B`,
/// `(T) -> U`, `"literal"`).
pub(crate) const KNOWN_TYPES: &[&str] = &[
    "string", "number", "boolean", "nil", "any", "unknown", "table", "function", "buffer",
    "thread", "vector", "userdata", "never",
];

/// Why `text` is not a type a new tool may declare: it does not read as one Luau type, or it
/// names a type that does not exist. `None` when it is fine.
pub(crate) fn type_problem(text: &str) -> Option<String> {
    let accepted = format!(
        "types are {}, or forms such as {{string}}, {{name: string}}, string?, \"a\" | \"b\"",
        KNOWN_TYPES.join(", ")
    );
    let reading = match read(text, Slot::Param) {
        Ok(reading) => reading,
        Err(_) => return Some(format!("`{}` is not a Luau type; {accepted}", text.trim())),
    };
    let mut unknown = Vec::new();
    names(&reading.ty, &mut unknown);
    unknown.retain(|n| !KNOWN_TYPES.contains(&n.as_str()));
    unknown.dedup();
    unknown
        .first()
        .map(|name| format!("`{name}` is not a type; {accepted}"))
}

/// Every name the type refers to by name only.
fn names(ty: &Ty, out: &mut Vec<String>) {
    match ty {
        Ty::Named { name, args } => {
            out.push(name.clone());
            args.iter().for_each(|a| names(a, out));
        }
        Ty::Array(t) | Ty::Variadic(t) => names(t, out),
        Ty::Map(k, v) => {
            names(k, out);
            names(v, out);
        }
        Ty::Record(fields, indexer) => {
            fields.iter().for_each(|f| names(&f.ty, out));
            if let Some(kv) = indexer {
                names(&kv.0, out);
                names(&kv.1, out);
            }
        }
        Ty::Union(ts) | Ty::Intersection(ts) | Ty::Pack(ts) => {
            ts.iter().for_each(|t| names(t, out))
        }
        Ty::Callback(cb) => {
            cb.params
                .iter()
                .filter(|(_, t)| !matches!(t, Ty::Named { name, .. } if cb.generics.contains(name)))
                .for_each(|(_, t)| names(t, out));
            names(&cb.returns, out);
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "../../tests/unit/types/known.rs"]
mod tests;
