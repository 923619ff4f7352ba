//! Tests of `engine/sandbox/linker.rs`, compiled as its child module `tests` (they reach its
//! private items).

use std::time::Duration;

use super::*;
use crate::sandbox::{deadline, gate, Vm};

fn allow(_: &Lua, _: Effect, _: &str) -> mlua::Result<()> {
    Ok(())
}

/// A VM whose scripts get `capability` as a global, with its functions.
fn linked_with(capability: Capability) -> (Vm, Table) {
    let vm = Vm::new(&Linker::new(allow).global(capability)).unwrap();
    let table = vm.lua.globals().get("t").unwrap();
    (vm, table)
}

fn ended() {
    deadline::disarm();
    drop(gate::take());
}

#[test]
fn a_function_reaches_on_use_only_what_it_is_registered_for() {
    let capability = Capability::new("t")
        .function("quiet", Effect::Read, |lua, ()| {
            reach(lua, Effect::Network, "a request")
        })
        .function("inner", Effect::None, |_, ()| Ok(()))
        .function("fetch", Effect::Read, |lua, f: Option<Function>| {
            if let Some(f) = f {
                f.call::<()>(())?;
            }
            reach(lua, Effect::Upstream, "a fetch")?;
            Ok("fetched")
        })
        .reaching(Effect::Upstream);
    let (vm, t) = linked_with(capability);
    let quiet: Function = t.get("quiet").unwrap();
    let error = quiet.call::<()>(()).unwrap_err().to_string();
    assert!(
        error.contains("a request is an effect of class network, which t.quiet (registered as read) may not reach"),
        "{error}"
    );
    // Reached after another host function ran inside it: still its own registration.
    let fetched: String = vm
        .lua
        .load("return t.fetch(function() t.inner() end)")
        .eval()
        .unwrap();
    assert_eq!(fetched, "fetched");
    // A run the check refused stops where the function reaches, not before.
    ENTERED.set(Some(Vec::new()));
    gate::set(Box::new(|_| Some(false)));
    let fetch: Function = t.get("fetch").unwrap();
    let error = fetch.call::<String>(()).unwrap_err().to_string();
    assert!(
        error.contains("a fetch did not run: the script's type check found a certain mistake"),
        "{error}"
    );
    ended();
    let entered: Vec<String> = ENTERED.take().unwrap().iter().map(Declared::path).collect();
    assert_eq!(entered, ["t.fetch"]);
}

#[test]
fn a_class_that_acts_asks_the_policy_then_the_gate_and_one_that_does_not_neither() {
    fn no_requests(_: &Lua, effect: Effect, call: &str) -> mlua::Result<()> {
        match effect {
            Effect::Network => {
                Err(HostError::denied(format!("{call} is denied"), "ask").into_lua())
            }
            _ => Ok(()),
        }
    }
    let capability = Capability::new("t")
        .function("send", Effect::Network, |_, ()| Ok(()))
        .called("t.send(request)")
        .function("write", Effect::Write(Writes::Files), |_, ()| Ok(()))
        .function("read", Effect::Read, |_, ()| Ok(()));
    let vm = Vm::new(&Linker::new(no_requests).global(capability)).unwrap();
    let t: Table = vm.lua.globals().get("t").unwrap();
    ENTERED.set(Some(Vec::new()));
    gate::set(Box::new(|_| panic!("the gate was asked before the policy")));
    let error = t
        .get::<Function>("send")
        .unwrap()
        .call::<()>(())
        .unwrap_err();
    assert!(
        error.to_string().contains("t.send(request) is denied"),
        "{error}"
    );
    // Reading waits for nothing.
    t.get::<Function>("read").unwrap().call::<()>(()).unwrap();
    gate::set(Box::new(|_| Some(false)));
    let error = t
        .get::<Function>("write")
        .unwrap()
        .call::<()>(())
        .unwrap_err();
    assert!(error.to_string().contains("t.write did not run"), "{error}");
    ended();
    let entered: Vec<String> = ENTERED.take().unwrap().iter().map(Declared::path).collect();
    assert_eq!(entered, ["t.read"]);
}

#[test]
fn every_call_looks_at_the_deadline_first() {
    let (_vm, t) = linked_with(Capability::new("t").function("f", Effect::None, |_, ()| Ok(1)));
    let f: Function = t.get("f").unwrap();
    ENTERED.set(Some(Vec::new()));
    deadline::arm(Duration::from_millis(1), None);
    std::thread::sleep(Duration::from_millis(5));
    let error = f.call::<i64>(()).unwrap_err().to_string();
    assert!(
        error.contains("the script ran past its deadline"),
        "{error}"
    );
    ended();
    assert_eq!(ENTERED.take().map(|e| e.len()), Some(0));
    assert_eq!(f.call::<i64>(()).unwrap(), 1);
}

#[test]
fn a_table_of_data_may_hold_no_function() {
    fn sneaky(lua: &Lua) -> mlua::Result<Table> {
        let t = lua.create_table()?;
        let inner = lua.create_table()?;
        inner.raw_set("f", lua.create_function(|_, ()| Ok(()))?)?;
        t.raw_set("inner", inner)?;
        Ok(t)
    }
    let Err(error) = Vm::new(&Linker::new(allow).data("sneaky", sneaky)) else {
        panic!("a VM was built with a function in a table of data");
    };
    assert!(
        error
            .to_string()
            .contains("the data capability 'sneaky' holds a function"),
        "{error}"
    );
}

#[test]
fn only_a_function_a_capability_declares_is_handed_out() {
    let (vm, _) = linked_with(Capability::new("t").hands_out("helper", Effect::None));
    let helper = hand_out(&vm.lua, "t", "helper", |_, ()| Ok(1)).unwrap();
    assert_eq!(helper.call::<i64>(()).unwrap(), 1);
    let error = hand_out(&vm.lua, "t", "other", |_, ()| Ok(1)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("no capability of this VM declares that t hands out other"),
        "{error}"
    );
}
