//! `codemode repl`: an interactive session over one [`Runtime`].
//!
//! Each entry runs in the session's own environment ([`Session`]), so globals and
//! top-level locals persist from one entry to the next; limits apply to each entry.
//! On a terminal it uses rustyline (history, multi-line input, completion of `tools.*`);
//! otherwise it reads entries line by line from stdin, so it can be scripted.

mod complete;
mod entry;
mod history;
mod pretty;

use std::io::{BufRead, IsTerminal, Write};

use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Config, Editor};
use serde_json::Value as Json;

use crate::check::Severity;
use crate::runtime::{Envelope, Output, RunRequest, Runtime, Session};
use crate::sandbox::StopCause;

pub(crate) use complete::ReplHelper;
pub(crate) use entry::{prepare, Prepared};
pub(crate) use history::history_path;
pub(crate) use pretty::pretty;

/// What the REPL prints for `:help`.
pub(crate) const HELP: &str = "\
Type Luau; an expression prints its value (`1 + 1`, `tools.list(2)`). A line that ends
inside a block or a table continues on the next line. Top-level `local`s persist between
entries. Results of the form { stdout, value } print their stdout; add `.value` for data.

  tools.toolboxes()            what toolboxes exist
  tools.list(2, \"box\")         the tools of one toolbox, with descriptions
  tools.get(\"box.tool\")        one tool's metadata
  tools.box.tool(...)          call a tool (Tab completes tools.<box>.<name>)

Commands:
  :help      this text
  :reload    re-read the world, the libraries and the policy from disk
  :quit      leave (or Ctrl-D); Ctrl-C drops the current entry
";

/// What a line did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// The entry (or command) is done.
    Done,
    /// The entry needs another line.
    More,
    /// Leave the REPL.
    Quit,
}

/// One REPL session.
pub(crate) struct Repl {
    runtime: Runtime,
    session: Session,
    buffer: String,
    failures: usize,
}

impl Repl {
    /// A session over `runtime`.
    pub(crate) fn new(runtime: Runtime) -> Repl {
        Repl {
            runtime,
            session: Session::new(),
            buffer: String::new(),
            failures: 0,
        }
    }

    /// Runs until the input ends or `:quit`; interactive on a terminal, line by line otherwise.
    /// Returns how many entries failed.
    pub(crate) fn run(mut self) -> std::io::Result<usize> {
        if std::io::stdin().is_terminal() {
            self.interactive()?;
        } else {
            self.scripted(std::io::stdin().lock())?;
        }
        Ok(self.failures)
    }

    /// Reads entries from `input` line by line, without prompts or history.
    pub(crate) fn scripted(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            if self.line(&line?)? == Flow::Quit {
                return Ok(());
            }
        }
        if !self.buffer.trim().is_empty() {
            // The input ended inside an entry: run it so its syntax error shows.
            let source = std::mem::take(&mut self.buffer);
            self.eval(&source)?;
        }
        Ok(())
    }

    fn interactive(&mut self) -> std::io::Result<()> {
        let members = self.members();
        let helper = ReplHelper::new(self.runtime.registry().clone(), members);
        // As a shell does: Tab completes what is common, a second Tab lists the rest.
        let config = Config::builder()
            .auto_add_history(false)
            .completion_type(rustyline::CompletionType::List)
            .build();
        let mut editor: Editor<ReplHelper, FileHistory> =
            Editor::with_config(config).map_err(std::io::Error::other)?;
        editor.set_helper(Some(helper));
        let history = history_path();
        if let Some(path) = &history {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = editor.load_history(path);
        }
        writeln!(
            std::io::stdout(),
            "codemode repl: Luau with tools.*; :help for help, Ctrl-D to leave"
        )?;
        loop {
            let prompt = if self.buffer.is_empty() { "> " } else { ">> " };
            match editor.readline(prompt) {
                Ok(line) => {
                    let entry = if self.buffer.is_empty() {
                        line.clone()
                    } else {
                        format!("{}\n{line}", self.buffer)
                    };
                    let flow = self.line(&line)?;
                    if flow != Flow::More && !entry.trim().is_empty() {
                        let _ = editor.add_history_entry(entry);
                        if let Some(path) = &history {
                            if let Err(e) = editor.save_history(path) {
                                tracing::warn!("cannot save history to {}: {e}", path.display());
                            }
                        }
                    }
                    if flow == Flow::Quit {
                        break;
                    }
                }
                Err(ReadlineError::Interrupted) => self.buffer.clear(),
                Err(ReadlineError::Eof) => break,
                Err(e) => return Err(std::io::Error::other(e)),
            }
        }
        Ok(())
    }

    /// The names `tools` holds, as the prelude built it (for completion).
    fn members(&mut self) -> Vec<String> {
        let script =
            "local names = {} for k in pairs(tools) do table.insert(names, k) end return names";
        match self.runtime.run(RunRequest::new(script)).value {
            Some(Json::Array(items)) => items
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Handles one line of input. Fails only when stdout is gone.
    fn line(&mut self, line: &str) -> std::io::Result<Flow> {
        if self.buffer.is_empty() {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                return Ok(Flow::Done);
            }
            if trimmed.starts_with(':') {
                return self.command(trimmed);
            }
        } else {
            self.buffer.push('\n');
        }
        self.buffer.push_str(line);
        Ok(match prepare(&self.buffer) {
            Prepared::Incomplete => Flow::More,
            Prepared::Run(source) => {
                self.buffer.clear();
                self.eval(&source)?;
                Flow::Done
            }
        })
    }

    fn command(&mut self, command: &str) -> std::io::Result<Flow> {
        let mut stdout = std::io::stdout();
        match command {
            ":help" | ":h" | ":?" => write!(stdout, "{HELP}")?,
            ":reload" | ":r" => {
                self.runtime.registry().reload();
                let index = self.runtime.registry().snapshot();
                writeln!(
                    stdout,
                    "reloaded: {} tools in {} toolboxes",
                    index.tools.len(),
                    index.toolbox_names().len()
                )?;
            }
            ":quit" | ":q" | ":exit" => return Ok(Flow::Quit),
            other => eprintln!("unknown command {other}; :help lists the commands"),
        }
        Ok(Flow::Done)
    }

    fn eval(&mut self, source: &str) -> std::io::Result<()> {
        let request = RunRequest::new(source)
            .output(Output::Stream)
            .session(&mut self.session);
        let envelope = self.runtime.run(request);
        // Only a closed stdout cancels an entry here: the session ends, as its reader did.
        if envelope.error.as_ref().and_then(|e| e.limit) == Some(StopCause::Cancelled) {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        if self.session.take_reset() {
            eprintln!(
                "note: the VM was restarted after running out of memory; earlier locals are gone"
            );
        }
        show(&envelope)?;
        if !envelope.ok {
            self.failures += 1;
        }
        Ok(())
    }
}

/// Prints a value (pretty) to stdout, or an error (with its hint) to stderr.
fn show(envelope: &Envelope) -> std::io::Result<()> {
    if let Some(error) = &envelope.error {
        let kind = serde_json::to_value(error.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let line = match (error.line, error.column) {
            (Some(l), Some(c)) => format!(" (line {l}, column {c})"),
            (Some(l), None) => format!(" (line {l})"),
            _ => String::new(),
        };
        eprintln!("error[{kind}]{line}: {}", error.message);
        if let Some(hint) = &error.hint {
            eprintln!("hint: {hint}");
        }
    }
    match &envelope.value {
        None | Some(Json::Null) => {}
        Some(value) => match printed_stdout(value) {
            Some(text) => writeln!(std::io::stdout(), "{text}")?,
            None => writeln!(std::io::stdout(), "{}", pretty(value))?,
        },
    }
    for cut in &envelope.truncation {
        eprintln!("note: {}", cut.note);
    }
    // The type checker's errors that did not stop the run (its lints would be noise at
    // a prompt), and its notes about checks that did not happen. The entry ran: they are
    // notes, not errors beside the one (if any) that stopped it.
    for d in envelope
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error || d.message.contains("unchecked"))
    {
        eprintln!(
            "note[type] (line {}, column {}): {}",
            d.line, d.column, d.message
        );
    }
    Ok(())
}

/// The `stdout` of a `{ stdout, value, total? }` result, which reads better than the table.
fn printed_stdout(value: &Json) -> Option<&str> {
    let map = value.as_object()?;
    let only_known = map
        .keys()
        .all(|k| matches!(k.as_str(), "stdout" | "value" | "total"));
    if only_known {
        map.get("stdout")?.as_str()
    } else {
        None
    }
}
