//! Table literals a script passes straight to a tool: `tools.text.slugify(s, { maxLenght =
//! 5 })`. Luau's checker lets a literal carry fields its declared type lacks, and so does
//! the call at run time (a result of one tool may be passed whole to the next), so a
//! misspelt option would be found only when the call is made, after the calls before it
//! have done their work. Read ahead of the run, the literal's field names are all there is
//! to compare with the tool's declared fields (see `Checking`'s verdict).
//!
//! A literal held in a local first (`local opts = { sortby = "age" }` then
//! `tools.csvReport.start(csv, opts)`) counts too, when nothing else can have changed it:
//! the name is declared once in the script, never assigned to (not `opts = ...`, not
//! `opts.x = ...`), never called through, and used bare only once, as this argument.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use full_moon::ast::{Assignment, Call, CompoundAssignment, Expression, Field, FunctionArgs};
use full_moon::ast::{FunctionBody, FunctionCall, GenericFor, Index, LocalAssignment};
use full_moon::ast::{LocalFunction, NumericFor, Parameter, Prefix, Suffix, TableConstructor};
use full_moon::ast::{Var, VarExpression};
use full_moon::node::Node;
use full_moon::tokenizer::{Symbol, TokenType};
use full_moon::visitors::Visitor;

use super::script::{holds_an_authoring_function, may_author, place, Place};
use crate::assets::with_luau;

/// The option literals of the last scripts read, so a script sent again (an agent's
/// retry, the same script the checker's reply is kept for) is not parsed again: the
/// parse is most of what a kept reply's verdict costs.
#[derive(Default)]
pub(crate) struct RecentLiterals {
    entries: Mutex<VecDeque<ReadLiterals>>,
}

/// One script [`RecentLiterals`] keeps, with its literals.
type ReadLiterals = (Arc<str>, Arc<[OptionLiteral]>);

impl RecentLiterals {
    /// [`option_literals`] of `source`, read once while it is among the last scripts.
    pub(crate) fn of(&self, source: &str) -> Arc<[OptionLiteral]> {
        let held = |entries: &VecDeque<ReadLiterals>| {
            entries
                .iter()
                .find(|(s, _)| &**s == source)
                .map(|(_, found)| found.clone())
        };
        if let Some(found) = held(&self.entries.lock().unwrap_or_else(|e| e.into_inner())) {
            return found;
        }
        let found: Arc<[OptionLiteral]> = option_literals(source).into();
        if source.len() <= super::replies::MAX_RECENT_SOURCE {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if held(&entries).is_none() {
                if entries.len() >= super::replies::RECENT {
                    entries.pop_front();
                }
                entries.push_back((Arc::from(source), found.clone()));
            }
        }
        found
    }
}

/// A table literal passed straight to a tool, every field of it named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptionLiteral {
    /// The tool called (`box.tool`).
    pub tool: String,
    /// The argument the literal is, from 0.
    pub argument: usize,
    /// Each field's name, with its 1-based line and column.
    pub fields: Vec<(String, u32, u32)>,
    /// The kind of each field's value when it is a literal string, number or boolean
    /// (`"string"`, `"number"`, `"boolean"`), in the order of `fields`.
    pub kinds: Vec<Option<&'static str>>,
    /// For a literal held in a local: the local's name and where it is passed (1-based
    /// line and column).
    pub held: Option<(String, u32, u32)>,
}

