//! Makes a tool's type, as its author wrote it, safe to put in a definition file.
//!
//! luau-lsp refuses a whole definition file when one type names something it does not
//! know, and a tool's signature may name a type local to its `init.luau`
//! (`opts: Options`) or use docstring shorthands (`table`, `function`). The type is read
//! into the model ([`Ty`]) and printed back from it: a type that names what the file
//! cannot see is declared as `any`, a shorthand as its real type, and the doc comment
//! keeps the original text so nothing is lost.

use std::collections::BTreeSet;

use super::model::Ty;
use super::read::{alias_source, read, Slot};
use crate::assets::compile;

/// Type names Luau knows without any declaration.
const BUILTIN: [&str; 10] = [
    "any", "nil", "boolean", "number", "string", "thread", "unknown", "never", "buffer", "vector",
];

/// The type to declare for `written` in `slot`, given the names the definition file itself
/// defines. `Ok` holds a declarable type; `Err` holds why `written` was replaced by the
/// returned type. Either text reads back (with [`Ty::parse`] or [`Ty::parse_returns`]) as
/// the type declared.
pub(crate) fn declarable(
    written: &str,
    slot: Slot,
    defined: &[&str],
) -> Result<String, (String, String)> {
    let written = written.trim();
    if written.is_empty() {
        return Err(("any".into(), "no type was given".into()));
    }
    if written.contains("--") || written.contains(['\n', '\r', ';']) {
        return Err((
            "any".into(),
            format!("`{written}` holds a comment, a `;` or a line break, not just a type"),
        ));
    }
    // Luau's own parser has the last word: full_moon lets some broken types through
    // (`() -> (string,`).
    let reading = match read(written, slot) {
        Ok(reading) if compile(&alias_source(written, slot)).is_ok() => reading,
        _ => {
            return Err((
                "any".into(),
                format!("`{written}` does not parse as a Luau type"),
            ))
        }
    };
    let mut names = Names::default();
    names.walk(&reading.ty, &[]);
    if let Some(why) = names.refused {
        return Err((
            "any".into(),
            format!("`{written}` uses {why}, which the definition file cannot see"),
        ));
    }
    let unknown: Vec<&str> = names
        .used
        .iter()
        .map(String::as_str)
        .filter(|n| !BUILTIN.contains(n) && !defined.contains(n))
        .collect();
    if !unknown.is_empty() {
        return Err((
            "any".into(),
            format!(
                "`{written}` names {}, neither a Luau type nor one the tool exports (`export type`)",
                unknown.join(", ")
            ),
        ));
    }
    let declared = reading.ty.declaration();
    if compile(&alias_source(&declared, slot)).is_err() {
        return Err((
            "any".into(),
            format!("`{written}` reads as `{declared}`, which Luau does not parse"),
        ));
    }
    if reading.shorthand {
        let why = format!("`{written}` is declared as `{declared}`");
        return Err((declared, why));
    }
    Ok(declared)
}

/// The names a type uses (other than the generics in scope), and the first thing in it no
/// definition file can see.
#[derive(Default)]
struct Names {
    used: BTreeSet<String>,
    refused: Option<&'static str>,
}

impl Names {
    fn walk(&mut self, ty: &Ty, generics: &[&str]) {
        match ty {
            Ty::Path => self.used(generics, "Path"),
            Ty::Named { name, args } => {
                if name.contains('.') {
                    self.refused.get_or_insert("a type from another module");
                }
                self.used(generics, name);
                self.all(args, generics);
            }
            Ty::GenericPack(name) => self.used(generics, name),
            Ty::Typeof(_) => {
                self.refused.get_or_insert("`typeof(...)` of a local value");
            }
            Ty::Array(t) | Ty::Variadic(t) => self.walk(t, generics),
            Ty::Map(k, v) => {
                self.walk(k, generics);
                self.walk(v, generics);
            }
            Ty::Record(fields, indexer) => {
                for f in fields {
                    self.walk(&f.ty, generics);
                }
                if let Some(kv) = indexer {
                    self.walk(&kv.0, generics);
                    self.walk(&kv.1, generics);
                }
            }
            Ty::Union(members) | Ty::Intersection(members) | Ty::Pack(members) => {
                self.all(members, generics)
            }
            Ty::Callback(cb) => {
                let mut inner: Vec<&str> = generics.to_vec();
                inner.extend(cb.generics.iter().map(|g| g.trim_end_matches("...")));
                for (_, t) in &cb.params {
                    self.walk(t, &inner);
                }
                self.walk(&cb.returns, &inner);
            }
            Ty::Any
            | Ty::Nil
            | Ty::Boolean
            | Ty::Number
            | Ty::String
            | Ty::Literal(_)
            | Ty::BoolLiteral(_)
            | Ty::Table
            | Ty::Function => {}
        }
    }

    fn all(&mut self, types: &[Ty], generics: &[&str]) {
        for t in types {
            self.walk(t, generics);
        }
    }

    fn used(&mut self, generics: &[&str], name: &str) {
        if !generics.contains(&name) {
            self.used.insert(name.to_string());
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/types/sanitize.rs"]
mod tests;
