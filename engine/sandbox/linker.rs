//! What a host hands the sandbox to build a VM with, and the one way a host function is
//! made. A host registers each function of a capability with its [`Effect`], the class of
//! what it reaches outside the run, and the linker wraps it: every call first looks at the
//! run's deadline, and a call of a class that acts outside the run (see [`Effect::acts`])
//! then asks the host's [`Policy`] (what the run's profile allows) and waits at the check's
//! gate (`gate.rs`), which only this module passes. The linker builds every capability
//! table itself from what was registered, and a table of data (the prelude's `run`) may
//! hold no function: a host cannot hand the sandbox a function that skips the deadline,
//! the policy or the gate.
//!
//! A function whose effect is rare and decided inside it (a listing that fetches an MCP
//! server's tools only when they are not cached yet) is registered with the effect it
//! may reach on use ([`Capability::reaching`]) and reaches it through [`reach`], which
//! asks the policy and passes the gate then, and refuses a function not registered for it.
//!
//! The sandbox knows nothing of what the capabilities are, only their classes.

use std::cell::Cell;
use std::sync::Arc;

use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, Table, Value};

use super::hosterror::HostError;

/// Builds one table in a fresh VM.
pub(crate) type Build = fn(&Lua) -> mlua::Result<Table>;

/// What the run's profile says of a call of `label` (as scripts name it) of class
/// `effect`: asked before every call of a class that acts outside the run, and at
/// [`reach`]. An error is the refusal the script sees.
pub(crate) type Policy = fn(&Lua, Effect, &str) -> mlua::Result<()>;

/// What a host function reaches outside the run: the class it is registered with, which
/// decides what the linker checks before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Computes from its arguments and the run's own state.
    None,
    /// Reads the world (its files, the index, the caches) and changes nothing.
    Read,
    /// Changes the world.
    Write(Writes),
    /// Sends a request over the network.
    Network,
    /// Starts a command.
    Process,
    /// Starts or calls an MCP server.
    Upstream,
    /// Asks the engine's type checker, which answers for the run's own script first.
    Checker,
}

/// What a [`Effect::Write`] changes, which decides what the profile is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writes {
    /// Files of the world.
    Files,
    /// Tools and toolboxes.
    Tools,
    /// The world's caches.
    Cache,
}

impl Effect {
    /// True for a class that reaches outside the run: its calls wait for the check's
    /// verdict and ask the policy first.
    pub(crate) fn acts(self) -> bool {
        !matches!(self, Effect::None | Effect::Read)
    }

    /// The class as the enumeration of host functions names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Effect::None => "none",
            Effect::Read => "read",
            Effect::Write(Writes::Files) => "write:files",
            Effect::Write(Writes::Tools) => "write:tools",
            Effect::Write(Writes::Cache) => "write:cache",
            Effect::Network => "network",
            Effect::Process => "process",
            Effect::Upstream => "upstream",
            Effect::Checker => "checker",
        }
    }
}

/// One host function as it was registered: where it lives, how scripts name it, and
/// what it reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Declared {
    /// The capability (table) it belongs to, or that hands it out.
    pub capability: &'static str,
    /// Its name in that table (or the kind of function handed out).
    pub name: &'static str,
    /// What every call of it reaches; checked before it runs.
    pub effect: Effect,
    /// What it may also reach, on use, through [`reach`].
    pub on_use: Option<Effect>,
    /// True for a function the capability hands out when called, not a member of its table.
    pub handed_out: bool,
    /// The call as scripts name it, when not `<capability>.<name>`.
    called: Option<&'static str>,
}

impl Declared {
    /// The call as scripts name it, for refusals.
    pub(crate) fn label(&self) -> String {
        match self.called {
            Some(called) => called.to_string(),
            None => format!("{}.{}", self.capability, self.name),
        }
    }

