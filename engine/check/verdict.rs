//! What the checker's diagnostics mean for a run: which stop it before it starts and
//! which are only reported.
//!
//! A script is mostly dynamic Luau, where strict mode's complaints (an untyped table, a
//! value that might be nil) are often wrong about what happens. What is certain is a
//! mistake at a tool call, where the declarations are exact: the toolbox or tool does not
//! exist, the call has the wrong arguments, or a field read from the tool's declared
//! result is not in it. Those are found by where the error is (inside a `tools...(...)`
//! call, outside any function passed to it; or on a local the script bound to a tool's
//! result), read from the syntax tree.

use super::script::{Place, ToolCalls};
use super::{Counted, Diagnostic, Extension, KeyOwner, Kind, Mode, Severity};
use crate::assets::with_luau;
use crate::types::Ty;

/// The checker's diagnostics, sorted for a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Verdict {
    /// The error that stops the run, and the tool (`box.tool`) whose call it is at, when
    /// it is at one.
    pub stop: Option<(Diagnostic, Option<String>)>,
    /// What is reported beside the run (the stopping error is not repeated here).
    pub report: Vec<Diagnostic>,
}

impl Verdict {
    /// Puts a misspelt field of a table literal given to `tool` (codemode's own finding)
    /// after the checker's certain errors, which read further into the script; but at the
    /// same tool, first: the misspelt field is the cause and says more ("did you mean
    /// \"name\"?" where the checker says the literal lacks `name`).
    pub(crate) fn misspelt_field(&mut self, diagnostic: Diagnostic, tool: String, mode: Mode) {
        let same_tool = matches!(&self.stop, Some((_, Some(t))) if *t == tool);
        if (self.stop.is_none() || same_tool) && mode != Mode::Warn {
            if let Some((replaced, _)) = self.stop.replace((diagnostic, Some(tool))) {
                self.report.push(replaced);
            }
        } else {
            self.report.push(diagnostic);
        }
    }

    /// Drops a mismatch given `name` at (`line`, `column`) for each of `fitting`: a local
    /// that holds a literal whose every field is declared and of its kind, passed where a
    /// table type is wanted ("Expected this to be '{ sep: string? }?', but got 'opts'"):
    /// Luau's tables are invariant in their fields, and the call takes it.
    pub(crate) fn drop_fitting(&mut self, fitting: &[(String, u32, u32)]) {
        self.report.retain(|d| {
            !fitting.iter().any(|(name, line, column)| {
                (d.line, d.column) == (*line, *column)
                    && matches!(&d.kind, Kind::Mismatch { given, .. } if given == name)
            })
        });
    }
}

/// An error the checker found that may stop a run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Certain {
    /// What the checker said.
    pub diagnostic: Diagnostic,
    /// The tool (`box.tool`, or `tools.<function>`) whose call or result it is about, when
    /// it is about one.
    pub tool: Option<String>,
    /// A tool or toolbox this world lacks, called inside a function given to `pcall` or
    /// `xpcall` (or to a function of the script's own): the script may be probing for an
    /// optional tool, so it is certain only when the name is a slip for one the world has
    /// (see [`Known::near`]).
    pub probe: bool,
}

/// What the world says of the tool (`box.tool`, a toolbox, or `tools.<function>`) a
/// certain error is about: plain data the runtime reads off its registry, from which
/// [`judge`] decides whether the error stops the run.
#[derive(Debug, Clone, Default)]
pub(crate) struct Known {
    /// The toolbox is an MCP server's, whose catalogue may be stale: a tool it lacks or an
    /// argument it types otherwise may be right by now.
    pub stale: bool,
    /// The profile denies the call, or the tool exists but cannot be called: it is not
    /// declared, so the checker calls it unknown, and the run's own error says why.
    pub fails_at_run_time: bool,
    /// True when the world has the toolbox.
    pub has_toolbox: bool,
    /// The names a missing one may be a slip for: the world's toolboxes when it lacks
    /// the toolbox, else the toolbox's callable tools.
    pub near: Vec<String>,
}

