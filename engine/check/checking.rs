//! The checker an engine asks, in which mode, and the declarations of the last index
//! snapshot it checked against (built once per snapshot and toolbox set, shared by every
//! run).
//!
//! A process that checks one script and exits (`codemode run`, `codemode exec`) shares
//! nothing: it declares in full only the toolboxes the script names when that gives the
//! verdict the whole world's declarations give (see [`super::named::only_by_name`]), so
//! neither the engine (reading and compiling every tool to declare it) nor the checker
//! (loading every declaration) works for toolboxes the script never reaches.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, Weak};

use super::literal::{OptionLiteral, RecentLiterals};
use super::named::only_by_name;
use super::replies::Recent;
use super::{named_toolboxes, sort, with_modules, Checker, CheckerError, Declarations};
use super::{Checked, Diagnostic, Mode, Replies};
use crate::assets::AssetIndex;

/// A world of at most this many tools is declared whole for every script: its
/// declarations load once per snapshot and every script is checked against them. A larger
/// world declares in full only the toolboxes a script names, so a check costs the same in
/// a world of 100,000 tools as in one of 1,000.
pub(crate) const WHOLE_WORLD_TOOLS: usize = 1_000;

/// The most tools a script's declarations hold in full in a larger world; toolboxes it
/// names past this are typed `any` (checked less, never refused), so a script that names
/// every toolbox cannot make its declarations as large as the world.
pub(crate) const MAX_DECLARED_TOOLS: usize = 1_000;

/// The most toolbox names read from one script.
const MAX_NAMED_TOOLBOXES: usize = 64;

/// How many toolbox sets' declarations are kept per snapshot: a server's scripts come back
/// to the same few toolboxes.
const KEPT_SETS: usize = 8;

/// The checker runs ask before a script (or after a tool is written), and in which mode.
pub(crate) struct Checking {
    mode: Mode,
    checker: Checker,
    /// True when each script is declared for on its own (see [`Checking::one_shot`]).
    one_shot: bool,
    /// What the checker said about the last scripts.
    recent: Recent,
    /// The option literals of the last scripts.
    literals: RecentLiterals,
    /// What it said about scripts before, kept on disk (see
    /// [`Checking::keeping_replies`]).
    replies: Option<Replies>,
    /// The declarations built for the last snapshot checked against.
    declarations: Mutex<Option<Held>>,
    /// What the check of a script asked ahead of its run found, or why it failed (see
    /// `Checking::check_ahead`), for the run to take: asked again, a broken checker
    /// would say only that it cools down.
    ahead: Mutex<Option<(String, Result<Checked, CheckerError>)>>,
}

/// Declarations built for one snapshot and one state of the upstream catalogues, most
/// recently used last.
struct Held {
    snapshot: Weak<AssetIndex>,
    /// [`Checking::declarations_for`]'s `catalogues`: a server's tools fetched or
    /// refreshed change what a script may call without a new snapshot.
    catalogues: u64,
    built: Vec<Built>,
}

/// One set of declarations.
struct Built {
    /// The toolboxes a script's declarations hold in full (`None`: all of them).
    named: Option<BTreeSet<String>>,
    declarations: Declarations,
    /// How far they were cut back after the checker could not load them: 0 not at all,
    /// 1 with the upstream servers typed `any`, 2 with every toolbox typed `any`.
    degraded: u8,
}

/// What the checker says about a tool's `init.luau`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolCheck {
    /// Errors certain to fail when the tool runs (a call of another tool that does not
    /// fit it, a field its result does not have).
    pub errors: Vec<Diagnostic>,
    /// Everything else strict mode says (reported, never a reason to refuse the tool).
    pub others: Vec<Diagnostic>,
}

impl Checking {
    /// Checks with `checker` in `mode`.
    pub(crate) fn new(mode: Mode, checker: Checker) -> Checking {
        Checking {
            mode,
            checker,
            one_shot: false,
            recent: Recent::default(),
            literals: RecentLiterals::default(),
            replies: None,
            declarations: Mutex::new(None),
            ahead: Mutex::new(None),
        }
    }