    /// `<capability>.<name>`, or `<capability> hands out <name>`.
    pub(crate) fn path(&self) -> String {
        match self.handed_out {
            true => format!("{} hands out {}", self.capability, self.name),
            false => format!("{}.{}", self.capability, self.name),
        }
    }

    /// The class, with what it may reach on use: `read, upstream on use`.
    pub(crate) fn class(&self) -> String {
        match self.on_use {
            Some(on_use) => format!("{}, {} on use", self.effect.name(), on_use.name()),
            None => self.effect.name().to_string(),
        }
    }
}

/// Makes one registered function in a VM: the host's function, wrapped.
type Make = Box<dyn Fn(&Lua, Policy, Declared) -> mlua::Result<Function>>;

/// The functions of one capability, each registered with its effect; the linker builds
/// its read-only table.
pub(crate) struct Capability {
    name: &'static str,
    functions: Vec<(Declared, Make)>,
    hands_out: Vec<Declared>,
}

impl Capability {
    /// A capability named `name` (its table's name for scripts or the prelude).
    pub(crate) fn new(name: &'static str) -> Capability {
        Capability {
            name,
            functions: Vec::new(),
            hands_out: Vec::new(),
        }
    }

    /// Registers `f` as the member `name`, reaching `effect`.
    pub(crate) fn function<F, A, R>(
        mut self,
        name: &'static str,
        effect: Effect,
        f: F,
    ) -> Capability
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + Send + Sync + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        let declared = Declared {
            capability: self.name,
            name,
            effect,
            on_use: None,
            handed_out: false,
            called: None,
        };
        let f = Arc::new(f);
        let make: Make =
            Box::new(move |lua, policy, declared| wrap(lua, policy, declared, f.clone()));
        self.functions.push((declared, make));
        self
    }

    /// Names the function registered last as scripts call it (`tools.create` for
    /// `author.publish`), in its refusals.
    pub(crate) fn called(mut self, label: &'static str) -> Capability {
        if let Some((declared, _)) = self.functions.last_mut() {
            declared.called = Some(label);
        }
        self
    }

    /// Lets the function registered last reach `effect` on use, through [`reach`], besides
    /// what every call of it reaches.
    pub(crate) fn reaching(mut self, effect: Effect) -> Capability {
        if let Some((declared, _)) = self.functions.last_mut() {
            declared.on_use = Some(effect);
        }
        self
    }

    /// Declares that calls of this capability hand out functions of kind `name`, made
    /// with [`hand_out`], reaching `effect`.
    pub(crate) fn hands_out(mut self, name: &'static str, effect: Effect) -> Capability {
        self.hands_out.push(Declared {
            capability: self.name,
            name,
            effect,
            on_use: None,
            handed_out: true,
            called: None,
        });
        self
    }

    /// Its table in `lua`, each function wrapped, not yet read-only; what was made is
    /// noted in `linked`.
    fn table(&self, lua: &Lua, linked: &mut Linked) -> mlua::Result<Table> {
        let t = lua.create_table_with_capacity(0, self.functions.len())?;
        for (declared, make) in &self.functions {
            let f = make(lua, linked.policy, *declared)?;
            t.raw_set(declared.name, f.clone())?;
            linked.made.push((*declared, f));
        }
        Ok(t)
    }

    #[cfg(test)]
    fn declared(&self) -> impl Iterator<Item = Declared> + '_ {
        let members = self.functions.iter().map(|(declared, _)| *declared);
        members.chain(self.hands_out.iter().copied())
    }
}

/// `f` made a Luau function that looks at the deadline and, for a class that acts, asks
/// the policy and passes the gate before it runs.
fn wrap<F, A, R>(lua: &Lua, policy: Policy, declared: Declared, f: Arc<F>) -> mlua::Result<Function>
where
    F: Fn(&Lua, A) -> mlua::Result<R> + Send + Sync + 'static,
    A: FromLuaMulti,
    R: IntoLuaMulti,
{
    let label = declared.label();
    lua.create_function(move |lua, args: A| {
        super::deadline::entering()?;
        if declared.effect.acts() {
            policy(lua, declared.effect, &label)?;
            pass(&label)?;
        }
        let _current = Current::enter(declared);
        #[cfg(test)]
        ENTERED.with_borrow_mut(|entered| {
            if let Some(entered) = entered {
                entered.push(declared);
            }
        });
        f(lua, args)
    })
}

