//! The `codemode` command line: a thin layer over the library.

/// `println!` that returns the write's error instead of panicking: a reader that closed
/// the pipe (`codemode list | head -1`) ends the command quietly (see [`closed_pipe`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` with the same error handling as `outln!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        write!(stdout, $($arg)*).and_then(|()| stdout.flush())
    }};
}

mod agent;
mod api;
mod audit;
mod cache;
mod call;
mod check;
mod docs;
mod exec;
mod list;
mod mcp;
mod registry;
mod repl;
mod run;
mod search;
mod serve;
mod types;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::registry::Registry;
use crate::runtime::Runtime;
use crate::sandbox::Limits;
use anyhow::Context;
use clap::{Parser, Subcommand};

/// codemode: drive tools with Luau scripts. Tools are folders on disk
/// (<box>.toolbox/<name>.tool/init.luau); scripts call them as tools.<box>.<name>(...).
#[derive(Debug, Clone, Parser)]
#[command(name = "codemode", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,

    /// The writable directory holding your toolboxes [default: the current directory]
    #[arg(long, global = true, env = "CODEMODE_WORLD", value_name = "DIR")]
    world: Option<PathBuf>,

    /// A read-only folder of toolboxes, searched after the world (repeatable)
    #[arg(long, global = true, value_name = "DIR")]
    library: Vec<PathBuf>,

    /// Leave out the toolboxes bundled with codemode (only the world and --library)
    #[arg(long, global = true)]
    no_bundled: bool,

    /// An mcpServers JSON file (as Claude Desktop, Cursor and Claude Code write) whose
    /// servers become toolboxes, read after <world>/.codemode/mcp.json (repeatable)
    #[arg(long, global = true, value_name = "FILE")]
    mcp_config: Vec<PathBuf>,

    /// Wall-clock deadline per script, in milliseconds
    #[arg(long, global = true, default_value_t = 10_000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,

    /// Memory limit of the Luau VM, in MiB
    #[arg(long, global = true, default_value_t = 256, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    memory_mb: u64,

    /// Cap on printed output plus the returned value as JSON, in bytes
    /// [default: 1048576; 131072 for serve, so a whole reply fits MCP clients' message caps]
    #[arg(long, global = true, value_name = "BYTES",
          value_parser = clap::value_parser!(u64).range(64..))]
    max_output_bytes: Option<u64>,

    /// The profile of <world>/.codemode/policy.json that decides which tools scripts may
    /// see and call and what they may write [default: the profile named "default"]
    #[arg(long, global = true, value_name = "NAME")]
    profile: Option<String>,

    /// Type-check scripts against the tools' declarations before they run: off; warn
    /// (report what the checker says beside the result); certain (also stop a script whose
    /// tool call is certain to fail: unknown tool, wrong arguments, missing result field);
    /// strict (stop on any type error)
    #[arg(long, global = true, env = "CODEMODE_CHECK", default_value = "certain",
          value_name = "MODE", value_parser = ["off", "warn", "certain", "strict"])]
    check: String,

    /// How long the type check of one script may take, in milliseconds; past it the
    /// script runs unchecked
    #[arg(long, global = true, default_value_t = crate::check::DEFAULT_TIMEOUT.as_millis() as u64, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    check_timeout_ms: u64,

    /// Where runs and tool calls are recorded for the operator: auto (the world's
    /// .codemode/audit.jsonl when the world has a .codemode/ folder or --mcp-config is
    /// given), file (that file, always), stderr, or off
    #[arg(long, global = true, default_value = "auto", value_name = "WHERE",
          value_parser = ["auto", "file", "stderr", "off"])]
    audit: String,

    /// Size past which the audit file is rotated (to audit.jsonl.1, keeping 5)
    #[arg(long, global = true, default_value_t = crate::audit::DEFAULT_MAX_BYTES,
          value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    audit_max_bytes: u64,

    /// Log to stderr (-v info, -vv debug); stdout stays clean
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
}

