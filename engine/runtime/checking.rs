//! Type checking a script before it runs (see `crate::check`): the declarations of the
//! run's snapshot (what `codemode types` writes), what the registry knows of the tools a
//! certain error names (`check::Known`: the check decides from it, not this file), and
//! the envelope of a script the checker stopped.

use std::cell::Cell;
use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Envelope, ErrorKind, ScriptError};
use crate::assets::{AssetIndex, ToolboxFolder};
use crate::bind::{fits_literal, stray_field, wrong_kind};
use crate::check::{judge, CheckerError, Checking, Declarations, Kind, Known};
use crate::check::{Checked, Diagnostic, OptionLiteral, PendingCheck, Severity, ToolCheck};
use crate::registry::Registry;
use crate::sandbox::{cut, gate};
use crate::types::{inline_aliases, surface_functions, SurfaceFunction, Ty, SURFACE};

/// What the check says about a run.
pub(crate) enum Preflight {
    /// Do not run: this is the envelope.
    Stop(Box<Envelope>),
    /// Run, and report these beside the result.
    Go(Vec<Diagnostic>),
}

impl Checking {
    /// The declarations to check `source` against over `index` (with `registry`'s
    /// upstream servers), built the first time a script of this snapshot (and, in a large
    /// world, naming the same toolboxes) is checked.
    pub(crate) fn declarations(
        &self,
        registry: &Registry,
        index: &Arc<AssetIndex>,
        source: &str,
    ) -> Declarations {
        let views = registry.upstream_views(index);
        let upstream = Registry::tool_counts(&views);
        let catalogues = Registry::catalogues_stamp(&views);
        self.declarations_for(index, &upstream, catalogues, source, |named| {
            crate::host::definitions_named(index, &views, &registry.capabilities(), named)
        })
    }

    /// Checks `source` before its run asks (within `budget`), keeping what the check
    /// came to for [`Checking::send_preflight`]. A one-shot run does this on a second
    /// thread while it builds its VM, which takes about as long.
    ///
    /// The resident checker is first asked for the declarations by what they are built
    /// from ([`crate::host::named_inputs`]): when a run before named the same toolboxes of
    /// the same world, they are not built nor sent again, and those two steps cost a
    /// one-shot run more than its check. Declarations the checker cannot load are left to
    /// the run, which checks against fewer.
    pub(crate) fn check_ahead(&self, registry: &Registry, source: &str, budget: Duration) {
        // As the run reads it (see `Runtime::run`).
        let source = source.strip_prefix(crate::assets::BOM).unwrap_or(source);
        if !self.decides(source) {
            return;
        }
        let index = registry.snapshot();
        let views = registry.upstream_views(&index);
        let upstream = Registry::tool_counts(&views);
        let in_full = self.in_full(&index, &upstream, source);
        let name =
            crate::host::named_inputs(&index, &views, &registry.capabilities(), in_full.as_ref());
        if let Some(kept) = name
            .as_deref()
            .and_then(|name| self.kept_by_name(name, source))
        {
            self.put_ahead(source, Ok(kept));
            return;
        }
        let held = match name
            .as_deref()
            .map(|name| self.checker().held_by_name(name))
        {
            Some(Err(error)) => return self.put_ahead(source, Err(error)),
            Some(Ok(held)) => held,
            None => None,
        };
        let declarations = match (held, &name) {
            (Some(held), _) => held,
            (None, Some(name)) => self.declarations(registry, &index, source).named(name),
            (None, None) => self.declarations(registry, &index, source),
        };
        if let Some(kept) = self.kept_reply(&declarations, source) {
            self.put_ahead(source, Ok(kept));
            return;
        }
        let checked = self
            .checker()
            .send(&declarations, source, budget)
            .and_then(|pending| {
                // Read while the checker works; the run's verdict finds them kept.
                self.option_literals(source);
                pending.finish()
            });
        match checked {
            Ok(checked) => {
                self.keep_reply(&declarations, source, &checked);
                self.put_ahead(source, Ok(checked));
            }
            Err(CheckerError::Declarations(_)) => {}
            Err(error) => self.put_ahead(source, Err(error)),
        }
    }

