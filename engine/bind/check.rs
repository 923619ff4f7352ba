//! Checking one value against one type.
//!
//! The walk follows the type and reads at most [`NODE_BUDGET`] values in all, so a
//! huge table costs a bounded amount of host time; past the budget the rest is taken
//! as it is (the tool itself still sees the values).

use super::shape::{type_name, Key, Kind, Shape};
use crate::types::{Field, Ty};

/// How many values one check reads at most.
pub(crate) const NODE_BUDGET: usize = 100_000;

/// Why a value does not fit its type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mismatch {
    /// Where in the value: `""` for the value itself, `.sep`, `[2]`.
    pub(crate) path: String,
    /// What was expected and what was found.
    pub(crate) detail: String,
    /// True when a table carried a field its type does not declare.
    pub(crate) unknown_field: bool,
    /// What was found (`a number`, `the string "x"`) when the value itself has the wrong
    /// type, rather than something inside it.
    pub(crate) found: Option<String>,
}

/// Checks `value` against `ty`.
pub(crate) fn check<V: Shape>(ty: &Ty, value: &V) -> Result<(), Mismatch> {
    Walker::new(false).check(ty, value)
}

/// As [`check`], but a table may carry fields its record type does not declare: what one
/// tool returns (a parsed date with all its parts) is passed on to the next whole.
pub(crate) fn check_open<V: Shape>(ty: &Ty, value: &V) -> Result<(), Mismatch> {
    Walker::new(true).check(ty, value)
}

struct Walker {
    budget: usize,
    path: Vec<String>,
    /// Undeclared fields of a record are let through.
    open: bool,
}

impl Walker {
    fn new(open: bool) -> Walker {
        Walker {
            budget: NODE_BUDGET,
            path: Vec::new(),
            open,
        }
    }

    /// A mismatch inside the value, not of the value itself.
    fn inside(&self, detail: String, unknown_field: bool) -> Mismatch {
        Mismatch {
            path: self.path.concat(),
            detail,
            unknown_field,
            found: None,
        }
    }

    fn mismatch(&self, ty: &Ty, kind: &Kind) -> Mismatch {
        let got = match kind {
            Kind::String(s) if s.chars().count() <= 40 => format!("the string \"{s}\""),
            other => format!("a {}", type_name(other)),
        };
        Mismatch {
            path: self.path.concat(),
            detail: format!("expected {ty}, got {got}"),
            unknown_field: false,
            found: Some(got),
        }
    }

    fn check<V: Shape>(&mut self, ty: &Ty, value: &V) -> Result<(), Mismatch> {
        if self.budget == 0 {
            return Ok(());
        }
        self.budget -= 1;
        let kind = value.kind();
        let fits = match (ty, &kind) {
            (ty, _) if ty.accepts_anything() => true,
            (Ty::Nil, Kind::Nil) => true,
            (Ty::Boolean, Kind::Boolean(_)) => true,
            (Ty::BoolLiteral(want), Kind::Boolean(got)) => want == got,
            (Ty::Number, Kind::Number) => true,
            (Ty::String | Ty::Path, Kind::String(_)) => true,
            (Ty::Literal(want), Kind::String(got)) => want == got,
            (Ty::Table, Kind::Table) => true,
            (Ty::Function | Ty::Callback(_), Kind::Function) => true,
            (Ty::Array(item), Kind::Table) => return self.array(item, value),
            (Ty::Map(k, v), Kind::Table) => return self.map(k, v, value),
            (Ty::Record(fields, indexer), Kind::Table) => {
                return self.record(fields, indexer.as_deref(), value)
            }
            (Ty::Union(members), _) => return self.union(ty, members, value, &kind),
            _ => false,
        };
        if fits {
            Ok(())
        } else {
            Err(self.mismatch(ty, &kind))
        }
    }

    fn union<V: Shape>(
        &mut self,
        ty: &Ty,
        members: &[Ty],
        value: &V,
        kind: &Kind,
    ) -> Result<(), Mismatch> {
        let mut deepest: Option<Mismatch> = None;
        for member in members {
            match self.check(member, value) {
                Ok(()) => return Ok(()),
                // A table that matched a table member but failed inside says more than "wrong type".
                Err(m) if m.unknown_field || m.path.len() > self.path.concat().len() => {
                    deepest = Some(m)
                }
                Err(_) => {}
            }
        }
        Err(deepest.unwrap_or_else(|| self.mismatch(ty, kind)))
    }

    fn array<V: Shape>(&mut self, item: &Ty, value: &V) -> Result<(), Mismatch> {
        let entries = value.entries(self.budget);
        for (key, v) in &entries {
            let Key::Index(i) = key else {
                // `{ rows = rows }` for `rows`, or a whole result for its list: name the
                // field to pass instead, one that is such a list (`rows`, not `columns`).
                let instead = match self.list_among(item, &entries) {
                    Some(name) => {
                        format!(
                            "; pass the list itself (its field \"{name}\"), not a table around it"
                        )
                    }
                    None => String::new(),
                };
                return Err(self.inside(
                    format!(
                        "expected {}, got a table with a non-array key {}{instead}",
                        Ty::Array(Box::new(item.clone())),
                        show_key(key)
                    ),
                    false,
                ));
            };
            self.path.push(format!("[{i}]"));
            let result = self.check(item, v);
            self.path.pop();
            result?;
        }
        Ok(())
    }

