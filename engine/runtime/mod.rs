//! Running scripts: the runtime composes the sandbox (`crate::sandbox`), the host's
//! capabilities (`crate::host`) and a registry, runs one script at a time and builds the
//! result envelope. This file holds the run loop: [`Runtime::run`] takes a [`RunRequest`]
//! (`request.rs`), the one way a script runs, and every run (a script, or a tool or `tools`
//! function that [`Runtime::call`] and [`Runtime::surface`] in `call.rs` call without
//! source) is readied and completed by the same two steps (`ready`, `complete`);
//! `edits.rs` checks the tools a long-running process sees edited.

mod audit;
mod body;
mod call;
mod checking;
mod edits;
mod envelope;
mod pool;
mod report;
mod request;

use std::sync::Arc;
use std::time::{Duration, Instant};

use mlua::{MultiValue, Value};

pub use body::Surface;
pub use call::{Args, Call, Called, Rendered};
pub(crate) use checking::warm_up;
pub(crate) use edits::check_edits;
#[cfg(test)]
pub(crate) use edits::EditReport;
pub(crate) use envelope::refused;
pub use envelope::{Envelope, ErrorKind, ScriptError, Truncation};
pub use pool::{Pool, PoolError};
pub use request::{Check, Output, RunRequest, Session};

use crate::assets::AssetIndex;
use crate::audit::{Agent, Trail};
use crate::check::Checking;
use crate::host::{self, State};
use crate::registry::Registry;
use crate::sandbox::{
    self, gate, load_text, to_json, Cutoff, Finished, Limits, Run, StopCause, StopCheck, Vm,
};
use body::Body;
use checking::Preflight;
use report::{inside_tool_hint, script_error};

/// A heap larger than this after a run is collected at once (see
/// `Runtime::release_large_heap`): a fresh VM holds about 150 KiB, a listing of 10,000
/// tools 7 MiB.
const LARGE_HEAP_BYTES: usize = 4 << 20;

/// The most tools whose cut results the envelope names one by one (see
/// [`Runtime::complete`]); a last entry counts the rest.
const MAX_TOOL_CUTS_SHOWN: usize = 8;

/// A run handed to the VM and not started: what [`Runtime::complete`] needs of it.
struct Readied {
    started: Instant,
    /// The snapshot the run reads, for the hint of an error inside a tool.
    tools: Arc<AssetIndex>,
    /// Whether the VM took the run.
    begun: mlua::Result<()>,
}

/// A script on its way through [`Runtime::run`].
struct Script<'a> {
    /// The source, without a byte-order mark (some editors on Windows start files with one).
    source: &'a str,
    output: Output,
    /// A REPL session's environment, or `None` for a fresh one.
    env: Option<mlua::Table>,
    stop: Option<StopCheck>,
    /// A REPL entry: its globals come from entries the checker does not see.
    in_session: bool,
}