    /// Sends `source` to the checker and returns at once: the caller readies the run
    /// (nothing of the script runs) while the checker works in its own process, then asks
    /// [`Sent::verdict`]. The check takes at most `budget` (the longest the run may wait
    /// for the checker, its queue included). When the checker cannot load the
    /// declarations, the script is sent against ones cut back as far as it takes (see
    /// [`Checking::degraded`]), with a diagnostic saying what was left unchecked. A
    /// script waits for declarations being loaded (see [`crate::check::Checker::send`]).
    pub(crate) fn send_preflight(
        self: &Arc<Self>,
        registry: &Registry,
        index: &Arc<AssetIndex>,
        source: &str,
        budget: Duration,
    ) -> Sent {
        let mut sent = Sent {
            checking: self.clone(),
            pending: None,
            degraded: None,
            declarations: None,
        };
        if !self.decides(source) {
            return sent;
        }
        if let Some(ahead) = self.take_ahead(source) {
            sent.pending = Some(ahead.map(Asked::Kept));
            return sent;
        }
        let started = Instant::now();
        let mut declarations = self.declarations(registry, index, source);
        if let Some(kept) = self.kept_reply(&declarations, source) {
            sent.pending = Some(Ok(Asked::Kept(kept)));
            return sent;
        }
        loop {
            let left = budget.saturating_sub(started.elapsed());
            match self.checker().send(&declarations, source, left) {
                Err(CheckerError::Declarations(why)) => {
                    let views = registry.upstream_views(index);
                    let upstream = Registry::tool_counts(&views);
                    let text = |named: Option<&BTreeSet<String>>| {
                        crate::host::definitions_named(
                            index,
                            &views,
                            &registry.capabilities(),
                            named,
                        )
                    };
                    let Some(fewer) = self.degraded(index, &upstream, &declarations, text) else {
                        sent.pending = Some(Err(CheckerError::Declarations(why)));
                        return sent;
                    };
                    tracing::info!(
                        "the tools' declarations did not load ({why}); checking against fewer"
                    );
                    sent.degraded = Some(Diagnostic::note(format!(
                        "the tools' declarations did not load into the type checker ({why}); {} typed `any` for this check, so calls of them were not checked (run `codemode types` to see the declarations)",
                        if upstream.is_empty() || sent.degraded.is_some() { "every toolbox was" } else { "the upstream servers' toolboxes were" }
                    )));
                    declarations = fewer;
                }
                outcome => {
                    sent.pending = Some(outcome.map(Asked::Checker));
                    // A reply against declarations cut back is not kept: the next run
                    // sends the whole ones first.
                    if sent.degraded.is_none() {
                        sent.declarations = Some(declarations);
                    }
                    return sent;
                }
            }
        }
    }
}

/// A script's check under way (see [`Checking::send_preflight`]).
pub(crate) struct Sent {
    checking: Arc<Checking>,
    /// `None` when nothing is checked (`--check off`).
    pending: Option<Result<Asked, CheckerError>>,
    /// What was left unchecked when the declarations had to be cut back.
    degraded: Option<Diagnostic>,
    /// The declarations the checker was sent, so its reply can be kept (see
    /// [`Checking::keep_reply`]).
    declarations: Option<Declarations>,
}

/// Where a script's diagnostics come from.
pub(crate) enum Asked {
    /// The checker, asked now.
    Checker(PendingCheck),
    /// What it said about the same script against the same declarations before.
    Kept(Checked),
}