    /// The first of `entries` named by a string that holds a list of `item`s.
    fn list_among<V: Shape>(&mut self, item: &Ty, entries: &[(Key, V)]) -> Option<String> {
        let list = Ty::Array(Box::new(item.clone()));
        let depth = self.path.len();
        let found = entries.iter().find_map(|(key, v)| match key {
            Key::Name(name) if v.kind() == Kind::Table && self.check(&list, v).is_ok() => {
                Some(name.clone())
            }
            _ => None,
        });
        self.path.truncate(depth);
        found
    }

    fn map<V: Shape>(&mut self, k: &Ty, v: &Ty, value: &V) -> Result<(), Mismatch> {
        for (key, item) in value.entries(self.budget) {
            self.entry(k, v, &key, &item)?;
        }
        Ok(())
    }

    /// One entry of a map, or one a record's indexer takes: its key must fit `k`.
    fn entry<V: Shape>(&mut self, k: &Ty, v: &Ty, key: &Key, item: &V) -> Result<(), Mismatch> {
        if !key_fits(k, key) {
            return Err(self.inside(format!("key {} is not a {k}", show_key(key)), false));
        }
        self.path.push(format!("[{}]", show_key(key)));
        let result = self.check(v, item);
        self.path.pop();
        result
    }

    fn record<V: Shape>(
        &mut self,
        fields: &[Field],
        indexer: Option<&(Ty, Ty)>,
        value: &V,
    ) -> Result<(), Mismatch> {
        for field in fields {
            self.path.push(format!(".{}", field.name));
            let result = match value.field(&field.name) {
                Some(v) => self.check(&field.ty, &v),
                None if field.ty.accepts_nil() => Ok(()),
                None => Err(self.inside(
                    format!(
                        "missing (a {} is required){}",
                        field.ty,
                        self.misspelling_of(&field.name, value)
                    ),
                    false,
                )),
            };
            self.path.pop();
            result?;
        }
        if self.open && indexer.is_none() {
            return self.misspelt(fields, value);
        }
        for (key, item) in value.entries(self.budget) {
            let declared = matches!(&key, Key::Name(n) if fields.iter().any(|f| &f.name == n));
            if declared {
                continue;
            }
            if let Some((k, v)) = indexer {
                self.entry(k, v, &key, &item)?;
            } else {
                let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                return Err(self.inside(
                    format!(
                        "has no field {} (fields: {})",
                        show_key(&key),
                        names.join(", ")
                    ),
                    true,
                ));
            }
        }
        Ok(())
    }
}

impl Walker {
    /// In an open record, an undeclared field is let through unless it is a misspelling of
    /// a declared field the table lacks (`elipsis` for `ellipsis`): then the option the
    /// caller meant would be silently ignored.
    fn misspelt<V: Shape>(&self, fields: &[Field], value: &V) -> Result<(), Mismatch> {
        for (key, _) in value.entries(self.budget) {
            let Key::Name(name) = &key else { continue };
            if fields.iter().any(|f| &f.name == name) {
                continue;
            }
            let meant = fields
                .iter()
                .find(|f| value.field(&f.name).is_none() && close(name, &f.name));
            if let Some(meant) = meant {
                let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                return Err(self.inside(
                    format!(
                        "has no field \"{name}\"; did you mean \"{}\"? (fields: {})",
                        meant.name,
                        names.join(", ")
                    ),
                    true,
                ));
            }
        }
        Ok(())
    }
}

/// The fields of a record without an indexer, or of the one such record a union holds
/// (`{ sep: string? }?`): what a table literal given for `ty` is read against.
fn literal_record(ty: &Ty) -> Option<&[Field]> {
    match ty {
        Ty::Record(fields, None) => Some(fields),
        Ty::Union(members) => {
            let mut records = members.iter().filter(|m| matches!(m, Ty::Record(..)));
            let (Some(Ty::Record(fields, None)), None) = (records.next(), records.next()) else {
                return None;
            };
            Some(fields)
        }
        _ => None,
    }
}

/// For a table literal given where `ty` goes, with the field names `names` and the kind
/// of each field's value when it is a literal (`"string"`, `"number"`, `"boolean"`): the
/// first field whose literal is of another kind than the one its declared type takes
/// (`{ maxLength = "10" }` for `maxLength: number?`). The call refuses it. Only a field
/// declared as one kind (`number`, `number?`, `"a" | "b"`) is read.
pub(crate) fn wrong_kind(ty: &Ty, names: &[&str], kinds: &[Option<&str>]) -> Option<StrayField> {
    let fields = literal_record(ty)?;
    names
        .iter()
        .zip(kinds)
        .enumerate()
        .find_map(|(at, (name, kind))| {
            let kind = (*kind)?;
            let field = fields.iter().find(|f| f.name == *name)?;
            let wanted = kind_of(&field.ty)?;
            (wanted != kind).then(|| StrayField {
                at,
                detail: format!(
                    "field \"{name}\" is a {kind}, but it takes a {wanted} ({name}: {})",
                    field.ty
                ),
                refused: true,
            })
        })
}

