//! The engine's module graph has no cycle, and no module imports one above it: each
//! folder under `engine/` may use (`crate::<module>`) only the modules listed for it
//! here, which is the graph `docs/architecture.md` draws. A new module must be placed.
//! What is outside the library (the binaries, the integration tests, the examples) can
//! reach only the facade `engine/lib.rs` re-exports: the compiler sees to that.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module and the modules it may import, lowest layers first.
const GRAPH: [(&str, &[&str]); 26] = [
    // The secret values the configuration holds, masked wherever text leaves.
    ("secrets", &[]),
    ("cache", &[]),
    ("net", &["secrets"]),
    // `codemode api sync` replaces a fetched description as the caches are replaced.
    ("openapi", &["cache", "net", "secrets"]),
    ("shell", &[]),
    // A grant names what `shell.run` may start: one rule for both.
    ("policy", &["net", "shell"]),
    ("assets", &["cache", "policy"]),
    ("vfs", &[]),
    // The result store makes its folder through the cache's guard against links.
    ("results", &["cache"]),
    // The audit log makes `.codemode/` through the same guard.
    ("audit", &["cache"]),
    ("types", &["assets"]),
    ("bind", &["assets", "types"]),
    // The client of the type checker process; it reads scripts with the assets' parser,
    // keeps the checker's replies as the other caches are kept, and knows the `tools`
    // functions by the type model's list.
    ("check", &["assets", "cache", "types"]),
    ("interop", &["assets"]),
    (
        "upstream",
        &["assets", "bind", "cache", "openapi", "secrets", "vfs"],
    ),
    ("search", &["assets", "cache", "types", "upstream"]),
    (
        "registry",
        &[
            "assets", "audit", "cache", "policy", "search", "secrets", "upstream", "vfs",
        ],
    ),
    // The sandbox knows nothing of capabilities, registries or front ends; it reads
    // only the engine's compiler setting from the assets.
    ("sandbox", &["assets", "secrets"]),
    (
        "host",
        &[
            "assets", "audit", "bind", "check", "net", "policy", "registry", "results", "sandbox",
            "search", "secrets", "shell", "types", "upstream", "vfs",
        ],
    ),
    (
        "runtime",
        &[
            "assets", "audit", "bind", "cache", "check", "host", "registry", "sandbox", "secrets",
            "types",
        ],
    ),
    ("docs", &["assets", "interop", "sandbox", "upstream"]),
    // A JWKS given as a URL is fetched with the upstream servers' HTTPS client;
    // agents.json is replaced whole as the caches are.
    ("auth", &["cache", "upstream"]),
    (
        "mcp",
        &[
            "assets", "audit", "auth", "registry", "runtime", "sandbox", "search", "types",
            "upstream",
        ],
    ),
    (
        "repl",
        &["assets", "check", "registry", "runtime", "sandbox"],
    ),
    // The embedder's front door: a world opened as the command line opens it.
    (
        "world",
        &["check", "policy", "registry", "runtime", "sandbox"],
    ),
    // The command line, the binary's whole front end: the top of the graph.
    (
        "cli",
        &[
            "assets", "audit", "auth", "bind", "cache", "check", "docs", "host", "interop", "mcp",
            "openapi", "policy", "registry", "repl", "results", "runtime", "sandbox", "search",
            "secrets", "shell", "types", "upstream", "world",
        ],
    ),
];

/// The type checker's own binary, which uses neither the library nor mlua: its Luau and
/// mlua's cannot link into one binary.
const CHECKER: &str = "checker";

fn engine() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/engine"))
}

/// The `crate::<module>` names a source file uses outside comments.
fn imports(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let code = code.split(" //").next().unwrap_or(code);
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            // `crate::{a, b}` and `crate::Name` (root re-exports) are caught below.
            if rest.starts_with('{') || rest.starts_with(|c: char| c.is_ascii_uppercase()) {
                found.insert(format!("crate::{}", &rest[..rest.len().min(24)]));
            } else if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// Every module's imports, read from its files.
fn actual() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for entry in std::fs::read_dir(engine()).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let module = entry.file_name().to_string_lossy().into_owned();
        let mut uses = BTreeSet::new();
        for file in walk(&entry.path()) {
            uses.extend(imports(&std::fs::read_to_string(&file).unwrap()));
        }
        uses.remove(&module);
        graph.insert(module, uses);
    }
    graph
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn no_module_imports_one_it_may_not() {
    let allowed: BTreeMap<&str, &[&str]> = GRAPH.into_iter().collect();
    let mut wrong = Vec::new();
    for (module, uses) in actual() {
        if module == CHECKER {
            let code: String = walk(&engine().join(CHECKER))
                .iter()
                .flat_map(|f| {
                    let text = std::fs::read_to_string(f).unwrap();
                    text.lines()
                        .filter(|l| !l.trim_start().starts_with("//"))
                        .map(|l| format!("{l}\n"))
                        .collect::<Vec<_>>()
                })
                .collect();
            if !uses.is_empty() || code.contains("codemode::") || code.contains("mlua") {
                wrong.push(format!(
                    "{CHECKER} (the checker binary) must use neither the library nor mlua; it uses {uses:?}"
                ));
            }
            continue;
        }
        let Some(may) = allowed.get(module.as_str()) else {
            wrong.push(format!(
                "engine/{module} is not in the module graph: add it to GRAPH in tests/layers.rs and to docs/architecture.md"
            ));
            continue;
        };
        for used in uses {
            if !may.contains(&used.as_str()) {
                wrong.push(format!("{module} imports {used}, which it may not"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_module_graph_has_no_cycle() {
    // Each module may import only modules listed before it: a topological order.
    let mut seen = BTreeSet::new();
    for (module, may) in GRAPH {
        for used in may {
            assert!(
                seen.contains(used),
                "{module} may import {used}, which is not below it"
            );
        }
        seen.insert(module);
    }
}

#[test]
fn the_scan_sees_imports_and_skips_comments() {
    let source = "use crate::host::state;\n// crate::mcp in a comment\nlet x = crate::runtime::f(); // crate::repl\n/// [`crate::cli`]\nuse crate::{a, b};\n";
    let found = imports(source);
    assert!(
        found.contains("host") && found.contains("runtime"),
        "{found:?}"
    );
    assert!(!found.contains("mcp") && !found.contains("repl") && !found.contains("cli"));
    assert!(found.iter().any(|f| f.starts_with("crate::{")), "{found:?}");
}

#[test]
fn the_documented_graph_is_this_one() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md"))
        .unwrap();
    for (module, may) in GRAPH {
        let line = format!("| `{module}` | {} |", list(may));
        assert!(
            doc.contains(&line),
            "docs/architecture.md lacks the row\n{line}"
        );
    }
}

fn list(modules: &[&str]) -> String {
    if modules.is_empty() {
        return "nothing".into();
    }
    modules
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
