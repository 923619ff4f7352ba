//! The Luau type model: one value for a type as a tool declares it, read from its text by
//! [`Ty::parse`] (in `read.rs` beside this file), and judged by every surface from there.
//!
//! - `tools.bind` and command lines check values against it (`crate::bind`);
//! - `--expose-tools` turns it into JSON Schema (`crate::mcp::json_schema`);
//! - `codemode types` prints it into the definition file ([`Ty::declaration`]).
//!
//! What the checker cannot judge (a name defined elsewhere, `typeof`, an intersection, a
//! type pack) is kept as written, so the definition file can still name it, and accepts
//! every value: binding never refuses what it cannot judge.

use std::fmt::{self, Write};

// A field named by a reserved word is written `["end"]: T`.
use crate::assets::names::is_plain_name;

/// One Luau type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ty {
    /// `any`, `unknown`, an untyped parameter, or text that does not read as a type.
    Any,
    /// `nil`.
    Nil,
    /// `boolean`.
    Boolean,
    /// `number`.
    Number,
    /// `string`.
    String,
    /// `Path`: a string that names a file; command lines resolve it against the cwd.
    Path,
    /// A singleton string type: `"upper"` (the string's value, escapes decoded).
    Literal(String),
    /// A singleton boolean type: `true`.
    BoolLiteral(bool),
    /// Any table: the docstring shorthand `table`, `{}` or `{ [any]: any }`.
    Table,
    /// Any function: the docstring shorthand `function` or `(...any) -> ...any`.
    Function,
    /// `{ T }`.
    Array(Box<Ty>),
    /// `{ [K]: V }`.
    Map(Box<Ty>, Box<Ty>),
    /// `{ name: T, ... }`, optionally with an indexer `[K]: V`.
    Record(Vec<Field>, Option<Box<(Ty, Ty)>>),
    /// `A | B`; `T?` is `T | nil` (flattened, without repeats, `nil` last).
    Union(Vec<Ty>),
    /// `A & B`.
    Intersection(Vec<Ty>),
    /// A function type other than [`Ty::Function`]: `<T>(x: T, ...number) -> (T, string)`.
    Callback(Box<Callback>),
    /// A type known by name only: a tool's own alias, a generic parameter, a builtin the
    /// model has no word for (`thread`, `buffer`), or `module.Name` from another module;
    /// with its generic arguments.
    Named {
        /// The name as written (`Options`, `T`, `mod.Type`).
        name: String,
        /// `Map<string, number>` has two.
        args: Vec<Ty>,
    },
    /// `typeof(expression)`: the expression's text.
    Typeof(String),
    /// A type pack: `()`, `(string, number)` (returns and generic arguments only).
    Pack(Vec<Ty>),
    /// `...T`: any number of values of type `T` (last parameter, returns).
    Variadic(Box<Ty>),
    /// `T...`: a generic type pack.
    GenericPack(String),
}

/// One named field of a record type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    /// The field name (`["a b"]: T` has the name `a b`).
    pub name: String,
    /// Its type.
    pub ty: Ty,
}

/// A function type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Callback {
    /// Generic parameters: `T`, and `U...` for a pack.
    pub(crate) generics: Vec<String>,
    /// Parameters: a name when written (`(op: string) -> ()`), and the type; the last may
    /// be a [`Ty::Variadic`] or a [`Ty::GenericPack`].
    pub(crate) params: Vec<(Option<String>, Ty)>,
    /// What it returns: a type, or a [`Ty::Pack`], [`Ty::Variadic`] or [`Ty::GenericPack`].
    pub(crate) returns: Ty,
}

impl Ty {
    /// True when checking accepts every value: `any`, and the types the checker cannot
    /// judge (names defined elsewhere, `typeof`, intersections, type packs).
    pub(crate) fn accepts_anything(&self) -> bool {
        match self {
            Ty::Any
            | Ty::Named { .. }
            | Ty::Typeof(_)
            | Ty::Intersection(_)
            | Ty::Pack(_)
            | Ty::Variadic(_)
            | Ty::GenericPack(_) => true,
            Ty::Union(members) => members.iter().any(Ty::accepts_anything),
            _ => false,
        }
    }

    /// True when `nil` is an acceptable value (the slot may be left out). A type known by
    /// name only (a tool's own alias, `buffer`) is not: a parameter typed `Person` is
    /// needed, though what it holds is not judged; `Person?` may be left out.
    pub(crate) fn accepts_nil(&self) -> bool {
        match self {
            Ty::Nil => true,
            Ty::Named { .. } => false,
            Ty::Union(members) => members.iter().any(Ty::accepts_nil),
            other => other.accepts_anything(),
        }
    }

