//! What a server says about itself, and the one line that says what its toolbox is for.
//!
//! A server answers `initialize` with its `serverInfo` (`name`, `title`, `version`,
//! `description`) and, optionally, `instructions` for the model that uses it. A sync keeps
//! them with the catalogue ([`ServerAbout`]), so listings, search and docs describe the
//! toolbox in the server's own words without starting it. Most servers send no
//! instructions (the reference memory, filesystem and time servers send none): then the
//! line is drawn from the tools, their actions ("create entities, add observations, ...")
//! and the phrase most of their descriptions share ("knowledge graph").

use heck::ToKebabCase;
use serde_json::{json, Value};

use super::tool::UpstreamTool;

/// Most characters of `instructions` kept (they are indexed and shown in docs; a server
/// that sends a book is cut).
const MAX_INSTRUCTIONS_CHARS: usize = 16_000;
/// Most characters of each of the other fields kept.
const MAX_FIELD_CHARS: usize = 400;
/// The line stops adding tools' actions past this many characters.
const MAX_PURPOSE_CHARS: usize = 240;

/// What a server said about itself at `initialize`. Every field is optional: a cache
/// written before these were kept, or a server that says nothing, has none.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ServerAbout {
    /// `serverInfo.name`: the implementation's name (`memory-server`).
    pub name: Option<String>,
    /// `serverInfo.title`: a name for people (`Everything Reference Server`).
    pub title: Option<String>,
    /// `serverInfo.version`.
    pub version: Option<String>,
    /// `serverInfo.description`: what the server does, in a sentence.
    pub description: Option<String>,
    /// `instructions`: how to use the server, written for a model.
    pub instructions: Option<String>,
}

impl ServerAbout {
    /// Reads the object a cache file keeps (see [`ServerAbout::to_json`]); fields that
    /// are missing, empty or not strings are none, control characters are escaped and
    /// long texts cut.
    pub(crate) fn from_json(raw: Option<&Value>) -> ServerAbout {
        let text = |key: &str, max: usize| {
            // Masked like the tools (see `Catalogue::from_raw`).
            let text = crate::secrets::mask(raw?.get(key)?.as_str()?);
            let text = text.trim();
            let text: String = crate::assets::printable(text).chars().take(max).collect();
            (!text.is_empty()).then_some(text)
        };
        ServerAbout {
            name: text("name", MAX_FIELD_CHARS),
            title: text("title", MAX_FIELD_CHARS),
            version: text("version", MAX_FIELD_CHARS),
            description: text("description", MAX_FIELD_CHARS),
            instructions: text("instructions", MAX_INSTRUCTIONS_CHARS),
        }
    }

