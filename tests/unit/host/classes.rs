//! Every host function and its effect class, as [`CLASSES`] lists them, and the tests that
//! hold the linker to that list: every function registered is listed (a function added,
//! removed or classed otherwise fails until the list says so), every function in a table
//! the VM holds is one the linker made, and no function of a class that acts outside the
//! run gets to its own code when the profile refuses it or the check refused the run.

use std::sync::Arc;

use mlua::{Function, Value};

use crate::policy::Capabilities;
use crate::registry::Registry;
use crate::sandbox::{gate, linked, Effect, Limits, Run, Vm, Writes, ENTERED};

use super::{linker, State};

/// Every host function (`<capability>.<name>`, or what a capability hands out when called)
/// and its class: what every call reaches, and what it may reach on use.
const CLASSES: [(&str, &str); 53] = [
    ("vfs.read", "read"),
    ("vfs.write", "write:files"),
    ("vfs.list", "read"),
    ("vfs.remove", "write:files"),
    ("vfs.exists", "read"),
    ("http.request", "network"),
    ("shell.run", "process"),
    ("asset.toolboxes", "read"),
    ("asset.tools", "read"),
    ("asset.get", "read"),
    ("asset.checkToolbox", "read"),
    ("asset.callable", "read"),
    ("asset.surface", "read"),
    ("asset.load", "read"),
    ("asset.firstSentence", "none"),
    ("asset hands out checker", "none"),
    ("asset hands out timeout", "none"),
    ("asset hands out require", "read"),
    ("author.checkName", "none"),
    ("author.checkType", "none"),
    ("author.compile", "none"),
    ("author.typecheck", "checker"),
    ("author.checkTags", "none"),
    ("author.checkDescription", "none"),
    ("author.metadata", "none"),
    ("author.toolbox", "read"),
    ("author.locate", "read"),
    ("author.server", "read"),
    ("author.permit", "read"),
    ("author.publish", "write:tools"),
    ("author.remove", "write:tools"),
    ("bind.bind", "read"),
    ("bind.parse", "read"),
    ("render.load", "read"),
    ("search.query", "read, upstream on use"),
    ("install.toolbox", "write:tools"),
    ("upstream.toolboxes", "read"),
    ("upstream.has", "read"),
    ("upstream.tools", "read, upstream on use"),
    ("upstream.get", "read, upstream on use"),
    ("upstream.start", "upstream"),
    ("upstream.waitAny", "upstream"),
    ("upstream.call", "upstream"),
    ("results.policy", "read, upstream on use"),
    ("results.lookup", "read, upstream on use"),
    ("results.keep", "write:cache, upstream on use"),
    ("results.cut", "none"),
    ("results.get", "read, upstream on use"),
    ("results.search", "read, upstream on use"),
    ("threads.spawn", "none"),
    ("threads.outOfMemory", "none"),
    ("audit.on", "none"),
    ("audit.call", "none"),
];

/// Capabilities granting everything, so that every capability is linked.
fn everything() -> Capabilities {
    Capabilities {
        http: vec!["example.com".into()],
        shell: vec!["echo".into()],
        ..Capabilities::default()
    }
}

/// Capabilities granting nothing a class asks the profile for.
fn nothing() -> Capabilities {
    Capabilities {
        authoring: false,
        vfs_write: false,
        ..Capabilities::default()
    }
}

#[test]
fn every_host_function_is_registered_with_the_class_listed_here() {
    let found: Vec<(String, String)> = linker(&everything())
        .declared()
        .iter()
        .map(|d| (d.path(), d.class()))
        .collect();
    let listed: Vec<(String, String)> = CLASSES
        .iter()
        .map(|(path, class)| (path.to_string(), class.to_string()))
        .collect();
    let written: String = found
        .iter()
        .map(|(path, class)| format!("    ({path:?}, {class:?}),\n"))
        .collect();
    assert!(
        found == listed,
        "the host functions registered differ from CLASSES in tests/unit/host/classes.rs; registered now:\n{written}"
    );
}