impl Sent {
    /// The run's gate (see `sandbox/gate.rs`): the verdict on `source`, read when the run
    /// first reaches outside itself, when the interrupt finds the reply in, or when the run
    /// ends; what it said is left in the cell returned beside it.
    pub(crate) fn into_gate(
        self,
        registry: Arc<Registry>,
        index: Arc<AssetIndex>,
        source: &str,
    ) -> (gate::Verdict, Rc<Cell<Option<Preflight>>>) {
        let said = Rc::new(Cell::new(None));
        let told = said.clone();
        let source = source.to_string();
        let mut sent = Some(self);
        let verdict = move |wait: bool| {
            let unread = sent.take()?;
            if !wait && !unread.ready() {
                sent = Some(unread);
                return None;
            }
            let preflight = unread.verdict(&registry, &index, &source, false);
            let go = matches!(preflight, Preflight::Go(_));
            told.set(Some(preflight));
            Some(go)
        };
        (Box::new(verdict), said)
    }

    /// True when [`Sent::verdict`] would not wait for the checker.
    pub(crate) fn ready(&self) -> bool {
        match &self.pending {
            Some(Ok(Asked::Checker(pending))) => pending.ready(),
            _ => true,
        }
    }

    /// What the check says about running `source` over `index`. A checker problem is a
    /// diagnostic, never a reason not to run.
    pub(crate) fn verdict(
        self,
        registry: &Registry,
        index: &Arc<AssetIndex>,
        source: &str,
        session: bool,
    ) -> Preflight {
        let Some(pending) = self.pending else {
            return Preflight::Go(Vec::new());
        };
        // Read while the checker works in its own process.
        let Options {
            misspelt,
            unread,
            fitting,
        } = stray_options(index, &self.checking.option_literals(source));
        let checked = match pending {
            Ok(Asked::Kept(kept)) => Ok(kept),
            Ok(Asked::Checker(pending)) => pending.finish().inspect(|checked| {
                if let Some(declarations) = &self.declarations {
                    self.checking.keep_reply(declarations, source, checked);
                }
            }),
            Err(e) => Err(e),
        };
        let checked = match checked {
            Ok(checked) => checked,
            Err(problem) => {
                // A checker missing or crashing is the operator's to fix: logged where an
                // operator looks, beside the note the envelope carries.
                match problem {
                    CheckerError::Missing { .. } | CheckerError::Broken(_) => {
                        tracing::warn!("{problem}")
                    }
                    _ => tracing::info!("{problem}"),
                }
                let mut notes: Vec<Diagnostic> = self.degraded.into_iter().collect();
                notes.push(Diagnostic::note(problem.to_string()));
                return Preflight::Go(notes);
            }
        };
        let degraded = self.degraded;
        let upstream = registry.upstream_views(index);
        // The MCP servers' toolboxes, whose catalogues may be stale (an API's description
        // is read as it is).
        let stale: Vec<&str> = upstream
            .iter()
            .filter(|v| !v.description)
            .map(|v| v.name.as_str())
            .collect();
        let mut verdict = judge(
            source,
            checked.diagnostics,
            self.checking.mode(),
            session,
            |tool| known(registry, index, &stale, tool),
        );
        if let Some((diagnostic, tool)) = misspelt {
            verdict.misspelt_field(diagnostic, tool, self.checking.mode());
        }
        verdict.drop_fitting(&fitting);
        verdict.report.extend(unread);
        verdict.report.sort_by_key(|d| (d.line, d.column));
        verdict.report.extend(degraded);
        if checked.timed_out {
            verdict.report.push(Diagnostic::note(format!(
                "the type check stopped at its {} ms limit; what it found so far is shown and the rest of the script ran unchecked",
                checked.limit.as_millis()
            )));
        }
        let report = bounded(verdict.report);
        match verdict.stop {
            None => Preflight::Go(report),
            Some((error, tool)) => {
                // The signature of the upstream tool called, when it is one's.
                let served = tool.as_deref().and_then(|tool| {
                    let (toolbox, name) = tool.split_once('.')?;
                    let server = upstream.iter().find(|v| v.name == toolbox)?;
                    let found = server.tools().iter().find(|t| t.name == name);
                    Some(found.map_or_else(|| format!("{name}({{ ... }})"), |t| t.signature()))
                });
                let toolbox = tool.as_deref().map(|t| t.split('.').next().unwrap_or(t));
                // An operation an API's description lacks: the nearest it has, and why
                // one may be left out.
                let missing_operation = tool.as_deref().and_then(|tool| {
                    let (toolbox, name) = tool.split_once('.')?;
                    let api = upstream
                        .iter()
                        .find(|v| v.name == toolbox && v.description)?;
                    if api.tools().iter().any(|t| t.name == name) {
                        return None;
                    }
                    let near = crate::assets::names::nearest(name, api.tools().iter().map(|t| t.name.as_str()));
                    let near = near.first().map(|best| format!("did you mean tools.{toolbox}.{best}? ")).unwrap_or_default();
                    Some(format!("nothing took effect: the API '{toolbox}' has no operation `{name}`; {near}tools.list('{toolbox}', 2) lists them; an operation of a method its entry in .codemode/apis.json does not list under \"methods\" (GET and HEAD by default) is left out"))
                });
                let hint = match toolbox.and_then(|b| registry.unusable_server(index, b)) {
                    Some(problem) => format!("nothing took effect: an MCP server of that name is configured but cannot be used: {problem}"),
                    None => {
                        let hint = missing_operation
                            .unwrap_or_else(|| hint(index, tool.as_deref(), served));
                        let unknown_box = toolbox.is_some_and(|b| {
                            !index.has_toolbox(b) && !upstream.iter().any(|v| v.name == b)
                        });
                        match registry.unread_servers().filter(|_| unknown_box) {
                            Some(problem) => format!("{hint}; the operator's server list has a problem, so a server added there may be missing until it is fixed: {problem}"),
                            None => hint,
                        }
                    }
                };
                let message = shortened(&error.message);
                let mut envelope = super::refused(ErrorKind::Type, &message);
                envelope.error = Some(
                    ScriptError {
                        kind: ErrorKind::Type,
                        message,
                        line: Some(error.line),
                        column: Some(error.column),
                        hint: Some(hint),
                        limit: None,
                    }
                    .bounded(),
                );
                envelope.diagnostics = report;
                Preflight::Stop(Box::new(envelope))
            }
        }
    }
}