/// Passes the check's gate for `call`: waits for the verdict, and refuses when the
/// check refused the run (which stops it).
fn pass(call: &str) -> mlua::Result<()> {
    if super::gate::pass() {
        return Ok(());
    }
    Err(HostError::new(format!(
        "{call} did not run: the script's type check found a certain mistake"
    ))
    .into_lua())
}

thread_local! {
    /// The host function running on this thread (the innermost, when one calls Luau that
    /// calls another).
    static CURRENT: Cell<Option<Declared>> = const { Cell::new(None) };
}

#[cfg(test)]
thread_local! {
    /// While a test watches (`Some`), every host function whose own code ran on this
    /// thread: a refused call never gets there.
    pub(crate) static ENTERED: std::cell::RefCell<Option<Vec<Declared>>> = const { std::cell::RefCell::new(None) };
}

/// Marks a host function as running until dropped.
struct Current(Option<Declared>);

impl Current {
    fn enter(declared: Declared) -> Current {
        Current(CURRENT.replace(Some(declared)))
    }
}

impl Drop for Current {
    fn drop(&mut self) {
        CURRENT.set(self.0.take());
    }
}

/// For the running host function, registered to reach `effect` (as its class or on
/// use): asks the policy and passes the gate before it does `what`. Any other function
/// is refused: its registration does not say it acts so.
pub(crate) fn reach(lua: &Lua, effect: Effect, what: &str) -> mlua::Result<()> {
    let Some(declared) = CURRENT
        .get()
        .filter(|d| d.effect == effect || d.on_use == Some(effect))
    else {
        let by = CURRENT
            .get()
            .map_or("code outside any host function".into(), |d| {
                format!("{} (registered as {})", d.path(), d.class())
            });
        return Err(mlua::Error::runtime(format!(
            "{what} is an effect of class {}, which {by} may not reach: register the function with it",
            effect.name()
        )));
    };
    let policy = lua
        .app_data_ref::<Linked>()
        .map(|linked| linked.policy)
        .ok_or_else(|| mlua::Error::runtime("the VM was built without a linker"))?;
    policy(lua, effect, &declared.label())?;
    pass(what)
}

/// Makes `f` a function of the kind `name` that capability `capability` declared it hands
/// out ([`Capability::hands_out`]), wrapped as a member of its table is.
pub(crate) fn hand_out<F, A, R>(
    lua: &Lua,
    capability: &str,
    name: &str,
    f: F,
) -> mlua::Result<Function>
where
    F: Fn(&Lua, A) -> mlua::Result<R> + Send + Sync + 'static,
    A: FromLuaMulti,
    R: IntoLuaMulti,
{
    let (policy, declared) = {
        let linked = lua
            .app_data_ref::<Linked>()
            .ok_or_else(|| mlua::Error::runtime("the VM was built without a linker"))?;
        let declared = linked
            .hands_out
            .iter()
            .find(|d| d.capability == capability && d.name == name)
            .copied();
        (linked.policy, declared)
    };
    let declared = declared.ok_or_else(|| {
        mlua::Error::runtime(format!(
            "no capability of this VM declares that {capability} hands out {name}: declare it with Capability::hands_out"
        ))
    })?;
    wrap(lua, policy, declared, Arc::new(f))
}

/// Adds to a capability's table what is not a host function: one of Luau's own builtins
/// (the engine's coroutines add `coroutine.resume`: see `coroutines.rs`).
pub(crate) type Extend = fn(&Lua, &Table) -> mlua::Result<()>;

