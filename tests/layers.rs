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

/// Within one folder, the files do not use each other in a loop: what several files share
/// sits in a leaf file they all use, and `mod.rs` declares, re-exports and composes.
#[test]
fn no_folder_has_an_import_loop() {
    let mut loops = Vec::new();
    for entry in std::fs::read_dir(engine()).unwrap() {
        let folder = entry.unwrap().path();
        if folder.is_dir() {
            let uses = folder::uses(&folder);
            if let Some(found) = folder::a_loop(&uses) {
                let name = folder.file_name().unwrap().to_string_lossy().into_owned();
                loops.push(format!("engine/{name}: {found}"));
            }
        }
    }
    assert!(
        loops.is_empty(),
        "files use each other in a loop; move what they share into a leaf file:\n{}",
        loops.join("\n")
    );
}

#[test]
fn the_file_scan_sees_a_loop_through_mod_rs() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "mod.rs",
        "mod a;\nmod b;\npub(crate) use b::Shared;\nfn run() { a::go() }\n",
    );
    write(
        "a.rs",
        "use super::Shared;\npub(crate) fn go() { let _ = Shared; }\n",
    );
    write(
        "b.rs",
        "pub(crate) struct Shared;\n#[cfg(test)]\nmod tests { use super::*; }\n",
    );
    let uses = folder::uses(dir.path());
    assert_eq!(folder::a_loop(&uses), None, "{uses:?}");
    // `a` now needs what `mod.rs` itself defines, while `mod.rs` calls `a`.
    write(
        "mod.rs",
        "mod a;\nmod b;\npub(crate) struct Shared;\nfn run() { a::go() }\n",
    );
    write(
        "a.rs",
        "use super::Shared;\npub(crate) fn go() { let _ = Shared; }\n",
    );
    let uses = folder::uses(dir.path());
    let found = folder::a_loop(&uses).expect("a loop between mod.rs and a.rs");
    assert!(
        found.contains("mod.rs") && found.contains("a.rs"),
        "{found}"
    );
}

/// Which file of a folder uses which, read with `syn`: a path through `super::` or
/// `crate::<module>::` names a sibling file, an item `mod.rs` re-exports from one, or
/// `mod.rs` itself; `mod.rs` uses a file when its own code (not a `pub use`) names it or
/// an item re-exported from it.
mod folder {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    use syn::visit::Visit;

    /// Each file (`mod` for `mod.rs`, `main` for a binary's root) and the files it uses,
    /// with one path that shows it.
    pub(crate) type Uses = BTreeMap<String, BTreeMap<String, String>>;