#[derive(Debug, Clone, Subcommand)]
enum Command {
    /// Run a script headless: its prints, then its returned value; exit 1 on error
    Run {
        /// The script file, or - for stdin
        file: String,
    },
    /// Run a script as tool_exec: print exactly one JSON result envelope
    Exec {
        /// The script file, or - for stdin [default: -]
        file: Option<String>,
    },
    /// List toolboxes and tools (tier 1 names, 2 descriptions, 3 signatures)
    List {
        /// Tier 1, 2 or 3, and/or a toolbox name, in either order
        #[arg(num_args = 0..=2)]
        args: Vec<String>,
        /// Print the value as JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Validate the world: name every broken tool and why; exit 1 if any
    Check,
    /// Write Luau definitions (.d.luau) of `tools` and `vfs` for luau-lsp (stdout unless --out)
    Types {
        /// Where to write the file (e.g. codemode.d.luau)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Write docs: a TOOL.md per tool, a SKILL.md per toolbox and a searchable index.html
    Docs {
        /// The folder to write into (created if missing)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// tools.json interop: export the world as a tools.json, or check one
    Registry {
        #[command(subcommand)]
        command: registry::RegistryCommand,
    },
    /// Upstream MCP servers (configured in .codemode/mcp.json): `mcp sync [SERVER]`
    Mcp {
        #[command(subcommand)]
        command: mcp::McpCommand,
    },
    /// HTTP APIs of .codemode/apis.json: `api sync` fetches the descriptions given by URL
    Api {
        #[command(subcommand)]
        command: api::ApiCommand,
    },
    /// The result cache of tools with "cache" in their .metadata: `cache stats`, `cache clear`
    Cache {
        #[command(subcommand)]
        command: cache::CacheCommand,
    },
    /// The last lines of the audit log: who ran what, how it ended (-n N, --json, --agent)
    Audit(audit::AuditArgs),
    /// MCP server on stdio (tool_exec, search_tools); --http ADDR for streamable HTTP
    Serve(serve::ServeArgs),
    /// Agents that may call serve --http, each with a profile: `agent add|list|revoke`
    Agent {
        #[command(subcommand)]
        command: agent::AgentCommand,
    },
    /// Call one tool with shell words, printed through its render.luau or as JSON.
    /// Global flags (--world, ...) go before <box>.<tool>: every word after it is the tool's.
    #[command(disable_help_flag = true)]
    Call {
        /// <box>.<tool>, then its words: positionals, --name VALUE, --flag (for a tool of
        /// an MCP server, --FIELD VALUE per input property, or one JSON word).
        /// `codemode call <box>.<tool> --help` lists a tool's words
        #[arg(
            value_name = "BOX.TOOL [WORDS]",
            trailing_var_arg = true,
            allow_hyphen_values = true,
            required = true
        )]
        words: Vec<String>,
    },
    /// Interactive Luau with tools.*: history, multi-line input, Tab completion.
    /// Reads entries line by line when stdin is not a terminal
    Repl,
    /// Search tools, toolboxes and workflows by words or by meaning ("" lists them)
    Search {
        /// What you are looking for, in words or by name
        #[arg(default_value = "")]
        query: String,
        /// keyword (by words) or semantic (by meaning, the default)
        #[arg(long, value_name = "M")]
        mode: Option<String>,
        /// Only tools of this toolbox
        #[arg(long, value_name = "B")]
        toolbox: Option<String>,
        /// How many rows to show, from 1 to 100 [default: 10]
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        limit: Option<String>,
        /// Print the rows, the total and how many weak rows were hidden (weak) as JSON instead of text
        #[arg(long)]
        json: bool,
        /// Also rows below the relevance threshold (up to --limit), however weak
        #[arg(long)]
        all: bool,
    },
}

/// The output cap of `codemode list` when `--max-output-bytes` is not given: far above any
/// world's listing (every signature of 100,000 tools is about 20 MB).
const LISTING_OUTPUT_BYTES: usize = 1 << 30;

/// Whether a command may search: one that does not leaves the search index unread.
#[derive(Clone, Copy)]
enum Use {
    Searching,
    NotSearching,
}

impl Cli {
    fn limits(&self) -> Limits {
        Limits {
            timeout: Duration::from_millis(self.timeout_ms),
            memory_bytes: (self.memory_mb as usize).saturating_mul(1024 * 1024),
            max_output_bytes: self
                .max_output_bytes
                .map_or(Limits::default().max_output_bytes, |n| n as usize),
            ..Limits::default()
        }
    }

    fn registry(&self) -> anyhow::Result<Arc<Registry>> {
        self.registry_for(Use::Searching)
    }