/// A table the linker hands a VM: built from registered functions (and what extends
/// them), or data.
enum Part {
    Functions(Capability),
    Data(&'static str, Build),
    Extended(Capability, Extend),
}

impl Part {
    fn name(&self) -> &'static str {
        match self {
            Part::Functions(c) | Part::Extended(c, _) => c.name,
            Part::Data(name, _) => name,
        }
    }
}

/// What a VM's linker made, kept in the VM: the policy, the functions capabilities hand
/// out, every table (a global and a capability of one name are two) and every function
/// made for one.
pub(crate) struct Linked {
    policy: Policy,
    hands_out: Vec<Declared>,
    tables: Vec<(&'static str, Table)>,
    made: Vec<(Declared, Function)>,
}

/// What [`linked`] answers: the tables by name, and the functions with their registration.
#[cfg(test)]
type Made = (Vec<(&'static str, Table)>, Vec<(Declared, Function)>);

/// Every table the linker made for the VM `lua`, by name, and every function it made for
/// them, with its registration.
#[cfg(test)]
pub(crate) fn linked(lua: &Lua) -> Made {
    lua.app_data_ref::<Linked>()
        .map(|linked| (linked.tables.clone(), linked.made.clone()))
        .unwrap_or_default()
}

/// The capabilities and prelude a VM is built with.
pub(crate) struct Linker {
    policy: Policy,
    globals: Vec<Capability>,
    capabilities: Vec<Part>,
    pub(crate) prelude: Vec<PreludeModule>,
}

/// A prelude module: Luau bytecode compiled with the engine's one compiler setting.
pub(crate) struct PreludeModule {
    /// The chunk name errors show (`prelude/<name>`).
    pub name: &'static str,
    /// The global its returned value becomes, if any.
    pub global: Option<&'static str>,
    /// Its bytecode.
    pub bytecode: &'static [u8],
}

impl Linker {
    /// An empty linker whose host answers for its runs' profile with `policy`: a VM with
    /// the safe standard libraries only, until capabilities are added.
    pub(crate) fn new(policy: Policy) -> Linker {
        Linker {
            policy,
            globals: Vec::new(),
            capabilities: Vec::new(),
            prelude: Vec::new(),
        }
    }

    /// Gives scripts `capability` as the global of its name.
    pub(crate) fn global(mut self, capability: Capability) -> Linker {
        self.globals.push(capability);
        self
    }

    /// Gives the prelude (only) `capability`, built once per VM.
    pub(crate) fn capability(mut self, capability: Capability) -> Linker {
        self.capabilities.push(Part::Functions(capability));
        self
    }

    /// Gives the prelude (only) the table of data `build` makes once per VM, which may
    /// hold no function.
    pub(crate) fn data(mut self, name: &'static str, build: Build) -> Linker {
        self.capabilities.push(Part::Data(name, build));
        self
    }

    /// Gives the prelude (only) `capability`, its table extended by `extend`.
    pub(crate) fn extended(mut self, capability: Capability, extend: Extend) -> Linker {
        self.capabilities.push(Part::Extended(capability, extend));
        self
    }

    /// Runs `module` when the VM is built, after the globals and capabilities exist.
    pub(crate) fn prelude(mut self, module: PreludeModule) -> Linker {
        self.prelude.push(module);
        self
    }

    /// The names of the globals it gives scripts, in order.
    #[cfg(test)]
    pub(crate) fn global_names(&self) -> Vec<&'static str> {
        self.globals.iter().map(|c| c.name).collect()
    }

    /// The names of the capabilities it gives the prelude, in order.
    #[cfg(test)]
    pub(crate) fn capability_names(&self) -> Vec<&'static str> {
        self.capabilities.iter().map(Part::name).collect()
    }

    /// Every host function it registers (once per capability name: a global and a
    /// capability of one name are one), with its registration.
    #[cfg(test)]
    pub(crate) fn declared(&self) -> Vec<Declared> {
        let mut all: Vec<Declared> = Vec::new();
        let capabilities = self.capabilities.iter().filter_map(|part| match part {
            Part::Functions(c) | Part::Extended(c, _) => Some(c),
            Part::Data(..) => None,
        });
        for capability in self.globals.iter().chain(capabilities) {
            for declared in capability.declared() {
                if !all.contains(&declared) {
                    all.push(declared);
                }
            }
        }
        all
    }

    /// Notes what this linker makes in `lua`; every table is made after this.
    pub(crate) fn link(&self, lua: &Lua) {
        let mut hands_out = Vec::new();
        let capabilities = self.capabilities.iter().filter_map(|part| match part {
            Part::Functions(c) | Part::Extended(c, _) => Some(c),
            Part::Data(..) => None,
        });
        for capability in self.globals.iter().chain(capabilities) {
            hands_out.extend(capability.hands_out.iter().copied());
        }
        lua.set_app_data(Linked {
            policy: self.policy,
            hands_out,
            tables: Vec::new(),
            made: Vec::new(),
        });
    }

    /// The globals, each a read-only table, by name.
    pub(crate) fn global_tables(&self, lua: &Lua) -> mlua::Result<Vec<(&'static str, Table)>> {
        self.globals
            .iter()
            .map(|capability| {
                let table = with_linked(lua, |linked| {
                    let table = capability.table(lua, linked)?;
                    linked.tables.push((capability.name, table.clone()));
                    Ok(table)
                })?;
                table.set_readonly(true);
                Ok((capability.name, table))
            })
            .collect()
    }

    /// The capabilities, each a read-only table, by name.
    pub(crate) fn capability_tables(&self, lua: &Lua) -> mlua::Result<Vec<(&'static str, Table)>> {
        let mut tables = Vec::with_capacity(self.capabilities.len());
        for part in &self.capabilities {
            let table = match part {
                Part::Functions(capability) => {
                    let table = with_linked(lua, |linked| capability.table(lua, linked))?;
                    table.set_readonly(true);
                    table
                }
                Part::Extended(capability, extend) => {
                    let table = with_linked(lua, |linked| capability.table(lua, linked))?;
                    extend(lua, &table)?;
                    table.set_readonly(true);
                    table
                }
                Part::Data(name, build) => {
                    let table = build(lua)?;
                    if holds_function(&table, 8) {
                        return Err(mlua::Error::runtime(format!(
                            "the data capability '{name}' holds a function: register it with Capability::function, so that it has an effect class"
                        )));
                    }
                    table
                }
            };
            with_linked(lua, |linked| {
                linked.tables.push((part.name(), table.clone()));
                Ok(())
            })?;
            tables.push((part.name(), table));
        }
        Ok(tables)
    }
}

/// Runs `f` with the VM's record of what its linker made.
fn with_linked<R>(lua: &Lua, f: impl FnOnce(&mut Linked) -> mlua::Result<R>) -> mlua::Result<R> {
    // Taken out while `f` makes functions: making one may look the record up.
    let mut linked = lua
        .remove_app_data::<Linked>()
        .ok_or_else(|| mlua::Error::runtime("the VM was built without a linker"))?;
    let out = f(&mut linked);
    lua.set_app_data(linked);
    out
}

/// True when `table`, or a table in it (`depth` levels down), holds a function.
fn holds_function(table: &Table, depth: usize) -> bool {
    let mut found = false;
    let _ = table.for_each(|k: Value, v: Value| {
        found |= [k, v].iter().any(|x| match x {
            Value::Function(_) => true,
            Value::Table(t) if depth > 0 => holds_function(t, depth - 1),
            _ => false,
        });
        Ok(())
    });
    found
}

#[cfg(test)]
#[path = "../../tests/unit/sandbox/linker.rs"]
mod tests;