/// Sorts `diagnostics` of `source` under `mode`. `session` is true for REPL entries,
/// whose globals come from earlier entries the checker does not see: unknown globals are
/// not reported for them. `known` says what the world knows of a tool a certain error is
/// about (see [`Known`]); the first certain error that stops the run is the one that
/// does (the others are reported).
pub(crate) fn judge(
    source: &str,
    diagnostics: Vec<Diagnostic>,
    mode: Mode,
    session: bool,
    known: impl Fn(&str) -> Known,
) -> Verdict {
    let mut verdict = Verdict::default();
    if mode == Mode::Off {
        return verdict;
    }
    let (certain, others) = sort(source, diagnostics, session);
    let mut stop = None;
    for found in certain {
        if stop.is_none() && mode != Mode::Warn && stops(&found, &known) {
            stop = Some((found.diagnostic, found.tool));
        } else {
            verdict.report.push(found.diagnostic);
        }
    }
    let mut others = others;
    if mode == Mode::Strict && stop.is_none() {
        if let Some(at) = others.iter().position(|d| d.severity == Severity::Error) {
            stop = Some((others.remove(at), None));
        }
    }
    verdict.report.extend(others);
    verdict.report.sort_by_key(|d| (d.line, d.column));
    verdict.stop = stop;
    verdict
}

/// True when a certain error stops the run, given what the world knows of its tool.
fn stops(found: &Certain, known: impl Fn(&str) -> Known) -> bool {
    let Some(tool) = found.tool.as_deref() else {
        return true;
    };
    let known = known(tool);
    // An MCP server's tools take one table of named arguments, whatever its catalogue
    // says, and refuse anything else at run time. An API's operations are read from its
    // description as it is: exact.
    if (known.stale && !not_one_table(&found.diagnostic.kind)) || known.fails_at_run_time {
        return false;
    }
    // A call inside `pcall(function() ... end)` of a tool this world lacks may look for
    // an optional one; a name one slip away from a real one is a misspelling all the
    // same, which pcall would only hide.
    let (toolbox, name) = tool.split_once('.').unwrap_or((tool, ""));
    let wanted = if known.has_toolbox { name } else { toolbox };
    !found.probe || (!wanted.is_empty() && known.near.iter().any(|n| slip(wanted, n)))
}

/// True when `wanted` is `real` misspelt the way fingers slip: another case, two
/// neighbouring characters swapped, or one character left out or added inside the name
/// (the shorter of the two four characters or more). A character changed for another
/// makes a name of its own too often (`parseTsv` for `parseCsv`, `sha224` for `sha256`,
/// `test` for `text`), and so does a name that extends the other at either end
/// (`slugify2`, `unescape`, `email`).
pub(crate) fn slip(wanted: &str, real: &str) -> bool {
    let (wanted, real) = (wanted.to_lowercase(), real.to_lowercase());
    if wanted == real {
        return true;
    }
    if wanted.starts_with(&real)
        || real.starts_with(&wanted)
        || wanted.ends_with(&real)
        || real.ends_with(&wanted)
    {
        return false;
    }
    let (w, r): (Vec<char>, Vec<char>) = (wanted.chars().collect(), real.chars().collect());
    if w.len() == r.len() {
        // One swap of neighbours, and nothing else.
        let differ: Vec<usize> = (0..w.len()).filter(|&i| w[i] != r[i]).collect();
        return matches!(differ.as_slice(), [i, j] if *j == i + 1 && w[*i] == r[*j] && w[*j] == r[*i]);
    }
    let (short, long) = if w.len() < r.len() {
        (&w, &r)
    } else {
        (&r, &w)
    };
    if long.len() != short.len() + 1 || short.len() < 4 {
        return false;
    }
    // One character more in the longer, anywhere.
    (0..long.len()).any(|skip| {
        long.iter()
            .enumerate()
            .filter(|(i, _)| *i != skip)
            .map(|(_, c)| c)
            .eq(short.iter())
    })
}

