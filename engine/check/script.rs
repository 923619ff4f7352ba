//! What a script's syntax tree says about its tool calls and locals, for sorting the
//! checker's errors (see `verdict.rs`): where each call through `tools` is, and which
//! reads of a field are reads of a tool's result for certain.
//!
//! The second is one small dataflow pass. Each local gets the value it was bound to
//! (a tool's result, a toolbox or tool of `tools`, a helper that returns a tool's result,
//! a table whose fields hold results, or anything else), read where it is bound; each
//! field read follows its path from the local or call it starts at, through those
//! values, to the result it reads, noting every local and field on the way. Once the
//! whole script is read, a read is certain when nothing on that way may hold another
//! value: no local given another value or passed on (its one reaching definition is the
//! call), no field assigned, tested, lent to a function or copied. The facts are kept by
//! name for the whole script, whatever the order: a write after the read, in a branch or
//! in a closure, counts as much as one before it. When in doubt, a read is not certain.

use std::collections::{BTreeMap, BTreeSet};

use full_moon::ast::{Assignment, BinOp, Call, FunctionArgs, Index, UnOp, Var, VarExpression};
use full_moon::ast::{Block, Expression, FunctionBody, FunctionCall, LocalAssignment, Prefix};
use full_moon::ast::{ElseIf, Field, Suffix, While};
use full_moon::ast::{GenericFor, If, LocalFunction, NumericFor, Parameter, Repeat, Return};
use full_moon::node::Node;
use full_moon::tokenizer::{Symbol, TokenReference, TokenType};
use full_moon::visitors::{Visit, Visitor};

/// A place in the source: 1-based line and column.
pub(crate) type Place = (u32, u32);

/// Where a script calls tools, and what its field reads read, from its syntax tree.
#[derive(Debug, Default)]
pub(crate) struct ToolCalls {
    /// Each call: its span, whether it is through `tools`, and the tool it names
    /// (`box.tool`), when it names one.
    pub(crate) calls: Vec<(Place, Place, bool, Option<String>)>,
    /// Each function body (a function passed to a tool is checked as code of its own).
    pub(crate) bodies: Vec<(Place, Place)>,
    /// True when the script may add or change tools as it runs (`tools.create`,
    /// `tools.delete`, `tools.install`, `vfs.write`, `vfs.remove`): a tool may then be
    /// other than declared by the time it is called.
    pub(crate) authors: bool,
    /// The span of the arguments each `pcall(f, ...)` or `xpcall(f, handler, ...)` passes
    /// on to a function it names (`f` a name or a field, not a call or a literal).
    pub(crate) passed: Vec<(Place, Place)>,
    /// Where a missing tool may be one the script probes for (see
    /// [`ToolCalls::in_caught`]): bodies of functions written into a `pcall` or `xpcall`
    /// (`pcall(function() ... end)`) or given to the script's own functions, and branches
    /// of an `if`.
    pub(crate) caught: Vec<(Place, Place)>,
    /// Each argument of a tool call that is a tool's whole result as returned (a call, or
    /// a local bound to one): where it starts, the tool called, where the value came from
    /// and the local it is read through.
    wholes: Vec<(Place, String, Origin, Option<usize>)>,
    /// Bodies of functions written into a `pcall` or `xpcall`: a field read there that
    /// fails is caught, so it is never certain.
    guarded: Vec<(Place, Place)>,
    /// Calls whose arguments end in a spread the checker cannot count or type
    /// (`f(table.unpack(a))`, `f(...)`, `f(select(2, ...))`): judged at run time.
    pub(crate) spread: Vec<(Place, Place)>,
    /// Every local the script declares (parameters and loop variables too).
    locals: Vec<Local>,
    /// Every field read by a literal key off a tool's result, as it was followed.
    reads: Vec<Read>,
    /// The calls made through a local naming a toolbox or tool: which of `calls`, and
    /// the local. One the script may give another value is not a tool call for certain.
    aliased: Vec<(usize, usize)>,
    /// Every string literal's text: a script that names a tool in a string
    /// (`tools.callable("extra.fancify")`) looks it up for itself before it calls it.
    strings: BTreeSet<String>,
    /// Where each enclosing block ends, innermost last: a local is seen until then.
    blocks: Vec<Place>,
    /// What the script does with names and fields, whichever local of the name it is.
    facts: Facts,
}

/// What a script does that may give a local or a field another value than it was bound
/// to, by name: kept for the whole script, whatever the order.
#[derive(Debug, Default)]
struct Facts {
    /// Fields the script may hold without its declared type saying so, by local and key:
    /// assigned (`r.source = ...`, `r.a["b"] = ...`: the last key), or tested for (`r.x
    /// or 0`, `if r.x ~= nil`, `not r.x`), as reading an absent field then fails nothing.
    settled: BTreeSet<(String, String)>,
    /// Names used where the value may change or be changed: given another value
    /// (`r = {}`), written by a computed key (`r[k] = v`), or used as a value (`local
    /// copy = r`, `f(r)`), with where.
    opened: Vec<(String, Place)>,
    /// Names used where no field can be added through them: returned (`return r`),
    /// tested (`if r then`, `r ~= nil`, `not r`) or measured (`#r`).
    harmless: BTreeSet<Place>,
    /// Fields passed as they are to a function (`table.move(a, 1, n, 1, d.lines)`).
    lent: BTreeSet<(String, String)>,
    /// Fields bound to a local as they are (`local c = ctx.counts`), and the local.
    copied: Vec<((String, String), String)>,
    /// Locals tested as they are (`if v then`, `v == nil`, `not v`).
    tested: BTreeSet<String>,
    /// How many times each field of a local is given a value (`ctx.counts = ...`, or
    /// in the local's table constructor).
    writes: BTreeMap<(String, String), usize>,
    /// True when the script writes a field by a computed key anywhere (`item[field] = v`):
    /// an element of a result's list may gain any field through a helper.
    computed_writes: bool,
}

/// One local: its name, from where to where it can be seen, and its value.
#[derive(Debug)]
struct Local {
    name: String,
    from: Place,
    to: Place,
    value: Value,
}