    /// The type without its `nil` member: `T?` gives `T`.
    pub(crate) fn without_nil(&self) -> Ty {
        match self {
            Ty::Union(members) => {
                let rest: Vec<Ty> = members
                    .iter()
                    .filter(|m| **m != Ty::Nil)
                    .map(Ty::without_nil)
                    .collect();
                match rest.len() {
                    0 => Ty::Nil,
                    1 => rest.into_iter().next().unwrap_or(Ty::Any),
                    _ => Ty::Union(rest),
                }
            }
            other => other.clone(),
        }
    }

    /// The members of a union of string literals (`"a" | "b"`, optionally `?`), if it is one.
    pub(crate) fn literal_choices(&self) -> Option<Vec<&str>> {
        match self {
            Ty::Literal(s) => Some(vec![s.as_str()]),
            Ty::Union(members) => {
                let mut out = Vec::new();
                for m in members {
                    match m {
                        Ty::Literal(s) => out.push(s.as_str()),
                        Ty::Nil => {}
                        Ty::Union(_) => out.extend(m.literal_choices()?),
                        _ => return None,
                    }
                }
                (!out.is_empty()).then_some(out)
            }
            _ => None,
        }
    }

    /// The named fields, when the type (without `nil`) is a record.
    pub(crate) fn record_fields(&self) -> Option<Vec<Field>> {
        match self.without_nil() {
            Ty::Record(fields, _) if !fields.is_empty() => Some(fields),
            _ => None,
        }
    }

    /// The JSON type a value of this type has, with its article (`a string`, `an array`),
    /// when there is one: for messages to callers that send JSON.
    pub(crate) fn json_kind(&self) -> Option<&'static str> {
        let kind = |ty: &Ty| match ty {
            Ty::String | Ty::Path | Ty::Literal(_) => Some("a string"),
            Ty::Number => Some("a number"),
            Ty::Boolean | Ty::BoolLiteral(_) => Some("a boolean"),
            Ty::Array(_) => Some("an array"),
            Ty::Map(..) | Ty::Record(..) => Some("an object"),
            _ => None,
        };
        match self.without_nil() {
            Ty::Union(members) => {
                let first = kind(members.first()?)?;
                members
                    .iter()
                    .all(|m| kind(m) == Some(first))
                    .then_some(first)
            }
            other => kind(&other),
        }
    }

    /// The type as Luau text a definition file can hold: like [`fmt::Display`], but the
    /// docstring shorthands `table` and `function` become `{ [any]: any }` and
    /// `(...any) -> ...any`. The text reads back as the same type.
    pub(crate) fn declaration(&self) -> String {
        let mut out = String::new();
        write_ty(&mut out, self, Form::Declaration);
        out
    }

    /// Builds a union: nested unions are flattened, repeats dropped, `nil` put last; a
    /// union holding `any` is `any`, and a union of one member is that member.
    pub(crate) fn union(members: Vec<Ty>) -> Ty {
        let mut flat = Vec::new();
        let mut nil = false;
        for m in members {
            let inner = match m {
                Ty::Union(inner) => inner,
                other => vec![other],
            };
            for m in inner {
                match m {
                    Ty::Any => return Ty::Any,
                    Ty::Nil => nil = true,
                    other if !flat.contains(&other) => flat.push(other),
                    _ => {}
                }
            }
        }
        if nil {
            flat.push(Ty::Nil);
        }
        if flat.len() == 1 {
            flat.pop().unwrap_or(Ty::Any)
        } else {
            Ty::Union(flat)
        }
    }
}

/// How a type is printed: for people (shorthands kept), or for a definition file.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Message,
    Declaration,
}

impl fmt::Display for Ty {
    /// The type as Luau text (the shorthands `table` and `function` kept); it reads back
    /// as the same type.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_ty(&mut out, self, Form::Message);
        f.write_str(&out)
    }
}