/// Failure to build a VM (out of memory at start-up, or a broken prelude).
#[derive(Debug, thiserror::Error)]
#[error("cannot start the Luau VM: {0}")]
pub struct StartError(#[from] mlua::Error);

/// One VM bound to a registry, running one script at a time.
pub struct Runtime {
    vm: Vm,
    registry: Arc<Registry>,
    limits: Limits,
    /// Bumped when the VM is replaced, so a [`Session`] knows its environment is gone.
    generation: u64,
    /// The type checker scripts pass before they run, when there is one.
    checking: Option<Arc<Checking>>,
    /// What the current run's check took: it comes out of the run's deadline.
    spent: Duration,
    /// Whether the VM was built with the `http` and `shell` globals: a policy edit that
    /// grants or revokes either needs a VM built again.
    linked: (bool, bool),
    /// The agent the next runs act for, as their audit lines name it.
    agent: Agent,
    /// The audit lines of the run that just ended, until its run line is written.
    trail: Option<Trail>,
}

impl Runtime {
    /// A runtime over `registry` with `limits`.
    pub(crate) fn new(registry: Arc<Registry>, limits: Limits) -> Result<Runtime, StartError> {
        let granted = registry.capabilities();
        let vm = Vm::new(&host::linker(&granted))?;
        Ok(Runtime {
            vm,
            registry,
            limits,
            generation: 0,
            checking: None,
            spent: Duration::ZERO,
            linked: host::granted_globals(&granted),
            agent: Agent::local(),
            trail: None,
        })
    }

    /// The agent the next runs act for, as the audit log names it (the command line's
    /// is [`Agent::local`], the default). A server sets the agent of each request before
    /// running it; the profile a line names is the registry's, not set here.
    pub(crate) fn set_agent(&mut self, agent: Agent) {
        self.agent = agent;
    }

    /// Type-checks each script (`exec*`, not typed calls, which the binder checks) before
    /// it runs, or stops doing so (`None`).
    pub(crate) fn set_checking(&mut self, checking: Option<Arc<Checking>>) {
        self.checking = checking;
    }

    /// The type checker scripts pass, when there is one.
    pub(crate) fn checking(&self) -> Option<&Arc<Checking>> {
        self.checking.as_ref()
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The registry the runtime reads.
    pub(crate) fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Runs `request` and returns its envelope: the one way a script runs. Never panics on
    /// script behaviour; a VM left unusable (memory breach) is replaced before the next
    /// run. The run's audit line is written once the envelope is final.
    pub fn run(&mut self, request: RunRequest<'_>) -> Envelope {
        let check = request.check_when();
        let RunRequest {
            source,
            output,
            session,
            stop,
            ..
        } = request;
        // First: a policy edit may replace the VM, and a session's table with it.
        let index = self.begin_snapshot();
        let in_session = session.is_some();
        let env = session.and_then(|session| self.session_env(session));
        let script = Script {
            source: source.strip_prefix(crate::assets::BOM).unwrap_or(source),
            output,
            env,
            stop,
            in_session,
        };
        let envelope = self.run_checked(script, check, index);
        self.record_run(&envelope);
        envelope
    }

    /// Shorthand for [`Runtime::run`] of `source` with its prints going to `output`.
    pub fn exec(&mut self, source: &str, output: Output) -> Envelope {
        self.run(RunRequest::new(source).output(output))
    }

    /// `session`'s environment in this VM: made anew (and the session told) when the VM
    /// it was made in is gone.
    fn session_env(&mut self, session: &mut Session) -> Option<mlua::Table> {
        match &session.env {
            Some((generation, env)) if *generation == self.generation => Some(env.clone()),
            _ => {
                session.reset = session.env.is_some();
                session.env = self.vm.script_env().ok().map(|env| (self.generation, env));
                session.env.as_ref().map(|(_, env)| env.clone())
            }
        }
    }

    /// Type-checks the script as `check` says (when a checker is set) and runs it over
    /// `index` unless the check stops it.
    fn run_checked(
        &mut self,
        script: Script<'_>,
        check: Check,
        index: Arc<AssetIndex>,
    ) -> Envelope {
        let started = Instant::now();
        let checking = self.checking.clone().filter(|_| check != Check::Off);
        // The check's time is the run's: it waits at most half the run's timeout for the
        // checker (a check cut there lets the script run unchecked), and the run gets
        // what is left.
        let sent = checking.as_ref().map(|c| {
            c.send_preflight(
                &self.registry,
                &index,
                script.source,
                self.limits.timeout / 2,
            )
        });
        // The run is readied while the checker reads the script in its own process.
        let readied = self.ready(script.output, index.clone());
        let sent = match sent {
            Some(sent) if check == Check::Overlap => {
                return self.run_overlapped(started, readied, sent, script, index);
            }
            sent => sent,
        };
        let verdict =
            sent.map(|s| s.verdict(&self.registry, &index, script.source, script.in_session));
        let diagnostics = match verdict {
            None => Vec::new(),
            Some(Preflight::Go(diagnostics)) => diagnostics,
            Some(Preflight::Stop(mut envelope)) => {
                drop(self.vm.finish::<State>());
                envelope.elapsed_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
                return *envelope;
            }
        };
        self.spent = started.elapsed();
        let mut envelope = self.complete(
            readied,
            Body::Source(script.source),
            script.env,
            script.stop,
        );
        self.spent = Duration::ZERO;
        envelope.diagnostics = self.shown(envelope.ok, diagnostics);
        envelope.elapsed_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
        envelope
    }

    /// Runs the script in the run [`Runtime::ready`] began while the checker checks it
    /// (see `sandbox/gate.rs`), and builds its envelope: the refusal when the check
    /// refused it.
    fn run_overlapped(
        &mut self,
        started: Instant,
        readied: Readied,
        sent: checking::Sent,
        script: Script<'_>,
        index: Arc<AssetIndex>,
    ) -> Envelope {
        let (verdict, said) = sent.into_gate(self.registry.clone(), index, script.source);
        self.spent = started.elapsed();
        gate::set(verdict);
        let mut envelope = self.complete(
            readied,
            Body::Source(script.source),
            script.env,
            script.stop,
        );
        // The run ended before it reached outside itself or heard the verdict: wait for it.
        if let Some(mut verdict) = gate::take() {
            verdict(true);
        }
        self.spent = Duration::ZERO;
        let elapsed_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
        match said.take() {
            Some(Preflight::Stop(mut refused)) => {
                refused.elapsed_ms = elapsed_ms;
                return *refused;
            }
            Some(Preflight::Go(diagnostics)) => {
                envelope.diagnostics = self.shown(envelope.ok, diagnostics);
            }
            None => {}
        }
        envelope.elapsed_ms = elapsed_ms;
        envelope
    }

    /// The check's report as `envelope` carries it (see [`crate::check::Mode::shown`]).
    fn shown(
        &self,
        ran_ok: bool,
        diagnostics: Vec<crate::check::Diagnostic>,
    ) -> Vec<crate::check::Diagnostic> {
        match &self.checking {
            Some(checking) => checking.mode().shown(ran_ok, diagnostics),
            None => diagnostics,
        }
    }

    /// Runs `body` (a tool or a `tools` function called without source) over `index` (a
    /// snapshot of the registry) and builds its envelope.
    fn run_body(
        &mut self,
        body: Body<'_>,
        output: Output,
        stop: Option<StopCheck>,
        index: Arc<AssetIndex>,
    ) -> Envelope {
        let readied = self.ready(output, index);
        self.complete(readied, body, None, stop)
    }

    /// Hands the VM a run's state over `index`; what [`Runtime::complete`] runs next, or
    /// what a refused script's caller takes back with `self.vm.finish::<State>()`.
    fn ready(&mut self, output: Output, index: Arc<AssetIndex>) -> Readied {
        let started = Instant::now();
        let tools = index.clone();
        let mut state = State::new(index, self.registry.clone());
        state.checking = self.checking.clone();
        state.audit = self.new_trail();
        if let Err(e) = host::cache::begin(&self.vm.lua, &state) {
            tracing::warn!("resetting the run caches failed ({e}); replacing the VM");
            self.replace_vm();
            if let Err(e) = host::cache::begin(&self.vm.lua, &state) {
                tracing::error!("the replaced VM's run caches cannot be set up either: {e}");
            }
        }
        let run = Run::new(&self.limits, output == Output::Stream);
        Readied {
            started,
            tools,
            begun: self.vm.begin(run, state),
        }
    }

    /// Runs `body` in the run [`Runtime::ready`] began, and builds its envelope.
    fn complete(
        &mut self,
        readied: Readied,
        body: Body<'_>,
        env: Option<mlua::Table>,
        stop: Option<StopCheck>,
    ) -> Envelope {
        let Readied {
            started,
            tools,
            begun,
        } = readied;
        let outcome = match begun {
            Ok(()) => self.call_body(body, env, stop),
            Err(e) => Err(e),
        };
        let Finished {
            run,
            mut data,
            cutoff,
        } = self.vm.finish::<State>();
        let tool_cuts = data.as_ref().map(|d| d.cuts.clone()).unwrap_or_default();
        // The run's call lines wait for its run line (`record_run`).
        self.trail = data.as_mut().and_then(|d| d.audit.take());
        // The host's state goes first: dropping it cancels the run's upstream calls.
        drop(data);
        self.release_large_heap();
        let (stdout, recorded, waited) = run
            .map(|r| (r.stdout, r.stop, r.waited))
            .unwrap_or_default();
        let cause = match cutoff {
            Some(Cutoff::Deadline) => Some(StopCause::Deadline),
            Some(Cutoff::Stopped) => Some(StopCause::Cancelled),
            None => {
                let from_error = outcome.as_ref().err().and_then(StopCause::from_luau_error);
                match from_error {
                    Some(StopCause::Memory) => from_error,
                    _ => recorded.or(from_error),
                }
            }
        };
        let mut envelope = Envelope {
            ok: false,
            value: None,
            error: None,
            stdout,
            truncated: cause == Some(StopCause::Output),
            truncation: Vec::new(),
            diagnostics: Vec::new(),
            elapsed_ms: 0.0,
        };
        match (outcome, cause) {
            (Ok((value, cut)), None) => {
                envelope.ok = true;
                envelope.value = Some(value);
                if cut {
                    envelope.truncated = true;
                    envelope.truncation.push(Truncation {
                        what: "value".into(),
                        cap_bytes: self.limits.max_output_bytes,
                        note: format!(
                            "the returned value (with what was printed) was cut to fit {} bytes; return less (a page, a summary) or raise the output cap",
                            self.limits.max_output_bytes
                        ),
                    });
                }
            }
            (outcome, cause) => {
                let error = outcome.err();
                let mut failure =
                    script_error(error.as_ref(), cause, waited.as_deref(), &self.limits);
                if let Some(shown) = self.raised_table(&failure) {
                    failure.message = shown;
                }
                if failure.kind == ErrorKind::Runtime && failure.hint.is_none() {
                    failure.hint = inside_tool_hint(&failure.message, &tools);
                }
                envelope.error = Some(failure);
                if cause == Some(StopCause::Memory) {
                    self.replace_vm();
                }
            }
        }
        if envelope
            .error
            .as_ref()
            .is_some_and(|e| e.kind == ErrorKind::Output)
        {
            envelope.truncation.push(Truncation {
                what: "stdout".into(),
                cap_bytes: self.limits.max_output_bytes,
                note: "stdout holds what was printed before the cap".into(),
            });
        }
        // One entry per tool cut, for the first few: a run may call hundreds of tools, and
        // the envelope must stay within the output cap plus a few KiB.
        let more = tool_cuts.len().saturating_sub(MAX_TOOL_CUTS_SHOWN);
        for (identity, cap) in tool_cuts.into_iter().take(MAX_TOOL_CUTS_SHOWN) {
            envelope.truncated = true;
            envelope.truncation.push(Truncation {
                what: format!("tools.{identity}"),
                cap_bytes: cap,
                note: format!(
                    "a result of tools.{identity} was cut to its own limit of {cap} bytes (limits.maxOutputBytes); ask the tool for less, or raise the limit"
                ),
            });
        }
        if more > 0 {
            envelope.truncation.push(Truncation {
                what: "tools".into(),
                cap_bytes: 0,
                note: format!("results of {more} more tools were cut to their own limits"),
            });
        }
        envelope.error = envelope.error.map(ScriptError::bounded);
        // Whole microseconds: finer digits are noise that costs a reader's tokens.
        envelope.elapsed_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
        envelope.masked()
    }

    /// Collects a large heap a run left behind (a listing of 100,000 tools builds one of
    /// tens of megabytes) and hands the freed pages back to the system: the collector
    /// would free it only gradually, the allocator keep it, and a long-lived process
    /// (`serve`) hold every run's peak.
    fn release_large_heap(&self) {
        if self.vm.lua.used_memory() > LARGE_HEAP_BYTES {
            if let Err(e) = self.vm.lua.gc_collect() {
                tracing::debug!("collecting after a run failed: {e}");
            }
            crate::cache::release_freed_memory();
        }
    }

    /// A table the script raised with `error`, as JSON, when it is what stopped the run
    /// (the message is then only its address, `table: 0x...`).
    fn raised_table(&self, failure: &ScriptError) -> Option<String> {
        if failure.kind != ErrorKind::Runtime || !failure.message.starts_with("table: ") {
            return None;
        }
        let raised = crate::host::raised(&self.vm.lua)?;
        let address = raised.to_string().ok()?;
        if address != failure.message {
            return None;
        }
        let (json, _) = to_json(
            &raised,
            crate::sandbox::MAX_MESSAGE_BYTES,
            self.limits.max_value_depth,
        );
        serde_json::to_string(&json).ok()
    }

    /// Loads and calls the script (or calls the body's function), and converts what it returned.
    fn call_body(
        &self,
        body: Body<'_>,
        env: Option<mlua::Table>,
        stop: Option<StopCheck>,
    ) -> mlua::Result<(serde_json::Value, bool)> {
        let lua = &self.vm.lua;
        lua.set_memory_limit(self.limits.memory_bytes)?;
        let env = match env {
            Some(env) => env,
            None => self.vm.script_env()?,
        };
        sandbox::with_run(lua, |r| r.env = Some(env.clone()))?;
        // Compiling counts against the deadline: a compile bomb is a slow script.
        self.vm
            .arm(self.limits.timeout.saturating_sub(self.spent), stop);
        let values: MultiValue = match body {
            Body::Source(source) => load_text(
                lua,
                source.as_bytes(),
                "script",
                Some(env),
                self.limits.compile_cap(),
            )?
            .call(())?,
            Body::Call(bound) => body::call_tool(lua, bound)?,
            Body::Surface(surface) => body::call_surface(lua, surface)?,
            Body::Upstream(upstream) => body::call_upstream(lua, upstream)?,
        };
        let value = match values.len() {
            0 => Value::Nil,
            1 => values.into_iter().next().unwrap_or(Value::Nil),
            _ => {
                let t = lua.create_sequence_from(values)?;
                Value::Table(t)
            }
        };
        // Printed text and the value share the cap, so the envelope stays within it.
        let printed = sandbox::with_run(lua, |r| r.printed)?;
        Ok(to_json(
            &value,
            self.limits.max_output_bytes.saturating_sub(printed),
            self.limits.max_value_depth,
        ))
    }

    /// The snapshot a run begins with, after reading a changed policy file in (when the
    /// registry follows it): a VM whose globals the new grants change is built again, so
    /// a revoked `shell` or `http` is gone from the next run (a REPL session starts over).
    fn begin_snapshot(&mut self) -> Arc<AssetIndex> {
        self.registry.refresh_policy();
        if host::granted_globals(&self.registry.capabilities()) != self.linked {
            self.replace_vm();
        }
        self.registry.snapshot()
    }

    fn replace_vm(&mut self) {
        self.generation += 1;
        let granted = self.registry.capabilities();
        match Vm::new(&host::linker(&granted)) {
            Ok(vm) => {
                self.vm = vm;
                self.linked = host::granted_globals(&granted);
            }
            Err(e) => {
                tracing::error!("could not replace the VM after a memory breach: {e}");
                let _ = self.vm.lua.gc_collect();
            }
        }
    }
}
