//! Makes a tool's type, as its author wrote it, safe to put in a definition file.
//!
//! luau-lsp refuses a whole definition file when one type names something it does not
//! know, and a tool's signature may name a type local to its `init.luau`
//! (`opts: Options`) or use docstring shorthands (`table`, `function`). Such a type is
//! declared as `any` (or the shorthand's real type), and the doc comment keeps the
//! original text so nothing is lost.

use std::collections::BTreeSet;

use crate::assets::{compile, with_luau_within};
use full_moon::ast::luau::{GenericDeclarationParameter, GenericParameterInfo, TypeInfo};
use full_moon::visitors::Visitor;

/// Type names Luau knows without any declaration.
const BUILTIN: [&str; 10] = [
    "any", "nil", "boolean", "number", "string", "thread", "unknown", "never", "buffer", "vector",
];

/// Where a type stands in a signature: a parameter takes one type, a return may be a
/// list of them (`(string, number)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A parameter's type.
    Param,
    /// The return type(s).
    Return,
}

/// Types nested deeper than this are declared `any`: no tool needs one, and a definition
/// file must stay readable by every Luau tool that loads it.
const MAX_TYPE_DEPTH: usize = 32;

/// The type to declare for `written` in `slot`, given the names the definition file itself
/// defines. `Ok` holds a declarable type; `Err` holds why `written` was replaced by the
/// returned type.
pub fn declarable(written: &str, slot: Slot, defined: &[&str]) -> Result<String, (String, String)> {
    let written = written.trim();
    if let Some(real) = shorthand(written) {
        let why = format!("`{written}` is declared as `{real}`");
        return Err((real, why));
    }
    if written.is_empty() {
        return Err(("any".into(), "no type was given".into()));
    }
    if written.contains("--") || written.contains(['\n', '\r', ';']) {
        return Err((
            "any".into(),
            format!("`{written}` holds a comment, a `;` or a line break, not just a type"),
        ));
    }
    // A type alias holds exactly one type, so `string, number` or `string = x` fail here.
    let source = match slot {
        Slot::Param => format!("type _T = {written}\n"),
        Slot::Return => format!("type _T = () -> {written}\n"),
    };
    // Luau's own parser has the last word: full_moon lets some broken types through
    // (`() -> (string,`).
    let names = with_luau_within(&source, MAX_TYPE_DEPTH, |ast| {
        let mut names = Names::default();
        names.visit_ast(ast);
        names
    });
    let names = match names {
        Ok(names) if compile(&source).is_ok() => names,
        _ => {
            return Err((
                "any".into(),
                format!("`{written}` does not parse as a Luau type"),
            ))
        }
    };
    let unknown: Vec<String> = names
        .used
        .difference(&names.generics)
        .filter(|n| !BUILTIN.contains(&n.as_str()) && !defined.contains(&n.as_str()))
        .cloned()
        .collect();
    if let Some(why) = names.refused {
        return Err((
            "any".into(),
            format!("`{written}` uses {why}, which the definition file cannot see"),
        ));
    }
    if !unknown.is_empty() {
        return Err((
            "any".into(),
            format!(
                "`{written}` names {}, defined only inside the tool",
                unknown.join(", ")
            ),
        ));
    }
    Ok(written.to_string())
}

/// Docstring shorthands that are not Luau types, with the type they mean.
fn shorthand(written: &str) -> Option<String> {
    let (base, optional) = match written.strip_suffix('?') {
        Some(b) => (b, "?"),
        None => (written, ""),
    };
    let real = match base {
        "table" | "object" | "dict" | "map" => "{ [any]: any }",
        "array" | "list" => "{ any }",
        "function" | "callback" => "(...any) -> ...any",
        "int" | "integer" | "float" => "number",
        "bool" => "boolean",
        "str" => "string",
        _ => return None,
    };
    Some(if optional.is_empty() {
        real.to_string()
    } else if real.starts_with('(') {
        format!("({real})?")
    } else {
        format!("{real}?")
    })
}

/// Collects the type names a type uses and the generics it declares.
#[derive(Default)]
struct Names {
    used: BTreeSet<String>,
    generics: BTreeSet<String>,
    refused: Option<&'static str>,
}

impl Visitor for Names {
    fn visit_type_info(&mut self, node: &TypeInfo) {
        match node {
            TypeInfo::Basic(name) | TypeInfo::Generic { base: name, .. } => {
                self.used.insert(name.token().to_string());
            }
            TypeInfo::GenericPack { name, .. } => {
                self.used.insert(name.token().to_string());
            }
            TypeInfo::Module { .. } => self.refused = Some("a type from another module"),
            TypeInfo::Typeof { .. } => self.refused = Some("`typeof(...)` of a local value"),
            _ => {}
        }
    }

    fn visit_generic_declaration_parameter(&mut self, node: &GenericDeclarationParameter) {
        let name = match node.parameter() {
            GenericParameterInfo::Name(n) => n,
            GenericParameterInfo::Variadic { name, .. } => name,
            _ => return,
        };
        self.generics.insert(name.token().to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_types_made_of_known_names() {
        for ty in [
            "string",
            "{ sep: string? }?",
            "(number, string) -> boolean",
            "{ Path }",
            "\"a\" | \"b\"",
            "<T>(T) -> T",
        ] {
            assert_eq!(
                declarable(ty, Slot::Param, &["Path"]),
                Ok(ty.to_string()),
                "{ty}"
            );
        }
    }

    #[test]
    fn replaces_local_names_shorthands_and_garbage() {
        assert_eq!(
            declarable("Options?", Slot::Param, &[]).unwrap_err().0,
            "any"
        );
        assert!(declarable("Options?", Slot::Param, &[])
            .unwrap_err()
            .1
            .contains("Options"));
        assert_eq!(
            declarable("table", Slot::Param, &[]).unwrap_err().0,
            "{ [any]: any }"
        );
        assert_eq!(
            declarable("function?", Slot::Param, &[]).unwrap_err().0,
            "((...any) -> ...any)?"
        );
        assert_eq!(declarable("{{{", Slot::Param, &[]).unwrap_err().0, "any");
        assert_eq!(declarable("mod.T", Slot::Param, &[]).unwrap_err().0, "any");
        // What a docstring line can smuggle in besides a type.
        for garbage in [
            "string,number",
            "string--x",
            "string=x",
            "string\nx",
            "string;print(1)",
        ] {
            let (ty, why) = declarable(garbage, Slot::Param, &[]).unwrap_err();
            assert_eq!(ty, "any", "{garbage}: {why}");
        }
        assert!(declarable("string,number", Slot::Return, &[]).is_err());
        assert!(declarable("(string,", Slot::Return, &[]).is_err());
    }

    #[test]
    fn a_return_may_be_a_list_of_types() {
        assert_eq!(
            declarable("(string, number)", Slot::Return, &[]),
            Ok("(string, number)".to_string())
        );
        assert!(declarable("(string, number)", Slot::Param, &[]).is_err());
    }
}