impl Checking {
    /// Checks a tool's source against the declarations of `index`, the modules it
    /// requires read from its toolbox folder `folder` (see [`Checking::check_tool_with`]).
    pub(crate) fn check_tool(
        &self,
        registry: &Registry,
        index: &Arc<AssetIndex>,
        folder: Option<&ToolboxFolder>,
        source: &str,
    ) -> Result<ToolCheck, CheckerError> {
        let declarations = self.declarations(registry, index, source);
        self.check_tool_with(&declarations, source, |name| {
            folder?
                .modules
                .iter()
                .find(|m| m.name == name)
                .and_then(|m| m.text())
        })
    }
}

/// Starts the checker and loads the declarations of `registry`'s current snapshot on a
/// thread of its own, so the first script a server runs does not wait for them.
pub(crate) fn warm_up(checking: Arc<Checking>, registry: Arc<Registry>) {
    let started = std::thread::Builder::new()
        .name("codemode-check-warm-up".into())
        .spawn(move || {
            let index = registry.snapshot();
            let declarations = checking.declarations(&registry, &index, "");
            if let Err(e) = checking.checker().check(&declarations, "") {
                tracing::info!("{e}");
            }
        });
    if let Err(e) = started {
        tracing::info!("the type checker is started on first use: {e}");
    }
}

/// What the engine reads in the table literals a script passes straight to tools (see
/// `option_literals`).
struct Options {
    /// The first misspelt field (`{ maxLenght = 5 }`) or field of the wrong kind (`{
    /// maxLength = "10" }`), an error the call would raise only once made, with the tool
    /// (`box.tool`).
    misspelt: Option<(Diagnostic, String)>,
    /// A warning for each other field the tool does not declare (the call lets it
    /// through).
    unread: Vec<Diagnostic>,
    /// The literals held in locals that surely fit (see `fits_literal`), by the local's
    /// name and where it is passed.
    fitting: Vec<(String, u32, u32)>,
}

