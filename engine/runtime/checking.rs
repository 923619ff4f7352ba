//! Type checking a script before it runs (see `crate::check`): the declarations of the
//! run's snapshot, built once per snapshot and shared by every VM of a pool, and the
//! envelope of a script the checker stopped.

use std::sync::{Arc, Mutex, Weak};

use super::{Envelope, ErrorKind, ScriptError};
use crate::assets::AssetIndex;
use crate::check::{judge, sort, tool_source, Checker, CheckerError, Declarations, Diagnostic, Mode};
use crate::registry::Registry;

/// The checker a runtime asks before each script, and in which mode.
pub struct Checking {
    mode: Mode,
    checker: Checker,
    /// The declarations of the last snapshot checked against.
    declarations: Mutex<Option<(Weak<AssetIndex>, Declarations)>>,
}

/// What the check says about a run.
pub(crate) enum Preflight {
    /// Do not run: this is the envelope.
    Stop(Box<Envelope>),
    /// Run, and report these beside the result.
    Go(Vec<Diagnostic>),
}

impl Checking {
    /// Checks scripts with `checker` in `mode`.
    pub fn new(mode: Mode, checker: Checker) -> Checking {
        Checking {
            mode,
            checker,
            declarations: Mutex::new(None),
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The checker.
    pub fn checker(&self) -> &Checker {
        &self.checker
    }

    /// The declarations of `index` (with `registry`'s upstream servers), built the first
    /// time a script of this snapshot is checked.
    pub fn declarations(&self, registry: &Registry, index: &Arc<AssetIndex>) -> Declarations {
        let mut held = self.declarations.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((snapshot, declarations)) = held.as_ref() {
            if snapshot.upgrade().is_some_and(|s| Arc::ptr_eq(&s, index)) {
                return declarations.clone();
            }
        }
        let text = crate::host::definitions(index, &registry.upstream_views(index));
        let declarations = Declarations::new(text);
        *held = Some((Arc::downgrade(index), declarations.clone()));
        declarations
    }

    /// Checks `source` before it runs over `index`. A checker problem is a diagnostic,
    /// never a reason not to run.
    pub(crate) fn preflight(
        &self,
        registry: &Registry,
        index: &Arc<AssetIndex>,
        source: &str,
        session: bool,
    ) -> Preflight {
        if self.mode == Mode::Off {
            return Preflight::Go(Vec::new());
        }
        let declarations = self.declarations(registry, index);
        let checked = match self.checker.check(&declarations, source) {
            Ok(checked) => checked,
            Err(problem) => {
                tracing::info!("{problem}");
                return Preflight::Go(vec![Diagnostic::note(problem.to_string())]);
            }
        };
        let mut verdict = judge(source, checked.diagnostics, self.mode, session);
        if checked.timed_out {
            verdict.report.push(Diagnostic::note(format!(
                "the type check stopped at its {} ms limit; what it found so far is shown and the rest of the script ran unchecked",
                self.checker.timeout().as_millis()
            )));
        }
        match verdict.stop {
            None => Preflight::Go(verdict.report),
            Some((error, tool)) => {
                let hint = hint(index, tool.as_deref());
                let mut envelope = super::pool::refused(ErrorKind::Type, &error.message);
                envelope.error = Some(
                    ScriptError {
                        kind: ErrorKind::Type,
                        message: error.message,
                        line: Some(error.line),
                        column: Some(error.column),
                        hint: Some(hint),
                        limit: None,
                    }
                    .bounded(),
                );
                envelope.diagnostics = verdict.report;
                Preflight::Stop(Box::new(envelope))
            }
        }
    }
}

/// What the checker says about a tool's `init.luau`.
#[derive(Debug, Clone, Default)]
pub struct ToolCheck {
    /// Errors certain to fail when the tool runs (a call of another tool that does not
    /// fit it, a field its result does not have).
    pub errors: Vec<Diagnostic>,
    /// Everything else strict mode says (reported, never a reason to refuse the tool).
    pub others: Vec<Diagnostic>,
}

impl Checking {
    /// Checks a tool's source against the declarations of `index`. Its toolbox modules
    /// stand for `any` (see [`tool_source`]).
    pub fn check_tool(
        &self,
        registry: &Registry,
        index: &Arc<AssetIndex>,
        source: &str,
    ) -> Result<ToolCheck, CheckerError> {
        let declarations = self.declarations(registry, index);
        let source = tool_source(source);
        let checked = self.checker.check(&declarations, &source)?;
        let (errors, others) = sort(&source, checked.diagnostics, false);
        Ok(ToolCheck {
            errors: errors.into_iter().map(|(d, _)| d).collect(),
            others,
        })
    }
}

/// What to do about a type error at a call of `tool` (`box.tool`, or `tools.fn` for a
/// function of `tools`): the tool's signature, or the names close to a misspelt one.
fn hint(index: &AssetIndex, tool: Option<&str>) -> String {
    const NOTHING_RAN: &str = "nothing ran: the script was type-checked against the tools' declarations (`codemode types`) first";
    let Some(tool) = tool else {
        return format!("{NOTHING_RAN}; fix the line, or run with --check warn to run it anyway");
    };
    if let Some(function) = tool.strip_prefix("tools.") {
        return format!("{NOTHING_RAN}; tools.help() lists the functions of tools with an example each (tools.{function} is called here)");
    }
    if let Some(entry) = index.tool(tool) {
        let meta = entry.meta();
        if let Some(signature) = meta.signature.as_deref() {
            return format!(
                "{NOTHING_RAN}; the signature is tools.{}.{signature} (tools.get('{tool}') has the details)",
                meta.toolbox
            );
        }
        return format!("{NOTHING_RAN}; tools.get('{tool}') describes the tool");
    }
    let (toolbox, name) = tool.split_once('.').unwrap_or((tool, ""));
    if !index.has_toolbox(toolbox) {
        let near = closest(name_list(index.toolbox_names()), toolbox);
        return format!(
            "{NOTHING_RAN}; there is no toolbox `{toolbox}`{near}; tools.toolboxes() lists them"
        );
    }
    let names: Vec<String> = index
        .tools_in(toolbox)
        .filter(|t| t.is_registered())
        .map(|t| t.name().to_string())
        .collect();
    let near = closest(names, name);
    format!("{NOTHING_RAN}; the toolbox `{toolbox}` has no tool `{name}`{near}; tools.list('{toolbox}', 3) lists its tools with their signatures")
}

fn name_list(names: Vec<&str>) -> Vec<String> {
    names.into_iter().map(str::to_string).collect()
}

/// ", did you mean `x`?" for the name most like `wanted`, when one is close.
fn closest(names: Vec<String>, wanted: &str) -> String {
    names
        .into_iter()
        .map(|n| (strsim::jaro_winkler(&n.to_lowercase(), &wanted.to_lowercase()), n))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}
