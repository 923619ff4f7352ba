//! What a run runs instead of source: a bound tool, a function of the `tools` surface, or
//! a tool of an upstream server, each called inside a run the runtime has set up (its
//! deadline, memory limit and output cap). `call.rs` binds them; `mod.rs` runs them.

use mlua::{Function, Lua, MultiValue, Table, Value};
use serde_json::{Map, Value as Json};

use crate::bind::{lua_args, lua_value};
use crate::host::instance::load_tool;
use crate::sandbox::HostError;

/// A call of one function of the `tools` surface (`list`, `search`, `get`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    /// The member of `tools`: `"list"` calls `tools.list`.
    pub name: String,
    /// Its arguments in order; `null` is `nil`.
    pub args: Vec<Json>,
    /// Fields of the returned table to keep (see [`Surface::pick`]); empty keeps it whole.
    pub pick: Vec<String>,
}

impl Surface {
    /// `tools.<name>(args...)`, its whole result as the envelope's value.
    pub fn new(name: impl Into<String>, args: Vec<Json>) -> Surface {
        Surface {
            name: name.into(),
            args,
            pick: Vec::new(),
        }
    }

    /// Keeps only these fields of the returned table, before the value is converted and
    /// held to the output cap: one field is the value itself (`stdout` of `tools.list`),
    /// several make a table of those fields.
    pub fn pick(mut self, fields: &[&str]) -> Surface {
        self.pick = fields.iter().map(|f| f.to_string()).collect();
        self
    }
}

/// What a run does instead of (or as) a script.
pub(crate) enum Body<'a> {
    /// Compile and run this source.
    Source(&'a str),
    /// Call a bound tool.
    Call(&'a mut Bound),
    /// Call a surface function.
    Surface(&'a Surface),
    /// Call a tool of an upstream MCP server.
    Upstream(&'a UpstreamCall),
}

/// A call of a tool of an upstream MCP server: its one table of named arguments goes to
/// the server as is (the server checks it against its own schema).
pub(crate) struct UpstreamCall {
    pub(super) server: String,
    pub(super) tool: String,
    pub(super) args: Map<String, Json>,
}

/// A call whose arguments passed the binder, ready to run.
pub(crate) struct Bound {
    pub(super) identity: String,
    pub(super) toolbox: String,
    pub(super) tool: String,
    pub(super) slots: Vec<Option<Json>>,
    pub(super) render: bool,
    /// Set by the run when the tool's render.luau showed the result.
    pub(super) rendered: bool,
}

/// Calls the upstream tool, inside a run the runtime has set up (its deadline bounds the
/// wait, its output cap the answer).
pub(crate) fn call_upstream(lua: &Lua, call: &UpstreamCall) -> mlua::Result<MultiValue> {
    let args = lua_value(lua, &Json::Object(call.args.clone()))?;
    tool_function(lua, &call.server, &call.tool)?.call(args)
}

/// `tools.<toolbox>.<tool>` as a script gets it: with the tool's own limits and cache.
fn tool_function(lua: &Lua, toolbox: &str, tool: &str) -> mlua::Result<Function> {
    let tools: Table = lua.globals().get("tools")?;
    let toolbox: Table = tools.get(toolbox)?;
    toolbox.get(tool)
}

/// Calls the bound tool, inside a run the runtime has set up; with `render`, shows the
/// first value through `tools.render`.
pub(crate) fn call_tool(lua: &Lua, bound: &mut Bound) -> mlua::Result<MultiValue> {
    // The tool's own function first: it raises the clear error for a tool that is not
    // callable; the call then goes through `tools`, as a script's does.
    load_tool(lua, &bound.toolbox, &bound.tool)?;
    let function = tool_function(lua, &bound.toolbox, &bound.tool)?;
    let values: MultiValue = function.call(arguments(lua_args(lua, &bound.slots)?))?;
    if !bound.render {
        return Ok(values);
    }
    // A render.luau shows the first value; without one, every value is the result, as
    // `exec` returns them.
    let value = values.iter().next().cloned().unwrap_or(Value::Nil);
    let render: Function = surface_function(lua, "render")?;
    match render.call::<Value>((bound.identity.as_str(), value))? {
        Value::Nil => Ok(values),
        shown => {
            bound.rendered = true;
            Ok(MultiValue::from_vec(vec![shown]))
        }
    }
}

/// Calls the surface function, inside a run the runtime has set up, and picks fields.
pub(crate) fn call_surface(lua: &Lua, surface: &Surface) -> mlua::Result<MultiValue> {
    let function = surface_function(lua, &surface.name)?;
    let args = surface
        .args
        .iter()
        .map(|a| lua_value(lua, a))
        .collect::<mlua::Result<Vec<Value>>>()?;
    let values: MultiValue = function.call(arguments(args))?;
    if surface.pick.is_empty() {
        return Ok(values);
    }
    let Some(Value::Table(result)) = values.into_iter().next() else {
        return Err(HostError::new(format!(
            "tools.{} did not return a table, so it has no field {}",
            surface.name,
            surface.pick.join(", ")
        ))
        .into_lua());
    };
    let picked = match surface.pick.as_slice() {
        [one] => result.raw_get::<Value>(one.as_str())?,
        many => {
            let t = lua.create_table_with_capacity(0, many.len())?;
            for field in many {
                t.raw_set(field.as_str(), result.raw_get::<Value>(field.as_str())?)?;
            }
            Value::Table(t)
        }
    };
    Ok(MultiValue::from_vec(vec![picked]))
}

/// A member of the prelude's `tools` table that is a function.
fn surface_function(lua: &Lua, name: &str) -> mlua::Result<Function> {
    // After `sandbox`, the VM's globals read through to the frozen ones the prelude set,
    // which no script can write.
    let tools: Table = lua.globals().get("tools")?;
    match tools.raw_get::<Value>(name)? {
        Value::Function(f) => Ok(f),
        _ => Err(HostError::hinted(
            format!("tools.{name} is not a function of the tools surface"),
            "the surface has toolboxes, list, get, search, bind, parseCommandLine, render, ...; tools.list() lists tools",
        )
        .into_lua()),
    }
}

/// The values of a call without its trailing `nil`s, as `table.unpack(args, 1, n)` gives
/// them: a tool that counts its arguments sees only those given.
fn arguments(mut values: Vec<Value>) -> MultiValue {
    while values.last().is_some_and(Value::is_nil) {
        values.pop();
    }
    MultiValue::from_vec(values)
}
