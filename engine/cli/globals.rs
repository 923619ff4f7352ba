//! The flags every command takes (`--world`, `--timeout-ms`, `--check`, ...) and what they
//! open: the registry, the runtimes of each kind of command, the type checker.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::registry::Registry;
use crate::runtime::Runtime;
use crate::sandbox::Limits;

/// The global flags, given before or after the command's name.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Globals {
    /// The writable directory holding your toolboxes [default: the current directory]
    #[arg(long, global = true, env = "CODEMODE_WORLD", value_name = "DIR")]
    pub(super) world: Option<PathBuf>,

    /// A read-only folder of toolboxes, searched after the world (repeatable)
    #[arg(long, global = true, value_name = "DIR")]
    pub(super) library: Vec<PathBuf>,

    /// Leave out the toolboxes bundled with codemode (only the world and --library)
    #[arg(long, global = true)]
    pub(super) no_bundled: bool,

    /// An mcpServers JSON file (as Claude Desktop, Cursor and Claude Code write) whose
    /// servers become toolboxes, read after <world>/.codemode/mcp.json (repeatable)
    #[arg(long, global = true, value_name = "FILE")]
    pub(super) mcp_config: Vec<PathBuf>,

    /// Wall-clock deadline per script, in milliseconds
    #[arg(long, global = true, default_value_t = 10_000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) timeout_ms: u64,

    /// Memory limit of the Luau VM, in MiB
    #[arg(long, global = true, default_value_t = 256, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub(super) memory_mb: u64,

    /// Cap on printed output plus the returned value, as the JSON envelope carries them, in bytes
    /// [default: 1048576; 131072 for serve, so a whole reply fits MCP clients' message caps]
    #[arg(long, global = true, value_name = "BYTES",
          value_parser = clap::value_parser!(u64).range(64..))]
    pub(super) max_output_bytes: Option<u64>,

    /// The profile of <world>/.codemode/policy.json that decides which tools scripts may
    /// see and call and what they may write [default: the profile named "default"]
    #[arg(long, global = true, value_name = "NAME")]
    pub(super) profile: Option<String>,

    /// Type-check scripts against the tools' declarations before they run: off; warn
    /// (report what the checker says beside the result); certain (also stop a script whose
    /// tool call is certain to fail: unknown tool, wrong arguments, missing result field);
    /// strict (stop on any type error)
    #[arg(long, global = true, env = "CODEMODE_CHECK", default_value = "certain",
          value_name = "MODE", value_parser = ["off", "warn", "certain", "strict"])]
    pub(super) check: String,

    /// How long the type check of one script may take, in milliseconds; past it the
    /// script runs unchecked
    #[arg(long, global = true, default_value_t = crate::check::DEFAULT_TIMEOUT.as_millis() as u64, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub(super) check_timeout_ms: u64,

    /// Where runs and tool calls are recorded for the operator: auto (the world's
    /// .codemode/audit.jsonl when the world has a .codemode/ folder or --mcp-config is
    /// given), file (that file, always), stderr, or off
    #[arg(long, global = true, default_value = "auto", value_name = "WHERE",
          value_parser = ["auto", "file", "stderr", "off"])]
    pub(super) audit: String,

    /// Size past which the audit file is rotated (to audit.jsonl.1, keeping 5)
    #[arg(long, global = true, default_value_t = crate::audit::DEFAULT_MAX_BYTES,
          value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) audit_max_bytes: u64,

    /// Log to stderr (-v info, -vv debug); stdout stays clean
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub(super) verbose: u8,
}

/// The output cap of `codemode list` when `--max-output-bytes` is not given: far above any
/// world's listing (every signature of 100,000 tools is about 20 MB).
const LISTING_OUTPUT_BYTES: usize = 1 << 30;

/// Whether a command may search: one that does not leaves the search index unread.
#[derive(Clone, Copy)]
pub(super) enum Use {
    Searching,
    NotSearching,
}

impl Globals {
    pub(super) fn limits(&self) -> Limits {
        Limits {
            timeout: Duration::from_millis(self.timeout_ms),
            memory_bytes: (self.memory_mb as usize).saturating_mul(1024 * 1024),
            max_output_bytes: self
                .max_output_bytes
                .map_or(Limits::default().max_output_bytes, |n| n as usize),
            ..Limits::default()
        }
    }

    pub(super) fn registry(&self) -> anyhow::Result<Arc<Registry>> {
        self.registry_for(Use::Searching)
    }

