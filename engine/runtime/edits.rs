//! Tools checked as they are edited: when a long-running process (`serve`, `repl`) swaps
//! in a snapshot its file watcher (or a write) brought, each tool that changed is reported
//! when it does not compile, or type-checked when it does, so a mistake shows when it is
//! saved rather than when the tool is first called. The tool stays callable either way.

use std::sync::{Arc, Weak};

use crate::assets::{AssetIndex, ToolEntry};
use crate::check::{Checking, Diagnostic};
use crate::registry::Registry;

/// The most changed tools checked for one snapshot: a reload of a whole world is not
/// an edit, and checking every tool of it would hold the checker for minutes.
const MAX_CHECKED: usize = 32;

/// What is wrong with one edited tool.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum EditReport {
    /// It does not load as a callable tool (a compile error, a bad `.metadata`): why.
    Broken {
        /// `box.name`.
        identity: String,
        /// The reason listings show.
        reason: String,
    },
    /// It loads; the checker found errors certain to fail when it runs.
    Typed {
        /// `box.name`.
        identity: String,
        /// The errors, at the lines of its `init.luau`.
        errors: Vec<Diagnostic>,
    },
}

impl std::fmt::Display for EditReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditReport::Broken { identity, reason } => {
                write!(f, "{identity} is not callable: {reason}")
            }
            EditReport::Typed { identity, errors } => {
                write!(f, "{identity} has type errors (it stays callable):")?;
                for d in errors {
                    write!(f, " line {}, column {}: {};", d.line, d.column, d.message)?;
                }
                Ok(())
            }
        }
    }
}

/// Starts a thread that, for each snapshot `registry` swaps in, hands `report` what is
/// wrong with the tools that changed. It ends when the registry is dropped.
pub(crate) fn check_edits(
    checking: Arc<Checking>,
    registry: &Arc<Registry>,
    report: impl Fn(EditReport) + Send + 'static,
) -> std::io::Result<()> {
    let mut changes = registry.subscribe();
    let weak: Weak<Registry> = Arc::downgrade(registry);
    let mut seen = registry.snapshot();
    std::thread::Builder::new()
        .name("codemode-check-edits".into())
        .spawn(move || {
            let Ok(waiter) = tokio::runtime::Builder::new_current_thread().build() else {
                return;
            };
            while waiter.block_on(changes.changed()).is_ok() {
                let Some(registry) = weak.upgrade() else {
                    return;
                };
                let now = registry.snapshot();
                for found in edited(&checking, &registry, &seen, &now) {
                    report(found);
                }
                seen = now;
            }
        })
        .map(|_| ())
}

/// What is wrong with the tools of `now` that are new or changed since `before`.
fn edited(
    checking: &Checking,
    registry: &Registry,
    before: &AssetIndex,
    now: &Arc<AssetIndex>,
) -> Vec<EditReport> {
    let changed: Vec<&Arc<ToolEntry>> = now
        .tools
        .iter()
        .filter(|(id, entry)| !before.tools.get(*id).is_some_and(|b| Arc::ptr_eq(b, entry)))
        .map(|(_, entry)| entry)
        .take(MAX_CHECKED + 1)
        .collect();
    if changed.len() > MAX_CHECKED {
        tracing::info!(
            "more than {MAX_CHECKED} tools changed at once; they are not type-checked (`codemode check` checks them all)"
        );
        return Vec::new();
    }
    let mut reports = Vec::new();
    for entry in changed {
        let identity = entry.identity.clone();
        if !entry.is_registered() {
            if let Some(reason) = entry.reason() {
                reports.push(EditReport::Broken {
                    identity,
                    reason: reason.to_string(),
                });
            }
            continue;
        }
        let Some(source) = entry.source() else {
            continue;
        };
        let folder = now.folder(&entry.folder).map(|f| f.as_ref());
        match checking.check_tool(registry, now, folder, source) {
            Ok(found) if !found.errors.is_empty() => reports.push(EditReport::Typed {
                identity,
                errors: found.errors,
            }),
            Ok(_) => {}
            Err(e) => tracing::info!("{identity} was not type-checked: {e}"),
        }
    }
    reports
}