#[test]
fn every_function_of_a_linked_table_is_one_the_linker_made() {
    let vm = Vm::new(&linker(&everything())).unwrap();
    let (tables, made) = linked(&vm.lua);
    let mut seen = 0;
    for (name, table) in &tables {
        for pair in table.pairs::<Value, Value>() {
            let (key, value) = pair.unwrap();
            let key = key.to_string().unwrap();
            let Value::Function(f) = value else {
                continue;
            };
            seen += 1;
            let by_linker = made
                .iter()
                .any(|(d, g)| d.capability == *name && d.name == key && *g == f);
            let luau_resume =
                *name == "threads" && key == "resume" && crate::sandbox::is_raw_resume(&vm.lua, &f);
            assert!(
                by_linker || luau_resume,
                "{name}.{key} is a function the linker did not make: register it with Capability::function"
            );
        }
        if *name != "run" {
            assert!(table.is_readonly(), "{name} can be changed");
        }
    }
    // `vfs` is linked twice (a global and a capability); `threads.resume` is Luau's own.
    assert_eq!(seen, made.len() + 1);
}

/// Arguments that convert to what a host function takes: each of up to four values a
/// numeric string or a table, which the parameters of every acting function accept one of.
fn argument_lists(lua: &mlua::Lua) -> Vec<Vec<Value>> {
    (0..16)
        .map(|mask: u32| {
            (0..4)
                .map(|i| match mask >> i & 1 {
                    0 => Value::String(lua.create_string("1").unwrap()),
                    _ => Value::Table(lua.create_table().unwrap()),
                })
                .collect()
        })
        .collect()
}

/// Calls `f` with the first of [`argument_lists`] its parameters take; its error.
fn refusal(lua: &mlua::Lua, path: &str, f: &Function) -> mlua::Error {
    for args in argument_lists(lua) {
        match f.call::<mlua::MultiValue>(mlua::MultiValue::from_vec(args)) {
            Ok(_) => panic!("{path} ran"),
            Err(e) if converting(&e) => continue,
            Err(e) => return e,
        }
    }
    panic!("{path} takes none of the argument lists tried");
}

/// True for an error of reading a call's arguments (before the function is called).
fn converting(error: &mlua::Error) -> bool {
    match error {
        mlua::Error::BadArgument { .. } | mlua::Error::FromLuaConversionError { .. } => true,
        mlua::Error::CallbackError { cause, .. } => converting(cause),
        _ => false,
    }
}

/// Runs `each` for every function the linker made for a VM linked with every capability,
/// in a run over an empty world whose profile grants `granted`; fails if any of them got
/// to its own code.
fn in_runs(
    granted: Capabilities,
    mut each: impl FnMut(&mlua::Lua, crate::sandbox::Declared, &Function),
) {
    let world = tempfile::tempdir().unwrap();
    let registry = Arc::new(
        Registry::open(world.path(), &[], false)
            .unwrap()
            .with_capabilities(granted),
    );
    let vm = Vm::new(&linker(&everything())).unwrap();
    let (_, made) = linked(&vm.lua);
    ENTERED.set(Some(Vec::new()));
    for (declared, f) in &made {
        let state = State::new(registry.snapshot(), registry.clone());
        vm.begin(Run::new(&Limits::default(), false), state)
            .unwrap();
        each(&vm.lua, *declared, f);
        // Ends the run: a refused one too, whose later calls would all fail.
        drop(vm.finish::<State>());
        drop(gate::take());
    }
    let entered = ENTERED.take().unwrap_or_default();
    assert!(
        entered.is_empty(),
        "refused calls got to their own code: {:?}",
        entered.iter().map(|d| d.path()).collect::<Vec<_>>()
    );
    let left: Vec<_> = std::fs::read_dir(world.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "refused calls left {left:?} in the world");
}

#[test]
fn a_run_the_check_refused_gets_into_no_host_function_that_acts() {
    let mut acting = 0;
    in_runs(everything(), |lua, declared, f| {
        if !declared.effect.acts() {
            return;
        }
        acting += 1;
        let path = declared.path();
        gate::set(Box::new(|_| Some(false)));
        let error = refusal(lua, &path, f).to_string();
        assert!(
            error.contains("did not run: the script's type check found a certain mistake"),
            "{path}: {error}"
        );
    });
    assert!(acting >= 12, "only {acting} host functions act");
}