/// What the table literals a script passes straight to tools of `index` hold (see
/// [`Options`]).
fn stray_options(index: &AssetIndex, literals: &[OptionLiteral]) -> Options {
    let mut misspelt = None;
    let mut unread = Vec::new();
    let mut fitting = Vec::new();
    for literal in literals {
        let Some((param, ty)) = parameter(index, &literal.tool, literal.argument) else {
            continue;
        };
        let names: Vec<&str> = literal.fields.iter().map(|f| f.0.as_str()).collect();
        // A misspelling first, then a value of the wrong kind (both refused by the call),
        // then a field the tool would let through.
        let stray = match stray_field(&ty, &names) {
            Some(stray) if stray.refused => Some(stray),
            other => wrong_kind(&ty, &names, &literal.kinds).or(other),
        };
        let Some(stray) = stray else {
            if fits_literal(&ty, &names, &literal.kinds) {
                fitting.extend(literal.held.clone());
            }
            continue;
        };
        let (_, line, column) = literal.fields[stray.at];
        let mut diagnostic = Diagnostic {
            line,
            column,
            severity: Severity::Error,
            message: match &literal.held {
                // The error is placed at the field, in the local's table: say where it goes.
                Some((local, line, _)) => format!(
                    "argument {param} (the table in `{local}`, passed on line {line}): {}",
                    stray.detail
                ),
                None => format!("argument {param}: {}", stray.detail),
            },
            kind: Kind::Note,
            quiet: false,
        };
        if !stray.refused {
            diagnostic.severity = Severity::Warning;
            unread.push(diagnostic);
        } else if misspelt.is_none() {
            let tool = surface_function(&literal.tool)
                .map_or_else(|| literal.tool.clone(), |f| f.identity.clone());
            misspelt = Some((diagnostic, tool));
        } else {
            unread.push(diagnostic);
        }
    }
    Options {
        misspelt,
        unread,
        fitting,
    }
}

/// The name and type of the parameter at `argument` (from 0) of `tool`: a callable tool of
/// `index` (`box.tool`), or a function of `tools` (`tools.search`, `results.search`),
/// its type written out from the surface's declarations (`SearchOptions?`).
fn parameter(index: &AssetIndex, tool: &str, argument: usize) -> Option<(String, Ty)> {
    if let Some(function) = surface_function(tool) {
        let (_, params) = function.signature.split_once('(')?;
        let Ty::Callback(callback) = Ty::parse(&inline_aliases(&format!("({params}"), SURFACE))
        else {
            return None;
        };
        let (name, ty) = callback.params.get(argument)?;
        return Some((name.clone()?, ty.clone()));
    }
    let entry = index.tool(tool).filter(|e| e.is_registered())?;
    let param = entry.meta().args.get(argument)?;
    Some((param.name.clone(), Ty::parse(&param.ty)))
}

/// The function of `tools` a call names: `tools.search`, or `results.search` for
/// `tools.results.search` (no toolbox may be named like a member of `tools`).
fn surface_function(tool: &str) -> Option<&'static SurfaceFunction> {
    let identity = match tool.strip_prefix("tools.") {
        Some(_) => tool.to_string(),
        None => format!("tools.{tool}"),
    };
    surface_functions().iter().find(|f| f.identity == identity)
}

/// True when the call of `tool` (`box.name`, a toolbox, or `tools.<function>`) is one the
/// profile refuses, or of a tool that exists but cannot be called: the run's own error
/// says more than "unknown".
fn fails_better_at_run_time(registry: &Registry, index: &AssetIndex, tool: &str) -> bool {
    if let Some(function) = tool.strip_prefix("tools.") {
        return !registry.capabilities().authoring && crate::host::AUTHORING.contains(&function);
    }
    match tool.split_once('.') {
        Some(_) => {
            index.denial(tool).is_some() || index.tool(tool).is_some_and(|e| !e.is_registered())
        }
        None => index.toolbox_denial(tool).is_some(),
    }
}

