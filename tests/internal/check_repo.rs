//! The repository's own Luau, type-checked against the declarations `codemode types`
//! writes: the bundled toolboxes (each tool and module), the prelude, and every spec
//! script under `tests/luau/` (against its own world). None may hold an error the default
//! mode is certain of; a spec that calls a tool wrongly on purpose says so with a
//! `--!type-error` header line. What strict mode says besides is counted and printed.

use super::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::check::Checking;
use crate::check::{judge, tool_source, Checker, Known, Mode, Severity};
use crate::registry::Registry;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn checking() -> Checking {
    let checker = Checker::with_program(Ok(common::checker_bin()), Duration::from_secs(10));
    Checking::new(Mode::Certain, checker)
}

fn header<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    source
        .lines()
        .take_while(|l| l.starts_with("--"))
        .find_map(|l| l.strip_prefix(&format!("--!{key} ")))
        .map(str::trim)
}

#[test]
fn the_bundled_toolboxes_and_the_prelude_hold_no_certain_type_error() {
    let world = tempfile::tempdir().unwrap();
    let registry = Registry::open(world.path(), &[], true).unwrap();
    let index = registry.snapshot();
    let checking = checking();
    let mut certain = Vec::new();
    let mut strict = 0;
    let mut files = 0;
    // Each tool with its toolbox folder, whose modules type what it requires.
    let mut sources: Vec<(String, String, Option<_>)> = index
        .tools
        .values()
        .filter_map(|t| {
            let folder = index.folder(&t.folder).cloned();
            Some((t.path(), t.source()?.to_string(), folder))
        })
        .collect();
    for folder in index.folders.values() {
        for module in &folder.modules {
            let path = root()
                .join("toolboxes")
                .join(format!("{}.toolbox", folder.name))
                .join(format!("{}.module/init.luau", module.name));
            if let Ok(source) = std::fs::read_to_string(&path) {
                sources.push((path.display().to_string(), source, None));
            }
        }
    }
    let prelude = root().join("prelude/tools.luau");
    sources.push((
        prelude.display().to_string(),
        std::fs::read_to_string(&prelude).unwrap(),
        None,
    ));
    for (path, source, folder) in &sources {
        files += 1;
        let found = checking
            .check_tool(&registry, &index, folder.as_deref(), source)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        certain.extend(
            found
                .errors
                .iter()
                .map(|d| format!("{path}:{}:{}: {}", d.line, d.column, d.message)),
        );
        strict += found
            .others
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
    }
    println!("{files} files checked; strict mode reports {strict} more errors (new-solver inference the default mode does not act on)");
    assert!(files > 40, "only {files} files were checked");
    assert!(
        certain.is_empty(),
        "certain type errors:\n{}",
        certain.join("\n")
    );
}

#[test]
fn the_spec_scripts_hold_no_certain_type_error() {
    let specs: Vec<PathBuf> = walkdir::WalkDir::new(root().join("tests/luau"))
        .into_iter()
        .flatten()
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "luau"))
        .collect();
    let checking = checking();
    let temp = tempfile::tempdir().unwrap();
    let mut stopped = Vec::new();
    let mut marked_but_clean = Vec::new();
    for path in &specs {
        let source = std::fs::read_to_string(path).unwrap();
        let world = match header(&source, "world") {
            Some(dir) => root().join("tests/worlds").join(dir),
            None => temp.path().to_path_buf(),
        };
        let bundled =
            header(&source, "world").is_none() || source.lines().any(|l| l.trim() == "--!bundled");
        let registry = Arc::new(Registry::open(&world, &[], bundled).unwrap());
        let index = registry.snapshot();
        let declarations = checking.declarations(&registry, &index, &source);
        let found = checking
            .checker()
            .check(&declarations, &tool_source(&source))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let verdict = judge(&source, found.diagnostics, Mode::Certain, false, |_| {
            Known::default()
        });
        let on_purpose = source.lines().any(|l| l.starts_with("--!type-error"));
        match (verdict.stop, on_purpose) {
            (Some((d, _)), false) => stopped.push(format!(
                "{}:{}:{}: {}",
                path.display(),
                d.line,
                d.column,
                d.message
            )),
            (None, true) => marked_but_clean.push(path.display().to_string()),
            _ => {}
        }
    }
    assert!(specs.len() > 50, "only {} specs", specs.len());
    assert!(
        stopped.is_empty(),
        "spec scripts the default mode would refuse (fix them, or mark a deliberate mistake with --!type-error):\n{}",
        stopped.join("\n")
    );
    assert!(
        marked_but_clean.is_empty(),
        "specs marked --!type-error hold none: {marked_but_clean:?}"
    );
}
