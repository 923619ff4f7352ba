//! What a script's syntax tree says about its tool calls and locals, for sorting the
//! checker's errors (see `verdict.rs`): where each call through `tools` is, which local
//! holds which tool's result where it can be seen, and which fields the script adds to a
//! result or tests for before it reads them.

use std::collections::{BTreeMap, BTreeSet};

use full_moon::ast::{Assignment, BinOp, Call, FunctionArgs, Index, UnOp, Var, VarExpression};
use full_moon::ast::{Block, Expression, FunctionBody, FunctionCall, LocalAssignment, Prefix};
use full_moon::ast::{ElseIf, Field, Suffix, While};
use full_moon::ast::{GenericFor, If, LocalFunction, NumericFor, Parameter, Repeat, Return};
use full_moon::node::Node;
use full_moon::tokenizer::{Symbol, TokenReference, TokenType};
use full_moon::visitors::{Visit, Visitor};

/// A place in the source: 1-based line and column.
pub(super) type Place = (u32, u32);

/// Where a script calls tools, read from its syntax tree.
#[derive(Debug, Default)]
pub(super) struct ToolCalls {
    /// Each call: its span, whether it is through `tools`, and the tool it names
    /// (`box.tool`), when it names one.
    pub(super) calls: Vec<(Place, Place, bool, Option<String>)>,
    /// Each function body (a function passed to a tool is checked as code of its own).
    pub(super) bodies: Vec<(Place, Place)>,
    /// Every local the script declares (parameters and loop variables too), with where it
    /// can be seen: a name bound to a tool's result in one function may be another
    /// table's in the next.
    bindings: Vec<Binding>,
    /// Fields read straight off a tool call (`tools.text.wordCount(s).chars`) or off a
    /// call of a helper that returns one (`count(s).chars`): where the read starts, the
    /// tool, the field, and the helper's local.
    direct: Vec<(Place, String, String, Option<String>)>,
    /// Fields the script may hold without its declared type saying so, by local and key:
    /// assigned (`r.source = ...`, `r.a["b"] = ...`: the last key), as a result's type is
    /// sealed though the script adds the field before it reads it; or tested for
    /// (`r.x or 0`, `if r.x ~= nil`, `not r.x`), as reading an absent field then fails
    /// nothing.
    settled: BTreeSet<(String, String)>,
    /// Locals whose fields may be anything, by name and where each was so used (which
    /// local of that name it was is known only there): written by a computed key (`r[k] =
    /// v`), or used as a value (`local copy = r`, `rawset(r, ...)`, `f(r)`), through which
    /// fields may be added where the checker does not look.
    opened: Vec<(String, Place)>,
    /// Names used where no field can be added through them: returned as they are
    /// (`return r`), tested (`if r then`, `r and r.x`, `not r`, `r ~= nil`) or measured
    /// (`#r`).
    harmless: BTreeSet<Place>,
    /// Where each enclosing block ends, innermost last: a local is seen until then.
    blocks: Vec<Place>,
    /// True when the script may add or change tools as it runs (`tools.create`,
    /// `tools.delete`, `tools.install`, `vfs.write`, `vfs.remove`): a tool may then be
    /// other than declared by the time it is called.
    pub(super) authors: bool,
    /// The span of the arguments each `pcall(f, ...)` or `xpcall(f, handler, ...)` passes
    /// on to a function it names (`f` a name or a field, not a call or a literal).
    pub(super) passed: Vec<(Place, Place)>,
    /// The calls made through a local naming a toolbox or tool (`text.slugify(s)` after
    /// `local text = tools.text`): which of `calls`, and the local. One the script may
    /// give another value is not a tool call for certain.
    aliased: Vec<(usize, String)>,
    /// Every string literal's text: a script that names a tool in a string
    /// (`tools.callable("extra.fancify")`, `tools.get("extra.fancify")`) looks it up for
    /// itself before it calls it.
    strings: BTreeSet<String>,
    /// Where a missing tool may be one the script probes for (see
    /// [`ToolCalls::in_caught`]): bodies of functions written into a `pcall` or `xpcall`
    /// (`pcall(function() ... end)`) or given to the script's own functions, and branches
    /// of an `if`.
    pub(super) caught: Vec<(Place, Place)>,
    /// Fields passed as they are to a function (`table.move(a, 1, n, 1, d.lines)`): the
    /// list they hold may be changed there.
    lent: BTreeSet<(String, String)>,
    /// True when the script writes a field by a computed key anywhere (`item[field] = v`):
    /// an element of a result's list may gain any field through a helper.
    computed_writes: bool,
    /// Locals bound to a field (`local v = c.sentences`), with the local and key it was
    /// read off: testing such a local (`if v then`) tests the field.
    copies: Vec<(String, (String, String))>,
    /// Locals tested as they are (`if v then`, `v == nil`, `not v`).
    tested_names: BTreeSet<String>,
    /// Fields of a local given a tool's result, by local, field and tool, and whether
    /// the local's table constructor gave it (`local ctx = { counts = tools.text.wordCount(s)
    /// }`) rather than an assignment (`ctx.counts = tools.text.wordCount(s)`).
    members: Vec<(String, String, String, bool)>,
    /// How many times the script assigns each field of a local (`ctx.counts = ...`).
    member_writes: BTreeMap<(String, String), usize>,
    /// Fields bound to a local as they are (`local c = ctx.counts`).
    copied: BTreeSet<(String, String)>,
    /// Calls whose arguments end in a spread the checker cannot count or type
    /// (`f(table.unpack(a))`, `f(...)`, `f(select(2, ...))`): judged at run time.
    pub(super) spread: Vec<(Place, Place)>,
}