    /// The registry for a command that does not search: the world's search index is not
    /// read ahead (see [`Registry::open_unsearched`]).
    fn unsearched_registry(&self) -> anyhow::Result<Arc<Registry>> {
        self.registry_for(Use::NotSearching)
    }

    fn registry_for(&self, purpose: Use) -> anyhow::Result<Arc<Registry>> {
        self.registry_of(purpose, self.profile.as_deref())
    }

    /// The registry serving `profile` (the default profile when `None`).
    fn registry_of(
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
    fn keep_current(&self, registry: &Arc<Registry>) -> Option<crate::registry::Watcher> {
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
    fn script_runtime(&self) -> anyhow::Result<Runtime> {
        self.runtime_prestarted(self.checking(), true)
    }

    /// A runtime for a process that runs `source` and exits (`run`, `exec`): the script
    /// is checked against the declarations of what it names (see
    /// [`crate::check::Checking::one_shot`]), and what the checker says is kept in the world
    /// for the next run of the same script, whose checker is then not started; nor is it
    /// for a script the check has nothing to decide about (see
    /// [`crate::check::Checking::decides`]).
    fn one_shot_runtime(&self, source: &str) -> anyhow::Result<Runtime> {
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
    fn runtime_prestarted(
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

    fn runtime(&self) -> anyhow::Result<Runtime> {
        self.runtime_with(self.limits())
    }

    /// A runtime for a listing the user asked for at the shell (`codemode list`): its
    /// output is the whole listing, cut only when `--max-output-bytes` is given. The cap
    /// keeps a script's reply within an agent's context; a listing of a world of 100,000
    /// tools cut at 1 MiB would hide most of it.
    fn listing_runtime(&self) -> anyhow::Result<Runtime> {
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

    fn runtime_with(&self, limits: Limits) -> anyhow::Result<Runtime> {
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
    fn new_checking(&self, resident: bool) -> Option<crate::check::Checking> {
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

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // A command that reads the world once and exits trades a little memory for a faster
    // start; `serve` and `repl` live on, and keep their heaps small.
    if !matches!(cli.command, Command::Serve(_) | Command::Repl) {
        crate::cache::grow_heaps_in_large_steps();
    }
    init_tracing(cli.verbose);
    log_panics();
    let result = match &cli.command {
        Command::Run { file } => run::run(&cli, file),
        Command::Exec { file } => exec::exec(&cli, file.as_deref().unwrap_or("-")),
        Command::List { args, json } => list::list(&cli, args, *json),
        Command::Check => check::check(&cli),
        Command::Types { out } => types::types(&cli, out.as_deref()),
        Command::Docs { out } => docs::docs(&cli, out),
        Command::Registry { command } => registry::registry(&cli, command),
        Command::Mcp { command } => mcp::mcp(&cli, command),
        Command::Api { command } => api::api(&cli, command),
        Command::Cache { command } => cache::cache(&cli, command),
        Command::Audit(args) => audit::audit(&cli, args),
        Command::Serve(args) => serve::serve(&cli, args),
        Command::Agent { command } => agent::agent(&cli, command),
        Command::Call { words } => call::call(&cli, words),
        Command::Repl => repl::repl(&cli),
        Command::Search {
            query,
            mode,
            toolbox,
            limit,
            json,
            all,
        } => search::search(
            &cli,
            &search::SearchArgs {
                query,
                mode: mode.as_deref(),
                toolbox: toolbox.as_deref(),
                limit: limit.as_deref(),
                json: *json,
                all: *all,
            },
        ),
    };
    match result {
        Ok(code) => code,
        // The reader has all it wanted, as `head` does: end quietly, as Unix tools do.
        Err(e) if closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("codemode: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// True when `error` comes from writing to a pipe whose reader has gone.
fn closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn init_tracing(verbose: u8) {
    let level = match verbose {
        // The file watcher warns when a folder it watched is gone, which is what deleting
        // a toolbox does: routine, not for a user's stderr. The MCP library warns of each
        // error reply it sends a client and each message a server sends out of turn, and
        // logs an error when a server's connection closes: the replies, the failed calls
        // and the `mcp` commands report each of these already.
        0 => "warn,notify=error,rmcp=off",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("CODEMODE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    // Colour only for a person at a terminal: a log file or an MCP client's stderr
    // pipe should not fill with escape codes.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_writer(MaskedStderr)
        .with_ansi(colour)
        .with_env_filter(filter)
        .init();
}

/// Log lines on stderr with the engine's secrets masked: each event is formatted into one
/// buffer, masked whole, then written, so no log call (a server's stderr at debug level,
/// a warning quoting a configuration) can print a token.
struct MaskedStderr;

/// One event's text, written to stderr when the formatter drops it.
struct MaskedLine(Vec<u8>);

impl std::io::Write for MaskedLine {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for MaskedLine {
    fn drop(&mut self) {
        let masked = crate::secrets::mask_bytes(&self.0);
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), &masked);
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for MaskedStderr {
    type Writer = MaskedLine;

    fn make_writer(&'a self) -> MaskedLine {
        MaskedLine(Vec::new())
    }
}

/// Panics the engine catches (a parser failing on one hostile file) become one warning
/// line in the log instead of a message and backtrace on stderr per file.
fn log_panics() {
    std::panic::set_hook(Box::new(|info| {
        // full_moon panics on some hostile sources, tantivy on a damaged index file; the
        // engine catches those and names the file (or rebuilds the index) instead, so
        // they are not news for stderr.
        if info
            .location()
            .is_some_and(|l| l.file().contains("full_moon") || l.file().contains("tantivy"))
        {
            tracing::debug!("caught a parser or index panic: {info}");
        } else {
            tracing::warn!("caught a panic: {info}");
        }
    }));
}

/// The flag that raises the limit a run hit, for hints.
pub(crate) fn limit_flag(cause: crate::sandbox::StopCause) -> Option<String> {
    use crate::sandbox::StopCause as S;
    match cause {
        S::Deadline => Some("--timeout-ms".into()),
        S::Memory => Some("--memory-mb".into()),
        S::Output => Some("--max-output-bytes".into()),
        S::Cancelled | S::Coroutines | S::Stack => None,
    }
}

/// Prints what a command's script returned: text as is, other values as JSON; an error
/// and its hint go to stderr with exit 1.
/// A hint written for scripts, in the commands a person at a shell types instead:
/// `tools.toolboxes()` is `codemode list`, `tools.list('text', 2)` is `codemode list 2 text`.
fn at_the_shell(hint: &str) -> String {
    let mut out = hint
        .replace("tools.toolboxes()", "`codemode list`")
        .replace("did you mean tools.", "did you mean ");
    while let Some(start) = out.find("tools.list('") {
        let rest = &out[start + "tools.list('".len()..];
        let Some((name, after)) = rest.split_once("', ") else {
            break;
        };
        let Some((tier, tail)) = after.split_once(')') else {
            break;
        };
        let command = format!("`codemode list {tier} {name}`");
        out = format!("{}{command}{tail}", &out[..start]);
    }
    out
}

fn print_value(command: &str, envelope: &crate::runtime::Envelope) -> anyhow::Result<ExitCode> {
    // A cut listing must not pass for the whole one: say so where the reader looks last.
    let named = crate::runtime::Envelope {
        value: None,
        ..envelope.clone()
    }
    .name_limits(limit_flag);
    for cut in &named.truncation {
        eprintln!(
            "{command}: the {} was cut at {} bytes: {}",
            cut.what, cut.cap_bytes, cut.note
        );
    }
    match (&envelope.error, &envelope.value) {
        (Some(error), _) => {
            eprintln!("{command}: {}", error.message);
            if let Some(hint) = &error.hint {
                eprintln!("hint: {}", at_the_shell(hint));
            }
            Ok(ExitCode::from(1))
        }
        (None, Some(serde_json::Value::String(text))) => {
            outln!("{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        (None, value) => {
            outln!("{}", serde_json::to_string_pretty(&value)?)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Reads a script from a file, or stdin for `-`.
fn read_script(file: &str) -> anyhow::Result<String> {
    use std::io::Read;
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the script from stdin")?;
        Ok(text)
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("cannot read script {file}; give a path or - for stdin"))
    }
}

/// For a tool's word that is one of codemode's global flags (`--world DIR` after the
/// tool's name), where it belongs: every word after the tool's name is the tool's.
fn misplaced_global_flag(words: &[String]) -> Option<String> {
    let command = <Cli as clap::CommandFactory>::command();
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