/// What to do about a type error at a call of `tool` (`box.tool`, or `tools.fn` for a
/// function of `tools`): the tool's signature, or the names close to a misspelt one.
/// `served` is the signature of the tool when its toolbox is an upstream server.
fn hint(index: &AssetIndex, tool: Option<&str>, served: Option<String>) -> String {
    const NOTHING_DONE: &str = "nothing took effect: the script was type-checked against the tools' declarations (`codemode types`) before it wrote, sent or called out anything";
    let Some(tool) = tool else {
        return format!("{NOTHING_DONE}; fix the line, or run with --check warn to run it anyway");
    };
    if let Some(function) = tool.strip_prefix("tools.") {
        // A toolbox may not take the name of a member of `tools` (`RESERVED`).
        if !crate::assets::names::RESERVED.contains(&function) {
            if let Some(identity) = written_as_one_name(index, function) {
                return format!("{NOTHING_DONE}; tools has no function `{function}`: the tool is tools.{identity}(...), its toolbox and its name joined by a dot (tools.get('{identity}') has its signature)");
            }
            if index.has_toolbox(function) {
                return format!("{NOTHING_DONE}; `tools.{function}` is a toolbox, not a function: call one of its tools, tools.{function}.<tool>(...) (tools.list('{function}', 3) lists them)");
            }
        }
        if let Some(surface) = surface_function(tool) {
            return format!("{NOTHING_DONE}; the signature is tools.{} (tools.help('{}') shows it with an example)", surface.signature, surface.name);
        }
        return format!("{NOTHING_DONE}; tools.help() lists the functions of tools with an example each (tools.{function} is called here)");
    }
    let (toolbox, name) = tool.split_once('.').unwrap_or((tool, ""));
    if let Some(signature) = served {
        // Only a call that does not pass one table is certain there.
        return format!("{NOTHING_DONE}; tools.{toolbox}.{name} takes one table of named arguments (an MCP tool takes one object): tools.{toolbox}.{signature} (tools.get('{tool}') has the details)");
    }
    if let Some(entry) = index.tool(tool) {
        let meta = entry.meta();
        if let Some(signature) = meta.signature.as_deref() {
            return format!(
                "{NOTHING_DONE}; the signature is tools.{}.{signature} (tools.get('{tool}') has the details)",
                meta.toolbox
            );
        }
        return format!("{NOTHING_DONE}; tools.get('{tool}') describes the tool");
    }
    if !index.has_toolbox(toolbox) {
        let near = closest(name_list(index.toolbox_names()), toolbox);
        return format!(
            "{NOTHING_DONE}; there is no toolbox `{toolbox}`{near}; tools.toolboxes() lists them"
        );
    }
    let names: Vec<String> = index
        .tools_in(toolbox)
        .filter(|t| t.is_registered())
        .map(|t| t.name().to_string())
        .collect();
    let near = closest(names, name);
    format!("{NOTHING_DONE}; the toolbox `{toolbox}` has no tool `{name}`{near}; tools.list('{toolbox}', 3) lists its tools with their signatures")
}

/// The tool `name` spells with a separator in place of the dot (`text_slugify`,
/// `text-slugify` for `text.slugify`), when the index has that tool.
fn written_as_one_name(index: &AssetIndex, name: &str) -> Option<String> {
    name.match_indices(['_', '-'])
        .map(|(at, sep)| format!("{}.{}", &name[..at], &name[at + sep.len()..]))
        .find(|identity| index.tool(identity).is_some())
}