/// One local: its name, from where to where it can be seen, and what it was bound to.
#[derive(Debug)]
struct Binding {
    name: String,
    from: Place,
    to: Place,
    holds: Holds,
}

/// What a local was bound to, as far as the checker's errors about it are concerned.
#[derive(Debug, Clone, Default)]
enum Holds {
    #[default]
    Other,
    /// A tool's result (`local r = tools.text.wordCount(s)`), or a part of one
    /// (`for _, l in ipairs(r.lines)`, `local lines = r.lines`), with the locals it was
    /// read through and the field read off each: the read is the result's only while each
    /// still holds what it was bound to and the field was not set by the script.
    Result {
        tool: String,
        through: Vec<(String, Option<String>)>,
    },
    /// A toolbox or tool of `tools` (`local text = tools.text`), by its names.
    Alias(Vec<String>),
    /// A function of the script that returns a tool's result as it is on every `return`
    /// (`local function count(s) return tools.text.wordCount(s) end`), by the tool.
    Helper(String),
    /// One of the values of a spread (`local text, opts = table.unpack(args)`): the checker
    /// gives it the union of the list's element types, which says nothing of this one.
    Spread,
}

/// The calls through which a script may add, change or remove tools while it runs.
pub(super) const AUTHORING: [&str; 6] = [
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
pub(super) fn may_author(call: &FunctionCall) -> bool {
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
pub(super) fn holds_an_authoring_function(expression: &Expression) -> bool {
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
    pub(super) fn read(ast: &full_moon::ast::Ast) -> ToolCalls {
        let mut calls = ToolCalls::default();
        calls.visit_ast(ast);
        // A local the script may give another value (or pass on, where it may be changed)
        // does not name its toolbox or tool for certain.
        for (at, local) in std::mem::take(&mut calls.aliased) {
            if calls.opened_here(&local, calls.calls[at].0) {
                calls.calls[at].2 = false;
                calls.calls[at].3 = None;
            }
        }
        for (local, field) in std::mem::take(&mut calls.copies) {
            if calls.tested_names.contains(&local) {
                calls.settled.insert(field);
            }
        }
        calls
    }

    /// True when the script may look up `key` (a toolbox or tool name) for itself before
    /// it calls it: it tests it (`if tools.extra then`), or names it in a string
    /// (`tools.callable("extra.fancify")`, `tools.get("extra.fancify")`).
    pub(super) fn looked_up(&self, key: &str) -> bool {
        let identity = |s: &str| {
            let parts: Vec<&str> = s.split('.').collect();
            parts.len() == 2
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
                && parts.contains(&key)
        };
        self.settled
            .contains(&("tools".to_string(), key.to_string()))
            || self.strings.iter().any(|s| s == key || identity(s))
    }

    /// True when `at` is inside a function written into a `pcall` or `xpcall`, or given to
    /// a function of the script's own (which may call it under `pcall`), or in a branch of
    /// an `if` (which may run only when a tool is there): a tool called there may be one
    /// the script probes for.
    pub(super) fn in_caught(&self, at: Place) -> bool {
        self.caught.iter().any(|(b, e)| *b <= at && at < *e)
    }

    /// The tool whose declared result lacks `key`, when the field read at `at` (a local's
    /// `word.key`, or straight off a call) is certain to be missing: the local seen there
    /// holds that tool's result, and the script neither adds `key` nor tests for it.
    /// `nested`: the read goes further down than `word.key` (`word.hunks[1].key`).
    pub(super) fn missing_from_result(
        &self,
        word: &str,
        key: &str,
        at: Place,
        nested: bool,
    ) -> Option<String> {
        // A script that writes tools may have changed this one's result (deleted and
        // written it again with a new field); the functions of `tools` do not change.
        let unchanged = |tool: &str| !self.authors || tool.starts_with("tools.");
        if let Some((_, tool, _, helper)) =
            self.direct.iter().find(|(p, _, k, _)| *p == at && k == key)
        {
            // A helper given another value may return anything.
            let kept = helper.as_ref().is_none_or(|h| !self.is_open(h));
            return (kept && unchanged(tool)).then(|| tool.clone());
        }
        if self.opened_here(word, at) || self.settled.contains(&(word.to_string(), key.to_string()))
        {
            return None;
        }
        let Holds::Result { tool, through } = &self.binding_at(word, at)?.holds else {
            return None;
        };
        if !unchanged(tool) {
            return None;
        }
        // An element of a list may have gained `key` through another loop's variable
        // (`for _, row in r.rows do row.key = ... end`), read through a local or down a
        // path (`r.rows[1].key`): any local given `key` will do, and so will a helper that
        // writes fields by a computed key (`item[field] = v`).
        if (nested || !through.is_empty())
            && (self.computed_writes || self.settled.iter().any(|(_, k)| k == key))
        {
            return None;
        }
        let kept = |(local, field): &(String, Option<String>)| {
            !self.is_open(local)
                && field.as_ref().is_none_or(|f| {
                    let field = (local.clone(), f.clone());
                    !self.settled.contains(&field) && !self.lent.contains(&field)
                })
        };
        through.iter().all(kept).then(|| tool.clone())
    }

    /// The tool whose result the field `field` of the local `local` holds, when the read
    /// `local.field.key` is certain to miss `key`: the script has one local of that name,
    /// gives the field the result once (in the local's table constructor or by one
    /// assignment), never passes the local or the field on, and neither adds `key` to
    /// any table nor tests for it.
    pub(super) fn missing_from_member(
        &self,
        local: &str,
        field: &str,
        key: &str,
    ) -> Option<String> {
        let (_, _, tool, constructed) = self
            .members
            .iter()
            .find(|(l, f, _, _)| l == local && f == field)?;
        let pair = (local.to_string(), field.to_string());
        let writes = self.member_writes.get(&pair).copied().unwrap_or(0);
        let sure = self.bindings.iter().filter(|b| b.name == local).count() == 1
            && writes == usize::from(!constructed)
            && !self.is_open(local)
            && !self.lent.contains(&pair)
            && !self.copied.contains(&pair)
            && !self.computed_writes
            && !self.settled.iter().any(|(_, k)| k == key)
            && (!self.authors || tool.starts_with("tools."));
        sure.then(|| tool.clone())
    }

    /// The tool whose result `value` is as it is: a call of it through `tools`, or of a
    /// helper that returns it (see [`Holds::Helper`]), at `at`.
    fn result_of(&self, value: &Expression, at: Place) -> Option<String> {
        let Expression::FunctionCall(call) = unwrapped(value) else {
            return None;
        };
        if !only_called(call) {
            return None;
        }
        match self.tool_call(call) {
            (true, tool, None) => tool,
            (true, _, Some(_)) => None,
            _ => self
                .helper_call(call.prefix(), call.suffixes(), at)
                .map(|(tool, _)| tool),
        }
    }

    /// True when the local `word` seen at `at` holds a tool's whole result as it was
    /// returned (not a part of it) and is used as a value nowhere but at `at`.
    pub(super) fn holds_a_whole_result(&self, word: &str, at: Place) -> bool {
        // Called straight, or through a helper or a local naming the tool (each still
        // what it was bound to), never read off another table.
        let called = |local: &str| {
            !self.is_open(local)
                && matches!(
                    self.binding_at(local, at).map(|b| &b.holds),
                    Some(Holds::Helper(_) | Holds::Alias(_))
                )
        };
        let whole = matches!(
            self.binding_at(word, at).map(|b| &b.holds),
            Some(Holds::Result { through, .. })
                if through.iter().all(|(local, field)| field.is_none() && called(local))
        );
        whole
            && self.opened.iter().all(|(n, p)| n != word || *p == at)
            && !self.settled.iter().any(|(n, _)| n == word)
    }

    /// Notes `name` as used in a way that may change what it holds (see `open`).
    fn opened(&mut self, name: &TokenReference) {
        let at = start_of(name).unwrap_or_default();
        self.opened.push((name.token().to_string(), at));
    }

    /// True when a local named `name`, any of them, is so used (see `opened`).
    fn is_open(&self, name: &str) -> bool {
        self.opened.iter().any(|(n, _)| n == name)
    }

    /// True when the local `name` seen at `at` is so used somewhere: a local of the same
    /// name in another function or block is another local.
    fn opened_here(&self, name: &str, at: Place) -> bool {
        let span = |b: Option<&Binding>| b.map(|b| (b.from, b.to));
        let here = span(self.binding_at(name, at));
        self.opened
            .iter()
            .any(|(n, p)| n == name && span(self.binding_at(name, *p)) == here)
    }

    /// The local `name` seen at `at`: the innermost one declared before it.
    /// True when `word`, seen at `at`, is a local bound from a spread
    /// (`local text, opts = table.unpack(args)`).
    pub(super) fn spread_local(&self, word: Option<&str>, at: Place) -> bool {
        word.and_then(|w| self.binding_at(w, at))
            .is_some_and(|b| matches!(b.holds, Holds::Spread))
    }

    fn binding_at(&self, name: &str, at: Place) -> Option<&Binding> {
        self.bindings
            .iter()
            .filter(|b| b.name == name && b.from < at && at <= b.to)
            .max_by_key(|b| b.from)
    }

    /// Marks `body` as a function whose errors may be caught.
    fn catches(&mut self, body: &FunctionBody) {
        if let Some(from) = start_of(body) {
            self.caught.push((from, end_of(body)));
        }
    }

    fn bind(&mut self, name: &TokenReference, from: Place, to: Place, holds: Holds) {
        self.bindings.push(Binding {
            name: name.token().to_string(),
            from,
            to,
            holds,
        });
    }

    /// Whether `call` is a tool call, through `tools` or through a local naming a toolbox
    /// or tool, and the tool it names (see [`named_by`]); with the local, for the latter.
    fn tool_call(&self, call: &FunctionCall) -> (bool, Option<String>, Option<String>) {
        if is_tools_call(call) {
            return (true, named_tool(call), None);
        }
        self.alias_call(call.prefix(), call.suffixes(), start_of(call))
    }

    /// Like [`ToolCalls::tool_call`] for a call through a local that names a toolbox or
    /// tool (`text.slugify(s)` after `local text = tools.text`), starting at `at`.
    fn alias_call<'a>(
        &self,
        prefix: &Prefix,
        suffixes: impl Iterator<Item = &'a Suffix>,
        at: Option<Place>,
    ) -> (bool, Option<String>, Option<String>) {
        let Prefix::Name(name) = prefix else {
            return (false, None, None);
        };
        let local = name.token().to_string();
        let alias = at.and_then(|at| match &self.binding_at(&local, at)?.holds {
            Holds::Alias(names) => Some(names.clone()),
            _ => None,
        });
        match alias {
            Some(names) => (true, named_from(names, suffixes), Some(local)),
            None => (false, None, None),
        }
    }

    /// What a local bound to `value` holds, read where the binding is made (`at`).
    fn held_by(&self, value: &Expression, at: Place) -> Holds {
        match unwrapped(value) {
            Expression::FunctionCall(call) => match self.tool_call(call) {
                (true, Some(tool), via) => Holds::Result {
                    tool,
                    through: via.map(|local| (local, None)).into_iter().collect(),
                },
                _ => match self.helper_call(call.prefix(), call.suffixes(), at) {
                    Some((tool, helper)) if call.suffixes().count() == 1 => Holds::Result {
                        tool,
                        through: vec![(helper, None)],
                    },
                    _ => Holds::Other,
                },
            },
            Expression::Function(function) => self.helper(function.body()),
            Expression::Var(Var::Expression(var)) => self.part_of(var, at),
            _ => Holds::Other,
        }
    }

    /// The tool and the local, when `prefix` and the first of `suffixes` call a helper
    /// of the script that returns a tool's result (see [`Holds::Helper`]), at `at`.
    fn helper_call<'a>(
        &self,
        prefix: &Prefix,
        mut suffixes: impl Iterator<Item = &'a Suffix>,
        at: Place,
    ) -> Option<(String, String)> {
        let Prefix::Name(name) = prefix else {
            return None;
        };
        if !matches!(suffixes.next(), Some(Suffix::Call(Call::AnonymousCall(_)))) {
            return None;
        }
        let local = name.token().to_string();
        match &self.binding_at(&local, at)?.holds {
            Holds::Helper(tool) => Some((tool.clone(), local)),
            _ => None,
        }
    }

    /// Notes a field read straight off a call of a helper that returns a tool's result
    /// (`count(s).words`, `parts(u).host:lower()`), written as `prefix` and `suffixes`
    /// from `at`.
    fn read_off_helper(&mut self, prefix: &Prefix, suffixes: &[&Suffix], at: Option<Place>) {
        let key = suffixes.get(1).and_then(|s| literal_key(s));
        let (Some(at), Some(key)) = (at, key) else {
            return;
        };
        if let Some((tool, local)) = self.helper_call(prefix, suffixes.iter().copied(), at) {
            self.direct.push((at, tool, key, Some(local)));
        }
    }

    /// What a function with this body is as a value: a helper when each `return` in it
    /// (not in functions inside it) gives one call of the same tool through `tools`, as
    /// it is. (Not through a local naming the tool: the local may be given another
    /// function before the helper is called.)
    fn helper(&self, body: &FunctionBody) -> Holds {
        let mut returns = Returns::default();
        body.block().visit(&mut returns);
        let mut tools = returns.values.iter().map(|values| match values.as_slice() {
            [Expression::FunctionCall(call)] if only_called(call) => match self.tool_call(call) {
                (true, Some(tool), None) => Some(tool),
                _ => None,
            },
            _ => None,
        });
        let Some(Some(first)) = tools.next() else {
            return Holds::Other;
        };
        match tools.all(|t| t.as_ref() == Some(&first)) {
            true => Holds::Helper(first),
            false => Holds::Other,
        }
    }

    /// What `var` reads, at `at`: a toolbox or tool of `tools` (`tools.text`), a part of
    /// a tool's result read off the call (`tools.text.lineDiff(a, b).lines`), or a part of
    /// a result a local holds (`r.lines`).
    fn part_of(&self, var: &VarExpression, at: Place) -> Holds {
        let Prefix::Name(root) = var.prefix() else {
            return Holds::Other;
        };
        let suffixes: Vec<&Suffix> = var.suffixes().collect();
        if is_tools(var.prefix()) {
            if let Some(call) = suffixes.iter().position(|s| matches!(s, Suffix::Call(_))) {
                return match named_by(suffixes[..=call].iter().copied()) {
                    Some(tool)
                        if suffixes[call + 1..]
                            .iter()
                            .all(|s| literal_key(s).is_some()) =>
                    {
                        Holds::Result {
                            tool,
                            through: Vec::new(),
                        }
                    }
                    _ => Holds::Other,
                };
            }
            let names: Option<Vec<String>> = suffixes.iter().map(|s| literal_key(s)).collect();
            return match names {
                Some(names) if (1..=2).contains(&names.len()) => Holds::Alias(names),
                _ => Holds::Other,
            };
        }
        let keys: Option<Vec<String>> = suffixes.iter().map(|s| literal_key(s)).collect();
        let root = root.token().to_string();
        match (keys, self.binding_at(&root, at).map(|b| &b.holds)) {
            (Some(keys), Some(Holds::Result { tool, through })) => {
                let mut through = through.clone();
                through.push((root, keys.last().cloned()));
                Holds::Result {
                    tool: tool.clone(),
                    through,
                }
            }
            _ => Holds::Other,
        }
    }

    /// What the value of a `for` loop over a tool's result list holds: an element of that
    /// result (`for _, l in ipairs(d.lines)`, `pairs(...)`, or `in d.lines`).
    fn element_of(&mut self, gf: &GenericFor, at: Place) -> Holds {
        let mut expressions = gf.expressions().iter();
        let (Some(expression), None) = (expressions.next(), expressions.next()) else {
            return Holds::Other;
        };
        let iterated = iterated_by(expression).unwrap_or(expression);
        if let Expression::Var(Var::Name(name)) = unwrapped(iterated) {
            // Iterating a result adds no field to it.
            self.harmless(iterated);
            let local = name.token().to_string();
            return match self.binding_at(&local, at).map(|b| &b.holds) {
                Some(Holds::Result { tool, through }) => {
                    let mut through = through.clone();
                    through.push((local, None));
                    Holds::Result {
                        tool: tool.clone(),
                        through,
                    }
                }
                _ => Holds::Other,
            };
        }
        self.held_by(iterated, at)
    }

    /// Notes a presence test of `expression`: of a field (`r.x` in `r.x or 0`), or of a
    /// local (`r` in `if r then`), which is not a use that adds fields.
    fn tested(&mut self, expression: &Expression) {
        if !self.settle(expression) {
            self.harmless(expression);
            if let Expression::Var(Var::Name(name)) = unwrapped(expression) {
                self.tested_names.insert(name.token().to_string());
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
            self.settled.insert(field);
        }
        true
    }

    /// Notes `expression`, when it is a bare name, as a use that adds no field to it.
    fn harmless(&mut self, expression: &Expression) {
        if let Expression::Var(Var::Name(name)) = unwrapped(expression) {
            if let Some(at) = start_of(name) {
                self.harmless.insert(at);
            }
        }
    }
}

/// The values of each `return` in a block, not in the functions inside it.
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

pub(super) fn place(position: full_moon::tokenizer::Position) -> Place {
    (position.line() as u32, position.character() as u32)
}

fn start_of(node: &impl Node) -> Option<Place> {
    node.start_position().map(place)
}

fn end_of(node: &impl Node) -> Place {
    node.end_position().map_or(END, place)
}

/// The tool that calling through these `tools` suffixes names: `box.tool` for
/// `tools.box.tool(...)` and `tools.box:tool(...)`, `tools.fn` for a function of `tools`
/// itself.
fn named_by<'a>(suffixes: impl Iterator<Item = &'a Suffix>) -> Option<String> {
    named_from(Vec::new(), suffixes)
}