    /// The object a cache file keeps.
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "version": self.version,
            "description": self.description,
            "instructions": self.instructions,
        })
    }

    /// The server's name for people: its title, else its implementation's name.
    pub(crate) fn label(&self) -> Option<&str> {
        self.title.as_deref().or(self.name.as_deref())
    }

    /// One line saying what a toolbox of `tools` served by this server is for: the
    /// server's description, else the first sentence of its instructions, else what its
    /// tools do; after the server's name when it has one.
    pub(crate) fn purpose(&self, tools: &[UpstreamTool]) -> String {
        let lead = self
            .description
            .clone()
            .or_else(|| self.instructions.as_deref().and_then(lead_sentence))
            .unwrap_or_else(|| summary(tools));
        let line = match self.label() {
            Some(label) if lead.is_empty() => label.to_string(),
            Some(label) if !lead.to_lowercase().contains(&label.to_lowercase()) => {
                format!("{label}: {lead}")
            }
            _ => lead,
        };
        cut(&line, MAX_PURPOSE_CHARS * 2)
    }

    /// What the server's instructions say about the tool it calls `original`: the lines
    /// (or sentences) that name it, joined; "" when none does.
    pub(crate) fn about_tool(&self, original: &str) -> String {
        let Some(instructions) = &self.instructions else {
            return String::new();
        };
        instructions
            .lines()
            .flat_map(sentences)
            .filter(|s| names(s, original))
            .map(|s| s.trim_start_matches(['-', '*', '#', ' ']).trim())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// What `tools` do, in a line: the phrase most of their descriptions share, then their
/// actions from their names (`create_entities` is "create entities"), as many as fit.
pub(crate) fn summary(tools: &[UpstreamTool]) -> String {
    let theme = shared_phrase(tools);
    let mut line = match &theme {
        Some(theme) => format!("{theme}: "),
        None => String::new(),
    };
    let start = line.len();
    for (i, tool) in tools.iter().enumerate() {
        let action = action(&tool.name);
        if action.is_empty() {
            continue;
        }
        if line.len() > start {
            if line.len() + action.len() > MAX_PURPOSE_CHARS {
                line.push_str(&format!(" and {} more", tools.len() - i));
                break;
            }
            line.push_str(", ");
        }
        line.push_str(&action);
    }
    line.trim_end_matches([':', ' ']).to_string()
}

/// The first sentence of the first paragraph of `instructions` that is prose (not a
/// heading, a list item, a table or code), or none.
fn lead_sentence(instructions: &str) -> Option<String> {
    let mut in_code = false;
    for line in instructions.lines() {
        let line = line.trim();
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let markup = line.starts_with(['#', '-', '*', '|', '>', '<']);
        if in_code || line.is_empty() || markup {
            continue;
        }
        let sentence = crate::assets::first_sentence(line).trim();
        if !sentence.is_empty() {
            return Some(sentence.to_string());
        }
    }
    None
}

/// The sentences of one line.
fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while !rest.trim().is_empty() {
        let first = crate::assets::first_sentence(rest);
        out.push(first);
        rest = &rest[first.len()..];
    }
    out
}

/// True when `text` names `tool` as a word (not as part of a longer name).
fn names(text: &str, tool: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(tool).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !part(c));
        let after = text[at + tool.len()..]
            .chars()
            .next()
            .is_none_or(|c| !part(c));
        before && after
    })
}

/// A tool's name as the words of an action: `create_entities` and `createEntities` are
/// "create entities".
fn action(name: &str) -> String {
    name.to_kebab_case().replace('-', " ")
}

/// Words that do not open or close a shared phrase ("the knowledge graph" is "knowledge
/// graph").
const FUNCTION_WORDS: &str = "a an the of to in on at by for from with and or but is are was were \
    be been it its this that these those as into onto over all any some each their your our";

/// The longest phrase (two to four words, none of the ends a function word) found in the
/// first sentence of the descriptions of a third of `tools` or more (at least two), the
/// most shared first: what the tools work on ("knowledge graph", "files and directories").
fn shared_phrase(tools: &[UpstreamTool]) -> Option<String> {
    let function = |w: &str| FUNCTION_WORDS.split_whitespace().any(|f| f == w);
    let mut counts: Vec<(String, usize)> = Vec::new();
    for tool in tools {
        let first = crate::assets::first_sentence(&tool.description).to_lowercase();
        let words: Vec<&str> = first
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let mut seen: Vec<String> = Vec::new();
        for n in 2..=4 {
            for gram in words.windows(n) {
                if function(gram[0]) || function(gram[n - 1]) {
                    continue;
                }
                let phrase = gram.join(" ");
                if !seen.contains(&phrase) {
                    seen.push(phrase);
                }
            }
        }
        for phrase in seen {
            match counts.iter_mut().find(|(p, _)| *p == phrase) {
                Some((_, n)) => *n += 1,
                None => counts.push((phrase, 1)),
            }
        }
    }
    let needed = tools.len().div_ceil(3).max(2);
    counts
        .into_iter()
        .filter(|(_, n)| *n >= needed)
        .max_by(|(a, n), (b, m)| {
            n.cmp(m)
                .then(a.split(' ').count().cmp(&b.split(' ').count()))
                .then(b.cmp(a))
        })
        .map(|(phrase, _)| phrase)
}

/// `text` cut to `max` characters, with an ellipsis when it was longer.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_string(),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/about.rs"]
mod tests;
