//! Reading Luau type text (a signature's annotation or a `--!arg` type) into [`Ty`].
//!
//! The text is parsed with `full_moon` as the right-hand side of `type _T = <text>` (a
//! return as `type _T = () -> <text>`), so it is read the way Luau reads it, through the
//! engine's parse guard: a depth limit checked before parsing, a big stack, and a panic in
//! the parser turned into an error.

use full_moon::ast::luau::{
    GenericDeclaration, GenericParameterInfo, IndexedTypeInfo, TypeArgument, TypeField,
    TypeFieldKey, TypeInfo,
};
use full_moon::ast::punctuated::Punctuated;
use full_moon::ast::Stmt;
use full_moon::tokenizer::{TokenReference, TokenType};

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::model::{Callback, Field, Ty};
use crate::assets::{with_luau_within, ParseError};

/// How many types [`Ty::parse`] and [`Ty::parse_returns`] remember, and the longest text
/// they remember one for: a world's tools share a few hundred annotations, read again for
/// every script checked and every call bound, and each read is a parse (tens of
/// microseconds). When full, it starts over.
const REMEMBERED: usize = 4096;
const REMEMBERED_TEXT: usize = 512;

/// The types read lately, by slot and text.
fn remembered() -> &'static Mutex<HashMap<(Slot, String), Ty>> {
    static READ: OnceLock<Mutex<HashMap<(Slot, String), Ty>>> = OnceLock::new();
    READ.get_or_init(|| Mutex::new(HashMap::new()))
}

/// `text` read in `slot` as [`Ty::parse`] reads it, remembered.
fn read_remembered(text: &str, slot: Slot) -> Ty {
    if text.len() > REMEMBERED_TEXT {
        return read(text, slot).map_or(Ty::Any, |r| r.ty);
    }
    let key = (slot, text.to_string());
    let lock = || remembered().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(ty) = lock().get(&key) {
        return ty.clone();
    }
    let ty = read(text, slot).map_or(Ty::Any, |r| r.ty);
    let mut held = lock();
    if held.len() >= REMEMBERED {
        held.clear();
    }
    held.insert(key, ty.clone());
    ty
}

/// Types nested deeper than this are not read: the model and everything that walks it
/// recurse on the caller's stack, and no tool needs such a type.
const MAX_TYPE_DEPTH: usize = 32;

/// Where a type stands in a signature: a parameter takes one type, a return may be a
/// list of them (`(string, number)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Slot {
    /// A parameter's type.
    Param,
    /// The return type(s).
    Return,
}

/// A type as read, and whether it used a docstring shorthand (`table`, `int`, ...) that
/// is not Luau.
pub(crate) struct Reading {
    pub(crate) ty: Ty,
    pub(crate) shorthand: bool,
}

impl Ty {
    /// Reads a parameter's type as written. Text that does not read as one Luau type
    /// reads as [`Ty::Any`].
    pub(crate) fn parse(text: &str) -> Ty {
        read_remembered(text, Slot::Param)
    }

    /// Reads a return annotation as written: one type, or a pack (`(string, number)`,
    /// `...string`). Text that does not read reads as [`Ty::Any`].
    #[cfg(test)]
    pub(crate) fn parse_returns(text: &str) -> Ty {
        read_remembered(text, Slot::Return)
    }
}

/// The Luau source that holds `text` in `slot`, as [`read`] parses it.
pub(crate) fn alias_source(text: &str, slot: Slot) -> String {
    // `function` is a keyword, so no parser takes the docstring shorthand for a type
    // name; `callback` is the same shorthand and is a name.
    let text = match text.trim() {
        "function" => "callback",
        "function?" => "callback?",
        other => other,
    };
    match slot {
        Slot::Param => format!("type _T = {text}\n"),
        Slot::Return => format!("type _T = () -> {text}\n"),
    }
}

/// Reads `text` in `slot`. Text that is not exactly one type is a syntax error.
pub(crate) fn read(text: &str, slot: Slot) -> Result<Reading, ParseError> {
    let source = alias_source(text, slot);
    let found = with_luau_within(&source, MAX_TYPE_DEPTH, |ast| {
        let block = ast.nodes();
        let mut stmts = block.stmts();
        let (Some(Stmt::TypeDeclaration(decl)), None, None) =
            (stmts.next(), stmts.next(), block.last_stmt())
        else {
            return None;
        };
        let mut reader = Reader::default();
        let ty = match (reader.info(decl.type_definition()), slot) {
            (ty, Slot::Param) => ty,
            (Ty::Callback(cb), Slot::Return) => cb.returns,
            // `() -> ...any` is no shorthand: only `(...any) -> ...any` reads as `function`.
            (_, Slot::Return) => return None,
        };
        Some(Reading {
            ty,
            shorthand: reader.shorthand,
        })
    })?;
    found.ok_or_else(|| ParseError::Syntax {
        line: 1,
        message: format!("`{}` is not one Luau type", text.trim()),
    })
}

