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
mod globals;
mod list;
mod mcp;
mod registry;
mod repl;
mod report;
mod run;
mod search;
mod serve;
mod types;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use globals::Globals;

/// codemode: drive tools with Luau scripts. Tools are folders on disk
/// (<box>.toolbox/<name>.tool/init.luau); scripts call them as tools.<box>.<name>(...).
#[derive(Debug, Clone, Parser)]
#[command(name = "codemode", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,

    #[command(flatten)]
    globals: Globals,
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

/// Parses the command line and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // A command that reads the world once and exits trades a little memory for a faster
    // start; `serve` and `repl` live on, and keep their heaps small.
    if !matches!(cli.command, Command::Serve(_) | Command::Repl) {
        crate::cache::grow_heaps_in_large_steps();
    }
    init_tracing(cli.globals.verbose);
    log_panics();
    let result = match &cli.command {
        Command::Run { file } => run::run(&cli.globals, file),
        Command::Exec { file } => exec::exec(&cli.globals, file.as_deref().unwrap_or("-")),
        Command::List { args, json } => list::list(&cli.globals, args, *json),
        Command::Check => check::check(&cli.globals),
        Command::Types { out } => types::types(&cli.globals, out.as_deref()),
        Command::Docs { out } => docs::docs(&cli.globals, out),
        Command::Registry { command } => registry::registry(&cli.globals, command),
        Command::Mcp { command } => mcp::mcp(&cli.globals, command),
        Command::Api { command } => api::api(&cli.globals, command),
        Command::Cache { command } => cache::cache(&cli.globals, command),
        Command::Audit(args) => audit::audit(&cli.globals, args),
        Command::Serve(args) => serve::serve(&cli.globals, args),
        Command::Agent { command } => agent::agent(&cli.globals, command),
        Command::Call { words } if words.first().is_some_and(|w| w == "--help" || w == "-h") => {
            call_help()
        }
        Command::Call { words } => call::call(&cli.globals, words),
        Command::Repl => repl::repl(&cli.globals),
        Command::Search {
            query,
            mode,
            toolbox,
            limit,
            json,
            all,
        } => search::search(
            &cli.globals,
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

/// `codemode call --help`: the command's own help, as clap prints it for other commands
/// (every word after `call` is the tool's, so clap does not see the flag).
fn call_help() -> anyhow::Result<ExitCode> {
    let mut command = <Cli as clap::CommandFactory>::command();
    if let Some(call) = command.find_subcommand_mut("call") {
        call.print_help()?;
    }
    Ok(ExitCode::SUCCESS)
}
