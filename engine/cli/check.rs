//! `codemode check`: every broken tool and why.

use std::process::ExitCode;

use codemode::bind::Schema;

use super::Cli;

/// Prints each problem; exit 1 if a tool is not callable or the world has problems.
pub fn check(cli: &Cli) -> anyhow::Result<ExitCode> {
    let registry = cli.registry()?;
    let index = registry.snapshot();
    // The files cannot always say whether a tool returns a function (`return make()`): each
    // tool is loaded once in the sandbox, under the limits, as a script calling it would.
    let mut runtime = codemode::Runtime::new(registry.clone(), cli.limits())?;
    let mut broken = 0;
    let mut unloadable = 0;
    let mut warned = 0;
    for entry in index.tools.values() {
        let reason = match entry.reason() {
            Some(reason) => Some(reason.to_string()),
            None => load_failure(&mut runtime, &entry.identity),
        };
        if let Some(reason) = reason {
            broken += 1;
            unloadable += usize::from(entry.is_registered());
            outln!("error: {} ({}): {reason}", entry.identity, entry.path())?;
        }
        for warning in entry.warnings() {
            warned += 1;
            outln!("warning: {}: {warning}", entry.identity)?;
        }
        for flag in Schema::ignored_flags(entry.meta()) {
            warned += 1;
            let names: Vec<&str> = entry.meta().args.iter().map(|a| a.name.as_str()).collect();
            let listed = match names.as_slice() {
                [] => "it takes none".to_string(),
                _ => format!("its parameters are {}", names.join(", ")),
            };
            outln!(
                "warning: {}: `--!flag {flag}` names no parameter ({listed}) nor options field; a flag sets the boolean parameter or field of its name",
                entry.identity
            )?;
        }
    }
    for summary in index.toolboxes().iter().filter(|s| s.shadows) {
        println!(
            "note: toolbox {0}: the world's {0}.toolbox shadows the library toolbox {0}; its tools replace the library's of the same name, the library's others still show",
            summary.toolbox
        );
    }
    for problem in index.problems.iter().chain(registry.upstream_problems()) {
        broken += 1;
        outln!("error: {problem}")?;
    }
    // Modules compile on first use; check compiles every one.
    for folder in index.folders.values() {
        for module in &folder.modules {
            if let Err(e) = module.bytecode() {
                broken += 1;
                outln!("error: {e}")?;
            }
        }
    }
    let callable = index.tools.values().filter(|t| t.is_registered()).count() - unloadable;
    outln!(
        "{} in {}: {callable} callable, {}, {}",
        counted(index.tools.len(), "tool", "tools"),
        counted(index.toolbox_names().len(), "toolbox", "toolboxes"),
        counted(broken, "problem", "problems"),
        counted(warned, "warning", "warnings"),
    )?;
    Ok(if broken > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Why loading the tool in the sandbox did not give a function, if it did not.
fn load_failure(runtime: &mut codemode::Runtime, identity: &str) -> Option<String> {
    let envelope = runtime.surface("get", vec![serde_json::json!(identity)]);
    if let Some(error) = envelope.error {
        return Some(format!("loading it failed: {}", error.message));
    }
    let row = envelope.value?;
    (row["registered"] == serde_json::json!(false)).then(|| {
        row["reason"]
            .as_str()
            .unwrap_or("it does not load as a function")
            .to_string()
    })
}

/// `1 toolbox`, `2 toolboxes`.
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