/// Splits `diagnostics` into the errors that are certain (each with the tool whose call
/// it is at, when at one) and the rest, in source order.
///
/// Some of what the checker says is dropped, because it costs an agent's context and
/// helps it fix nothing: lints about style ([`NOISE`]), the lint about comment directives
/// (codemode's docstrings, `--!desc`, look like them), and an error in the arguments a
/// `pcall(f, ...)` passes on to `f` that may well hold at run time (the solver infers
/// `f`'s parameters through `pcall`'s generics and refuses a table literal that fits).
/// Any other error there is reported as a warning: `pcall` catches what it raises.
pub(crate) fn sort(
    source: &str,
    diagnostics: Vec<Diagnostic>,
    session: bool,
) -> (Vec<Certain>, Vec<Diagnostic>) {
    // When Luau's solver gives up on a script (too long or too tangled for its limits),
    // what it says besides is about its own unfinished reasoning (`*blocked-155*` types,
    // internal errors asking for a bug report), not the script: nothing is certain, and
    // one note says so where thousands of such errors would have been.
    if diagnostics.iter().any(|d| d.kind == Kind::GaveUp) {
        return (Vec::new(), unfinished(diagnostics));
    }
    // Read only when there is an error to place; a deep tree on the indexing threads,
    // whose stacks hold the deepest one the parse guard lets through (the walk recurses as
    // deep), a shallow one here.
    let calls = diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
        .then(|| with_luau(source, ToolCalls::read).ok())
        .flatten();
    let mut certain = Vec::new();
    let mut others = Vec::new();
    for mut diagnostic in diagnostics {
        if noise(&diagnostic) || (session && unknown_global(&diagnostic.kind)) {
            continue;
        }
        if too_few_for_pcall(source, &diagnostic) {
            diagnostic.severity = Severity::Warning;
            diagnostic.message = format!(
                "{}; pcall passes the function only the arguments after it, which is right when its last parameters are optional",
                diagnostic.message
            );
        }
        // A tool reached by a computed key (`tools.text[name]`): the checker cannot follow
        // it, the run can. Worth a word, not an error beside a script that works.
        if matches!(&diagnostic.kind, Kind::CannotExtend { table, what: Extension::Indexer } if table.starts_with("Toolbox_"))
        {
            diagnostic.severity = Severity::Warning;
        }
        if colon_call(&diagnostic.kind) {
            diagnostic.message = format!(
                "{}; a tool is called with a dot, not a colon: tools.<box>.<tool>(...)",
                diagnostic.message
            );
        }
        if diagnostic.severity == Severity::Error
            && calls.as_ref().is_some_and(|c| c.through_pcall(&diagnostic))
        {
            if sure(&diagnostic.kind) && !table_given(&diagnostic.kind) {
                diagnostic.severity = Severity::Warning;
                others.push(diagnostic);
            }
            continue;
        }
        let at = calls
            .as_ref()
            .filter(|_| diagnostic.severity == Severity::Error)
            .and_then(|c| c.certain(source, &diagnostic));
        match at {
            Some(tool) => certain.push(Certain {
                diagnostic: pass_the_list(source, diagnostic),
                tool,
                probe: false,
            }),
            None if let Some(tool) = calls
                .as_ref()
                .filter(|_| diagnostic.severity == Severity::Error)
                .and_then(|c| c.probe(source, &diagnostic)) =>
            {
                certain.push(Certain {
                    diagnostic,
                    tool: Some(tool),
                    probe: true,
                })
            }
            None => {
                if calls.as_ref().is_some_and(|c| c.authors) {
                    made_as_it_runs(source, &mut diagnostic);
                }
                others.push(diagnostic)
            }
        }
    }
    for diagnostic in certain
        .iter_mut()
        .map(|c| &mut c.diagnostic)
        .chain(others.iter_mut())
    {
        if !name_the_tools_table(source, diagnostic) {
            name_a_near_field(diagnostic);
        }
    }
    (certain, others)
}

