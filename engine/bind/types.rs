//! Luau type strings (as written in a signature or a `--!arg` line) read into a small model.
//!
//! The text is parsed with `full_moon` as the right-hand side of `type T = <type>`, so
//! anything Luau accepts is read the way Luau reads it. Types the model has no word for
//! (generics, `typeof`, a tool's own aliases) become [`Ty::Any`]: binding never refuses
//! what it cannot judge.

use std::fmt;

use crate::assets::with_luau_within;
use full_moon::ast::luau::{TypeFieldKey, TypeInfo};
use full_moon::ast::Stmt;
use full_moon::tokenizer::TokenType;

/// Types nested deeper than this read as [`Ty::Any`]: the model and its checks recurse
/// on the caller's stack, and no tool needs such a type.
const MAX_TYPE_DEPTH: usize = 32;

/// One Luau type, reduced to what binding and command-line reading need.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `any`, `unknown`, an untyped parameter, or a type the model does not know.
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
    /// A singleton string type: `"upper"`.
    Literal(String),
    /// A singleton boolean type: `true`.
    BoolLiteral(bool),
    /// `table` (docstring shorthand): any table.
    Table,
    /// `function` or a callback type `(T) -> U`.
    Function,
    /// `{ T }`.
    Array(Box<Ty>),
    /// `{ [K]: V }`.
    Map(Box<Ty>, Box<Ty>),
    /// `{ name: T, ... }`, optionally with an indexer `[K]: V`.
    Record(Vec<Field>, Option<Box<(Ty, Ty)>>),
    /// `A | B`; `T?` is `T | nil`.
    Union(Vec<Ty>),
}

/// One named field of a record type.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
}

impl Ty {
    /// Reads a type as written. Text that does not parse as a Luau type reads as [`Ty::Any`].
    pub fn parse(text: &str) -> Ty {
        let source = format!("type T = {text}\n");
        let found = with_luau_within(&source, MAX_TYPE_DEPTH, |ast| {
            ast.nodes().stmts().next().and_then(|stmt| match stmt {
                Stmt::TypeDeclaration(decl) => Some(from_info(decl.type_definition())),
                _ => None,
            })
        });
        found.ok().flatten().unwrap_or(Ty::Any)
    }

    /// True when `nil` is an acceptable value (the slot may be left out).
    pub fn accepts_nil(&self) -> bool {
        match self {
            Ty::Any | Ty::Nil => true,
            Ty::Union(members) => members.iter().any(Ty::accepts_nil),
            _ => false,
        }
    }