fn write_ty(out: &mut String, ty: &Ty, form: Form) {
    match ty {
        Ty::Any => out.push_str("any"),
        Ty::Nil => out.push_str("nil"),
        Ty::Boolean => out.push_str("boolean"),
        Ty::Number => out.push_str("number"),
        Ty::String => out.push_str("string"),
        Ty::Path => out.push_str("Path"),
        Ty::Literal(s) => write_string(out, s),
        Ty::BoolLiteral(b) => out.push_str(if *b { "true" } else { "false" }),
        Ty::Table => out.push_str(match form {
            Form::Message => "table",
            Form::Declaration => "{ [any]: any }",
        }),
        Ty::Function => out.push_str(match form {
            Form::Message => "function",
            Form::Declaration => "(...any) -> ...any",
        }),
        Ty::Array(item) => {
            out.push_str("{ ");
            write_ty(out, item, form);
            out.push_str(" }");
        }
        Ty::Map(k, v) => {
            out.push_str("{ ");
            write_indexer(out, k, v, form);
            out.push_str(" }");
        }
        Ty::Record(fields, indexer) => {
            out.push_str("{ ");
            for (i, field) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if is_plain_name(&field.name) {
                    out.push_str(&field.name);
                } else {
                    out.push('[');
                    write_string(out, &field.name);
                    out.push(']');
                }
                out.push_str(": ");
                write_ty(out, &field.ty, form);
            }
            if let Some(kv) = indexer {
                out.push_str(", ");
                write_indexer(out, &kv.0, &kv.1, form);
            }
            out.push_str(" }");
        }
        Ty::Union(members) => {
            let rest: Vec<&Ty> = members.iter().filter(|m| **m != Ty::Nil).collect();
            let nil = rest.len() < members.len();
            match (nil, rest.as_slice()) {
                (_, []) => out.push_str("nil"),
                (true, [one]) => {
                    write_member(out, one, form);
                    out.push('?');
                }
                (nil, many) => {
                    if nil {
                        out.push('(');
                    }
                    for (i, m) in many.iter().enumerate() {
                        if i > 0 {
                            out.push_str(" | ");
                        }
                        write_member(out, m, form);
                    }
                    if nil {
                        out.push_str(")?");
                    }
                }
            }
        }
        Ty::Intersection(members) => {
            for (i, m) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(" & ");
                }
                write_member(out, m, form);
            }
        }
        Ty::Callback(cb) => {
            if !cb.generics.is_empty() {
                let _ = write!(out, "<{}>", cb.generics.join(", "));
            }
            out.push('(');
            for (i, (name, ty)) in cb.params.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if let Some(name) = name {
                    out.push_str(name);
                    out.push_str(": ");
                }
                write_ty(out, ty, form);
            }
            out.push_str(") -> ");
            write_ty(out, &cb.returns, form);
        }
        Ty::Named { name, args } => {
            out.push_str(name);
            if !args.is_empty() {
                out.push('<');
                write_list(out, args, form);
                out.push('>');
            }
        }
        Ty::Typeof(expression) => {
            let _ = write!(out, "typeof({expression})");
        }
        Ty::Pack(types) => {
            out.push('(');
            write_list(out, types, form);
            out.push(')');
        }
        Ty::Variadic(item) => {
            out.push_str("...");
            write_ty(out, item, form);
        }
        Ty::GenericPack(name) => {
            out.push_str(name);
            out.push_str("...");
        }
    }
}

/// `[K]: V`; a key that starts with a string literal is bracketed, as `["name"]: V` is a
/// field.
fn write_indexer(out: &mut String, k: &Ty, v: &Ty, form: Form) {
    let mut key = String::new();
    write_ty(&mut key, k, form);
    if key.starts_with('"') {
        key = format!("({key})");
    }
    out.push('[');
    out.push_str(&key);
    out.push_str("]: ");
    write_ty(out, v, form);
}

fn write_list(out: &mut String, types: &[Ty], form: Form) {
    for (i, t) in types.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_ty(out, t, form);
    }
}

/// A member of a union, an intersection or an optional: function types and intersections
/// are bracketed, or Luau would read `() -> A | B` as a function returning `A | B` and
/// refuse `A & B | C` outright.
fn write_member(out: &mut String, ty: &Ty, form: Form) {
    let bracket = match ty {
        Ty::Callback(_) | Ty::Intersection(_) | Ty::Union(_) => true,
        Ty::Function => form == Form::Declaration,
        _ => false,
    };
    if bracket {
        out.push('(');
        write_ty(out, ty, form);
        out.push(')');
    } else {
        write_ty(out, ty, form);
    }
}

/// A double-quoted Luau string literal holding `s`.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\{:03}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
#[path = "../../tests/unit/types/model.rs"]
mod tests;