/// Adds what to pass to a mismatch of a record given where a list is wanted (see
/// [`ToolCalls::whole_result_given`]): the record's fields that are lists of the kind
/// wanted (`parsed.rows`).
fn pass_the_list(source: &str, mut diagnostic: Diagnostic) -> Diagnostic {
    let Some((wanted, got)) = mismatch(&diagnostic.kind) else {
        return diagnostic;
    };
    let (Ty::Array(wanted), Ty::Record(fields, None)) =
        (Ty::parse(wanted.trim_end_matches('?')), Ty::parse(got))
    else {
        return diagnostic;
    };
    let at = (diagnostic.line, diagnostic.column);
    let Some(mut word) = word_at(source, at).map(str::to_string) else {
        return diagnostic;
    };
    // A call given straight: name it as written, `tools.table.parseCsv(...)`.
    let mut subject = word.clone();
    if word == "tools" {
        word = format!("{}(...)", dotted_at(source, at).join("."));
        subject = format!("what {word} returns");
    }
    let lists: Vec<String> = fields
        .iter()
        .filter(|field| matches!(&field.ty, Ty::Array(of) if table(of) == table(&wanted)))
        .map(|field| format!("{word}.{}", field.name))
        .collect();
    let pass = match lists.as_slice() {
        [] => String::new(),
        [one] => format!(": pass {one}"),
        many => format!(": pass one of {}", many.join(", ")),
    };
    diagnostic.message = format!(
        "{}; a list is wanted, and {subject} is a table of named fields{pass}",
        diagnostic.message
    );
    diagnostic
}

