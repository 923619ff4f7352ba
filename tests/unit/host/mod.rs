//! Tests of `engine/host/mod.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

/// The declarations written beside the module that builds the capability `name`.
fn declarations_of(name: &str) -> &'static str {
    match name {
        "vfs" => vfs::DECLARATIONS,
        "http" => http::DECLARATIONS,
        "shell" => shell::DECLARATIONS,
        "asset" => asset::DECLARATIONS,
        "author" => author::DECLARATIONS,
        "bind" => bind::DECLARATIONS,
        "render" => render::DECLARATIONS,
        "search" => search::DECLARATIONS,
        "install" => install::DECLARATIONS,
        "upstream" => upstream::DECLARATIONS,
        "results" => results::DECLARATIONS,
        "audit" => audit::DECLARATIONS,
        "run" => cache::DECLARATIONS,
        "threads" => threads::DECLARATIONS,
        other => panic!("capability {other} has no declarations beside its module"),
    }
}

/// The members a declaration file gives its capability's table: `name:` one tab into
/// the `export type ...Capability = {` (or `RunCache`) or `declare <name>: {` block (other exported
/// types, such as a row type, have fields of their own).
fn declared_members(text: &str) -> std::collections::BTreeSet<String> {
    let mut inside = false;
    let mut members = std::collections::BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("declare ")
            || line.starts_with("export type RunCache = {")
            || (line.starts_with("export type ") && line.contains("Capability = {"))
        {
            inside = true;
        } else if line.starts_with('}') {
            inside = false;
        } else if let Some(member) = line.strip_prefix('\t').filter(|_| inside) {
            if !member.starts_with(['\t', '-']) {
                if let Some((name, _)) = member.split_once(':') {
                    members.insert(name.trim().to_string());
                }
            }
        }
    }
    members
}

#[test]
fn every_capability_declares_exactly_the_members_it_builds() {
    let all = Capabilities {
        http: vec!["example.com".into()],
        shell: vec!["echo".into()],
        ..Capabilities::default()
    };
    let linker = linker(&all);
    assert_eq!(linker.global_names(), ["vfs", "http", "shell"]);
    assert_eq!(
        super::linker(&Capabilities::default()).global_names(),
        ["vfs"],
        "http and shell exist only when granted"
    );
    let vm = crate::sandbox::Vm::new(&linker).unwrap();
    let (tables, _) = crate::sandbox::linked(&vm.lua);
    let names: Vec<&str> = tables.iter().map(|(name, _)| *name).collect();
    let mut expected = linker.global_names();
    expected.extend(linker.capability_names());
    assert_eq!(names, expected);
    for (name, table) in &tables {
        // The run cache's fields are set when a run begins, not when it is built.
        if *name == "run" {
            assert!(declared_members(declarations_of(name)).contains("fns"));
            continue;
        }
        let built: std::collections::BTreeSet<String> = table
            .pairs::<String, mlua::Value>()
            .map(|pair| pair.unwrap().0)
            .collect();
        assert_eq!(
            built,
            declared_members(declarations_of(name)),
            "the {name} capability and its .d.luau disagree"
        );
    }
}

#[test]
fn the_embedded_prelude_is_the_prelude_compiled_now() {
    for (module, (name, source)) in PRELUDE.iter().zip(PRELUDE_SOURCE) {
        assert_eq!(module.name, name);
        let now = crate::assets::compiler().compile(source).unwrap();
        assert!(
            module.bytecode == now.as_slice(),
            "prelude/{name}.luau: the bytecode build.rs embedded differs from compiling it with this Luau and setting"
        );
    }
}
