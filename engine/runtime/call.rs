//! Runs without source: one tool called with arguments bound in Rust, or one function of
//! the `tools` surface called with JSON values.
//!
//! Both go through the same path as a script ([`Runtime::run`]): the run's index
//! snapshot, the memory limit, the deadline and stop check, the output cap and the
//! envelope. Only the body differs (`body.rs`): instead of compiling source, the run
//! fetches the tool as the prelude does, or the surface function from the prelude's `tools`
//! table, and calls it with Luau values converted from JSON. No front end writes Luau
//! source to call a tool, and no value is ever spliced into code.
//!
//! Arguments are bound by the one binder ([`crate::bind`]): positional and named JSON by
//! [`collect_json`] and [`check_slots`], shell words by [`parse_command_line`]. A refused
//! binding runs nothing and comes back as a [`Refusal`].

use std::path::PathBuf;

use serde_json::{Map, Value as Json};

use super::body::{Body, Bound, Surface, UpstreamCall};
use super::{Envelope, Output, Runtime};
use crate::assets::AssetIndex;
use crate::bind::{check_slots, collect_json, parse_command_line, Reason, Refusal, Style};
use crate::host::bind::{schema, shell_schema};
use crate::sandbox::StopCheck;

/// The arguments of a call, in one of the three forms callers have them.
#[derive(Debug, Clone, PartialEq)]
pub enum Args {
    /// By position, as `tools.<box>.<name>(a, b)` takes them; `null` is `nil`.
    Positional(Vec<Json>),
    /// By parameter name (names of the trailing options table's fields fill that table),
    /// as an MCP client sends them; `null` is not given.
    Named(Map<String, Json>),
    /// Shell words, read against the tool's schema as `tools.parseCommandLine` reads them.
    Words {
        /// The words after the tool's identity.
        words: Vec<String>,
        /// Where `Path` words are resolved from: relative to the world, or absolute
        /// (`None` is the world itself).
        cwd: Option<PathBuf>,
    },
}

/// One tool call: which tool, with what, and whether to show the result for a person.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// `"<box>.<name>"`.
    pub identity: String,
    /// The arguments, bound against the tool's schema before the run.
    pub args: Args,
    /// Show the result through the tool's `render.luau`, as `codemode call` does. The
    /// tool's first returned value is rendered, or, without a `render.luau`, is the value.
    pub render: bool,
}

impl Call {
    /// A call of `identity` with `args`, returning the tool's value.
    pub fn new(identity: impl Into<String>, args: Args) -> Call {
        Call {
            identity: identity.into(),
            args,
            render: false,
        }
    }

    /// The same call, shown through the tool's `render.luau` when it has one.
    pub fn rendered(mut self) -> Call {
        self.render = true;
        self
    }
}

/// What a tool's `render.luau` made of its result.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// Text for stdout.
    pub out: String,
    /// Text for stderr.
    pub err: Option<String>,
    /// The exit code asked for.
    pub exit: Option<i64>,
}

/// A call that ran (or failed while running).
#[derive(Debug, Clone)]
pub struct Called {
    /// The run's envelope: `value` is what the tool returned (several values make a list),
    /// or, when rendered, the render's `{out, err?, exit?}`.
    pub envelope: Envelope,
    /// The render's result, when the call asked for one and the tool has a `render.luau`.
    pub rendered: Option<Rendered>,
}

impl Runtime {
    /// Calls the tool `identity` with `args` and returns the envelope of the run, whose
    /// value is what the tool returned. Arguments the tool's schema refuses run nothing.
    pub fn call(&mut self, identity: &str, args: Args) -> Result<Envelope, Refusal> {
        self.run_call(Call::new(identity, args), Output::Capture, None)
            .map(|called| called.envelope)
    }

    /// Runs `call` as [`Runtime::run`] runs a script: prints are captured or streamed as
    /// `output` says, and `stop` is asked every few thousand instructions whether to stop.
    /// Its audit line is written once its envelope is final (a refused binding's outcome
    /// is `type`: the arguments did not fit the tool's schema).
    pub(crate) fn run_call(
        &mut self,
        call: Call,
        output: Output,
        stop: Option<StopCheck>,
    ) -> Result<Called, Refusal> {
        let started = std::time::Instant::now();
        let called = self.run_call_unrecorded(call, output, stop);
        match &called {
            Ok(called) => self.record_run(&called.envelope),
            Err(refusal) => {
                let mut envelope = super::refused(super::ErrorKind::Type, &refusal.message);
                envelope.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
                self.record_run(&envelope);
            }
        }
        called
    }

    fn run_call_unrecorded(
        &mut self,
        call: Call,
        output: Output,
        stop: Option<StopCheck>,
    ) -> Result<Called, Refusal> {
        let index = self.begin_snapshot();
        if let Some(denial) = index.denial(&call.identity) {
            // The call's line: no run began, so no host state holds a trail for it.
            self.trail = self.new_trail();
            if let Some(trail) = &mut self.trail {
                trail.call(
                    &call.identity,
                    "denied",
                    std::time::Duration::ZERO,
                    0,
                    false,
                );
            }
            // Refused before anything is bound or run, whether or not the tool exists.
            let refusal = crate::host::denied_tool(&call.identity, &denial);
            let mut envelope = super::refused(super::ErrorKind::Denied, &refusal.message);
            if let Some(error) = &mut envelope.error {
                error.hint = refusal.hint;
            }
            return Ok(Called {
                envelope,
                rendered: None,
            });
        }
        if let Some(upstream) = upstream_call(&self.registry, &index, &call)? {
            let envelope = self.run_body(Body::Upstream(&upstream), output, stop, index);
            return Ok(Called {
                envelope,
                rendered: None,
            });
        }
        let mut bound = bind(&index, &self.registry, call)?;
        let envelope = self.run_body(Body::Call(&mut bound), output, stop, index);
        let rendered = match (&envelope.value, bound.rendered && envelope.ok) {
            (Some(value), true) => Some(Rendered::read(value)),
            _ => None,
        };
        Ok(Called { envelope, rendered })
    }