    /// The type without its `nil` member: `T?` gives `T`.
    pub fn without_nil(&self) -> Ty {
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
    pub fn literal_choices(&self) -> Option<Vec<&str>> {
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
    pub fn record_fields(&self) -> Option<Vec<Field>> {
        match self.without_nil() {
            Ty::Record(fields, _) if !fields.is_empty() => Some(fields),
            _ => None,
        }
    }

    /// The JSON type a value of this type has, with its article (`a string`, `an array`),
    /// when there is one: for messages to callers that send JSON.
    pub fn json_kind(&self) -> Option<&'static str> {
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

    /// True when the type (without `nil`) is a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self.without_nil(), Ty::Boolean | Ty::BoolLiteral(_))
    }
}

fn from_info(info: &TypeInfo) -> Ty {
    match info {
        TypeInfo::Basic(token) => named(&token.token().to_string()),
        TypeInfo::String(token) => match token.token_type() {
            TokenType::StringLiteral { literal, .. } => Ty::Literal(literal.to_string()),
            _ => Ty::Any,
        },
        TypeInfo::Boolean(token) => Ty::BoolLiteral(token.token().to_string() == "true"),
        TypeInfo::Optional { base, .. } => union(vec![from_info(base), Ty::Nil]),
        TypeInfo::Union(u) => union(u.types().iter().map(from_info).collect()),
        TypeInfo::Tuple { types, .. } if types.len() == 1 => {
            types.iter().next().map(from_info).unwrap_or(Ty::Any)
        }
        TypeInfo::Array { type_info, .. } => Ty::Array(Box::new(from_info(type_info))),
        TypeInfo::Table { fields, .. } => record(fields.iter()),
        TypeInfo::Callback { .. } => Ty::Function,
        _ => Ty::Any,
    }
}

fn named(name: &str) -> Ty {
    match name {
        "nil" => Ty::Nil,
        "boolean" => Ty::Boolean,
        "number" => Ty::Number,
        "string" => Ty::String,
        "Path" => Ty::Path,
        "table" => Ty::Table,
        "function" => Ty::Function,
        _ => Ty::Any,
    }
}

/// A union, flattened; a union holding `any` is `any`.
fn union(members: Vec<Ty>) -> Ty {
    let mut flat = Vec::new();
    for m in members {
        match m {
            Ty::Union(inner) => flat.extend(inner),
            Ty::Any => return Ty::Any,
            other if !flat.contains(&other) => flat.push(other),
            _ => {}
        }
    }
    if flat.len() == 1 {
        flat.pop().unwrap_or(Ty::Any)
    } else {
        Ty::Union(flat)
    }
}

fn record<'a>(fields: impl Iterator<Item = &'a full_moon::ast::luau::TypeField>) -> Ty {
    let mut named_fields = Vec::new();
    let mut indexer = None;
    for field in fields {
        let ty = from_info(field.value());
        match field.key() {
            TypeFieldKey::Name(name) => named_fields.push(Field {
                name: name.token().to_string(),
                ty,
            }),
            TypeFieldKey::IndexSignature { inner, .. } => indexer = Some((from_info(inner), ty)),
            _ => return Ty::Table,
        }
    }
    match (named_fields.is_empty(), indexer) {
        (true, Some((k, v))) => Ty::Map(Box::new(k), Box::new(v)),
        (true, None) => Ty::Table,
        (false, indexer) => Ty::Record(named_fields, indexer.map(Box::new)),
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Any => write!(f, "any"),
            Ty::Nil => write!(f, "nil"),
            Ty::Boolean => write!(f, "boolean"),
            Ty::Number => write!(f, "number"),
            Ty::String => write!(f, "string"),
            Ty::Path => write!(f, "Path"),
            Ty::Literal(s) => write!(f, "\"{s}\""),
            Ty::BoolLiteral(b) => write!(f, "{b}"),
            Ty::Table => write!(f, "table"),
            Ty::Function => write!(f, "function"),
            Ty::Array(t) => write!(f, "{{ {t} }}"),
            Ty::Map(k, v) => write!(f, "{{ [{k}]: {v} }}"),
            Ty::Record(fields, indexer) => {
                let mut parts: Vec<String> = fields
                    .iter()
                    .map(|x| format!("{}: {}", x.name, x.ty))
                    .collect();
                if let Some(kv) = indexer {
                    parts.push(format!("[{}]: {}", kv.0, kv.1));
                }
                write!(f, "{{ {} }}", parts.join(", "))
            }
            Ty::Union(members) => {
                let nil = members.contains(&Ty::Nil);
                let rest: Vec<String> = members
                    .iter()
                    .filter(|m| **m != Ty::Nil)
                    .map(|m| m.to_string())
                    .collect();
                match (nil, rest.len()) {
                    (true, 1) => write!(f, "{}?", rest[0]),
                    (true, _) => write!(f, "({})?", rest.join(" | ")),
                    (false, _) => write!(f, "{}", rest.join(" | ")),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_primitives_and_optionals() {
        assert_eq!(Ty::parse("string"), Ty::String);
        assert_eq!(Ty::parse("number?"), Ty::Union(vec![Ty::Number, Ty::Nil]));
        assert!(Ty::parse("number?").accepts_nil());
        assert!(!Ty::parse("number").accepts_nil());
        assert_eq!(Ty::parse("Path"), Ty::Path);
        assert_eq!(Ty::parse("table"), Ty::Table);
        assert_eq!(Ty::parse("Whatever<T>"), Ty::Any);
        assert_eq!(Ty::parse("not a type ((("), Ty::Any);
    }

    #[test]
    fn reads_literal_unions() {
        let ty = Ty::parse(r#"("upper" | "lower")?"#);
        assert_eq!(ty.literal_choices(), Some(vec!["upper", "lower"]));
        assert!(ty.accepts_nil());
        assert_eq!(ty.to_string(), r#"("upper" | "lower")?"#);
        assert_eq!(Ty::parse("string | number").literal_choices(), None);
    }

    #[test]
    fn reads_tables() {
        let ty = Ty::parse("{ sep: string?, max: number? }?");
        let fields = ty.record_fields().unwrap();
        assert_eq!(fields[0].name, "sep");
        assert_eq!(fields[1].ty, Ty::Union(vec![Ty::Number, Ty::Nil]));
        assert_eq!(Ty::parse("{number}"), Ty::Array(Box::new(Ty::Number)));
        assert_eq!(
            Ty::parse("{[string]: boolean}"),
            Ty::Map(Box::new(Ty::String), Box::new(Ty::Boolean))
        );
        assert_eq!(Ty::parse("(string) -> number"), Ty::Function);
        assert_eq!(Ty::parse("{}"), Ty::Table);
    }
}