/// The literals `source` passes straight to tool calls (see [`OptionLiteral`]), and to the
/// functions of `tools` (`tools.search(q, { limt = 3 })`, tool `tools.search`). Those to
/// tools are left out for a script that writes tools as it runs (a tool may have other
/// fields by the time it is called); none for a script that does not parse (the checker
/// says why).
pub(crate) fn option_literals(source: &str) -> Vec<OptionLiteral> {
    // Most scripts pass no table literal at all; those cost no parse.
    if !source.contains("tools") || !source.contains('{') {
        return Vec::new();
    }
    let read = |ast: &full_moon::ast::Ast| {
        let mut literals = Literals::default();
        literals.visit_ast(ast);
        let mut found = literals.held_literals();
        found.extend(literals.found);
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
    /// Locals bound to a table literal with named fields: where, and the fields.
    held: HashMap<String, (Place, Fields, Kinds)>,
    /// How many times each name is declared (locals, parameters, loop variables).
    declared: HashMap<String, usize>,
    /// Names assigned to, or called through, anywhere.
    touched: HashSet<String>,
    /// How many times each name is used bare, as a value.
    bare: HashMap<String, usize>,
    /// Bare names given straight to a tool: the tool, the argument, the name, where.
    passed: Vec<(String, usize, String, Place)>,
}

/// A literal's named fields, each with its 1-based line and column.
type Fields = Vec<(String, u32, u32)>;

/// The kinds of a literal's field values (see [`OptionLiteral::kinds`]).
type Kinds = Vec<Option<&'static str>>;

impl Literals {
    /// The literals held in locals (see the module's doc) that are given to tools.
    fn held_literals(&self) -> Vec<OptionLiteral> {
        self.passed
            .iter()
            .filter_map(|(tool, argument, name, at)| {
                let (bound, fields, kinds) = self.held.get(name)?;
                // Used bare once, here: a tool it was given before may have changed it
                // (a world tool gets the table itself).
                let untouched = self.declared.get(name) == Some(&1)
                    && !self.touched.contains(name)
                    && self.bare.get(name) == Some(&1);
                (untouched && bound < at).then(|| OptionLiteral {
                    tool: tool.clone(),
                    argument: *argument,
                    fields: fields.clone(),
                    kinds: kinds.clone(),
                    held: Some((name.clone(), at.0, at.1)),
                })
            })
            .collect()
    }

    /// Reads the arguments of a call of a tool (or of a function of `tools`), written as
    /// `prefix` and `suffixes`.
    fn tool_call<'a>(&mut self, prefix: &Prefix, suffixes: impl Iterator<Item = &'a Suffix>) {
        let Some((tool, arguments)) = tool_arguments(prefix, suffixes) else {
            return;
        };
        for (argument, expression) in arguments.into_iter().enumerate() {
            match expression {
                Argument::Table(table) => {
                    if let Some((fields, kinds)) = named_fields(Some(table)) {
                        self.found.push(OptionLiteral {
                            tool: tool.clone(),
                            argument,
                            fields,
                            kinds,
                            held: None,
                        });
                    }
                }
                Argument::Name(name, at) => self.passed.push((tool.clone(), argument, name, at)),
                Argument::Other => {}
            }
        }
    }

    fn declare(&mut self, name: &str) {
        *self.declared.entry(name.to_string()).or_default() += 1;
    }

    /// Marks the name an assignment to `var` changes: `opts` for `opts = ...` and for
    /// `opts.sortBy = ...`.
    fn touch(&mut self, var: &Var) {
        let name = match var {
            Var::Name(name) => name,
            Var::Expression(var) => match var.prefix() {
                Prefix::Name(name) => name,
                _ => return,
            },
            _ => return,
        };
        self.touched.insert(name.token().to_string());
    }
}

impl Visitor for Literals {
    fn visit_expression(&mut self, expression: &Expression) {
        self.authors |= holds_an_authoring_function(expression);
        if let Expression::Var(Var::Name(name)) = expression {
            *self.bare.entry(name.token().to_string()).or_default() += 1;
        }
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        self.authors |= may_author(call);
        // `opts:clear()`, `opts.reset()`: a call through the table may change it.
        if let Prefix::Name(name) = call.prefix() {
            self.touched.insert(name.token().to_string());
        }
        self.tool_call(call.prefix(), call.suffixes());
    }

    fn visit_var_expression(&mut self, var: &VarExpression) {
        // `tools.box.tool(s, { ... }).field`: the call is a suffix, not a call node.
        self.tool_call(var.prefix(), var.suffixes());
    }

