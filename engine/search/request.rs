//! A search request and its one check: `tools.search`, `codemode search` and MCP
//! `search_tools` all read what they were given into [`Given`] values and call
//! [`SearchRequest::check`], so every front end accepts the same searches and refuses the
//! others with the same words.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::assets::names::check_name;

/// The most rows one search returns.
pub(crate) const MAX_LIMIT: usize = 100;
/// Rows returned when no limit is given.
pub(crate) const DEFAULT_LIMIT: usize = 10;
/// The longest query taken, in bytes. Only the first
/// `MAX_QUERY_CHARS` characters rank; this bound refuses
/// a pasted document instead of quietly reading its first lines.
pub(crate) const MAX_QUERY_BYTES: usize = 16 * 1024;

/// How a query ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    /// By the words an asset carries (BM25 over role fields, exact names first).
    Keyword,
    /// By meaning: the static model's cosine fused with the keyword ranking.
    Semantic,
}

impl Mode {
    /// Parses `"keyword"` or `"semantic"`.
    pub(crate) fn parse(text: &str) -> Result<Mode, BadRequest> {
        match text {
            "keyword" => Ok(Mode::Keyword),
            "semantic" => Ok(Mode::Semantic),
            other => Err(BadRequest::UnknownMode(other.chars().take(40).collect())),
        }
    }

    /// Semantic: the static model is compiled into every build.
    pub(crate) fn default_mode() -> Mode {
        Mode::Semantic
    }

    /// The name [`Mode::parse`] reads.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::Keyword => "keyword",
            Mode::Semantic => "semantic",
        }
    }
}

/// One argument as a front end received it, before it is checked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Given {
    /// Not given: absent, `nil` or `null`.
    Absent,
    /// A string.
    Text(String),
    /// A number (Luau numbers are floats, and JSON ones are read as floats too).
    Number(f64),
    /// A boolean.
    Flag(bool),
    /// Anything else, as its caller names its type with an article: `"a table"`, `"an array"`.
    Other(&'static str),
}

impl Given {
    /// A JSON argument (MCP, or a front end that builds JSON).
    pub(crate) fn from_json(value: &Json) -> Given {
        match value {
            Json::Null => Given::Absent,
            Json::String(s) => Given::Text(s.clone()),
            Json::Number(n) => Given::Number(n.as_f64().unwrap_or(f64::NAN)),
            Json::Bool(b) => Given::Flag(*b),
            Json::Array(_) => Given::Other("an array"),
            Json::Object(_) => Given::Other("an object"),
        }
    }

    /// How the value reads in a message: `a number`, `the string "ten"`, `1.5`.
    fn shown(&self) -> String {
        match self {
            Given::Absent => "nothing".into(),
            Given::Text(s) => {
                let cut: String = s.chars().take(40).collect();
                let more = if cut.len() < s.len() { "..." } else { "" };
                format!("the string \"{cut}{more}\"")
            }
            Given::Number(n) => number(*n),
            Given::Flag(b) => b.to_string(),
            Given::Other(what) => (*what).into(),
        }
    }

    /// A string: `the string "x"` reads oddly where a type is expected, so say "a string".
    fn kind(&self) -> String {
        match self {
            Given::Text(_) => "a string".into(),
            Given::Number(_) => "a number".into(),
            Given::Flag(_) => "a boolean".into(),
            other => other.shown(),
        }
    }
}

/// A number as a person writes it: `5`, `1.5`, `inf`, `NaN`.
fn number(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Why a search request was refused. The words are the same for every front end; only the
/// name of an option changes with how its caller wrote it (see [`BadRequest::message`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum BadRequest {
    /// The query is not a string.
    #[error("a search needs a query string (words, or \"\" to list the catalogue), got {0}")]
    Query(String),
    /// The query is longer than [`MAX_QUERY_BYTES`].
    #[error("the query is {0} bytes; a search takes at most {MAX_QUERY_BYTES} (only the first 1000 characters rank), so send a few words")]
    QueryTooLong(usize),
    /// `mode` names no mode.
    #[error("mode must be \"keyword\" or \"semantic\" (by words, or by meaning: the default), got '{0}'")]
    UnknownMode(String),
    /// `mode` is not a string.
    #[error("mode must be \"keyword\" or \"semantic\", got {0}")]
    ModeType(String),
    /// `toolbox` is not a toolbox name.
    #[error("toolbox must be a toolbox name (letters, digits and _, e.g. \"text\"), got {0}")]
    Toolbox(String),
    /// `limit` is not a whole number from 1 to [`MAX_LIMIT`].
    #[error("limit must be a whole number from 1 to {MAX_LIMIT}, got {0}")]
    Limit(String),
    /// `all` is not a boolean.
    #[error("all must be true (every row up to limit, however weak) or false, got {0}")]
    All(String),
    /// An option the search does not take.
    #[error("unknown search option \"{0}\"; the options are mode, toolbox, limit and all")]
    UnknownOption(String),
}