    /// The same, keeping what the checker says about each script in `world` (see
    /// [`Replies`]), and reading it back for a script checked before against the same
    /// declarations: for a process that runs one script (a server's checker is warm).
    /// Nothing is kept in a world without a `.codemode/` folder.
    pub(crate) fn keeping_replies(mut self, world: &std::path::Path) -> Checking {
        self.replies = self
            .checker
            .identity()
            .and_then(|identity| Replies::of(world, identity));
        self
    }

    /// The table literals `source` passes straight to tools (see
    /// [`super::literal::option_literals`]), read once for the last scripts.
    pub(crate) fn option_literals(&self, source: &str) -> Arc<[OptionLiteral]> {
        self.literals.of(source)
    }

    /// True when what the checker said about `source` was kept (against some
    /// declarations): a process need not start the checker ahead for it.
    pub(crate) fn holds_reply(&self, source: &str) -> bool {
        // As the run reads it (see `Runtime::run`).
        let source = source.strip_prefix(crate::assets::BOM).unwrap_or(source);
        self.replies.as_ref().is_some_and(|r| r.holds(source))
    }

    /// What the checker said about `source` against `declarations`, when it was kept: by
    /// this process, for one of the last scripts it checked, or on disk.
    pub(crate) fn kept_reply(&self, declarations: &Declarations, source: &str) -> Option<Checked> {
        self.recent
            .get(declarations, source)
            .or_else(|| self.replies.as_ref()?.get(declarations, source))
    }

    /// What the checker said about `source` against declarations built from what `name`
    /// names (see `crate::host::named_inputs`), when it was kept on disk.
    pub(crate) fn kept_by_name(&self, name: &str, source: &str) -> Option<Checked> {
        self.replies.as_ref()?.get_named(name, source)
    }

    /// Keeps what the checker said about `source` against `declarations` (see
    /// [`Checking::kept_reply`]).
    pub(crate) fn keep_reply(&self, declarations: &Declarations, source: &str, checked: &Checked) {
        self.recent.put(declarations, source, checked);
        if let Some(replies) = &self.replies {
            replies.put(declarations, source, checked);
        }
    }

    /// Keeps what the check of `source` asked ahead of its run came to.
    pub(crate) fn put_ahead(&self, source: &str, checked: Result<Checked, CheckerError>) {
        *self.ahead.lock().unwrap_or_else(|e| e.into_inner()) = Some((source.to_string(), checked));
    }

    /// What the check of `source` asked ahead of its run came to, once.
    pub(crate) fn take_ahead(&self, source: &str) -> Option<Result<Checked, CheckerError>> {
        let mut ahead = self.ahead.lock().unwrap_or_else(|e| e.into_inner());
        match ahead.take() {
            Some((asked, checked)) if asked == source => Some(checked),
            other => {
                *ahead = other;
                None
            }
        }
    }

    /// The same, for a process that checks one script: a script that reaches toolboxes
    /// only by their names is checked against declarations holding those in full (the
    /// others typed `any`), which its verdict does not tell from the whole world's; any
    /// other script against the whole world's. A process that checks many (a server, a
    /// REPL) loads the whole world's once and checks each script against them.
    pub(crate) fn one_shot(mut self) -> Checking {
        self.one_shot = true;
        self
    }

    /// Whether `source` is sent to the checker. Under `certain` only a mistake at a call
    /// into the host stops a run (see `verdict.rs`), and a script that names no host
    /// global (see [`super::HOST_GLOBALS`]) makes none: it is not checked, and a one-shot
    /// run of it starts no checker process (which costs more than the run).
    pub(crate) fn decides(&self, source: &str) -> bool {
        match self.mode {
            Mode::Off => false,
            Mode::Certain => !super::reaches_no_host(source),
            Mode::Warn | Mode::Strict => true,
        }
    }