    pub(crate) fn uses(dir: &Path) -> Uses {
        let module = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files = BTreeMap::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                let file = syn::parse_file(&text)
                    .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
                files.insert(name, file);
            }
        }
        // A binary's root (`main.rs`) is its `crate`; a library folder's is `mod.rs`.
        let (root, prefix): (&str, Vec<String>) = if files.contains_key("main") {
            ("main", vec!["crate".into()])
        } else {
            ("mod", vec!["crate".into(), module])
        };
        let reexported = files.get(root).map(reexports).unwrap_or_default();
        let mut uses = Uses::new();
        for (name, file) in &files {
            let mut paths = Paths::default();
            let from_root = name == root;
            for item in &file.items {
                match item {
                    // A declaration, or the folder's surface: not a use of the file.
                    syn::Item::Mod(m) if m.content.is_none() => {}
                    syn::Item::Use(u)
                        if from_root && !matches!(u.vis, syn::Visibility::Inherited) => {}
                    item => paths.visit_item(item),
                }
            }
            let used = uses.entry(name.clone()).or_default();
            for path in paths.found {
                let rest = if from_root {
                    match path.first().map(String::as_str) {
                        Some("self") => &path[1..],
                        _ if path.starts_with(&prefix) => &path[prefix.len()..],
                        _ => &path[..],
                    }
                } else if path.first().is_some_and(|s| s == "super") {
                    &path[1..]
                } else if path.starts_with(&prefix) {
                    &path[prefix.len()..]
                } else {
                    continue;
                };
                let Some(first) = rest.first() else { continue };
                let target = if files.contains_key(first) {
                    first.clone()
                } else if let Some(owner) = reexported.get(first) {
                    owner.clone()
                } else if from_root {
                    continue;
                } else {
                    root.to_string()
                };
                if &target != name {
                    used.entry(target).or_insert_with(|| path.join("::"));
                }
            }
        }
        uses
    }

    /// A loop, told file by file, or `None`.
    pub(crate) fn a_loop(uses: &Uses) -> Option<String> {
        fn visit(
            at: &str,
            uses: &Uses,
            stack: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            if let Some(start) = stack.iter().position(|s| s == at) {
                return Some(stack[start..].to_vec());
            }
            if !done.insert(at.to_string()) {
                return None;
            }
            stack.push(at.to_string());
            for next in uses.get(at).into_iter().flat_map(|u| u.keys()) {
                if let Some(found) = visit(next, uses, stack, done) {
                    return Some(found);
                }
            }
            stack.pop();
            None
        }
        let mut done = BTreeSet::new();
        for start in uses.keys() {
            if let Some(cycle) = visit(start, uses, &mut Vec::new(), &mut done) {
                let told: Vec<String> = cycle
                    .iter()
                    .zip(cycle.iter().cycle().skip(1))
                    .map(|(a, b)| format!("{a}.rs uses {b}.rs ({})", uses[a][b]))
                    .collect();
                return Some(told.join(", "));
            }
        }
        None
    }

    /// What `mod.rs` re-exports, by the name it is known by, and the file it comes from.
    fn reexports(root: &syn::File) -> BTreeMap<String, String> {
        let mut found = BTreeMap::new();
        for item in &root.items {
            if let syn::Item::Use(u) = item {
                if matches!(u.vis, syn::Visibility::Inherited) {
                    continue;
                }
                let mut leaves = Vec::new();
                flatten(&u.tree, &mut Vec::new(), &mut leaves);
                for (path, name) in leaves {
                    let path: Vec<&String> = path.iter().filter(|s| *s != "self").collect();
                    if let Some(file) = path.first() {
                        found.insert(name, file.to_string());
                    }
                }
            }
        }
        found
    }

    /// Each leaf of a use tree: its whole path and the name it brings in.
    fn flatten(tree: &syn::UseTree, at: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        match tree {
            syn::UseTree::Path(p) => {
                at.push(p.ident.to_string());
                flatten(&p.tree, at, out);
                at.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = at.clone();
                path.push(n.ident.to_string());
                out.push((path, n.ident.to_string()));
            }
            syn::UseTree::Rename(r) => {
                let mut path = at.clone();
                path.push(r.ident.to_string());
                out.push((path, r.rename.to_string()));
            }
            syn::UseTree::Glob(_) => out.push((at.clone(), "*".into())),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    flatten(tree, at, out);
                }
            }
        }
    }

    /// Every path a file's items name (in `use` trees, expressions, types and patterns),
    /// with `super::` inside an inline module (`mod tests { use super::*; }`) read as the
    /// file it sits in.
    #[derive(Default)]
    struct Paths {
        found: Vec<Vec<String>>,
        depth: usize,
    }

    impl Paths {
        fn note(&mut self, path: Vec<String>) {
            let supers = path.iter().take_while(|s| *s == "super").count();
            if supers > 0 && supers <= self.depth {
                return;
            }
            let skip = if supers > 0 { self.depth } else { 0 };
            self.found.push(path[skip..].to_vec());
        }
    }

    impl<'ast> Visit<'ast> for Paths {
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            self.depth += 1;
            syn::visit::visit_item_mod(self, m);
            self.depth -= 1;
        }

        fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
            let mut leaves = Vec::new();
            flatten(&u.tree, &mut Vec::new(), &mut leaves);
            for (path, _) in leaves {
                self.note(path);
            }
        }

        fn visit_path(&mut self, p: &'ast syn::Path) {
            self.note(p.segments.iter().map(|s| s.ident.to_string()).collect());
            syn::visit::visit_path(self, p);
        }
    }
}