/// What a local or an expression holds, as far as reads of tools' results go.
#[derive(Debug, Clone, Default)]
enum Value {
    #[default]
    Other,
    /// One of the values of a spread (`local text, opts = table.unpack(args)`): the checker
    /// gives it the union of the list's element types, which says nothing of this one.
    Spread,
    /// `tools`, or a toolbox or tool of it, by its names; with the local it was read
    /// through (`local text = tools.text`).
    Tools(Vec<String>, Option<usize>),
    /// A function of the script that returns one tool's result as it is on every
    /// `return` (`local function count(s) return tools.text.wordCount(s) end`); with the
    /// local it was read through.
    Helper(String, Option<usize>),
    /// A table built by the script (`local ctx = { counts = tools.text.wordCount(s) }`),
    /// its fields given by name; with the local it was read through.
    Table(Vec<(String, Value)>, Option<usize>),
    /// A tool's result, or a part of one.
    Result(Origin),
}

/// Where a value out of a tool's result came from.
#[derive(Debug, Clone)]
struct Origin {
    /// The tool (`box.tool`, or `tools.<function>`).
    tool: String,
    /// The locals and fields it passed through, first to last.
    links: Vec<Link>,
    /// True for a part of the result (`r.lines`, `r.rows[1]`, a list's element), which
    /// other locals may reach and change too.
    part: bool,
}

/// One step a result took on its way to a read.
#[derive(Debug, Clone)]
enum Link {
    /// Through a local: bound to it, or a helper or alias called through it.
    Local(usize),
    /// Read off a field of the local (`local lines = r.lines`).
    Field(usize, String),
    /// Kept in a field of the script's own table (`ctx.counts`).
    Member(usize, String),
}

/// A field read by a literal key off a tool's result.
#[derive(Debug)]
struct Read {
    /// Where the path it ends starts: where the checker places an error about it.
    at: Place,
    key: String,
    origin: Origin,
    /// The local the path starts at, when it starts at one.
    base: Option<usize>,
}

impl Value {
    /// The value as read through the local `id`.
    fn through(self, id: usize) -> Value {
        match self {
            Value::Result(mut origin) => {
                origin.links.push(Link::Local(id));
                Value::Result(origin)
            }
            Value::Tools(names, _) => Value::Tools(names, Some(id)),
            Value::Helper(tool, _) => Value::Helper(tool, Some(id)),
            Value::Table(fields, _) => Value::Table(fields, Some(id)),
            other => other,
        }
    }
}

/// The calls through which a script may add, change or remove tools while it runs.
pub(crate) const AUTHORING: [&str; 6] = [
    "tools.create",
    "tools.createToolbox",
    "tools.delete",
    "tools.install",
    "vfs.write",
    "vfs.remove",
];

/// True when `call` may add, change or remove tools: a call of one of [`AUTHORING`],
/// except a `vfs.write` or `vfs.remove` whose path is sure to lie outside every toolbox
/// folder (see [`outside_toolboxes`]): agents write reports and data files, and such a
/// write leaves every tool as declared.
pub(crate) fn may_author(call: &FunctionCall) -> bool {
    if computed_call(call) || calls_out_of_sight(call) {
        return true;
    }
    let Some(name) = called_name(call) else {
        return false;
    };
    if !AUTHORING.contains(&name.as_str()) {
        return false;
    }
    !name.starts_with("vfs.") || !first_argument(call).is_some_and(outside_toolboxes)
}

/// True for a call through `_G` (`_G.tools.create(spec)`) or of `loadstring`, whose chunk
/// may call anything.
fn calls_out_of_sight(call: &FunctionCall) -> bool {
    matches!(call.prefix(), Prefix::Name(name) if matches!(name.token().to_string().as_str(), "_G" | "loadstring"))
}

/// The first argument of a call `a.b(x, ...)` or `a.b "x"`.
fn first_argument(call: &FunctionCall) -> Option<Expression> {
    let mut suffixes = call.suffixes().skip(1);
    match suffixes.next()? {
        Suffix::Call(Call::AnonymousCall(FunctionArgs::Parentheses { arguments, .. })) => {
            arguments.iter().next().cloned()
        }
        Suffix::Call(Call::AnonymousCall(FunctionArgs::String(token))) => {
            Some(Expression::String(token.clone()))
        }
        _ => None,
    }
}

/// File extensions of data a script writes (reports, exports): a file so named is no part
/// of a tool, whichever folder it lands in. (`.md` is not one: a toolbox's README is.)
const DATA_EXTENSIONS: [&str; 16] = [
    "txt", "csv", "tsv", "json", "jsonl", "ndjson", "html", "htm", "xml", "yaml", "yml", "log",
    "svg", "sql", "diff", "patch",
];

/// True when a path written as `path` is sure to name no toolbox, tool or tool file: a
/// literal without `.toolbox` in it (`"report.md"`, `"out/data.csv"`), or a path built
/// from pieces (`"out/" .. name .. ".csv"`, `` `{dir}/{name}.json` ``) none of which
/// speaks of a toolbox or tool and whose last piece ends in a data file's extension.
fn outside_toolboxes(path: Expression) -> bool {
    let mut pieces = Vec::new();
    let whole = literal_pieces(&path, &mut pieces);
    // Pieces are read as written: an escape (`\x2e`) may spell `.tool`, and so may two
    // pieces joined (`"mine." .. "toolbox/"`).
    let joined = pieces.concat().to_lowercase();
    if joined.contains(".tool") || joined.contains('\\') {
        return false;
    }
    if whole {
        return !pieces.is_empty();
    }
    let Some(last) = pieces.last().filter(|_| ends_in_a_literal(&path)) else {
        return false;
    };
    let file = last.rsplit(['/', '\\']).next().unwrap_or_default();
    file.rsplit_once('.')
        .is_some_and(|(_, extension)| DATA_EXTENSIONS.contains(&extension.to_lowercase().as_str()))
}