    /// The mode.
    pub(crate) fn mode(&self) -> Mode {
        self.mode
    }

    /// The checker.
    pub(crate) fn checker(&self) -> &Checker {
        &self.checker
    }

    /// The toolboxes the declarations for `source` hold in full (`None`: all of them; see
    /// [`Checking::declarations_for`]).
    pub(crate) fn in_full(
        &self,
        index: &AssetIndex,
        upstream: &[(&str, usize)],
        source: &str,
    ) -> Option<BTreeSet<String>> {
        let tools = index.tools.len() + upstream.iter().map(|(_, n)| n).sum::<usize>();
        if tools > WHOLE_WORLD_TOOLS {
            Some(declared_in_full(index, upstream, source))
        } else if self.one_shot {
            exactly_named(index, upstream, source)
        } else {
            None
        }
    }

    /// The declarations to check `source` against over `index` and the `upstream` servers
    /// (each name with its number of tools): those built for it before, else
    /// `text(named)` (what `codemode types` writes for it, declaring in full only the
    /// toolboxes `named` holds, or all when it is `None`), kept for the next check of the
    /// same snapshot. A world of at most [`WHOLE_WORLD_TOOLS`] tools (upstream ones
    /// counted) is declared whole; a larger one only as far as `source` names its
    /// toolboxes. `catalogues` tells one state of the upstream catalogues from another
    /// (see `crate::upstream::ServerView::stamp`): declarations built for another are
    /// built again.
    pub(crate) fn declarations_for(
        &self,
        index: &Arc<AssetIndex>,
        upstream: &[(&str, usize)],
        catalogues: u64,
        source: &str,
        text: impl FnOnce(Option<&BTreeSet<String>>) -> String,
    ) -> Declarations {
        let named = self.in_full(index, upstream, source);
        let mut held = self.declarations.lock().unwrap_or_else(|e| e.into_inner());
        let current = held.as_ref().is_some_and(|h| {
            h.catalogues == catalogues
                && h.snapshot.upgrade().is_some_and(|s| Arc::ptr_eq(&s, index))
        });
        if !current {
            *held = Some(Held {
                snapshot: Arc::downgrade(index),
                catalogues,
                built: Vec::new(),
            });
        }
        let Some(held) = held.as_mut() else {
            return Declarations::new(text(named.as_ref()));
        };
        if let Some(at) = held.built.iter().position(|b| b.named == named) {
            let found = held.built.remove(at);
            let declarations = found.declarations.clone();
            held.built.push(found);
            return declarations;
        }
        let declarations = Declarations::new(text(named.as_ref()));
        if held.built.len() >= KEPT_SETS {
            held.built.remove(0);
        }
        held.built.push(Built {
            named,
            declarations: declarations.clone(),
            degraded: 0,
        });
        declarations
    }

    /// Declarations to use in place of `failed` (built by [`Checking::declarations_for`]
    /// over `index`), which the checker could not load: the same with the `upstream`
    /// servers typed `any` (their schemas are what the engine does not write), or, when
    /// that failed too, with every toolbox typed `any` (the `tools` functions are still
    /// checked). `None` when there is nothing left to cut. They are kept in place of
    /// `failed`, so later scripts do not load it again.
    pub(crate) fn degraded(
        &self,
        index: &Arc<AssetIndex>,
        upstream: &[(&str, usize)],
        failed: &Declarations,
        text: impl FnOnce(Option<&BTreeSet<String>>) -> String,
    ) -> Option<Declarations> {
        let mut held = self.declarations.lock().unwrap_or_else(|e| e.into_inner());
        let built = held
            .as_mut()?
            .built
            .iter_mut()
            .find(|b| b.declarations.is(failed));
        let (named, degraded) = match &built {
            Some(b) => (b.named.clone(), b.degraded),
            // Let go of already: what it named is not known, so nothing is declared.
            None => (None, 1),
        };
        let (set, level) = match degraded {
            0 if !upstream.is_empty() => {
                let all = || {
                    index
                        .toolbox_names()
                        .into_iter()
                        .map(str::to_string)
                        .collect()
                };
                let mut set: BTreeSet<String> = named.unwrap_or_else(all);
                set.retain(|name| !upstream.iter().any(|(u, _)| u == name));
                (set, 1)
            }
            0 | 1 => (BTreeSet::new(), 2),
            _ => return None,
        };
        let declarations = Declarations::new(text(Some(&set)));
        if let Some(built) = built {
            built.declarations = declarations.clone();
            built.degraded = level;
        }
        Some(declarations)
    }

