//! The checker an engine asks, in which mode, and the declarations of the last index
//! snapshot it checked against (built once per snapshot, shared by every run).

use std::sync::{Arc, Mutex, Weak};

use super::{sort, tool_source, Checker, CheckerError, Declarations, Diagnostic, Mode};
use crate::assets::AssetIndex;

/// The checker runs ask before a script (or after a tool is written), and in which mode.
pub struct Checking {
    mode: Mode,
    checker: Checker,
    /// The declarations of the last snapshot checked against.
    declarations: Mutex<Option<(Weak<AssetIndex>, Declarations)>>,
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
    /// Checks with `checker` in `mode`.
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

    /// The declarations of `index`: those built for it before, else `text()` (what
    /// `codemode types` writes for it), kept for the next check of the same snapshot.
    pub fn declarations_for(
        &self,
        index: &Arc<AssetIndex>,
        text: impl FnOnce() -> String,
    ) -> Declarations {
        let mut held = self.declarations.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((snapshot, declarations)) = held.as_ref() {
            if snapshot.upgrade().is_some_and(|s| Arc::ptr_eq(&s, index)) {
                return declarations.clone();
            }
        }
        let declarations = Declarations::new(text());
        *held = Some((Arc::downgrade(index), declarations.clone()));
        declarations
    }

    /// Checks a tool's source against `declarations`. Its toolbox modules stand for
    /// `any` (see [`tool_source`]).
    pub fn check_tool_against(
        &self,
        declarations: &Declarations,
        source: &str,
    ) -> Result<ToolCheck, CheckerError> {
        let source = tool_source(source);
        let checked = self.checker.check(declarations, &source)?;
        let (errors, others) = sort(&source, checked.diagnostics, false);
        Ok(ToolCheck {
            errors: errors.into_iter().map(|(d, _)| d).collect(),
            others,
        })
    }
}