/// Each function type's parameter list and return type as written (`(key: string)` and
/// `CachedResult?`), `None` for text that is not one function type; read in one parse, so
/// none is read when one of them is not a type.
pub(crate) fn function_parts<'a>(
    texts: impl IntoIterator<Item = &'a str>,
) -> Vec<Option<(String, String)>> {
    let texts: Vec<&str> = texts.into_iter().collect();
    let source: String = texts
        .iter()
        .map(|text| alias_source(&text.replace('\n', " "), Slot::Param))
        .collect();
    let parts = with_luau_within(&source, MAX_TYPE_DEPTH, |ast| {
        let parts = ast.nodes().stmts().map(|stmt| {
            let Stmt::TypeDeclaration(decl) = stmt else {
                return None;
            };
            let TypeInfo::Callback {
                parentheses,
                arguments,
                return_type,
                ..
            } = decl.type_definition()
            else {
                return None;
            };
            let (open, close) = parentheses.tokens();
            let params = format!("{open}{arguments}{close}");
            Some((
                params.trim().to_string(),
                return_type.to_string().trim().to_string(),
            ))
        });
        parts.collect::<Vec<_>>()
    });
    parts
        .ok()
        .filter(|parts| parts.len() == texts.len())
        .unwrap_or_else(|| vec![None; texts.len()])
}

#[derive(Default)]
struct Reader {
    shorthand: bool,
}

impl Reader {
    fn info(&mut self, info: &TypeInfo) -> Ty {
        match info {
            TypeInfo::Basic(token) => self.named(&token.token().to_string()),
            TypeInfo::Generic { base, generics, .. } => Ty::Named {
                name: base.token().to_string(),
                args: self.list(generics),
            },
            TypeInfo::String(token) => literal(token).map_or(Ty::Any, Ty::Literal),
            TypeInfo::Boolean(token) => Ty::BoolLiteral(token.token().to_string() == "true"),
            TypeInfo::Optional { base, .. } => Ty::union(vec![self.info(base), Ty::Nil]),
            TypeInfo::Union(u) => Ty::union(self.list(u.types())),
            TypeInfo::Intersection(i) => intersection(self.list(i.types())),
            TypeInfo::Tuple { types, .. } => match self.list(types) {
                // Brackets around one type.
                one if one.len() == 1 => one.into_iter().next().unwrap_or(Ty::Any),
                pack => Ty::Pack(pack),
            },
            TypeInfo::Array { type_info, .. } => Ty::Array(Box::new(self.info(type_info))),
            TypeInfo::Table { fields, .. } => self.table(fields.iter()),
            TypeInfo::Callback {
                generics,
                arguments,
                return_type,
                ..
            } => self.callback(generics.as_ref(), arguments, return_type),
            TypeInfo::GenericPack { name, .. } => Ty::GenericPack(name.token().to_string()),
            TypeInfo::Variadic { type_info, .. } => Ty::Variadic(Box::new(self.info(type_info))),
            TypeInfo::VariadicPack { name, .. } => Ty::Variadic(Box::new(Ty::Named {
                name: name.token().to_string(),
                args: Vec::new(),
            })),
            TypeInfo::Module {
                module, type_info, ..
            } => {
                let (name, args) = match type_info.as_ref() {
                    IndexedTypeInfo::Basic(name) => (name, Vec::new()),
                    IndexedTypeInfo::Generic { base, generics, .. } => (base, self.list(generics)),
                    _ => return Ty::Any,
                };
                Ty::Named {
                    name: format!("{}.{}", module.token(), name.token()),
                    args,
                }
            }
            TypeInfo::Typeof { inner, .. } => Ty::Typeof(compact(&inner.to_string())),
            _ => Ty::Any,
        }
    }

    fn list(&mut self, types: &Punctuated<TypeInfo>) -> Vec<Ty> {
        types.iter().map(|t| self.info(t)).collect()
    }

    fn named(&mut self, name: &str) -> Ty {
        match name {
            "nil" => Ty::Nil,
            "any" | "unknown" => Ty::Any,
            "boolean" => Ty::Boolean,
            "number" => Ty::Number,
            "string" => Ty::String,
            "Path" => Ty::Path,
            _ => match shorthand(name) {
                Some(ty) => {
                    self.shorthand = true;
                    ty
                }
                None => Ty::Named {
                    name: name.to_string(),
                    args: Vec::new(),
                },
            },
        }
    }