/// Adds ". Did you mean 'chars'?" to "Key 'characters' not found in table '{ bytes:
/// number, chars: number, ... }'" when a field of that table is near the key: Luau says it
/// of a named table's keys (`Toolbox_text`), not of a table type written out, which is what
/// a tool's result is.
fn name_a_near_field(diagnostic: &mut Diagnostic) {
    let Kind::MissingKey {
        of,
        key,
        owner: KeyOwner::Table,
    } = &diagnostic.kind
    else {
        return;
    };
    // The type may be cut short by the checker (`password: string? …`): its braces need
    // not close.
    let Some(table) = of.strip_prefix('{') else {
        return;
    };
    let table = table.strip_suffix('}').unwrap_or(table);
    let near = split_at_top_level(table, ',')
        .into_iter()
        .filter_map(|entry| {
            let (name, _) = entry.split_once(':')?;
            let name = name.trim();
            let score = strsim::jaro_winkler(&name.to_lowercase(), &key.to_lowercase());
            (name != key && name.chars().all(|c| c.is_alphanumeric() || c == '_') && score > 0.8)
                .then_some((score, name.to_string()))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((_, name)) = near {
        diagnostic.message = format!("{}. Did you mean '{name}'?", diagnostic.message);
    }
}

/// True for "Argument count mismatch. Function expects 3 arguments, but only 2 are
/// specified" at a `pcall(f, ...)` or `xpcall(f, ...)`: the solver counts `f`'s optional
/// trailing parameters (`pcall(tools.json.parse, text)`) as ones `pcall` must pass, so
/// the complaint may be wrong, and `pcall` catches what it raises when it is right.
fn too_few_for_pcall(source: &str, diagnostic: &Diagnostic) -> bool {
    matches!(diagnostic.kind, Kind::Count { of: Counted::Arguments, expected, actual } if 0 < actual && actual < expected)
        && rest_of_line(source, (diagnostic.line, diagnostic.column))
            .is_some_and(|rest| rest.starts_with("pcall(") || rest.starts_with("xpcall("))
}

/// Rewords "Key 'txt' not found in table '{ bind: ..., callable: ... }'" at `tools.txt`
/// to name the table `tools`: the checker spells out the whole surface of `tools`, which
/// tells a reader nothing about what is wrong. True when it does.
fn name_the_tools_table(source: &str, diagnostic: &mut Diagnostic) -> bool {
    let Kind::MissingKey {
        of,
        key,
        owner: KeyOwner::Table,
    } = &diagnostic.kind
    else {
        return false;
    };
    let at = rest_of_line(source, (diagnostic.line, diagnostic.column));
    if of.starts_with("{ ") && at.is_some_and(|rest| rest.starts_with(&format!("tools.{key}"))) {
        diagnostic.message = format!(
            "Key '{key}' not found in table 'tools': no toolbox or function of tools has that name"
        );
        return true;
    }
    false
}

/// What is kept of an unfinished check's diagnostics: a note that the check did not
/// finish, then the warnings and errors (as warnings: none is sure) that do not speak of
/// the solver's own state.
fn unfinished(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // A blocked type (`*blocked-155*`) is one the solver had not worked out yet.
    let own_state = |d: &Diagnostic| {
        matches!(d.kind, Kind::GaveUp | Kind::Internal)
            || types(&d.kind).any(|t| t.contains("*blocked"))
    };
    let mut kept = vec![Diagnostic::note(
        "the type check did not finish on this script (Luau's solver stopped at its limits), so nothing it found stops the run; shorter functions or type annotations let it finish",
    )];
    kept.extend(
        diagnostics
            .into_iter()
            .filter(|d| !own_state(d) && !noise(d))
            .map(|mut d| {
                d.severity = Severity::Warning;
                d
            }),
    );
    kept
}

/// Rewords "Key 'mine' not found in table '{ bind: ... }'" (the whole surface of `tools`
/// spelt out) at `tools.mine` in a script that writes tools: the toolbox is most likely
/// one the script creates before it calls it, which no check ahead of the run can see.
fn made_as_it_runs(source: &str, diagnostic: &mut Diagnostic) {
    let Some(key) = missing_key(&diagnostic.kind).map(str::to_string) else {
        return;
    };
    let at = rest_of_line(source, (diagnostic.line, diagnostic.column));
    if at.is_some_and(|rest| rest.starts_with(&format!("tools.{key}"))) {
        diagnostic.severity = Severity::Warning;
        diagnostic.message = format!(
            "tools.{key} is not a toolbox yet; this script writes tools as it runs, so the check before the run cannot see the ones it creates"
        );
        diagnostic.quiet = true;
        // Codemode's word about its check now, no longer the checker's missing key.
        diagnostic.kind = Kind::Note;
    }
}

/// Lints that say nothing an agent's script needs, by Luau's name: a one-line script puts
/// statements on one line and binds results it only returns or prints; codemode's own
/// docstring lines (`--!desc`) read to Luau as unknown comment directives.
const NOISE: [&str; 2] = ["SameLineStatement", "CommentDirective"];

/// Warnings that are dropped too: unused locals, functions and imports, and shadowed names.
const NOISE_WARNINGS: [&str; 4] = [
    "LocalUnused",
    "FunctionUnused",
    "ImportUnused",
    "LocalShadow",
];

/// True for a warning that is dropped (see [`NOISE`]), and for the solver's complaint
/// that a result iterated with `pairs` has no indexer (`{+ [K]: V +}`), which `pairs` does
/// not need.
fn noise(diagnostic: &Diagnostic) -> bool {
    if let Kind::Lint { name } = &diagnostic.kind {
        return NOISE.contains(&name.as_str())
            || (diagnostic.severity == Severity::Warning
                && NOISE_WARNINGS.contains(&name.as_str()));
    }
    types(&diagnostic.kind).any(|t| t == "{+ [K]: V +}")
}

/// True for a global nothing assigned, said by the type checker or by the lint.
fn unknown_global(kind: &Kind) -> bool {
    match kind {
        Kind::UnknownGlobal { .. } => true,
        Kind::Lint { name } => name == "UnknownGlobal",
        _ => false,
    }
}

/// The types a diagnostic names, as Luau prints them.
fn types(kind: &Kind) -> impl Iterator<Item = &str> {
    let named: &[String] = match kind {
        Kind::Other { types } => types,
        _ => &[],
    };
    let (a, b) = match kind {
        Kind::Mismatch { wanted, given } => (Some(wanted), Some(given)),
        Kind::MissingKey { of, .. } => (Some(of), None),
        Kind::CannotExtend { table, .. } => (Some(table), None),
        _ => (None, None),
    };
    a.into_iter().chain(b).chain(named).map(String::as_str)
}

impl ToolCalls {
    /// True when `diagnostic` is in arguments a `pcall` passes on (see
    /// [`ToolCalls::passed`]), outside any function written there.
    fn through_pcall(&self, diagnostic: &Diagnostic) -> bool {
        let at = (diagnostic.line, diagnostic.column);
        self.passed.iter().any(|(start, end)| {
            *start <= at
                && at < *end
                && !self
                    .bodies
                    .iter()
                    .any(|(b, e)| *start <= *b && *e <= *end && *b <= at && at < *e)
        })
    }

    /// `Some(tool)` when `diagnostic` is certain: at a tool call (not inside a function
    /// given to it), or a missing field of a local bound to a tool's result. Unknown
    /// globals are never certain: a script may set them before the call.
    fn certain(&self, source: &str, diagnostic: &Diagnostic) -> Option<Option<String>> {
        if unknown_global(&diagnostic.kind) {
            return None;
        }
        let at = (diagnostic.line, diagnostic.column);
        if let Some(tool) = self.record_for_a_list(diagnostic) {
            return Some(Some(tool));
        }
        // A toolbox or tool the script looks up for itself before it calls it (`if
        // tools.callable("extra.fancify") then`), or calls where an error is caught (`pcall(
        // function() ... end)`): an optional tool, absent from this world, is no mistake.
        if let Some(key) = missing_key(&diagnostic.kind) {
            let path = dotted_at(source, at);
            let names_a_tool = path.first() == Some(&"tools")
                && path
                    .get(1..path.len().min(3))
                    .is_some_and(|p| p.contains(&key));
            if names_a_tool && (self.looked_up(key) || self.in_caught(at)) {
                return None;
            }
        }
        // The innermost call around the error is the one it is about: an error in the
        // arguments of `table.unpack(...)` inside a tool's arguments is not the tool's.
        // A call that starts right at the error is an argument, not around it.
        let call = self
            .calls
            .iter()
            .filter(|(start, end, tools, _)| (*start < at || *tools && *start == at) && at < *end)
            .filter(|(start, end, _, _)| {
                !self
                    .bodies
                    .iter()
                    .any(|(b, e)| *start <= *b && *e <= *end && *b <= at && at < *e)
            })
            .max_by_key(|(start, end, _, _)| (*start, std::cmp::Reverse(*end)))
            .filter(|(_, _, tools, _)| *tools);
        // Arguments spread from a list, `...` or `select` (in the call, or through locals
        // bound from one) are counted and typed only by the run; a name the world lacks
        // is still a slip.
        if missing_key(&diagnostic.kind).is_none() {
            let spread_call = call.is_some_and(|(s, e, _, _)| self.spread.contains(&(*s, *e)));
            if spread_call || self.spread_local(word_at(source, at), at) {
                return None;
            }
        }
        if let Some((start, _, _, tool)) = call {
            // An error placed at the call's first character is about the call itself (its
            // argument count, the tool's name) or about an expression the call begins
            // (`tools.text.truncate(s, 3) + 1`), which is the script's own Luau: the run
            // may well do it (Luau turns "5" + 1 into 6).
            if *start == at && !about_the_call(&diagnostic.kind) {
                return None;
            }
            // A script that writes tools may change the one it calls (delete and create it
            // with another signature, as `tools.create`'s own error advises): checked
            // against the world as it was, the call runs to succeed or fail on its own.
            // The `tools.*` functions themselves (`tools.create`) do not change.
            let surface = tool.as_deref().is_some_and(|t| t.starts_with("tools."));
            if self.authors && !surface {
                return None;
            }
            // A field read inside the arguments (`tools.text.slugify(r.source)`) is judged
            // as one anywhere else is: the script may have added it to the result.
            if *start == at || missing_key(&diagnostic.kind).is_none() {
                return sure(&diagnostic.kind).then(|| tool.clone());
            }
        }
        self.missing_field(source, diagnostic, at)
    }

    /// The tool called, when `diagnostic` says a list is wanted where a tool's whole
    /// result is given, a record of named fields (`tools.table.sortBy(t, "age")` after
    /// `local t = tools.table.parseCsv(csv)`, whose rows are `t.rows`): the call refuses a
    /// table that is not a list (see [`ToolCalls::whole_result_given`]).
    fn record_for_a_list(&self, diagnostic: &Diagnostic) -> Option<String> {
        let (wanted, got) = mismatch(&diagnostic.kind)?;
        let list = matches!(Ty::parse(wanted.trim_end_matches('?')), Ty::Array(_));
        let record = matches!(Ty::parse(got), Ty::Record(_, None));
        (list && record)
            .then(|| self.whole_result_given((diagnostic.line, diagnostic.column)))
            .flatten()
    }

    /// `box.tool` when `diagnostic` says `tools.box.tool` (or `tools.box`) is missing
    /// where its errors may be caught (see [`ToolCalls::in_caught`]), in a script that
    /// neither names it in a string nor writes tools.
    fn probe(&self, source: &str, diagnostic: &Diagnostic) -> Option<String> {
        let key = missing_key(&diagnostic.kind)?;
        let at = (diagnostic.line, diagnostic.column);
        let path = dotted_at(source, at);
        let names = path.get(1..path.len().min(3))?;
        let probed = path.first() == Some(&"tools")
            && names.contains(&key)
            && self.in_caught(at)
            && !self.looked_up(key)
            && !self.authors;
        probed.then(|| names.join("."))
    }

    /// `Some(tool)` when `diagnostic` is a certain missing field: a tool the toolbox lacks
    /// (`tools.text.slugfy` as a value), or a field a tool's result lacks that the script
    /// neither added nor tests for (see [`ToolCalls::result_read`]).
    fn missing_field(
        &self,
        source: &str,
        diagnostic: &Diagnostic,
        at: Place,
    ) -> Option<Option<String>> {
        let key = missing_key(&diagnostic.kind)?;
        // `tools.text.slugfy` passed as a value (`pcall(tools.text.slugfy, s)`): looking up
        // a tool the toolbox lacks raises, before anything is called. Not inside a
        // function, which may be one `pcall` runs to see the lookup fail.
        let in_function = self.bodies.iter().any(|(b, e)| *b <= at && at < *e);
        if word_at(source, at) == Some("tools") && !self.authors && !in_function {
            let path = dotted_at(source, at);
            if path.get(1..3).is_some_and(|names| names.contains(&key)) {
                return Some(Some(path[1..path.len().min(3)].join(".")));
            }
        }
        self.result_read(key, at).map(Some)
    }
}

/// True for what the checker says about a call as a whole, at its first character: the
/// number of arguments, a name the toolbox or `tools` does not have, or a value that is
/// not a function.
fn about_the_call(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Count {
            of: Counted::Arguments,
            ..
        } | Kind::NotCallable
    ) || missing_key(kind).is_some()
        || colon_call(kind)
}

/// True when a toolbox is passed where a tool's first argument goes: the tool was called
/// with a colon (`tools.text:slugify(s)`), which passes the toolbox itself first.
fn colon_call(kind: &Kind) -> bool {
    mismatch(kind).is_some_and(|(_, got)| got.starts_with("Toolbox_"))
}

/// True when `ty` is a union (`number | string`, not `{ a: A | B }`): a value that may be
/// any of them.
fn union(ty: &str) -> bool {
    matches!(Ty::parse(ty), Ty::Union(_))
}

/// True for a table type written out: a record, a map, a list, `{}`.
fn table(ty: &Ty) -> bool {
    matches!(ty, Ty::Record(..) | Ty::Map(..) | Ty::Array(_) | Ty::Table)
}

/// `text` split at each `separator` outside any brackets, each piece trimmed: for a
/// table type the checker may have cut short, which the type model does not read (its
/// fields are still worth a suggestion).
fn split_at_top_level(text: &str, separator: char) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '{' | '[' | '<' => depth += 1,
            ')' | '}' | ']' | '>' => depth -= 1,
            c if c == separator && depth == 0 => {
                pieces.push(text[from..i].trim());
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    pieces.push(text[from..].trim());
    pieces
}

/// The key a [`Kind::MissingKey`] says is missing. Only a scalar's keys are, of the
/// types that are not tables: `unknown` (a field a tool's type leaves open) may hold
/// anything at run time.
fn missing_key(kind: &Kind) -> Option<&str> {
    let Kind::MissingKey { of, key, owner } = kind else {
        return None;
    };
    (*owner != KeyOwner::Scalar || matches!(of.as_str(), "number" | "string" | "boolean" | "nil"))
        .then_some(key.as_str())
}

/// False for a mismatch that may well hold when the script runs: a value that may be nil
/// (`string?` where `string` is wanted: the script may know it is set), a plain string
/// where one of a few literals is wanted (it may be one of them), or one table type where
/// another is wanted (Luau's tables are invariant in their fields, so a row with exact
/// fields is refused where `{ [string]: any }` is wanted, though it fits at run time).
fn sure(kind: &Kind) -> bool {
    // `~T` (a negation) comes from the checker's own refinements of `if x then`, and its
    // complaints about them are about its reasoning, not the script. A function that
    // does not always return (`tools.parallel({ function() print(x) end })`) returns nil,
    // which the script may well expect.
    if matches!(
        kind,
        Kind::NoReturn
            | Kind::MaybeNil
            | Kind::CannotExtend {
                what: Extension::Indexer,
                ..
            }
    ) || types(kind).any(|t| t == "unknown" || t.contains('~'))
    {
        return false;
    }
    let Some((wanted, got)) = mismatch(kind) else {
        return true;
    };

    let scalar = |t: &str| {
        matches!(t, "string" | "number" | "boolean" | "nil")
            || t.starts_with('"')
            || t.parse::<f64>().is_ok()
    };
    // A value that may be one of several types may be one that fits (a CSV field typed
    // `number | string` holding a name, `cond and "a" or "b"` typed `false | string`).
    // `unknown` is what the solver gives what it could not follow (a value out of
    // `pairs` over a table the script built, or out of `next`), not what it holds.
    if got.ends_with('?') || got == "nil" || got == "unknown" || union(got) {
        return false;
    }
    if got == "string" && wanted.contains('"') {
        return false;
    }
    // A table where another table type is wanted, written out (`{ sep: string? }`) or
    // named (`SearchOptions`, or the local that holds it, `opts`): Luau's tables are
    // invariant in their fields, so one that fits at run time may not fit the type.
    scalar(wanted.trim_end_matches('?')) || scalar(got)
}

/// True when `message` says a call passes something other than one table (or nothing)
/// where a function of one table argument is wanted: more arguments than it takes, or a
/// scalar where the table goes. An upstream server's tool refuses such a call at run
/// time whatever its catalogue says.
fn not_one_table(kind: &Kind) -> bool {
    if let Kind::Count {
        of: Counted::Arguments,
        expected,
        actual,
    } = kind
    {
        return actual > expected;
    }
    mismatch(kind).is_some_and(|(wanted, got)| {
        wanted.trim_end_matches('?').starts_with('{')
            && (matches!(got, "string" | "number" | "boolean")
                || got.starts_with('"')
                || got.parse::<f64>().is_ok())
    })
}

/// True for "Expected this to be 'A', but got '{ ... }'" where `A` is not a scalar: a
/// table literal refused where a table type (`HttpRequest`) is wanted, which is how
/// the solver's inference through `pcall` goes wrong.
fn table_given(kind: &Kind) -> bool {
    mismatch(kind).is_some_and(|(wanted, got)| {
        got.starts_with('{')
            && !matches!(
                wanted.trim_end_matches('?'),
                "string" | "number" | "boolean" | "nil"
            )
    })
}

/// The wanted and the given type of a [`Kind::Mismatch`].
fn mismatch(kind: &Kind) -> Option<(&str, &str)> {
    match kind {
        Kind::Mismatch { wanted, given } => Some((wanted, given)),
        _ => None,
    }
}

/// The names of the dotted path that starts at `at` in `source`: `["tools", "text",
/// "slugfy"]` for `tools.text.slugfy`.
fn dotted_at(source: &str, (line, column): Place) -> Vec<&str> {
    let rest = rest_of_line(source, (line, column)).unwrap_or_default();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(rest.len());
    rest[..end].split('.').collect()
}

/// What line `line` of `source` holds from character `column` on (both 1-based, as the
/// checker and the syntax tree count them).
fn rest_of_line(source: &str, (line, column): Place) -> Option<&str> {
    let text = source.lines().nth(line.checked_sub(1)? as usize)?;
    let skip = column.checked_sub(1)? as usize;
    match text.char_indices().nth(skip) {
        Some((at, _)) => Some(&text[at..]),
        None => (text.chars().count() == skip).then_some(""),
    }
}

/// The identifier that starts at `at` in `source`.
fn word_at(source: &str, (line, column): Place) -> Option<&str> {
    let rest = rest_of_line(source, (line, column))?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end]).filter(|w| !w.is_empty())
}