/// Pushes the literal text of `expression`'s pieces, in order, onto `pieces`: a string
/// literal, both sides of a `..`, an interpolated string's literal parts. True when the
/// whole of it is literal.
fn literal_pieces(expression: &Expression, pieces: &mut Vec<String>) -> bool {
    match unwrapped(expression) {
        Expression::String(token) => match token.token_type() {
            TokenType::StringLiteral { literal, .. } => {
                pieces.push(literal.to_string());
                true
            }
            _ => false,
        },
        Expression::BinaryOperator {
            lhs,
            binop: BinOp::TwoDots(_),
            rhs,
        } => {
            let left = literal_pieces(lhs, pieces);
            literal_pieces(rhs, pieces) && left
        }
        Expression::InterpolatedString(interpolated) => {
            let text = |token: &TokenReference| match token.token_type() {
                TokenType::InterpolatedString { literal, .. } => literal.to_string(),
                _ => String::new(),
            };
            let mut whole = true;
            for segment in interpolated.segments() {
                pieces.push(text(&segment.literal));
                whole = false;
            }
            pieces.push(text(interpolated.last_string()));
            whole
        }
        _ => false,
    }
}

/// True when the last piece of a path built with `..` or interpolation is literal text.
fn ends_in_a_literal(expression: &Expression) -> bool {
    match unwrapped(expression) {
        Expression::String(_) | Expression::InterpolatedString(_) => true,
        Expression::BinaryOperator {
            binop: BinOp::TwoDots(_),
            rhs,
            ..
        } => ends_in_a_literal(rhs),
        _ => false,
    }
}