    fn table<'a>(&mut self, fields: impl Iterator<Item = &'a TypeField>) -> Ty {
        let mut named = Vec::new();
        let mut indexer = None;
        for field in fields {
            let ty = self.info(field.value());
            match field.key() {
                TypeFieldKey::Name(name) => named.push(Field {
                    name: name.token().to_string(),
                    ty,
                }),
                // `["a b"]: T` is a field whose name is not an identifier.
                TypeFieldKey::IndexSignature {
                    inner: TypeInfo::String(token),
                    ..
                } => named.push(Field {
                    name: literal(token).unwrap_or_default(),
                    ty,
                }),
                TypeFieldKey::IndexSignature { inner, .. } => {
                    indexer = Some((self.info(inner), ty))
                }
                _ => return Ty::Table,
            }
        }
        match (named.is_empty(), indexer) {
            (true, Some((Ty::Any, Ty::Any)) | None) => Ty::Table,
            (true, Some((k, v))) => Ty::Map(Box::new(k), Box::new(v)),
            (false, indexer) => Ty::Record(named, indexer.map(Box::new)),
        }
    }

    fn callback(
        &mut self,
        generics: Option<&GenericDeclaration>,
        arguments: &Punctuated<TypeArgument>,
        returns: &TypeInfo,
    ) -> Ty {
        let generics = generics
            .map(|g| {
                g.generics()
                    .iter()
                    .filter_map(|p| match p.parameter() {
                        GenericParameterInfo::Name(n) => Some(n.token().to_string()),
                        GenericParameterInfo::Variadic { name, .. } => {
                            Some(format!("{}...", name.token()))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let params = arguments
            .iter()
            .map(|a| {
                (
                    a.name().map(|(n, _)| n.token().to_string()),
                    self.info(a.type_info()),
                )
            })
            .collect();
        let cb = Callback {
            generics,
            params,
            returns: self.info(returns),
        };
        let any_pack = Ty::Variadic(Box::new(Ty::Any));
        if cb.generics.is_empty()
            && cb.params == [(None, any_pack.clone())]
            && cb.returns == any_pack
        {
            Ty::Function
        } else {
            Ty::Callback(Box::new(cb))
        }
    }
}

/// Docstring shorthands that are not Luau types, with the type they mean.
fn shorthand(name: &str) -> Option<Ty> {
    Some(match name {
        "table" | "object" | "dict" | "map" => Ty::Table,
        "array" | "list" => Ty::Array(Box::new(Ty::Any)),
        "function" | "callback" => Ty::Function,
        "int" | "integer" | "float" => Ty::Number,
        "bool" => Ty::Boolean,
        "str" => Ty::String,
        _ => return None,
    })
}

/// An intersection, flattened and without repeats; of one member, that member.
fn intersection(members: Vec<Ty>) -> Ty {
    let mut flat = Vec::new();
    for m in members {
        let inner = match m {
            Ty::Intersection(inner) => inner,
            other => vec![other],
        };
        for m in inner {
            if !flat.contains(&m) {
                flat.push(m);
            }
        }
    }
    if flat.len() == 1 {
        flat.pop().unwrap_or(Ty::Any)
    } else {
        Ty::Intersection(flat)
    }
}

/// The value of a string literal token, its escapes decoded.
fn literal(token: &TokenReference) -> Option<String> {
    match token.token_type() {
        TokenType::StringLiteral { literal, .. } => Some(unescape(literal)),
        _ => None,
    }
}

/// Decodes Luau's string escapes (`\n`, `\"`, `\065`, `\x41`, `\u{41}`, `\z`).
fn unescape(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_string();
    }
    let mut bytes: Vec<u8> = Vec::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some(e) = chars.next() else { break };
        let byte = match e {
            'n' | '\n' => b'\n',
            't' => b'\t',
            'r' => b'\r',
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'z' => {
                while chars.next_if(|c| c.is_whitespace()).is_some() {}
                continue;
            }
            'x' => {
                let hex: String = (0..2)
                    .filter_map(|_| chars.next_if(char::is_ascii_hexdigit))
                    .collect();
                u8::from_str_radix(&hex, 16).unwrap_or(0)
            }
            'u' if chars.next_if_eq(&'{').is_some() => {
                let hex: String =
                    std::iter::from_fn(|| chars.next_if(char::is_ascii_hexdigit)).collect();
                chars.next_if_eq(&'}');
                let c = u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            d if d.is_ascii_digit() => {
                let mut n = d.to_digit(10).unwrap_or(0);
                for _ in 0..2 {
                    match chars.next_if(char::is_ascii_digit) {
                        Some(d) => n = n * 10 + d.to_digit(10).unwrap_or(0),
                        None => break,
                    }
                }
                u8::try_from(n).unwrap_or(u8::MAX)
            }
            other => {
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
                continue;
            }
        };
        bytes.push(byte);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs of whitespace as single spaces.
fn compact(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
#[path = "../../tests/unit/types/read.rs"]
mod tests;