/// The checker's message with a long table type cut short: "Key 'x' not found in table
/// '{ ...every toolbox... }'" would spend a reader's tokens on what the hint says better.
fn shortened(message: &str) -> String {
    const KEEP: usize = 80;
    let Some(at) = message.find(" in table '") else {
        return message.to_string();
    };
    let start = at + " in table '".len();
    let table = &message[start..];
    // The type ends at the next quote (Luau writes string singletons in double quotes);
    // what follows may quote a name of its own (". Did you mean 'weekday'?").
    let end = table.find('\'').unwrap_or(table.len());
    if end <= KEEP {
        return message.to_string();
    }
    let mut cut = KEEP;
    while !table.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}{} …'{}",
        &message[..start],
        table[..cut].trim_end(),
        &table[end..].trim_start_matches('\'')
    )
}

fn name_list(names: Vec<&str>) -> Vec<String> {
    names.into_iter().map(str::to_string).collect()
}

/// What `index` (with `registry`, and the `stale` toolboxes of MCP servers) knows of `tool`
/// (`box.tool`, a toolbox, or `tools.<function>`), for the check to decide whether an
/// error about it stops the run (see [`Known`]).
fn known(registry: &Registry, index: &AssetIndex, stale: &[&str], tool: &str) -> Known {
    let (toolbox, _) = tool.split_once('.').unwrap_or((tool, ""));
    let has_toolbox = index.has_toolbox(toolbox);
    Known {
        stale: stale.contains(&toolbox),
        fails_at_run_time: fails_better_at_run_time(registry, index, tool),
        has_toolbox,
        near: match has_toolbox {
            true => index
                .tools_in(toolbox)
                .filter(|t| t.is_registered())
                .map(|t| t.name().to_string())
                .collect(),
            false => name_list(index.toolbox_names()),
        },
    }
}

/// ", did you mean `x`?" for the name most like `wanted`, when one is close.
fn closest(names: Vec<String>, wanted: &str) -> String {
    names
        .into_iter()
        .map(|n| {
            (
                strsim::jaro_winkler(&n.to_lowercase(), &wanted.to_lowercase()),
                n,
            )
        })
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}

/// The most diagnostics a script's envelope carries: the first few are what a reader
/// fixes first, and a script of 20,000 lines could otherwise draw as many.
const MAX_SHOWN: usize = 20;

/// The most bytes of one diagnostic's message: the checker quotes whole types, and a
/// script can declare a type of megabytes.
const MAX_MESSAGE_BYTES: usize = 512;

/// `diagnostics` as an envelope carries them: at most [`MAX_SHOWN`], each message
/// [`shortened`] and cut to [`MAX_MESSAGE_BYTES`], and a last note saying how many were left out. Whatever a script
/// makes the checker say, the envelope stays within the output cap plus a few KiB.
fn bounded(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let left_out = diagnostics.len().saturating_sub(MAX_SHOWN);
    diagnostics.truncate(MAX_SHOWN);
    for d in &mut diagnostics {
        d.message = shortened(&d.message);
        cut(&mut d.message, MAX_MESSAGE_BYTES);
    }
    if left_out > 0 {
        let them = if left_out == 1 {
            "diagnostic"
        } else {
            "diagnostics"
        };
        diagnostics.push(Diagnostic::note(format!(
            "{left_out} more {them} left out; fix the ones shown first and run the script again"
        )));
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Severity;

    #[test]
    fn an_envelope_carries_a_bounded_number_of_short_diagnostics() {
        let many: Vec<Diagnostic> = (0..500)
            .map(|i| Diagnostic {
                line: i,
                column: 1,
                severity: Severity::Error,
                message: "A".repeat(20_000),
                kind: Kind::Note,
                quiet: false,
            })
            .collect();
        let shown = bounded(many);
        assert_eq!(shown.len(), MAX_SHOWN + 1);
        assert!(shown.iter().all(|d| d.message.len() <= MAX_MESSAGE_BYTES));
        assert!(shown[MAX_SHOWN]
            .message
            .starts_with("480 more diagnostics left out"));
        let bytes: usize = shown.iter().map(|d| d.message.len()).sum();
        assert!(bytes < 12 * 1024, "{bytes}");
        let few = vec![Diagnostic::note("slow")];
        assert_eq!(bounded(few.clone()), few);
    }
}
