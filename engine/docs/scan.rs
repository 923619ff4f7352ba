//! What a tool's source shows about it: the tools and modules it uses and the errors it raises.
//!
//! Read from the syntax tree (never from comments or strings), so a docstring example
//! that mentions `tools.text.slugify` is not mistaken for a call.

use std::collections::BTreeSet;

use full_moon::ast::{
    Call, Expression, FunctionArgs, FunctionCall, Index, Prefix, Suffix, VarExpression,
};
use full_moon::tokenizer::TokenType;
use full_moon::visitors::Visitor;

use crate::assets::names::RESERVED;
use crate::assets::with_luau;

/// At most this many raised messages are kept per tool.
const MAX_ERRORS: usize = 12;

/// The facts found in one `init.luau`.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct SourceFacts {
    /// Identities (`box.tool`) of other tools the source names.
    pub(crate) calls: BTreeSet<String>,
    /// Modules it requires (`.shared`, ...).
    pub(crate) requires: BTreeSet<String>,
    /// Messages of `error("...")` calls with a literal message, in source order.
    pub(crate) errors: Vec<String>,
    /// True when the source uses the `vfs` global.
    pub(crate) uses_vfs: bool,
    /// True when the source uses the `http` global (granted by some profiles only).
    pub(crate) uses_http: bool,
    /// True when the source uses the `shell` global (granted by some profiles only).
    pub(crate) uses_shell: bool,
}

/// Scans `source`; a file that does not parse yields no facts.
pub(crate) fn scan(source: &str) -> SourceFacts {
    with_luau(source, |ast| {
        let mut facts = SourceFacts::default();
        facts.visit_ast(ast);
        facts
    })
    .unwrap_or_default()
}

/// The name a prefix starts with, when it is a plain name.
fn prefix_name(prefix: &Prefix) -> Option<String> {
    match prefix {
        Prefix::Name(token) => Some(token.token().to_string()),
        _ => None,
    }
}

fn dot_name(suffix: Option<&Suffix>) -> Option<String> {
    match suffix {
        Some(Suffix::Index(Index::Dot { name, .. })) => Some(name.token().to_string()),
        _ => None,
    }
}

/// The literal text of a string expression (without quotes), when it is one.
fn literal(expr: &Expression) -> Option<String> {
    match expr {
        Expression::String(token) => match token.token().token_type() {
            TokenType::StringLiteral { literal, .. } => Some(literal.to_string()),
            _ => None,
        },
        Expression::InterpolatedString(s) => {
            let text = s.to_string();
            Some(text.trim().trim_matches('`').to_string())
        }
        _ => None,
    }
}

fn call_args(suffix: Option<&Suffix>) -> Vec<&Expression> {
    match suffix {
        Some(Suffix::Call(Call::AnonymousCall(FunctionArgs::Parentheses {
            arguments, ..
        }))) => arguments.iter().collect(),
        _ => Vec::new(),
    }
}

impl SourceFacts {
    fn tools_path(&mut self, suffixes: &[&Suffix]) {
        let first = dot_name(suffixes.first().copied());
        match first.as_deref() {
            Some("use") | Some("callable") => {
                let args = call_args(suffixes.get(1).copied());
                if let (Some(b), Some(t)) = (
                    args.first().and_then(|e| literal(e)),
                    args.get(1).and_then(|e| literal(e)),
                ) {
                    self.calls.insert(format!("{b}.{t}"));
                }
            }
            Some(toolbox) if !RESERVED.contains(&toolbox) => {
                if let Some(tool) = dot_name(suffixes.get(1).copied()) {
                    self.calls.insert(format!("{toolbox}.{tool}"));
                }
            }
            _ => {}
        }
    }
}

impl Visitor for SourceFacts {
    fn visit_function_call(&mut self, call: &FunctionCall) {
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        match prefix_name(call.prefix()).as_deref() {
            Some("tools") => self.tools_path(&suffixes),
            Some("vfs") => self.uses_vfs = true,
            Some("http") => self.uses_http = true,
            Some("shell") => self.uses_shell = true,
            Some("error") if self.errors.len() < MAX_ERRORS => {
                if let Some(message) = call_args(suffixes.first().copied())
                    .first()
                    .and_then(|e| literal(e))
                {
                    if !self.errors.contains(&message) {
                        self.errors.push(message);
                    }
                }
            }
            Some("require") => {
                if let Some(module) = call_args(suffixes.first().copied())
                    .first()
                    .and_then(|e| literal(e))
                {
                    self.requires.insert(module);
                }
            }
            _ => {}
        }
    }

    fn visit_var_expression(&mut self, var: &VarExpression) {
        let suffixes: Vec<&Suffix> = var.suffixes().collect();
        match prefix_name(var.prefix()).as_deref() {
            Some("tools") => self.tools_path(&suffixes),
            Some("vfs") => self.uses_vfs = true,
            Some("http") => self.uses_http = true,
            Some("shell") => self.uses_shell = true,
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/docs/scan.rs"]
mod tests;