/// Like [`named_by`], after the names of `tools` a local stands for (`["text"]` for
/// `local text = tools.text`).
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

/// The tool a call through `tools` names (see [`named_by`]).
fn named_tool(call: &FunctionCall) -> Option<String> {
    is_tools(call.prefix())
        .then(|| named_by(call.suffixes()))
        .flatten()
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
pub(super) fn called_name(call: &FunctionCall) -> Option<String> {
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

/// True for a call through `tools` (`tools.box.tool(...)`, `tools.box:tool(...)`).
fn is_tools_call(call: &FunctionCall) -> bool {
    is_tools(call.prefix())
        && call.suffixes().any(|s| {
            // `f(...)`, `f{ ... }`, `f"..."` and `box:f(...)`.
            matches!(
                s,
                Suffix::Call(Call::AnonymousCall(_)) | Suffix::Call(Call::MethodCall(_))
            )
        })
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
                        self.lent.insert(field);
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
        // `parts(u).hostname:lower()`, `parts` a helper that returns a tool's result.
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        self.read_off_helper(call.prefix(), &suffixes, start_of(call));
        let (tools, tool, alias) = self.tool_call(call);
        if let (Some(start), Some(end)) = (call.start_position(), call.end_position()) {
            if arguments_of(call).last().is_some_and(|a| spreads(a)) {
                self.spread.push((place(start), place(end)));
            }
            if let Some(local) = alias {
                self.aliased.push((self.calls.len(), local));
            }
            self.calls.push((place(start), place(end), tools, tool));
        }
    }

    fn visit_function_body(&mut self, body: &FunctionBody) {
        let (Some(from), to) = (start_of(body), end_of(body)) else {
            return;
        };
        self.bodies.push((from, to));
        for parameter in body.parameters() {
            if let Parameter::Name(name) = parameter {
                self.bind(name, from, to, Holds::Other);
            }
        }
    }

    fn visit_local_function(&mut self, function: &LocalFunction) {
        let Some(from) = start_of(function) else {
            return;
        };
        let to = self.blocks.last().copied().unwrap_or(END);
        let holds = self.helper(function.body());
        self.bind(function.name(), from, to, holds);
    }

    fn visit_numeric_for(&mut self, nf: &NumericFor) {
        if let Some(from) = start_of(nf) {
            self.bind(nf.index_variable(), from, end_of(nf), Holds::Other);
        }
    }

    fn visit_generic_for(&mut self, gf: &GenericFor) {
        let Some(from) = start_of(gf) else { return };
        let element = self.element_of(gf, from);
        for (at, name) in gf.names().iter().enumerate() {
            // The key (or index) is the first name; the value the second.
            let holds = if at == 1 {
                element.clone()
            } else {
                Holds::Other
            };
            self.bind(name, from, end_of(gf), holds);
        }
    }

    fn visit_local_assignment(&mut self, local: &LocalAssignment) {
        let to = self.blocks.last().copied().unwrap_or(END);
        let mut values = local.expressions().iter();
        for name in local.names() {
            let Some(from) = start_of(name) else {
                continue;
            };
            let value = values.next();
            if let Some(Expression::Var(Var::Expression(var))) = value.map(unwrapped) {
                if let Some(field) = field_of(var) {
                    self.copied.insert(field.clone());
                    self.copies.push((name.token().to_string(), field));
                }
            }
            if let Some(Expression::TableConstructor(table)) = value.map(unwrapped) {
                for field in table.fields() {
                    let (key, value) = match field {
                        Field::NameKey { key, value, .. } => (key.token().to_string(), value),
                        _ => continue,
                    };
                    if let Some(tool) = self.result_of(value, from) {
                        let local = name.token().to_string();
                        self.members.push((local, key, tool, true));
                    }
                }
            }
            // A name past the last value takes the spread's further values.
            let holds = match value {
                Some(value) if spreads(value) => Holds::Spread,
                Some(value) => self.held_by(value, from),
                None if local.expressions().iter().last().is_some_and(spreads) => Holds::Spread,
                None => Holds::Other,
            };
            self.bind(name, from, to, holds);
        }
    }

    fn visit_assignment(&mut self, assignment: &Assignment) {
        let values: Vec<&Expression> = assignment.expressions().iter().collect();
        for (i, var) in assignment.variables().iter().enumerate() {
            if let Var::Expression(var) = var {
                let mut suffixes = var.suffixes();
                let key = suffixes.next().and_then(literal_key);
                if let (Prefix::Name(root), Some(key), None) = (var.prefix(), key, suffixes.next())
                {
                    let local = root.token().to_string();
                    *self
                        .member_writes
                        .entry((local.clone(), key.clone()))
                        .or_default() += 1;
                    let at = start_of(var).unwrap_or_default();
                    if let Some(tool) = values.get(i).and_then(|v| self.result_of(v, at)) {
                        self.members.push((local, key, tool, false));
                    }
                }
            }
        }
        for var in assignment.variables() {
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
            match var.suffixes().last().and_then(literal_key) {
                Some(key) => {
                    self.settled.insert((root.token().to_string(), key));
                }
                None => {
                    self.opened(root);
                    // `out[#out + 1] = v` and `out[3] = v` append or place a value; any
                    // other key may name a field.
                    self.computed_writes |= !var.suffixes().last().is_some_and(places_a_value);
                }
            }
        }
    }

    fn visit_var_expression(&mut self, var: &VarExpression) {
        let suffixes: Vec<&Suffix> = var.suffixes().collect();
        let Some(call) = suffixes.iter().position(|s| matches!(s, Suffix::Call(_))) else {
            return;
        };
        // `tools.box.tool(...).key` holds a call of its own, which the syntax tree keeps
        // as a suffix rather than a call: what is wrong in its arguments is the tool's.
        let start = start_of(var);
        let through_tools = is_tools(var.prefix());
        let (tools, tool, alias) = if through_tools {
            (true, named_by(suffixes[..=call].iter().copied()), None)
        } else {
            self.alias_call(var.prefix(), suffixes[..=call].iter().copied(), start)
        };
        if !tools {
            // `count(s).words`, `count` a helper that returns a tool's result.
            self.read_off_helper(var.prefix(), &suffixes, start);
            return;
        }
        let Some(from) = start else {
            return;
        };
        if let Some(local) = alias {
            self.aliased.push((self.calls.len(), local));
        }
        self.calls
            .push((from, end_of(suffixes[call]), tools, tool.clone()));
        // The first key after the call, read straight off `tools.box.tool(...)`.
        let key = suffixes.get(call + 1).and_then(|s| literal_key(s));
        let (true, Some(tool), Some(key)) = (through_tools, tool, key) else {
            return;
        };
        self.direct.push((from, tool, key, None));
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
                if start_of(name).is_none_or(|at| !self.harmless.contains(&at)) =>
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::with_luau;

    fn read(source: &str) -> ToolCalls {
        with_luau(source, ToolCalls::read).unwrap()
    }

    #[test]
    fn a_result_is_its_local_where_that_local_is_seen() {
        let calls = read(
            "local function count(s)\n\tlocal r = tools.text.wordCount(s)\n\treturn r.words\nend\n\
             local function defaults()\n\tlocal r = { limit = 10 }\n\treturn r.offset\nend\n",
        );
        assert_eq!(
            calls.missing_from_result("r", "nope", (3, 9), false),
            Some("text.wordCount".to_string())
        );
        assert_eq!(
            calls.missing_from_result("r", "offset", (7, 9), false),
            None
        );
    }

    #[test]
    fn a_helper_that_returns_a_tools_result_gives_that_result() {
        let helper = "local function count(s)\n\treturn tools.text.wordCount(s)\nend\n";
        let tool = Some("text.wordCount".to_string());
        let source = format!("{helper}local c = count(x)\nreturn c.nope, count(y).nope\n");
        let calls = read(&source);
        assert_eq!(calls.missing_from_result("c", "nope", (5, 8), false), tool);
        assert_eq!(
            calls.missing_from_result("count", "nope", (5, 16), true),
            tool
        );
        let literal = "local count = function(s) return tools.text.wordCount(s) end\n\
                       return count(y).nope\n";
        assert_eq!(
            read(literal).missing_from_result("count", "nope", (2, 8), true),
            tool
        );
        // A helper that may return another table, or given another value, or a result
        // given the field.
        for (source, at) in [
            ("local function count(s)\n\tif s == '' then return {} end\n\treturn tools.text.wordCount(s)\nend\nlocal c = count(x)\nreturn c.nope\n", (6, 8)),
            ("local function count(s)\n\treturn tools.text.wordCount(s).words\nend\nlocal c = count(x)\nreturn c.nope\n", (5, 8)),
            (&format!("{helper}count = other\nlocal c = count(x)\nreturn c.nope\n"), (6, 8)),
            (&format!("{helper}local c = count(x)\nc.nope = 1\nreturn c.nope\n"), (6, 8)),
            // Through a local naming the tool, which may be given another function first.
            ("local wc = tools.text.wordCount\nlocal function count(s)\n\treturn wc(s)\nend\nlocal c = count(x)\nreturn c.nope\n", (6, 8)),
        ] {
            assert_eq!(read(source).missing_from_result("c", "nope", at, false), None, "{source}");
        }
        let reassigned = format!("{helper}count = other\nreturn count(y).nope\n");
        assert_eq!(
            read(&reassigned).missing_from_result("count", "nope", (5, 8), true),
            None
        );
    }

    #[test]
    fn a_field_given_a_tools_result_holds_it() {
        let head = "local ctx = { counts = tools.text.wordCount(s) }\nlocal info = {}\n\
                    info.v = tools.semver.parse(v)\n";
        let source = format!("{head}return ctx.counts.nope, info.v.nope\n");
        let calls = read(&source);
        let counts = Some("text.wordCount".to_string());
        assert_eq!(calls.missing_from_member("ctx", "counts", "nope"), counts);
        assert_eq!(
            calls.missing_from_member("info", "v", "nope"),
            Some("semver.parse".to_string())
        );
        // The field given another value, passed on, copied or given the key; the table
        // passed on.
        for after in [
            "ctx.counts = {}",
            "local c = ctx.counts",
            "f(ctx.counts)",
            "f(ctx)",
            "ctx.counts.nope = 1",
            "x.nope = 1",
            "local ctx = {}",
        ] {
            let source = format!("{head}{after}\nreturn ctx.counts.nope\n");
            assert_eq!(
                read(&source).missing_from_member("ctx", "counts", "nope"),
                None,
                "{after}"
            );
        }
        let twice = format!("{head}info.v = other\nreturn info.v.nope\n");
        assert_eq!(read(&twice).missing_from_member("info", "v", "nope"), None);
    }

    #[test]
    fn a_field_read_off_the_call_is_the_tools() {
        let calls = read("return tools.url.parse(u).hostname\n");
        assert_eq!(
            calls.missing_from_result("tools", "hostname", (1, 8), false),
            Some("url.parse".to_string())
        );
    }

    #[test]
    fn fields_added_tested_or_reachable_another_way_are_not_certain() {
        let added = "local r = tools.text.wordCount(s)\nr.note = 1\nreturn r.note\n";
        assert_eq!(
            read(added).missing_from_result("r", "note", (3, 8), false),
            None
        );
        let tested = "local c = tools.text.wordCount(s)\nreturn c.sentences or 0\n";
        assert_eq!(
            read(tested).missing_from_result("c", "sentences", (2, 8), false),
            None
        );
        let aliased = "local r = tools.text.wordCount(s)\nlocal copy = r\nreturn r.note\n";
        assert_eq!(
            read(aliased).missing_from_result("r", "note", (3, 8), false),
            None
        );
        let replaced = "local r = tools.text.wordCount(s)\nr = { limit = 1 }\nreturn r.offset\n";
        assert_eq!(
            read(replaced).missing_from_result("r", "offset", (3, 8), false),
            None
        );
        // Shown, it keeps its fields; given to a function or kept by `assert`, it may not.
        let shown = "local r = tools.text.wordCount(s)\nprint(r)\nreturn r.note\n";
        assert_eq!(
            read(shown).missing_from_result("r", "note", (3, 8), false),
            Some("text.wordCount".to_string())
        );
        for given in ["f(r)", "local t = assert(r)", "table.sort(r)"] {
            let source = format!("local r = tools.text.wordCount(s)\n{given}\nreturn r.note\n");
            assert_eq!(
                read(&source).missing_from_result("r", "note", (3, 8), false),
                None,
                "{given}"
            );
        }
        let tested_whole = "local m = tools.get(x)\nif m then return m.params end\n";
        assert_eq!(
            read(tested_whole).missing_from_result("m", "params", (2, 18), false),
            Some("tools.get".to_string())
        );
    }

    #[test]
    fn a_write_of_a_data_file_does_not_count_as_writing_tools() {
        for (script, authors) in [
            ("vfs.write('report.txt', s)", false),
            ("vfs.write(\"out/\" .. name .. \".csv\", s)", false),
            ("vfs.write(`out/{name}.json`, s)", false),
            ("vfs.remove 'notes.md'", false),
            ("vfs.write('mine.toolbox/a.tool/init.luau', s)", true),
            ("vfs.write(box .. '.toolbox/README.md', s)", true),
            ("vfs.write(dir .. '/init.luau', s)", true),
            ("vfs.write(path, s)", true),
            ("vfs.write(`{box}.toolbox/{name}.tool/notes.txt`, s)", true),
            ("vfs.write(name .. '.md', s)", true),
            ("vfs.write(`{name}`, s)", true),
            ("tools.create(spec)", true),
            // Writers reached by a key, and tool paths spelt in pieces or escapes.
            ("vfs['write']('mine.toolbox/a.tool/init.luau', s)", true),
            ("vfs[op]('notes.txt', s)", true),
            ("tools[how](spec)", true),
            ("tools[b].slugify(s)", false),
            ("vfs.write('mine.' .. 'toolbox/README.md', s)", true),
            ("vfs.write('mine\\x2etoolbox/README.md', s)", true),
            ("loadstring(src)()", true),
            ("_G.tools.create(spec)", true),
            ("local t = _G", true),
        ] {
            assert_eq!(read(script).authors, authors, "{script}");
        }
    }

    #[test]
    fn a_local_naming_a_toolbox_or_tool_calls_it() {
        let named = |source: &str| -> Vec<Option<String>> {
            let calls = read(source);
            calls
                .calls
                .iter()
                .filter(|c| c.2)
                .map(|c| c.3.clone())
                .collect()
        };
        assert_eq!(
            named("local text = tools.text\nreturn text.slugfy(s)\n"),
            vec![Some("text.slugfy".to_string())]
        );
        assert_eq!(
            named("local cmp = tools.semver.compare\nreturn cmp(a)\n"),
            vec![Some("semver.compare".to_string())]
        );
        // Given another value, or shadowed, the local names no tool for certain.
        assert!(named("local text = tools.text\ntext = other\nreturn text.slugfy(s)\n").is_empty());
        assert!(named("local text = tools.text\ndo local text = x\ntext.f() end\n").is_empty());
        // Another local of the same name, given another value, leaves this one naming its
        // toolbox.
        let other = "local text = tools.text\nlocal function f()\nlocal text = ''\ntext = text .. 'x'\nend\nreturn text.slugfy(s)\n";
        assert_eq!(named(other), vec![Some("text.slugfy".to_string())]);
    }

    #[test]
    fn an_element_of_a_result_list_is_the_tools_result() {
        let head = "local d = tools.text.lineDiff(a, b)\n";
        let read_at = |rest: &str| {
            let source = format!("{head}{rest}");
            read(&source).missing_from_result("l", "kind", (2, 38), false)
        };
        let tool = Some("text.lineDiff".to_string());
        assert_eq!(
            read_at("for _, l in ipairs(d.lines) do print(l.kind) end\n"),
            tool
        );
        assert_eq!(read_at("for _, l in d.lines do print(l.kind) end\n"), tool);
        // The list was changed, or its elements given the field, another way.
        for after in [
            "d.lines = {}\n",
            "table.insert(d.lines, x)\n",
            "for _, row in d.lines do row.kind = 1 end\n",
            "local copy = d\n",
        ] {
            assert_eq!(
                read_at(&format!(
                    "for _, l in ipairs(d.lines) do print(l.kind) end\n{after}"
                )),
                None,
                "{after}"
            );
        }
    }
}