/// True when `expression` holds an authoring function as a value (`pcall(vfs.write, ...)`,
/// `local write = vfs.write`) or `tools` or `vfs` whole (`local v = vfs`), through which
/// any of them may be called out of sight.
pub(crate) fn holds_an_authoring_function(expression: &Expression) -> bool {
    match expression {
        // `tools` or `vfs` as a value may reach a writer; so may `_G.tools`, and a chunk
        // given to `loadstring` may do anything.
        Expression::Var(Var::Name(name)) => {
            matches!(
                name.token().to_string().as_str(),
                "tools" | "vfs" | "_G" | "loadstring"
            )
        }
        Expression::Var(Var::Expression(var)) => {
            let Prefix::Name(name) = var.prefix() else {
                return false;
            };
            let mut suffixes = var.suffixes();
            match (suffixes.next().and_then(literal_key), suffixes.next()) {
                (Some(key), None) => {
                    AUTHORING.contains(&format!("{}.{key}", name.token()).as_str())
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Past every place in a source: the end of a block with no statements.
const END: Place = (u32::MAX, u32::MAX);

impl ToolCalls {
    pub(crate) fn read(ast: &full_moon::ast::Ast) -> ToolCalls {
        let mut calls = ToolCalls::default();
        calls.visit_ast(ast);
        // A local the script may give another value (or pass on, where it may be changed)
        // does not name its toolbox or tool for certain.
        for (at, local) in std::mem::take(&mut calls.aliased) {
            if calls.opened_here(local) {
                calls.calls[at].2 = false;
                calls.calls[at].3 = None;
            }
        }
        // Testing a local bound to a field (`local v = c.sentences; if v then`) tests
        // the field.
        for (field, local) in &calls.facts.copied {
            if calls.facts.tested.contains(local) {
                calls.facts.settled.insert(field.clone());
            }
        }
        calls
    }

    /// True when the script may look up `key` (a toolbox or tool name) for itself before
    /// it calls it: it tests it (`if tools.extra then`), or names it in a string
    /// (`tools.callable("extra.fancify")`, `tools.get("extra.fancify")`).
    pub(crate) fn looked_up(&self, key: &str) -> bool {
        let identity = |s: &str| {
            let parts: Vec<&str> = s.split('.').collect();
            parts.len() == 2
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
                && parts.contains(&key)
        };
        self.facts
            .settled
            .contains(&("tools".to_string(), key.to_string()))
            || self.strings.iter().any(|s| s == key || identity(s))
    }

    /// True when `at` is inside a function written into a `pcall` or `xpcall`, or given to
    /// a function of the script's own (which may call it under `pcall`), or in a branch of
    /// an `if` (which may run only when a tool is there): a tool called there may be one
    /// the script probes for.
    pub(crate) fn in_caught(&self, at: Place) -> bool {
        self.caught.iter().any(|(b, e)| *b <= at && at < *e)
    }

    /// The tool whose declared result lacks `key`, when the read of `key` whose path
    /// starts at `at` is certain to read that result: see the module's documentation.
    pub(crate) fn result_read(&self, key: &str, at: Place) -> Option<String> {
        if self.guarded.iter().any(|(b, e)| *b <= at && at < *e) {
            return None;
        }
        let mut reads = self.reads.iter().filter(|r| r.at == at && r.key == key);
        let first = reads.next()?;
        let sure = |read: &Read| self.sure_read(read) && read.origin.tool == first.origin.tool;
        (sure(first) && reads.all(sure)).then(|| first.origin.tool.clone())
    }

    fn sure_read(&self, read: &Read) -> bool {
        let Origin { tool, links, part } = &read.origin;
        let facts = &self.facts;
        // A script that writes tools may have changed this one's result (deleted and
        // written it again with a new field); the functions of `tools` do not change.
        if self.authors && !tool.starts_with("tools.") {
            return false;
        }
        if let Some(base) = read.base {
            let name = self.locals[base].name.clone();
            if self.opened_here(base) || facts.settled.contains(&(name, read.key.clone())) {
                return false;
            }
        }
        // A part of a result, or one that went through more than the local read, may be
        // reached another way: through another loop's variable (`for _, row in r.rows do
        // row.key = ... end`), or a helper that writes fields by a computed key.
        let shared =
            *part || links.len() > 1 || links.iter().any(|l| matches!(l, Link::Member(..)));
        if shared && (facts.computed_writes || facts.settled.iter().any(|(_, k)| *k == read.key)) {
            return false;
        }
        links.iter().all(|link| match link {
            Link::Local(id) => Some(*id) == read.base || !self.is_open(&self.locals[*id].name),
            Link::Field(id, field) => {
                let pair = (self.locals[*id].name.clone(), field.clone());
                !facts.settled.contains(&pair) && !facts.lent.contains(&pair)
            }
            Link::Member(id, field) => {
                let name = &self.locals[*id].name;
                let pair = (name.clone(), field.clone());
                facts.writes.get(&pair) == Some(&1)
                    && !facts.lent.contains(&pair)
                    && !facts.copied.iter().any(|(f, _)| *f == pair)
                    && !self.is_open(name)
                    && self.locals.iter().filter(|l| l.name == *name).count() == 1
            }
        })
    }

    /// The tool called, when the argument starting at `at` is certain to be a tool's
    /// whole result as it was returned: called there, or through a local used as a value
    /// nowhere else and given no field (nothing can have put a list in it), and each
    /// helper or local naming a tool on the way still what it was bound to.
    pub(crate) fn whole_result_given(&self, at: Place) -> Option<String> {
        let (_, tool, origin, local) = self.wholes.iter().find(|w| w.0 == at)?;
        let unchanged = |t: &str| !self.authors || t.starts_with("tools.");
        let called = origin.links.iter().all(|link| match link {
            Link::Local(id) if Some(*id) == *local => true,
            Link::Local(id) => {
                matches!(self.locals[*id].value, Value::Helper(..) | Value::Tools(..))
                    && !self.is_open(&self.locals[*id].name)
            }
            _ => false,
        });
        let only_here = local.is_none_or(|id| {
            let name = &self.locals[id].name;
            self.facts.opened.iter().all(|(n, p)| n != name || *p == at)
                && !self.facts.settled.iter().any(|(n, _)| n == name)
        });
        let sure =
            !origin.part && called && only_here && unchanged(&origin.tool) && unchanged(tool);
        sure.then(|| tool.clone())
    }

    /// True when `word`, seen at `at`, is a local bound from a spread
    /// (`local text, opts = table.unpack(args)`).
    pub(crate) fn spread_local(&self, word: Option<&str>, at: Place) -> bool {
        word.and_then(|w| self.binding_at(w, at))
            .is_some_and(|id| matches!(self.locals[id].value, Value::Spread))
    }

    /// Notes `name` as used in a way that may change what it holds (see `opened`).
    fn opened(&mut self, name: &TokenReference) {
        let at = start_of(name).unwrap_or_default();
        self.facts.opened.push((name.token().to_string(), at));
    }

    /// True when a local named `name`, any of them, is so used (see `opened`).
    fn is_open(&self, name: &str) -> bool {
        self.facts.opened.iter().any(|(n, _)| n == name)
    }

    /// True when the local `id` itself is so used: a local of the same name in another
    /// function or block is another local.
    fn opened_here(&self, id: usize) -> bool {
        let name = &self.locals[id].name;
        self.facts
            .opened
            .iter()
            .any(|(n, p)| n == name && self.binding_at(name, *p) == Some(id))
    }

    /// The local `name` seen at `at`: the innermost one declared before it.
    fn binding_at(&self, name: &str, at: Place) -> Option<usize> {
        (0..self.locals.len())
            .filter(|&i| {
                let l = &self.locals[i];
                l.name == name && l.from < at && at <= l.to
            })
            .max_by_key(|&i| self.locals[i].from)
    }

    /// Marks `body` as a function whose errors may be caught.
    fn catches(&mut self, body: &FunctionBody) {
        if let Some(from) = start_of(body) {
            self.caught.push((from, end_of(body)));
        }
    }

    fn bind(&mut self, name: &TokenReference, from: Place, to: Place, value: Value) {
        let name = name.token().to_string();
        self.locals.push(Local {
            name,
            from,
            to,
            value,
        });
    }

    /// Whether a call written as `prefix` and `suffixes` from `at` is a tool call,
    /// through `tools` or through a local naming a toolbox or tool, and the tool it names
    /// (see [`named_from`]); with the local, for the latter.
    fn tool_call<'a>(
        &self,
        prefix: &Prefix,
        suffixes: impl Iterator<Item = &'a Suffix>,
        at: Option<Place>,
    ) -> (bool, Option<String>, Option<usize>) {
        let Prefix::Name(name) = prefix else {
            return (false, None, None);
        };
        let name = name.token().to_string();
        if name == "tools" {
            return (true, named_from(Vec::new(), suffixes), None);
        }
        let local = at.and_then(|at| self.binding_at(&name, at));
        match local.map(|id| (id, &self.locals[id].value)) {
            Some((id, Value::Tools(names, _))) => {
                (true, named_from(names.clone(), suffixes), Some(id))
            }
            _ => (false, None, None),
        }
    }

    /// The value the path `prefix` and `suffixes` reaches from `at`; with `record`, each
    /// field it reads off a tool's result on the way is noted (see [`Read`]).
    fn reach(&mut self, prefix: &Prefix, suffixes: &[&Suffix], at: Place, record: bool) -> Value {
        let Prefix::Name(name) = prefix else {
            return Value::Other;
        };
        let name = name.token().to_string();
        let base = self.binding_at(&name, at);
        let mut value = match base {
            Some(id) => self.locals[id].value.clone().through(id),
            None if name == "tools" => Value::Tools(Vec::new(), None),
            None => return Value::Other,
        };
        for suffix in suffixes {
            let key = literal_key(suffix);
            value = match (value, suffix) {
                (Value::Tools(mut names, via), _) if key.is_some() => {
                    names.extend(key);
                    Value::Tools(names, via)
                }
                (Value::Tools(mut names, via), Suffix::Call(call)) => {
                    if let Call::MethodCall(method) = call {
                        names.push(method.name().token().to_string());
                    }
                    let tool = match names.as_slice() {
                        [one] => format!("tools.{one}"),
                        [toolbox, tool, ..] => format!("{toolbox}.{tool}"),
                        [] => return Value::Other,
                    };
                    let links = via.map(Link::Local).into_iter().collect();
                    Value::Result(Origin {
                        tool,
                        links,
                        part: false,
                    })
                }
                (Value::Helper(tool, via), Suffix::Call(Call::AnonymousCall(_))) => {
                    let links = via.map(Link::Local).into_iter().collect();
                    Value::Result(Origin {
                        tool,
                        links,
                        part: false,
                    })
                }
                (Value::Table(fields, Some(id)), _) => {
                    match fields.iter().rev().find(|(f, _)| Some(f) == key.as_ref()) {
                        Some((field, Value::Result(origin))) => {
                            let mut origin = origin.clone();
                            origin.links.push(Link::Member(id, field.clone()));
                            Value::Result(origin)
                        }
                        _ => Value::Other,
                    }
                }
                (Value::Result(mut origin), Suffix::Index(_)) => {
                    if let Some(key) = key {
                        if record {
                            let (at, origin) = (at, origin.clone());
                            self.reads.push(Read {
                                at,
                                key: key.clone(),
                                origin,
                                base,
                            });
                        }
                        if let Some(Link::Local(id)) = origin.links.last() {
                            origin.links.push(Link::Field(*id, key));
                        }
                    }
                    origin.part = true;
                    Value::Result(origin)
                }
                _ => Value::Other,
            };
        }
        value
    }

    /// What `expression` holds, read at `at` (see [`Value`]).
    fn value_of(&mut self, expression: &Expression, at: Place) -> Value {
        if spreads(expression) {
            return Value::Spread;
        }
        match unwrapped(expression) {
            Expression::FunctionCall(call) => {
                let suffixes: Vec<&Suffix> = call.suffixes().collect();
                self.reach(call.prefix(), &suffixes, at, false)
            }
            Expression::Var(Var::Expression(var)) => {
                let suffixes: Vec<&Suffix> = var.suffixes().collect();
                match self.reach(var.prefix(), &suffixes, at, false) {
                    // `tools.a.b.c` names no tool.
                    Value::Tools(names, _) if names.len() > 2 => Value::Other,
                    value => value,
                }
            }
            // `local t = tools` is no alias: `tools` as a value may be anything by then.
            Expression::Var(Var::Name(name)) => {
                match self.reach(&Prefix::Name(name.clone()), &[], at, false) {
                    Value::Tools(..) => Value::Other,
                    value => value,
                }
            }
            Expression::Function(function) => self.helper(function.body()),
            Expression::TableConstructor(table) => {
                let mut fields = Vec::new();
                for field in table.fields() {
                    if let Field::NameKey { key, value, .. } = field {
                        fields.push((key.token().to_string(), self.value_of(value, at)));
                    }
                }
                Value::Table(fields, None)
            }
            _ => Value::Other,
        }
    }

    /// What a function with this body is as a value: a helper when each `return` in it
    /// (not in functions inside it) gives one call of the same tool through `tools`, as
    /// it is. (Not through a local naming the tool: the local may be given another
    /// function before the helper is called.)
    fn helper(&self, body: &FunctionBody) -> Value {
        let mut returns = Returns::default();
        body.block().visit(&mut returns);
        let mut tools = returns.values.iter().map(|values| match values.as_slice() {
            [Expression::FunctionCall(call)] if only_called(call) && is_tools(call.prefix()) => {
                named_from(Vec::new(), call.suffixes())
            }
            _ => None,
        });
        let Some(Some(first)) = tools.next() else {
            return Value::Other;
        };
        match tools.all(|t| t.as_ref() == Some(&first)) {
            true => Value::Helper(first, None),
            false => Value::Other,
        }
    }

    /// What the value of a `for` loop holds: an element of a tool's result list, when it
    /// iterates one (`for _, l in ipairs(d.lines)`, `pairs(...)`, or `in d.lines`).
    fn element_of(&mut self, gf: &GenericFor, at: Place) -> Value {
        let mut expressions = gf.expressions().iter();
        let (Some(expression), None) = (expressions.next(), expressions.next()) else {
            return Value::Other;
        };
        let iterated = iterated_by(expression).unwrap_or(expression);
        // Iterating a result adds no field to it.
        self.harmless(iterated);
        match self.value_of(iterated, at) {
            Value::Result(mut origin) => {
                origin.part = true;
                Value::Result(origin)
            }
            _ => Value::Other,
        }
    }

    /// Notes a presence test of `expression`: of a field (`r.x` in `r.x or 0`), or of a
    /// local (`r` in `if r then`), which is not a use that adds fields.
    fn tested(&mut self, expression: &Expression) {
        if !self.settle(expression) {
            self.harmless(expression);
            if let Expression::Var(Var::Name(name)) = unwrapped(expression) {
                self.facts.tested.insert(name.token().to_string());
            }
        }
    }

    /// Notes `expression`, when it is a field read through a local (`r.x`), as a field
    /// the script handles; false when it is not one.
    fn settle(&mut self, expression: &Expression) -> bool {
        let Expression::Var(Var::Expression(var)) = unwrapped(expression) else {
            return false;
        };
        if let Some(field) = field_of(var) {
            self.facts.settled.insert(field);
        }
        true
    }

    /// Notes `expression`, when it is a bare name, as a use that adds no field to it.
    fn harmless(&mut self, expression: &Expression) {
        if let Expression::Var(Var::Name(name)) = unwrapped(expression) {
            if let Some(at) = start_of(name) {
                self.facts.harmless.insert(at);
            }
        }
    }
}

#[derive(Default)]
struct Returns {
    values: Vec<Vec<Expression>>,
    depth: usize,
}

impl Visitor for Returns {
    fn visit_function_body(&mut self, _: &FunctionBody) {
        self.depth += 1;
    }

    fn visit_function_body_end(&mut self, _: &FunctionBody) {
        self.depth -= 1;
    }

    fn visit_return(&mut self, ret: &Return) {
        if self.depth == 0 {
            let values = ret.returns().iter().map(|e| unwrapped(e).clone()).collect();
            self.values.push(values);
        }
    }
}

/// True for a call whose only call is its last suffix (`tools.text.wordCount(s)`, not
/// `tools.json.parse(s).rows` nor `f(a)(b)`): its value is what the callee returns.
fn only_called(call: &FunctionCall) -> bool {
    let suffixes: Vec<&Suffix> = call.suffixes().collect();
    suffixes.split_last().is_some_and(|(last, rest)| {
        matches!(last, Suffix::Call(Call::AnonymousCall(_)))
            && rest.iter().all(|s| literal_key(s).is_some())
    })
}

/// `expression` without the parentheses around it.
fn unwrapped(mut expression: &Expression) -> &Expression {
    while let Expression::Parentheses {
        expression: inner, ..
    } = expression
    {
        expression = inner;
    }
    expression
}

/// `(local, key)` for `local.a.key`: the local a field is read through and the last key.
fn field_of(var: &VarExpression) -> Option<(String, String)> {
    let Prefix::Name(root) = var.prefix() else {
        return None;
    };
    let key = var.suffixes().last().and_then(literal_key)?;
    Some((root.token().to_string(), key))
}

pub(crate) fn place(position: full_moon::tokenizer::Position) -> Place {
    (position.line() as u32, position.character() as u32)
}

fn start_of(node: &impl Node) -> Option<Place> {
    node.start_position().map(place)
}

fn end_of(node: &impl Node) -> Place {
    node.end_position().map_or(END, place)
}

/// The tool that calling through `suffixes` names, after the `names` of `tools` it
/// starts at (`["text"]` for `text.slugify(s)` after `local text = tools.text`): `box.tool`
/// for `tools.box.tool(...)` and `tools.box:tool(...)`, `tools.fn` for a function of
/// `tools` itself.
fn named_from<'a>(
    mut names: Vec<String>,
    suffixes: impl Iterator<Item = &'a Suffix>,
) -> Option<String> {
    for suffix in suffixes {
        match suffix {
            Suffix::Call(Call::MethodCall(method)) => {
                names.push(method.name().token().to_string());
                break;
            }
            _ => match literal_key(suffix) {
                Some(name) => names.push(name),
                None => break,
            },
        }
    }
    match names.as_slice() {
        [one] => Some(format!("tools.{one}")),
        [toolbox, tool, ..] => Some(format!("{toolbox}.{tool}")),
        [] => None,
    }
}

fn is_tools(prefix: &Prefix) -> bool {
    matches!(prefix, Prefix::Name(name) if name.token().to_string() == "tools")
}

/// The key an index names literally: `name` for `.name` and `["name"]`.
fn literal_key(suffix: &Suffix) -> Option<String> {
    match suffix {
        Suffix::Index(Index::Dot { name, .. }) => Some(name.token().to_string()),
        Suffix::Index(Index::Brackets {
            expression: Expression::String(token),
            ..
        }) => match token.token_type() {
            TokenType::StringLiteral { literal, .. } => Some(literal.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// `t` for `ipairs(t)` and `pairs(t)`.
fn iterated_by(expression: &Expression) -> Option<&Expression> {
    let Expression::FunctionCall(call) = unwrapped(expression) else {
        return None;
    };
    let Prefix::Name(name) = call.prefix() else {
        return None;
    };
    if !matches!(name.token().to_string().as_str(), "ipairs" | "pairs") {
        return None;
    }
    let mut suffixes = call.suffixes();
    let (
        Some(Suffix::Call(Call::AnonymousCall(FunctionArgs::Parentheses { arguments, .. }))),
        None,
    ) = (suffixes.next(), suffixes.next())
    else {
        return None;
    };
    let mut arguments = arguments.iter();
    match (arguments.next(), arguments.next()) {
        (Some(argument), None) => Some(argument),
        _ => None,
    }
}

/// `a.b` for a call `a.b(...)` or `a["b"](...)`.
pub(crate) fn called_name(call: &FunctionCall) -> Option<String> {
    let Prefix::Name(name) = call.prefix() else {
        return None;
    };
    let field = literal_key(call.suffixes().next()?)?;
    Some(format!("{}.{field}", name.token()))
}

/// True for a call of a function of `tools` or `vfs` named by a computed key
/// (`vfs[op](...)`, `tools[name](...)`): it may be any of them, a writer too.
fn computed_call(call: &FunctionCall) -> bool {
    let Prefix::Name(name) = call.prefix() else {
        return false;
    };
    if !matches!(name.token().to_string().as_str(), "tools" | "vfs") {
        return false;
    }
    let mut suffixes = call.suffixes();
    let (Some(key), Some(Suffix::Call(_))) = (suffixes.next(), suffixes.next()) else {
        return false;
    };
    matches!(key, Suffix::Index(Index::Brackets { .. })) && literal_key(key).is_none()
}

/// The span of what `pcall(f, a, b)` passes on to `f` (`a, b`; for `xpcall`, what follows
/// the handler), when `f` is a name or a field.
fn passed_on(call: &FunctionCall) -> Option<(Place, Place)> {
    let Prefix::Name(name) = call.prefix() else {
        return None;
    };
    let skip = match name.token().to_string().as_str() {
        "pcall" => 1,
        "xpcall" => 2,
        _ => return None,
    };
    let mut suffixes = call.suffixes();
    let Some(Suffix::Call(Call::AnonymousCall(FunctionArgs::Parentheses { arguments, .. }))) =
        suffixes.next()
    else {
        return None;
    };
    if suffixes.next().is_some() {
        return None;
    }
    let mut args = arguments.iter();
    if !matches!(args.next(), Some(Expression::Var(_))) {
        return None;
    }
    let rest: Vec<&Expression> = args.skip(skip - 1).collect();
    let start = rest.first()?.start_position()?;
    let end = rest.last()?.end_position()?;
    Some((place(start), place(end)))
}

/// The arguments of a call `f(a, b)` (its first call suffix); none for `f "s"` or
/// `f { ... }`, which pass a literal.
/// True for an expression whose values the checker cannot count or type one by one: `...`,
/// or a call of `table.unpack`, `unpack` or `select`.
fn spreads(expression: &Expression) -> bool {
    match unwrapped(expression) {
        Expression::Symbol(symbol) => symbol.token().to_string() == "...",
        Expression::FunctionCall(call) => {
            let name = called_name(call).or_else(|| match call.prefix() {
                Prefix::Name(name) if call.suffixes().count() == 1 => {
                    Some(name.token().to_string())
                }
                _ => None,
            });
            matches!(name.as_deref(), Some("table.unpack" | "unpack" | "select"))
        }
        _ => false,
    }
}

fn arguments_of(call: &FunctionCall) -> Vec<&Expression> {
    let Some(Suffix::Call(Call::AnonymousCall(args))) =
        call.suffixes().find(|s| matches!(s, Suffix::Call(_)))
    else {
        return Vec::new();
    };
    match args {
        FunctionArgs::Parentheses { arguments, .. } => arguments.iter().collect(),
        _ => Vec::new(),
    }
}

/// Functions that only read the tables passed to them (`ipairs(d.lines)`,
/// `table.concat(d.lines)`, `print(r)`): what they are given keeps its fields.
/// (Not `assert` or `select`, which hand back what they are given: `local t = assert(r)`
/// is another name for `r`. Not a tool either: a tool written in Luau gets the table
/// itself.)
const READERS: [&str; 14] = [
    "ipairs",
    "pairs",
    "next",
    "print",
    "type",
    "typeof",
    "tostring",
    "tonumber",
    "rawlen",
    "error",
    "unpack",
    "table.concat",
    "table.unpack",
    "table.find",
];

/// True when `call` is sure not to change a table it is given (see [`READERS`]; the
/// libraries `string`, `math` and `utf8`).
fn leaves_arguments_alone(call: &FunctionCall) -> bool {
    let Prefix::Name(name) = call.prefix() else {
        return false;
    };
    let root = name.token().to_string();
    let single = matches!(call.suffixes().next(), Some(Suffix::Call(_)));
    if single {
        return READERS.contains(&root.as_str());
    }
    if matches!(root.as_str(), "string" | "math" | "utf8") {
        return true;
    }
    called_name(call).is_some_and(|n| READERS.contains(&n.as_str()))
}

/// True for an index by a number or by a length plus a number (`[3]`, `[#out + 1]`):
/// a list's slot, never a field's name.
fn places_a_value(suffix: &Suffix) -> bool {
    let Suffix::Index(Index::Brackets { expression, .. }) = suffix else {
        return false;
    };
    match unwrapped(expression) {
        Expression::Number(_) => true,
        Expression::BinaryOperator { lhs, binop, rhs } => {
            matches!(binop, BinOp::Plus(_))
                && matches!(
                    unwrapped(lhs),
                    Expression::UnaryOperator {
                        unop: UnOp::Hash(_),
                        ..
                    }
                )
                && matches!(unwrapped(rhs), Expression::Number(_))
        }
        _ => false,
    }
}

fn is_boolean(expression: &Expression) -> bool {
    matches!(expression, Expression::Symbol(token) if matches!(token.token_type(), TokenType::Symbol { symbol: Symbol::True | Symbol::False }))
}

fn is_nil(expression: &Expression) -> bool {
    matches!(expression, Expression::Symbol(token) if matches!(token.token_type(), TokenType::Symbol { symbol: Symbol::Nil }))
}

impl Visitor for ToolCalls {
    fn visit_block(&mut self, block: &Block) {
        self.blocks.push(end_of(block));
    }

    fn visit_block_end(&mut self, _: &Block) {
        self.blocks.pop();
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        self.authors |= may_author(call);
        // `table.insert(r.rows, row)`: the list may now hold rows of another shape.
        if called_name(call).as_deref() == Some("table.insert") {
            if let Some(list) = first_argument(call) {
                self.settle(&list);
            }
        }
        if leaves_arguments_alone(call) {
            // `print(r)`: a result shown or iterated gains no field.
            for argument in arguments_of(call) {
                self.harmless(argument);
            }
        } else {
            for argument in arguments_of(call) {
                if let Expression::Var(Var::Expression(var)) = unwrapped(argument) {
                    if let Some(field) = field_of(var) {
                        self.facts.lent.insert(field);
                    }
                }
            }
        }
        if let Prefix::Name(name) = call.prefix() {
            let called = name.token().to_string();
            match called.as_str() {
                // `type(c.x) == "number"` tests the field.
                "type" | "typeof" => {
                    if let [argument] = arguments_of(call).as_slice() {
                        self.tested(argument);
                    }
                }
                "pcall" | "xpcall" => {
                    if let Some(Expression::Function(function)) =
                        arguments_of(call).first().map(|a| unwrapped(a))
                    {
                        self.catches(function.body());
                        let body = function.body();
                        self.guarded
                            .extend(start_of(body).map(|from| (from, end_of(body))));
                    }
                }
                // A function given to one of the script's own (`try(function() ... end)`)
                // may be run under its `pcall`.
                _ if start_of(call).is_some_and(|at| self.binding_at(&called, at).is_some()) => {
                    for argument in arguments_of(call) {
                        if let Expression::Function(function) = unwrapped(argument) {
                            self.catches(function.body());
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(span) = passed_on(call) {
            self.passed.push(span);
        }
        let (Some(start), Some(end)) = (start_of(call), call.end_position()) else {
            return;
        };
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        self.reach(call.prefix(), &suffixes, start, true);
        let (tools, tool, alias) = self.tool_call(call.prefix(), call.suffixes(), Some(start));
        if arguments_of(call).last().is_some_and(|a| spreads(a)) {
            self.spread.push((start, place(end)));
        } else if let (true, Some(tool)) = (tools, &tool) {
            for argument in arguments_of(call) {
                let Some(at) = start_of(argument) else {
                    continue;
                };
                let local = match unwrapped(argument) {
                    Expression::Var(Var::Name(name)) => {
                        self.binding_at(&name.token().to_string(), at)
                    }
                    Expression::FunctionCall(_) => None,
                    _ => continue,
                };
                if let Value::Result(origin) = self.value_of(argument, at) {
                    self.wholes.push((at, tool.clone(), origin, local));
                }
            }
        }
        if let Some(local) = alias {
            self.aliased.push((self.calls.len(), local));
        }
        self.calls.push((start, place(end), tools, tool));
    }

    fn visit_function_body(&mut self, body: &FunctionBody) {
        let (Some(from), to) = (start_of(body), end_of(body)) else {
            return;
        };
        self.bodies.push((from, to));
        for parameter in body.parameters() {
            if let Parameter::Name(name) = parameter {
                self.bind(name, from, to, Value::Other);
            }
        }
    }

    fn visit_local_function(&mut self, function: &LocalFunction) {
        let Some(from) = start_of(function) else {
            return;
        };
        let to = self.blocks.last().copied().unwrap_or(END);
        let value = self.helper(function.body());
        self.bind(function.name(), from, to, value);
    }

    fn visit_numeric_for(&mut self, nf: &NumericFor) {
        if let Some(from) = start_of(nf) {
            self.bind(nf.index_variable(), from, end_of(nf), Value::Other);
        }
    }

    fn visit_generic_for(&mut self, gf: &GenericFor) {
        let Some(from) = start_of(gf) else { return };
        let element = self.element_of(gf, from);
        for (at, name) in gf.names().iter().enumerate() {
            // The key (or index) is the first name; the value the second.
            let value = if at == 1 {
                element.clone()
            } else {
                Value::Other
            };
            self.bind(name, from, end_of(gf), value);
        }
    }

    fn visit_local_assignment(&mut self, local: &LocalAssignment) {
        let to = self.blocks.last().copied().unwrap_or(END);
        let mut values = local.expressions().iter();
        for name in local.names() {
            let Some(from) = start_of(name) else {
                continue;
            };
            let local_name = name.token().to_string();
            let expression = values.next();
            if let Some(Expression::Var(Var::Expression(var))) = expression.map(unwrapped) {
                if let Some(field) = field_of(var) {
                    self.facts.copied.push((field, local_name.clone()));
                }
            }
            // A name past the last value takes the spread's further values.
            let value = match expression {
                Some(expression) => self.value_of(expression, from),
                None if local.expressions().iter().last().is_some_and(spreads) => Value::Spread,
                None => Value::Other,
            };
            if let Value::Table(fields, _) = &value {
                for (field, _) in fields {
                    *self
                        .facts
                        .writes
                        .entry((local_name.clone(), field.clone()))
                        .or_default() += 1;
                }
            }
            self.bind(name, from, to, value);
        }
    }

    fn visit_assignment(&mut self, assignment: &Assignment) {
        let values: Vec<&Expression> = assignment.expressions().iter().collect();
        for (i, var) in assignment.variables().iter().enumerate() {
            let var = match var {
                // The local may hold another table from here on (`r = { limit = 10 }`).
                Var::Name(name) => {
                    self.opened(name);
                    continue;
                }
                Var::Expression(var) => var,
                _ => continue,
            };
            let Prefix::Name(root) = var.prefix() else {
                continue;
            };
            let root_name = root.token().to_string();
            let suffixes: Vec<&Suffix> = var.suffixes().collect();
            match suffixes.last().and_then(|s| literal_key(s)) {
                Some(key) => {
                    self.facts.settled.insert((root_name.clone(), key.clone()));
                    if suffixes.len() > 1 {
                        continue;
                    }
                    // `ctx.counts = tools.text.wordCount(s)` keeps the result in a field
                    // of the script's own table.
                    let pair = (root_name.clone(), key.clone());
                    *self.facts.writes.entry(pair).or_default() += 1;
                    let at = start_of(var).unwrap_or_default();
                    let value = match values.get(i) {
                        Some(expression) => self.value_of(expression, at),
                        None => Value::Other,
                    };
                    if let Some(id) = self.binding_at(&root_name, at) {
                        if let Value::Table(fields, _) = &mut self.locals[id].value {
                            fields.push((key, value));
                        }
                    }
                }
                None => {
                    self.opened(root);
                    // `out[#out + 1] = v` and `out[3] = v` append or place a value; any
                    // other key may name a field.
                    self.facts.computed_writes |=
                        !suffixes.last().is_some_and(|s| places_a_value(s));
                }
            }
        }
    }

    fn visit_var_expression(&mut self, var: &VarExpression) {
        let suffixes: Vec<&Suffix> = var.suffixes().collect();
        let Some(start) = start_of(var) else {
            return;
        };
        self.reach(var.prefix(), &suffixes, start, true);
        // `tools.box.tool(...).key` holds a call of its own, which the syntax tree keeps
        // as a suffix rather than a call: what is wrong in its arguments is the tool's.
        let Some(call) = suffixes.iter().position(|s| matches!(s, Suffix::Call(_))) else {
            return;
        };
        let (tools, tool, alias) =
            self.tool_call(var.prefix(), suffixes[..=call].iter().copied(), Some(start));
        if !tools {
            return;
        }
        if let Some(local) = alias {
            self.aliased.push((self.calls.len(), local));
        }
        self.calls
            .push((start, end_of(suffixes[call]), tools, tool));
    }

    fn visit_return(&mut self, ret: &Return) {
        for expression in ret.returns() {
            self.harmless(expression);
        }
    }

    fn visit_expression(&mut self, expression: &Expression) {
        self.authors |= holds_an_authoring_function(expression);
        if let Expression::String(token) = expression {
            if let TokenType::StringLiteral { literal, .. } = token.token_type() {
                self.strings.insert(literal.to_string());
            }
        }
        match expression {
            Expression::Var(Var::Name(name))
                if start_of(name).is_none_or(|at| !self.facts.harmless.contains(&at)) =>
            {
                self.opened(name);
            }
            Expression::BinaryOperator { lhs, binop, rhs } => match binop {
                // `r or {}` may pass `r` itself on, so only its field is tested.
                BinOp::Or(_) => {
                    self.settle(lhs);
                }
                BinOp::And(_) => self.tested(lhs),
                BinOp::TwoEqual(_) | BinOp::TildeEqual(_) => {
                    // Compared with nil or a boolean (`l.f == true`): a presence test.
                    if is_nil(rhs) || is_boolean(rhs) {
                        self.tested(lhs);
                    }
                    if is_nil(lhs) || is_boolean(lhs) {
                        self.tested(rhs);
                    }
                    self.harmless(lhs);
                    self.harmless(rhs);
                }
                _ => {}
            },
            Expression::UnaryOperator { unop, expression } => match unop {
                UnOp::Not(_) => self.tested(expression),
                UnOp::Hash(_) => self.harmless(expression),
                _ => {}
            },
            Expression::IfExpression(e) => {
                self.tested(e.condition());
                for else_if in e.else_if_expressions().into_iter().flatten() {
                    self.tested(else_if.condition());
                }
            }
            _ => {}
        }
    }

    fn visit_if(&mut self, statement: &If) {
        self.tested(statement.condition());
        // A branch may run only when a tool is there, tested in ways the check does not
        // follow (`tools.list`, `tools.toolboxes()`, `vfs.exists`).
        let branches = std::iter::once(statement.block())
            .chain(statement.else_if().into_iter().flatten().map(|e| e.block()))
            .chain(statement.else_block());
        for block in branches {
            if let Some(from) = start_of(block) {
                self.caught.push((from, end_of(block)));
            }
        }
    }

    fn visit_else_if(&mut self, statement: &ElseIf) {
        self.tested(statement.condition());
    }

    fn visit_while(&mut self, statement: &While) {
        self.tested(statement.condition());
    }

    fn visit_repeat(&mut self, statement: &Repeat) {
        self.tested(statement.until());
    }
}