    /// The registry for a command that does not search: the world's search index is not
    /// read ahead (see [`Registry::open_unsearched`]).
    pub(super) fn unsearched_registry(&self) -> anyhow::Result<Arc<Registry>> {
        self.registry_for(Use::NotSearching)
    }

    pub(super) fn registry_for(&self, purpose: Use) -> anyhow::Result<Arc<Registry>> {
        self.registry_of(purpose, self.profile.as_deref())
    }

    /// The registry serving `profile` (the default profile when `None`).
    pub(super) fn registry_of(
        &self,
        purpose: Use,
        profile_name: Option<&str>,
    ) -> anyhow::Result<Arc<Registry>> {
        let dir = self.world_dir()?;
        let options = crate::world::Options {
            libraries: self.library.clone(),
            bundled: !self.no_bundled,
            profile: profile_name.map(str::to_string),
            mcp_files: self.mcp_config.clone(),
            searching: matches!(purpose, Use::Searching),
            // The runtimes are made here, with the command's own check and limits.
            check: crate::check::Mode::Off,
            ..Default::default()
        };
        let world = crate::world::World::open_with(&dir, &options).map_err(|e| {
            use crate::registry::RegistryError as E;
            use crate::world::OpenError;
            let fix = match &e {
                OpenError::Folder(E::World { .. }) => {
                    "pass an existing directory with --world DIR (or set CODEMODE_WORLD)"
                        .to_string()
                }
                OpenError::Folder(E::InsideWorld { parent, .. }) => {
                    format!("pass --world {parent}")
                }
                OpenError::Folder(E::Library { .. }) => {
                    "pass an existing directory with --library DIR".to_string()
                }
                OpenError::Policy(_) => return anyhow::anyhow!("{e}"),
            };
            anyhow::anyhow!("{e}; {fix}")
        })?;
        let registry = world.registry().clone();
        if let Some(warning) = shell_warning(&registry) {
            tracing::warn!("{warning}");
        }
        for problem in registry.upstream_problems() {
            tracing::warn!("{problem}");
        }
        Ok(registry)
    }

    /// The world's folder: `--world`, else the current directory.
    pub(super) fn world_dir(&self) -> anyhow::Result<PathBuf> {
        match &self.world {
            Some(w) => Ok(w.clone()),
            None => std::env::current_dir()
                .context("cannot read the current directory; pass --world DIR"),
        }
    }

    /// Keeps a long-running command's world current: fetches, in the background, the
    /// tools of every MCP server not fetched yet, and starts live reload (of tool folders,
    /// the policy and the MCP configuration). A watcher that cannot start (e.g. the
    /// system's inotify limit) is reported and the command goes on without it.
    pub(super) fn keep_current(
        &self,
        registry: &Arc<Registry>,
    ) -> Option<crate::registry::Watcher> {
        if let Some(upstreams) = registry.upstreams() {
            upstreams.fetch_missing();
        }
        match registry.watch() {
            Ok(watcher) => Some(watcher),
            Err(e) => {
                tracing::warn!("live reload is off: {e}");
                eprintln!(
                    "codemode: live reload is off ({e}); :reload or a restart picks up edits"
                );
                None
            }
        }
    }

    /// A runtime for the REPL's scripts.
    pub(super) fn script_runtime(&self) -> anyhow::Result<Runtime> {
        self.runtime_prestarted(self.checking(), true)
    }

    /// A runtime for a process that runs `source` and exits (`run`, `exec`): the script
    /// is checked against the declarations of what it names (see
    /// [`crate::check::Checking::one_shot`]), and what the checker says is kept in the world
    /// for the next run of the same script, whose checker is then not started; nor is it
    /// for a script the check has nothing to decide about (see
    /// [`crate::check::Checking::decides`]).
    pub(super) fn one_shot_runtime(&self, source: &str) -> anyhow::Result<Runtime> {
        let checking = match self.new_checking(true) {
            Some(checking) => {
                let checking = checking.one_shot();
                Some(Arc::new(match self.world_dir() {
                    Ok(world) => checking.keeping_replies(&world),
                    Err(_) => checking,
                }))
            }
            None => None,
        };
        let asked = checking.as_ref().filter(|c| c.decides(source));
        let Some(checking) = asked.cloned() else {
            return self.runtime_prestarted(checking, false);
        };
        if !checking.holds_reply(source) {
            checking.checker().prestart();
        }
        let registry = self.registry()?;
        let limits = self.limits();
        // The script is checked on a second thread while this one builds the VM: each
        // takes a millisecond or two, and the check would otherwise follow the build.
        let ahead = {
            let (checking, registry, source) =
                (checking.clone(), registry.clone(), source.to_string());
            // Half the run's timeout, as the run itself gives its check.
            let budget = limits.timeout / 2;
            std::thread::Builder::new()
                .name("check-ahead".into())
                .spawn(move || checking.check_ahead(&registry, &source, budget))
                .ok()
        };
        let mut runtime = Runtime::new(registry, limits)?;
        if let Some(ahead) = ahead {
            let _ = ahead.join();
        }
        runtime.set_checking(Some(checking));
        Ok(runtime)
    }

