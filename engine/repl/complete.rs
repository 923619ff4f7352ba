//! Tab completion of `tools.` members and `tools.<box>.<name>` from the current snapshot.

use std::sync::Arc;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use crate::registry::Registry;

/// The REPL's rustyline helper: completion only.
pub(crate) struct ReplHelper {
    registry: Arc<Registry>,
    members: Vec<String>,
}

impl ReplHelper {
    /// A helper completing `tools` members (as the prelude defines them) and the registry's tools.
    pub(crate) fn new(registry: Arc<Registry>, members: Vec<String>) -> ReplHelper {
        ReplHelper { registry, members }
    }

    /// Full words that complete `word` (`tools.te` gives `tools.text`, ...). A word that is
    /// already whole (`tools.text`, after a Tab completed it) gives what can follow it
    /// (`tools.text.slugify`, ...), so the next Tab keeps it and goes on.
    pub(crate) fn candidates(&self, word: &str) -> Vec<String> {
        let found = self.matching(word);
        if found.len() == 1 && found[0] == word {
            let deeper = self.matching(&format!("{word}."));
            if !deeper.is_empty() {
                return deeper;
            }
        }
        found
    }

    fn matching(&self, word: &str) -> Vec<String> {
        let parts: Vec<&str> = word.split('.').collect();
        let index = self.registry.snapshot();
        let mut out: Vec<String> = match parts.as_slice() {
            [prefix] => ["tools"]
                .iter()
                .filter(|t| t.starts_with(prefix))
                .map(|t| t.to_string())
                .collect(),
            ["tools", prefix] => self
                .members
                .iter()
                .map(String::as_str)
                .chain(index.toolbox_names())
                .filter(|m| m.starts_with(prefix))
                .map(|m| format!("tools.{m}"))
                .collect(),
            ["tools", toolbox, prefix] => index
                .tools_in(toolbox)
                .filter(|t| t.meta().name.starts_with(prefix))
                .map(|t| format!("tools.{toolbox}.{}", t.meta().name))
                .collect(),
            _ => Vec::new(),
        };
        out.sort();
        out.dedup();
        out
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |i| i + 1);
        let pairs = self
            .candidates(&before[start..])
            .into_iter()
            .map(|c| Pair {
                display: c.rsplit('.').next().unwrap_or(&c).to_string(),
                replacement: c,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {}

impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
#[path = "../../tests/unit/repl/complete.rs"]
mod tests;
