//! `codemode check`: every broken tool and why.

use std::process::ExitCode;

use codemode::bind::Schema;

use super::Cli;

/// Prints each problem; exit 1 if a tool is not callable or the world has problems.
pub fn check(cli: &Cli) -> anyhow::Result<ExitCode> {
    let registry = cli.registry()?;
    let index = registry.snapshot();
    let mut broken = 0;
    let mut warned = 0;
    for entry in index.tools.values() {
        if let Some(reason) = entry.reason() {
            broken += 1;
            println!("error: {} ({}): {reason}", entry.identity, entry.path());
        }
        for warning in entry.warnings() {
            warned += 1;
            println!("warning: {}: {warning}", entry.identity);
        }
        for flag in Schema::ignored_flags(entry.meta()) {
            warned += 1;
            let names: Vec<&str> = entry.meta().args.iter().map(|a| a.name.as_str()).collect();
            let listed = match names.as_slice() {
                [] => "it takes none".to_string(),
                _ => format!("its parameters are {}", names.join(", ")),
            };
            println!(
                "warning: {}: `--!flag {flag}` names no parameter ({listed}) nor options field; a flag sets the boolean parameter or field of its name",
                entry.identity
            );
        }
    }
    for problem in index.problems.iter().chain(registry.upstream_problems()) {
        broken += 1;
        println!("error: {problem}");
    }
    // Modules compile on first use; check compiles every one.
    for folder in index.folders.values() {
        for module in &folder.modules {
            if let Err(e) = module.bytecode() {
                broken += 1;
                println!("error: {e}");
            }
        }
    }
    let total = index.tools.len();
    println!(
        "{total} tools in {} toolboxes: {} callable, {broken} problems, {warned} warnings",
        index.toolbox_names().len(),
        index.tools.values().filter(|t| t.is_registered()).count()
    );
    Ok(if broken > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