    /// A runtime checking with `checking`, whose checker is started first when `prestart`,
    /// so it readies itself while the index is read.
    pub(super) fn runtime_prestarted(
        &self,
        checking: Option<Arc<crate::check::Checking>>,
        prestart: bool,
    ) -> anyhow::Result<Runtime> {
        if let Some(checking) = checking.as_ref().filter(|_| prestart) {
            checking.checker().prestart();
        }
        let mut runtime = Runtime::new(self.registry()?, self.limits())?;
        runtime.set_checking(checking);
        Ok(runtime)
    }

    pub(super) fn runtime(&self) -> anyhow::Result<Runtime> {
        self.runtime_with(self.limits())
    }

    /// A runtime for a listing the user asked for at the shell (`codemode list`): its
    /// output is the whole listing, cut only when `--max-output-bytes` is given. The cap
    /// keeps a script's reply within an agent's context; a listing of a world of 100,000
    /// tools cut at 1 MiB would hide most of it.
    pub(super) fn listing_runtime(&self) -> anyhow::Result<Runtime> {
        let mut limits = self.limits();
        if self.max_output_bytes.is_none() {
            limits.max_output_bytes = LISTING_OUTPUT_BYTES;
        }
        let registry = self.unsearched_registry()?;
        // A listing at the shell starts no server; it says how to fetch their tools.
        registry.set_fetch_on_use(false);
        let mut runtime = Runtime::new(registry, limits)?;
        runtime.set_checking(self.checking());
        Ok(runtime)
    }

    pub(super) fn runtime_with(&self, limits: Limits) -> anyhow::Result<Runtime> {
        let mut runtime = Runtime::new(self.registry()?, limits)?;
        runtime.set_checking(self.checking());
        Ok(runtime)
    }

    /// The type checker scripts pass before they run (`--check`), none when off.
    pub(crate) fn checking(&self) -> Option<Arc<crate::check::Checking>> {
        self.new_checking(false).map(Arc::new)
    }

    /// The checking `--check` asks for; a process that checks one script and exits asks
    /// the user's `resident` checker (see [`crate::check::Checker::resident`]).
    pub(super) fn new_checking(&self, resident: bool) -> Option<crate::check::Checking> {
        use crate::check::{Checker, Mode};
        let mode: Mode = self.check.parse().unwrap_or_default();
        (mode != Mode::Off).then(|| {
            let checker = Checker::new(Duration::from_millis(self.check_timeout_ms));
            let checker = if resident {
                checker.resident()
            } else {
                checker
            };
            crate::check::Checking::new(mode, checker)
        })
    }
}

/// For a tool's word that is one of codemode's global flags (`--world DIR` after the
/// tool's name), where it belongs: every word after the tool's name is the tool's.
pub(super) fn misplaced_global_flag(words: &[String]) -> Option<String> {
    let command = <Globals as clap::Args>::augment_args(clap::Command::new("codemode"));
    let globals: Vec<String> = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    let found = words
        .iter()
        .take_while(|w| *w != "--")
        .map(|w| w.split_once('=').map_or(w.as_str(), |(name, _)| name))
        .find(|w| globals.iter().any(|g| g == w))?;
    Some(format!(
        "{found} is a codemode flag: put global flags before the tool name, e.g. `codemode {found} ... call <box>.<tool> ...`"
    ))
}

/// What a profile granting commands must know of this kernel: whether it can confine them.
pub(crate) fn shell_warning(registry: &Registry) -> Option<String> {
    let granted = registry.capabilities();
    if granted.shell.is_empty() {
        return None;
    }
    crate::shell::support().warning(granted.shell_unconfined)
}