/// True when a table literal with the field names `names`, whose values are of the kinds
/// `kinds` (see [`wrong_kind`]), surely fits `ty`: each field is declared and takes one
/// kind, the literal's, and every declared field it leaves out may be nil.
pub(crate) fn fits_literal(ty: &Ty, names: &[&str], kinds: &[Option<&str>]) -> bool {
    let Some(fields) = literal_record(ty) else {
        return false;
    };
    let given = names.iter().zip(kinds).all(|(name, kind)| {
        fields
            .iter()
            .find(|f| f.name == *name)
            .is_some_and(|f| kind.is_some() && kind_of(&f.ty) == *kind)
    });
    given
        && fields
            .iter()
            .all(|f| names.contains(&f.name.as_str()) || f.ty.accepts_nil())
}

/// The one kind of value `ty` takes, nil aside: `number` for `number?`, `string` for
/// `"a" | "b"`; `None` for any other type or a mix.
fn kind_of(ty: &Ty) -> Option<&'static str> {
    match ty {
        Ty::Number => Some("number"),
        Ty::String | Ty::Path | Ty::Literal(_) => Some("string"),
        Ty::Boolean | Ty::BoolLiteral(_) => Some("boolean"),
        Ty::Union(members) => {
            let mut kinds = members.iter().filter(|m| **m != Ty::Nil).map(kind_of);
            let first = kinds.next()??;
            kinds.all(|k| k == Some(first)).then_some(first)
        }
        _ => None,
    }
}

/// A field of a table literal that the type it is given for does not declare (see
/// [`stray_field`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrayField {
    /// Which of the names given.
    pub(crate) at: usize,
    /// What is wrong, in the words a call uses when it refuses a misspelt field.
    pub(crate) detail: String,
    /// True when the call refuses it: a misspelling of a declared field the literal lacks
    /// (`maxLenght` for `maxLength`), or a value of the wrong kind (see [`wrong_kind`]).
    /// Otherwise the call lets it through and the tool never reads it.
    pub(crate) refused: bool,
}

/// For a table literal with the field names `names` given where `ty` goes: the first name
/// that reads as a misspelling of a declared field the literal lacks, else the first name
/// `ty` does not declare; `None` when every name is declared. Only a record without an
/// indexer, or a union holding one such record (`{ sep: string? }?`), is read.
pub(crate) fn stray_field(ty: &Ty, names: &[&str]) -> Option<StrayField> {
    let fields = literal_record(ty)?;
    let all: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let stray = |name: &&str| !all.contains(name);
    let misspelt = names
        .iter()
        .enumerate()
        .filter(|(_, n)| stray(n))
        .find_map(|(at, name)| {
            let meant = all.iter().find(|f| !names.contains(f) && close(name, f))?;
            Some(StrayField {
                at,
                detail: format!(
                    "has no field \"{name}\"; did you mean \"{meant}\"? (fields: {})",
                    all.join(", ")
                ),
                refused: true,
            })
        });
    misspelt.or_else(|| {
        let at = names.iter().position(stray)?;
        Some(StrayField {
            at,
            detail: format!(
                "has no field \"{}\" (fields: {}); the tool may ignore it or refuse it",
                names[at],
                all.join(", ")
            ),
            refused: false,
        })
    })
}

impl Walker {
    /// `; the table has "timezon": is it a misspelt "timezone"?` when a key of `value` reads
    /// as a misspelling of the missing field `name`; otherwise nothing.
    fn misspelling_of<V: Shape>(&self, name: &str, value: &V) -> String {
        value
            .entries(self.budget)
            .into_iter()
            .find_map(|(key, _)| match key {
                Key::Name(key) if key != name && close(&key, name) => Some(format!(
                    "; the table has \"{key}\": is it a misspelt \"{name}\"?"
                )),
                _ => None,
            })
            .unwrap_or_default()
    }
}

/// True when `a` reads as a misspelling of `b`: the same but for case, or one edit apart
/// (none for names under three letters, where one edit makes another word: `x`, `y`; two
/// for names of six letters or more).
fn close(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let allowed = match b.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    a.len() <= 4 * b.len() && strsim::damerau_levenshtein(&a, &b) <= allowed
}

/// True when a table key is a value of type `k`.
fn key_fits(k: &Ty, key: &Key) -> bool {
    match (k, key) {
        (k, _) if k.accepts_anything() => true,
        (Ty::Union(members), key) => members.iter().any(|m| key_fits(m, key)),
        (Ty::String | Ty::Path, Key::Name(_)) => true,
        (Ty::Literal(want), Key::Name(name)) => want == name,
        (Ty::Number, Key::Index(_) | Key::Other("number")) => true,
        _ => false,
    }
}

fn show_key(key: &Key) -> String {
    match key {
        Key::Index(i) => i.to_string(),
        Key::Name(n) => format!("\"{n}\""),
        Key::Other(t) => format!("of type {t}"),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/bind/check.rs"]
mod tests;
