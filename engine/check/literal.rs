//! Table literals a script passes straight to a tool: `tools.text.slugify(s, { maxLenght =
//! 5 })`. Luau's checker lets a literal carry fields its declared type lacks, and so does
//! the call at run time (a result of one tool may be passed whole to the next), so a
//! misspelt option would be found only when the call is made, after the calls before it
//! have done their work. Read ahead of the run, the literal's field names are all there is
//! to compare with the tool's declared fields (see `Checking`'s verdict).

use full_moon::ast::{Call, Expression, Field, FunctionArgs, FunctionCall, Index, Prefix};
use full_moon::ast::{Suffix, TableConstructor};
use full_moon::node::Node;
use full_moon::tokenizer::TokenType;
use full_moon::visitors::Visitor;

use super::script::{holds_an_authoring_function, may_author, place};
use crate::assets::with_luau;

/// A table literal passed straight to a tool, every field of it named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionLiteral {
    /// The tool called (`box.tool`).
    pub tool: String,
    /// The argument the literal is, from 0.
    pub argument: usize,
    /// Each field's name, with its 1-based line and column.
    pub fields: Vec<(String, u32, u32)>,
}

/// The literals `source` passes straight to tool calls (see [`OptionLiteral`]), and to the
/// functions of `tools` (`tools.search(q, { limt = 3 })`, tool `tools.search`). Those to
/// tools are left out for a script that writes tools as it runs (a tool may have other
/// fields by the time it is called); none for a script that does not parse (the checker
/// says why).
pub fn option_literals(source: &str) -> Vec<OptionLiteral> {
    // Most scripts pass no table literal at all; those cost no parse.
    if !source.contains("tools") || !source.contains('{') {
        return Vec::new();
    }
    let read = |ast: &full_moon::ast::Ast| {
        let mut literals = Literals::default();
        literals.visit_ast(ast);
        let mut found = literals.found;
        if literals.authors {
            found.retain(|literal| literal.tool.starts_with("tools."));
        }
        found
    };
    // A deep tree is parsed and walked on the indexing threads, whose stacks hold the
    // deepest one the parse lets through; a shallow one (nearly every script) here, which
    // spares a hand-off to another thread that costs more than the parse on a busy machine.
    with_luau(source, read).unwrap_or_default()
}

#[derive(Default)]
struct Literals {
    found: Vec<OptionLiteral>,
    authors: bool,
}

impl Visitor for Literals {
    fn visit_expression(&mut self, expression: &Expression) {
        self.authors |= holds_an_authoring_function(expression);
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        self.authors |= may_author(call);
        let Some((tool, arguments)) = tool_arguments(call) else {
            return;
        };
        for (argument, expression) in arguments.into_iter().enumerate() {
            if let Some(fields) = named_fields(expression) {
                self.found.push(OptionLiteral {
                    tool: tool.clone(),
                    argument,
                    fields,
                });
            }
        }
    }
}

/// `box.tool` (or `tools.fn`) and the table literals among the arguments, by position, of
/// a call written `tools.box.tool(...)`, `tools.box.tool { ... }` or `tools.fn(...)` (a
/// colon call passes the toolbox first, and a longer path is not a tool).
fn tool_arguments(call: &FunctionCall) -> Option<(String, Vec<Option<&TableConstructor>>)> {
    let Prefix::Name(root) = call.prefix() else {
        return None;
    };
    if root.token().to_string() != "tools" {
        return None;
    }
    let mut names = Vec::with_capacity(2);
    let mut suffixes = call.suffixes();
    // The first call: what follows it is called on what the tool returned.
    let args = loop {
        match suffixes.next()? {
            Suffix::Index(Index::Dot { name, .. }) if names.len() < 2 => {
                names.push(name.token().to_string())
            }
            Suffix::Call(Call::AnonymousCall(args)) if !names.is_empty() => break args,
            _ => return None,
        }
    };
    if names.len() == 1 {
        names.insert(0, "tools".to_string());
    }
    let tables = match args {
        FunctionArgs::Parentheses { arguments, .. } => arguments
            .iter()
            .map(|e| match e {
                Expression::TableConstructor(table) => Some(table),
                _ => None,
            })
            .collect(),
        FunctionArgs::TableConstructor(table) => vec![Some(table)],
        _ => return None,
    };
    Some((names.join("."), tables))
}

/// The names of a literal's fields with their places, when it has a named field and every
/// keyed field is named by a literal (a computed key may be any name).
fn named_fields(table: Option<&TableConstructor>) -> Option<Vec<(String, u32, u32)>> {
    let mut fields = Vec::new();
    for field in table?.fields() {
        let (name, at) = match field {
            Field::NameKey { key, .. } => (key.token().to_string(), key.start_position()?),
            Field::ExpressionKey { key, .. } => match key {
                Expression::String(token) => match token.token_type() {
                    TokenType::StringLiteral { literal, .. } => {
                        (literal.to_string(), token.start_position()?)
                    }
                    _ => return None,
                },
                _ => return None,
            },
            _ => continue,
        };
        let (line, column) = place(at);
        fields.push((name, line, column));
    }
    (!fields.is_empty()).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_passed_straight_to_a_tool_are_read_with_their_places() {
        let found = option_literals(
            "local s = tools.text.slugify(t, { maxLenght = 5, [\"sep\"] = \"_\" })",
        );
        assert_eq!(
            found,
            vec![OptionLiteral {
                tool: "text.slugify".into(),
                argument: 1,
                fields: vec![("maxLenght".into(), 1, 35), ("sep".into(), 1, 51)],
            }]
        );
        let braces = option_literals("return tools.json.parse { text = s }");
        assert_eq!(braces[0].argument, 0);
    }

    #[test]
    fn computed_keys_colon_calls_and_scripts_that_write_tools_are_left_alone() {
        assert!(
            option_literals("return tools.text.slugify(t, { [k] = 1, mxLength = 2 })").is_empty()
        );
        assert!(option_literals("return tools.text:slugify(t, { mxLength = 2 })").is_empty());
        assert!(option_literals("return other.text.slugify(t, { mxLength = 2 })").is_empty());
        assert!(option_literals(
            "tools.create('a.b', src)\nreturn tools.text.slugify(t, { mxLength = 2 })"
        )
        .is_empty());
    }
}