impl BadRequest {
    /// The message with each option named as the caller wrote it: `prefix` is `"opts."` for
    /// `tools.search(query, opts)`, `"--"` on the command line, `""` for MCP arguments.
    pub(crate) fn message(&self, prefix: &str) -> String {
        match self {
            BadRequest::UnknownMode(_)
            | BadRequest::ModeType(_)
            | BadRequest::Toolbox(_)
            | BadRequest::Limit(_)
            | BadRequest::All(_) => {
                format!("{prefix}{self}")
            }
            BadRequest::UnknownOption(name) => format!(
                "unknown search option \"{prefix}{name}\"; the options are {prefix}mode, {prefix}toolbox, {prefix}limit and {prefix}all"
            ),
            _ => self.to_string(),
        }
    }

    /// What to try instead, for a reader that wants a next step.
    pub(crate) fn hint(&self) -> &'static str {
        match self {
            BadRequest::Query(_) | BadRequest::QueryTooLong(_) => {
                "search with a few words: tools.search('send an email'), or '' to list"
            }
            BadRequest::UnknownMode(_) | BadRequest::ModeType(_) => {
                "mode = 'keyword' (by words) or mode = 'semantic' (by meaning, the default)"
            }
            BadRequest::Toolbox(_) => "tools.toolboxes() lists the toolbox names",
            BadRequest::Limit(_) => "pass a limit such as 10; every answer also carries the total",
            BadRequest::All(_) => {
                "all = true shows rows below the relevance threshold too; leave it out otherwise"
            }
            BadRequest::UnknownOption(_) => {
                "the options are mode (\"keyword\" | \"semantic\"), toolbox (a name), limit (1 to 100) and all (a boolean)"
            }
        }
    }
}

/// A search: the query, how to rank, where to look and how many rows to return.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SearchRequest {
    /// The query text; empty lists the toolbox's tools or the catalogue.
    pub query: String,
    /// Ranking mode.
    pub mode: Mode,
    /// Only assets of this toolbox.
    pub(crate) toolbox: Option<String>,
    /// How many rows `value` holds, from 1 to [`MAX_LIMIT`].
    pub(crate) limit: usize,
    /// Every row up to `limit`, also those below the relevance threshold (which are
    /// otherwise dropped, so that "nothing fits" reads as no rows).
    pub all: bool,
}

impl SearchRequest {
    /// A request with the default mode and limit.
    pub(crate) fn new(query: impl Into<String>) -> SearchRequest {
        SearchRequest {
            query: query.into(),
            mode: Mode::default_mode(),
            toolbox: None,
            limit: DEFAULT_LIMIT,
            all: false,
        }
    }

    /// Checks a search as a front end received it: the query (absent is `""`) and the
    /// options by name (`mode`, `toolbox`, `limit`; absent ones take their defaults, and an
    /// empty toolbox is none). The first problem found is the answer.
    pub(crate) fn check(
        query: Given,
        options: impl IntoIterator<Item = (String, Given)>,
    ) -> Result<SearchRequest, BadRequest> {
        let query = match query {
            Given::Absent => String::new(),
            Given::Text(text) if text.len() > MAX_QUERY_BYTES => {
                return Err(BadRequest::QueryTooLong(text.len()))
            }
            Given::Text(text) => text,
            other => return Err(BadRequest::Query(other.kind())),
        };
        let mut request = SearchRequest::new(query);
        for (name, value) in options {
            match name.as_str() {
                "mode" => match value {
                    Given::Absent => {}
                    Given::Text(text) => request.mode = Mode::parse(&text)?,
                    other => return Err(BadRequest::ModeType(other.kind())),
                },
                "toolbox" => match value {
                    Given::Absent => {}
                    Given::Text(text) if text.is_empty() => {}
                    Given::Text(text) if check_name("toolbox", &text).is_ok() => {
                        request.toolbox = Some(text)
                    }
                    other => return Err(BadRequest::Toolbox(other.shown())),
                },
                "limit" => match value {
                    Given::Absent => {}
                    Given::Number(n)
                        if n.is_finite()
                            && n.fract() == 0.0
                            && (1.0..=MAX_LIMIT as f64).contains(&n) =>
                    {
                        request.limit = n as usize
                    }
                    other => return Err(BadRequest::Limit(other.shown())),
                },
                "all" => match value {
                    Given::Absent => {}
                    Given::Flag(all) => request.all = all,
                    other => return Err(BadRequest::All(other.shown())),
                },
                _ => return Err(BadRequest::UnknownOption(name.chars().take(40).collect())),
            }
        }
        Ok(request)
    }

    /// The options as `tools.search` takes them: `{ mode, toolbox?, limit, all? }`.
    pub(crate) fn options(&self) -> Map<String, Json> {
        let mut map = Map::new();
        map.insert("mode".into(), Json::from(self.mode.name()));
        if let Some(toolbox) = &self.toolbox {
            map.insert("toolbox".into(), Json::from(toolbox.as_str()));
        }
        map.insert("limit".into(), Json::from(self.limit));
        if self.all {
            map.insert("all".into(), Json::Bool(true));
        }
        map
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/request.rs"]
mod tests;

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SearchError {
    /// `toolbox` names no toolbox.
    #[error("no toolbox named '{0}'")]
    UnknownToolbox(String),
    /// The index failed (a bug: report it).
    #[error("the search index failed: {0}; this is a bug, please report it")]
    Index(#[from] tantivy::TantivyError),
    /// The index in RAM panicked (a bug: report it; one on disk is rebuilt instead).
    #[error("the search index failed: {0}; this is a bug, please report it")]
    Panicked(String),
}