    /// Calls `tools.<name>(args...)` and returns the envelope of the run, whose value is
    /// what it returned: `runtime.surface("list", vec![json!(2)])` is `tools.list(2)`.
    pub fn surface(&mut self, name: &str, args: Vec<Json>) -> Envelope {
        self.run_surface(&Surface::new(name, args), None)
    }

    /// Runs `surface` with prints captured, stopped early when `stop` says so.
    pub(crate) fn run_surface(&mut self, surface: &Surface, stop: Option<StopCheck>) -> Envelope {
        let index = self.begin_snapshot();
        let envelope = self.run_body(Body::Surface(surface), Output::Capture, stop, index);
        self.record_run(&envelope);
        envelope
    }
}

/// The call as one of an upstream server's tools, when its toolbox is a server the run
/// sees (and no toolbox folder of that name stands in for it); `None` for every other call.
fn upstream_call(
    registry: &crate::registry::Registry,
    index: &AssetIndex,
    call: &Call,
) -> Result<Option<UpstreamCall>, Refusal> {
    let Some((server, tool)) = call.identity.split_once('.') else {
        return Ok(None);
    };
    if crate::registry::shadowed(index, server) {
        return Ok(None);
    }
    let views = registry.upstream_views(index);
    let Some(view) = views.iter().find(|v| v.name == server) else {
        return Ok(None);
    };
    let one_table = || {
        Refusal::new(
            Reason::WrongType,
            format!("tools.{server}.{tool} takes one table of named arguments (an MCP tool takes one object); tools.get('{server}.{tool}') shows them"),
        )
    };
    let args = match &call.args {
        Args::Named(map) => map.clone(),
        Args::Positional(items) => match items.as_slice() {
            [] => Map::new(),
            [Json::Object(map)] => map.clone(),
            _ => return Err(one_table()),
        },
        Args::Words { words, cwd } => {
            // Words are read against the tool's input schema, so the tool must be known.
            let Some(found) = view.tools().iter().find(|t| t.name == tool) else {
                let fix = match &view.catalogue {
                    Some(_) => format!("codemode list 2 {server} lists its tools"),
                    None => {
                        format!("its tools are not fetched yet: run codemode mcp sync {server}")
                    }
                };
                return Err(Refusal::new(
                    Reason::UnknownTool,
                    format!("no tool named '{tool}' on MCP server '{server}'; {fix}"),
                ));
            };
            let world = index.roots[0].dir().map(PathBuf::from).unwrap_or_default();
            let cwd = cwd.as_ref().map(|c| world.join(c)).unwrap_or(world);
            found.bind_words(server, words, &cwd)?
        }
    };
    Ok(Some(UpstreamCall {
        server: server.to_string(),
        tool: tool.to_string(),
        args,
    }))
}

/// Binds `call` against its tool's schema in `index`, the snapshot the run will use.
fn bind(
    index: &AssetIndex,
    registry: &crate::registry::Registry,
    call: Call,
) -> Result<Bound, Refusal> {
    let schema = match call.args {
        Args::Words { .. } => shell_schema(index, registry, &call.identity)?,
        _ => schema(index, &call.identity)?,
    };
    let slots = match call.args {
        Args::Positional(items) => json_slots(&schema, Json::Array(items))?,
        Args::Named(map) => json_slots(&schema, Json::Object(map))?,
        Args::Words { words, cwd } => {
            let world = index.roots[0].dir().map(PathBuf::from).unwrap_or_default();
            let cwd = cwd.map(|c| world.join(c)).unwrap_or(world);
            parse_command_line(&schema, &words, &cwd)?
        }
    };
    // An identity the schema was found under is `<box>.<name>`.
    let (toolbox, tool) = call
        .identity
        .split_once('.')
        .map(|(b, t)| (b.to_string(), t.to_string()))
        .unwrap_or_default();
    Ok(Bound {
        identity: call.identity,
        toolbox,
        tool,
        slots,
        render: call.render,
        rendered: false,
    })
}

fn json_slots(schema: &crate::bind::Schema, args: Json) -> Result<Vec<Option<Json>>, Refusal> {
    let slots = collect_json(schema, args)?;
    check_slots(schema, &slots, Style::Json)?;
    Ok(slots)
}

impl Rendered {
    /// Reads the `{out, err?, exit?}` that `tools.render` checked and the run converted.
    fn read(value: &Json) -> Rendered {
        let text = |name: &str| value.get(name).and_then(Json::as_str).map(str::to_string);
        Rendered {
            out: text("out").unwrap_or_default(),
            err: text("err"),
            exit: value.get("exit").and_then(Json::as_f64).map(|n| n as i64),
        }
    }
}
