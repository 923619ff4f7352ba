//! `codemode check`: every broken tool and why.

use std::process::ExitCode;

use crate::bind::Schema;

use super::globals::Globals;

/// Prints each problem; exit 1 if a tool is not callable or the world has problems.
pub(crate) fn check(cli: &Globals) -> anyhow::Result<ExitCode> {
    let registry = cli.unsearched_registry()?;
    let index = registry.snapshot();
    // The files cannot always say whether a tool returns a function (`return make()`): each
    // tool is loaded once in the sandbox, under the limits, as a script calling it would.
    let mut runtime = crate::runtime::Runtime::new(registry.clone(), cli.limits())?;
    let mut broken = 0;
    let mut unloadable = 0;
    let mut warned = 0;
    for entry in index.tools.values() {
        let reason = match entry.reason() {
            Some(reason) => Some(reason.to_string()),
            None => load_failure(&mut runtime, &entry.identity),
        };
        // A toolbox's own bad name is one problem, said once below for its folder, not
        // again for each of its tools.
        let of_the_toolbox = reason
            .as_deref()
            .is_some_and(|r| r.starts_with("toolbox name '"));
        if let Some(reason) = reason.filter(|_| !of_the_toolbox) {
            broken += 1;
            unloadable += usize::from(entry.is_registered());
            outln!("error: {} ({}): {reason}", entry.identity, entry.path())?;
        }
        for warning in entry.warnings() {
            warned += 1;
            outln!("warning: {}: {warning}", entry.identity)?;
        }
        for unknown in misspelt_types(entry) {
            warned += 1;
            outln!("warning: {}: {unknown}", entry.identity)?;
        }
        for ignored in Schema::ignored_docs(entry.meta()) {
            warned += 1;
            outln!("warning: {}: {ignored}", entry.identity)?;
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
    let (type_errors, type_warnings) = check_types(cli, &registry, &index)?;
    broken += type_errors;
    warned += type_warnings;
    for summary in index.toolboxes().iter().filter(|s| s.shadows) {
        println!(
            "note: toolbox {0}: the world's {0}.toolbox shadows the library toolbox {0}; its tools replace the library's of the same name, the library's others still show",
            summary.toolbox
        );
    }
    for problem in index.problems.iter().chain(&registry.upstream_problems()) {
        broken += 1;
        outln!("error: {problem}")?;
    }
    warned += check_servers(&registry)?;
    if let Some(warning) = super::globals::shell_warning(&registry) {
        warned += 1;
        outln!("warning: {warning}")?;
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

/// Type-checks each callable tool's `init.luau` against the world's declarations and
/// prints what it finds: certain errors always (a call of another tool that does not fit,
/// a field its result lacks), every error and warning with `--check strict`. The tool
/// stays callable. Returns the errors and warnings printed.
fn check_types(
    cli: &Globals,
    registry: &crate::registry::Registry,
    index: &std::sync::Arc<crate::assets::AssetIndex>,
) -> anyhow::Result<(usize, usize)> {
    use crate::check::{Mode, Severity};
    let Some(checking) = cli.checking() else {
        return Ok((0, 0));
    };
    let strict = checking.mode() == Mode::Strict;
    let (mut errors, mut warnings, mut quiet) = (0, 0, 0);
    for entry in index.tools.values().filter(|t| t.is_registered()) {
        let Some(source) = entry.source() else {
            continue;
        };
        let folder = index.folder(&entry.folder).map(|f| f.as_ref());
        let found = match checking.check_tool(registry, index, folder, source) {
            Ok(found) => found,
            Err(e) => {
                warnings += 1;
                outln!("warning: the tools were not type-checked: {e}")?;
                break;
            }
        };
        for d in &found.errors {
            errors += 1;
            outln!(
                "error: {} ({}): type error at line {}, column {}: {}",
                entry.identity,
                entry.path(),
                d.line,
                d.column,
                d.message
            )?;
        }
        // What strict mode adds is about how code is written: only the world's own tools
        // are the user's to change (the bundled library would fail every strict check).
        if entry.origin != crate::assets::Origin::World {
            continue;
        }
        for d in &found.others {
            if !strict {
                quiet += 1;
                continue;
            }
            let error = d.severity == Severity::Error;
            errors += usize::from(error);
            warnings += usize::from(!error);
            outln!(
                "{}: {} ({}): line {}, column {}: {}",
                if error { "error" } else { "warning" },
                entry.identity,
                entry.path(),
                d.line,
                d.column,
                d.message
            )?;
        }
    }
    if quiet > 0 {
        let things = if quiet == 1 { "thing" } else { "things" };
        outln!("note: the type checker's strict mode says {quiet} more {things} about the tools' code; `codemode check --check strict` lists them")?;
    }
    Ok((errors, warnings))
}

/// Why loading the tool in the sandbox did not give a function, if it did not.
fn load_failure(runtime: &mut crate::runtime::Runtime, identity: &str) -> Option<String> {
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

/// Warns of each configured MCP server whose tools were never fetched (a script calling
/// them waits for the fetch, and whether the server starts is not known), and of `"tools"`
/// entries naming none of a server's tools.
/// Starts no server. Returns how many warnings it printed.
fn check_servers(registry: &crate::registry::Registry) -> anyhow::Result<usize> {
    let Some(upstreams) = registry.upstreams() else {
        return Ok(0);
    };
    let mut warned = 0;
    for view in upstreams.views() {
        let problems = match &view.catalogue {
            None => vec![format!(
                "its tools are not fetched yet, so whether it starts is not known: a script's first use fetches them, and `codemode mcp sync {}` does it now and shows what goes wrong",
                view.name
            )],
            Some(catalogue) => upstreams
                .server(&view.name)
                .map(|config| config.settings.unmatched(&catalogue.tools))
                .unwrap_or_default(),
        };
        for problem in problems {
            warned += 1;
            outln!("warning: MCP server '{}': {problem}", view.original)?;
        }
    }
    Ok(warned)
}

/// What a tool's argument and result types name that reads as a misspelt Luau type
/// (`numbr`, one or two edits from `number`), when the tool does not define a type of that
/// name: the type is published as the signature and binds any value, so the mistake shows
/// nowhere else. (Docstring shorthands such as `int` and `bool` are types already.)
fn misspelt_types(entry: &crate::assets::ToolEntry) -> Vec<String> {
    let source = entry.source().unwrap_or_default();
    let meta = entry.meta();
    let typed = meta
        .args
        .iter()
        .map(|a| (format!("argument `{}`", a.name), a.ty.as_str()))
        .chain(
            meta.returns
                .iter()
                .map(|r| ("result".to_string(), r.ty.as_str())),
        );
    typed
        .filter_map(|(what, ty)| {
            let problem = crate::types::type_problem(ty)?;
            let name = problem.strip_prefix('`')?.split_once("` is not a type;")?.0;
            let meant = crate::types::KNOWN_TYPES
                .iter()
                .find(|known| strsim::damerau_levenshtein(name, known) <= 2)?;
            let defined = source.lines().any(|line| {
                let line = line.trim_start();
                let line = line.strip_prefix("export ").unwrap_or(line);
                line.strip_prefix("type ")
                    .and_then(|rest| rest.trim_start().strip_prefix(name))
                    .is_some_and(|rest| {
                        !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    })
            });
            (!defined).then(|| {
                format!(
                    "the {what} is typed `{ty}`, but `{name}` is not a Luau type and the tool \
                     defines none of that name; did you mean `{meant}`? (as written, it takes \
                     any value)"
                )
            })
        })
        .collect()
}