#[test]
fn a_profile_that_does_not_grant_a_class_gets_into_none_of_its_functions() {
    let mut granted = 0;
    in_runs(nothing(), |lua, declared, f| {
        let (setting, kind) = match declared.effect {
            Effect::Write(Writes::Files) => ("capabilities.vfsWrite is false", "denied"),
            Effect::Write(Writes::Tools) => ("capabilities.authoring is false", "denied"),
            Effect::Network => ("capabilities.http is empty", "denied"),
            Effect::Process => ("capabilities.shell is empty", "denied"),
            _ => return,
        };
        granted += 1;
        let path = declared.path();
        // The profile answers first: the verdict is not even asked for.
        gate::set(Box::new(|_| {
            panic!("the gate was asked before the profile")
        }));
        let error = refusal(lua, &path, f);
        let host =
            crate::sandbox::find_host_error(&error).unwrap_or_else(|| panic!("{path}: {error}"));
        assert!(host.denied, "{path}: {error} is not a {kind}");
        assert!(host.message.contains(setting), "{path}: {}", host.message);
        assert!(
            host.message
                .starts_with(&format!("{} is denied", declared.label())),
            "{path}: {}",
            host.message
        );
    });
    assert!(
        granted >= 7,
        "only {granted} host functions ask the profile"
    );
}

#[test]
fn a_function_that_does_not_act_runs_before_the_verdict() {
    // The harness sees a function's own code run: a refusal above is not just silence.
    ENTERED.set(Some(Vec::new()));
    let vm = Vm::new(&linker(&everything())).unwrap();
    let (_, made) = linked(&vm.lua);
    let (declared, check_name) = made
        .iter()
        .find(|(d, _)| d.path() == "author.checkName")
        .unwrap();
    assert_eq!(declared.effect, Effect::None);
    gate::set(Box::new(|_| {
        panic!("a function that does not act asked for the verdict")
    }));
    let said: Option<String> = check_name.call(("tool", "ok_name")).unwrap();
    assert_eq!(said, None);
    drop(gate::take());
    let entered = ENTERED.take().unwrap_or_default();
    assert_eq!(entered.len(), 1);
    assert_eq!(entered[0].path(), "author.checkName");
}

#[test]
fn no_host_module_makes_a_function_of_its_own() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/host");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let made = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .any(|line| line.contains("create_function"));
        assert!(
            !made,
            "{} makes a Luau function itself: register it with Capability::function (or hand it out with sandbox::hand_out), so that it has an effect class",
            path.display()
        );
    }
}

#[test]
fn every_global_the_host_adds_is_one_a_script_must_name_to_reach_it() {
    // Under `certain` a script that names none of these is not type-checked (see
    // `check/named.rs`): a global added here and missing there would let a script call
    // into the host unchecked.
    let vm = Vm::new(&linker(&everything())).unwrap();
    let plain = mlua::Lua::new();
    let standard: std::collections::BTreeSet<String> = plain
        .globals()
        .pairs::<String, Value>()
        .map(|pair| pair.unwrap().0)
        .collect();
    // The sandbox hides the globals behind a proxy; scripts read them through this.
    let globals: mlua::Table = crate::sandbox::env_meta(&vm.lua)
        .unwrap()
        .raw_get("__index")
        .unwrap();
    let all: std::collections::BTreeSet<String> = globals
        .pairs::<String, Value>()
        .map(|pair| pair.unwrap().0)
        .collect();
    let added: Vec<String> = all
        .into_iter()
        .filter(|name| !standard.contains(name))
        .collect();
    assert!(!added.is_empty());
    for name in &added {
        assert!(
            crate::check::HOST_GLOBALS.contains(&name.as_str()),
            "the global `{name}` is not in check::HOST_GLOBALS"
        );
    }
}
