//! What each check mode keeps of a run's diagnostics (`engine/check/mode.rs`).

use crate::check::Severity;
use crate::check::*;

#[test]
fn a_run_that_worked_under_certain_carries_warnings_but_no_errors_or_quiet_notes() {
    let error = Diagnostic {
        line: 2,
        column: 1,
        severity: Severity::Error,
        message: "Key 'x' not found".into(),
        kind: crate::check::Kind::Other { types: Vec::new() },
        quiet: false,
    };
    let warning = Diagnostic {
        severity: Severity::Warning,
        message: "has no field \"seperator\"".into(),
        ..error.clone()
    };
    let loading = Diagnostic::note("the type checker is still loading").quiet();
    let again = Diagnostic {
        column: 9,
        ..loading.clone()
    };
    let all = vec![
        error.clone(),
        warning.clone(),
        loading.clone(),
        warning.clone(),
        again,
    ];
    assert_eq!(
        Mode::Certain.shown(true, all.clone()),
        vec![warning.clone()]
    );
    assert_eq!(
        Mode::Certain.shown(false, all.clone()),
        vec![error.clone(), warning.clone(), loading.clone()]
    );
    assert_eq!(Mode::Warn.shown(true, all.clone()).len(), 3);
}