    /// Checks a tool's source against `declarations`, each toolbox module it requires
    /// typed from the module's source (`module` gives it by name; one it does not give
    /// stands for `any`). What the checker says about a module's own lines is left out:
    /// the tool is what is checked.
    pub(crate) fn check_tool_with<'a>(
        &self,
        declarations: &Declarations,
        source: &str,
        module: impl Fn(&str) -> Option<&'a str>,
    ) -> Result<ToolCheck, CheckerError> {
        let checked = with_modules(source, module);
        let found = self.checker.check(declarations, &checked.text)?;
        let (errors, others) = sort(&checked.text, found.diagnostics, false);
        let offset = checked.offset;
        let own = |mut d: Diagnostic| {
            (d.line > offset).then(|| {
                d.line -= offset;
                d
            })
        };
        // A probe of an optional tool is only reported: a tool may look for another.
        let (probes, errors): (Vec<_>, Vec<_>) = errors.into_iter().partition(|c| c.probe);
        let mut others: Vec<Diagnostic> = probes
            .into_iter()
            .map(|c| c.diagnostic)
            .chain(others)
            .filter_map(own)
            .collect();
        others.sort_by_key(|d| (d.line, d.column));
        Ok(ToolCheck {
            errors: errors
                .into_iter()
                .filter_map(|c| own(c.diagnostic))
                .collect(),
            others,
        })
    }
}

/// The toolboxes a script of a small world reaches, when declaring only those in full
/// gives the verdict the whole world's declarations give: it reaches `tools` only by
/// literal names, and each is a toolbox (of `index` or `upstream`) or a function of
/// `tools`. A misspelt name is left to the whole world's declarations, so the checker's
/// message about it is the one it always gives.
fn exactly_named(
    index: &AssetIndex,
    upstream: &[(&str, usize)],
    source: &str,
) -> Option<BTreeSet<String>> {
    if !only_by_name(source) {
        return None;
    }
    let named = named_toolboxes(source, usize::MAX);
    let known = |name: &String| {
        index.has_toolbox(name)
            || upstream.iter().any(|(u, _)| u == name)
            || crate::types::surface_functions().iter().any(|f| {
                f.identity
                    .strip_prefix("tools.")
                    .and_then(|rest| rest.split('.').next())
                    == Some(name.as_str())
            })
    };
    named.iter().all(known).then_some(named)
}

/// The toolboxes `source` names that its declarations hold in full: in name order, as
/// long as their tools (a folder toolbox's, or an `upstream` server's) fit
/// [`MAX_DECLARED_TOOLS`]. Names of no toolbox are kept (a misspelt one stays unknown).
fn declared_in_full(
    index: &AssetIndex,
    upstream: &[(&str, usize)],
    source: &str,
) -> BTreeSet<String> {
    let mut budget = MAX_DECLARED_TOOLS;
    named_toolboxes(source, MAX_NAMED_TOOLBOXES)
        .into_iter()
        .filter(|name| {
            let served = upstream.iter().find(|(u, _)| u == name).map(|(_, n)| *n);
            let tools = index.tools_in(name).count() + served.unwrap_or(0);
            let fits = tools <= budget;
            if fits {
                budget -= tools;
            }
            fits
        })
        .collect()
}