    fn visit_local_assignment(&mut self, local: &LocalAssignment) {
        let mut values = local.expressions().iter();
        for name in local.names() {
            let name = name.token().to_string();
            self.declare(&name);
            let value = values.next();
            if let (Some(Expression::TableConstructor(table)), Some(at)) =
                (value, local.start_position())
            {
                if let Some((fields, kinds)) = named_fields(Some(table)) {
                    self.held.insert(name, (place(at), fields, kinds));
                }
            }
        }
    }

    fn visit_local_function(&mut self, function: &LocalFunction) {
        self.declare(&function.name().token().to_string());
    }

    fn visit_function_body(&mut self, body: &FunctionBody) {
        for parameter in body.parameters() {
            if let Parameter::Name(name) = parameter {
                self.declare(&name.token().to_string());
            }
        }
    }

    fn visit_generic_for(&mut self, gf: &GenericFor) {
        for name in gf.names() {
            self.declare(&name.token().to_string());
        }
    }

    fn visit_numeric_for(&mut self, nf: &NumericFor) {
        self.declare(&nf.index_variable().token().to_string());
    }

    fn visit_assignment(&mut self, assignment: &Assignment) {
        for var in assignment.variables() {
            self.touch(var);
        }
    }

    fn visit_compound_assignment(&mut self, assignment: &CompoundAssignment) {
        self.touch(assignment.lhs());
    }
}

/// An argument of a tool call, as far as its options are concerned.
enum Argument<'a> {
    /// A table literal.
    Table(&'a TableConstructor),
    /// A bare name, and where it is.
    Name(String, Place),
    Other,
}

/// `box.tool` (or `tools.fn`) and the table literals among the arguments, by position, of
/// a call written `tools.box.tool(...)`, `tools.box.tool { ... }` or `tools.fn(...)` (a
/// colon call passes the toolbox first, and a longer path is not a tool).
fn tool_arguments<'a>(
    prefix: &Prefix,
    mut suffixes: impl Iterator<Item = &'a Suffix>,
) -> Option<(String, Vec<Argument<'a>>)> {
    let Prefix::Name(root) = prefix else {
        return None;
    };
    if root.token().to_string() != "tools" {
        return None;
    }
    let mut names = Vec::with_capacity(2);
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
                Expression::TableConstructor(table) => Argument::Table(table),
                Expression::Var(Var::Name(name)) => match name.start_position() {
                    Some(at) => Argument::Name(name.token().to_string(), place(at)),
                    None => Argument::Other,
                },
                _ => Argument::Other,
            })
            .collect(),
        FunctionArgs::TableConstructor(table) => vec![Argument::Table(table)],
        _ => return None,
    };
    Some((names.join("."), tables))
}

/// The names of a literal's fields with their places, and the kinds of their values,
/// when it has a named field and every keyed field is named by a literal (a computed key
/// may be any name).
fn named_fields(table: Option<&TableConstructor>) -> Option<(Fields, Kinds)> {
    let mut fields = Vec::new();
    let mut kinds = Vec::new();
    for field in table?.fields() {
        let (name, at, value) = match field {
            Field::NameKey { key, value, .. } => {
                (key.token().to_string(), key.start_position()?, value)
            }
            Field::ExpressionKey { key, value, .. } => match key {
                Expression::String(token) => match token.token_type() {
                    TokenType::StringLiteral { literal, .. } => {
                        (literal.to_string(), token.start_position()?, value)
                    }
                    _ => return None,
                },
                _ => return None,
            },
            _ => continue,
        };
        let (line, column) = place(at);
        fields.push((name, line, column));
        kinds.push(kind(value));
    }
    (!fields.is_empty()).then_some((fields, kinds))
}

/// The kind of a literal value: `"string"`, `"number"` or `"boolean"`; `None` for
/// anything else (`nil` included: it stands for a field left out).
fn kind(value: &Expression) -> Option<&'static str> {
    match value {
        Expression::String(_) => Some("string"),
        Expression::Number(_) => Some("number"),
        Expression::Symbol(token) => match token.token_type() {
            TokenType::Symbol {
                symbol: Symbol::True | Symbol::False,
            } => Some("boolean"),
            _ => None,
        },
        _ => None,
    }
}
