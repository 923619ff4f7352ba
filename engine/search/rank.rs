//! Ranking: exact names first, then keyword (BM25 over role fields) or the fusion of
//! keyword and meaning, then role, then identity. Builds the rows a script sees.

use std::collections::HashMap;

use serde::Serialize;

use super::document::{AssetDoc, AssetType, Role};
use super::embed::StaticModel;
use super::keyword::{KeywordIndex, ROLES};
use super::table::Table;
use super::words::bounded;
use super::{Mode, SearchError, SearchRequest, SearchResult};
use crate::assets::{AssetIndex, Origin};
use crate::upstream::ServerView;

/// How keyword and meaning rankings are fused (reciprocal-rank fusion); tuned on dev.
#[derive(Debug, Clone)]
pub struct Fusion {
    /// The RRF constant: larger flattens the contribution of top ranks.
    pub k: f32,
    /// Weight of the keyword ranking.
    pub keyword_weight: f32,
    /// Weight of the meaning ranking.
    pub meaning_weight: f32,
    /// How many candidates each side contributes.
    pub depth: usize,
    /// Cosine from which an asset counts as a match by meaning (for `total`).
    pub close: f32,
    /// How strongly a keyword hit's share of the fusion follows its coverage of the
    /// query (0 = plain rank fusion; 1 = in proportion). Coverage is the mean over the
    /// query's words of the weight of the best role carrying each (role boost over the
    /// name's boost; 0 when absent), so one word found only in a README adds little.
    pub coverage_power: f32,
    /// Coverage from which a keyword hit counts in full (long questions share only some
    /// of their words even with the right tool).
    pub full_coverage: f32,
    /// Cosine below which an asset gets no share from the meaning ranking: in a small
    /// catalogue every asset is in the meaning top `depth`, and a keyword hit far from
    /// the query in meaning must not collect a rank share for it.
    pub meaning_floor: f32,
}

impl Default for Fusion {
    fn default() -> Fusion {
        Fusion {
            k: 20.0,
            keyword_weight: 2.0,
            meaning_weight: 0.7,
            depth: 100,
            close: 0.3,
            coverage_power: 1.0,
            full_coverage: 0.4,
            meaning_floor: 0.2,
        }
    }
}

/// Which role a query hit and how much of the query it carried.
#[derive(Debug, Clone, Serialize)]
pub struct Matched {
    /// The best role any query word was found in (`meaning` when none).
    pub role: Role,
    /// The file that role's text is read from.
    pub file: &'static str,
    /// How many of the query's words the asset carries.
    pub words: usize,
    /// How many words the query has.
    pub of: usize,
    /// The keyword score (BM25 over role fields, boosted by role).
    pub weight: f32,
}

/// One result row.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// `<box>.<name>` for a tool, the toolbox name for a toolbox or workflow.
    pub identity: String,
    /// The tool's or toolbox's name.
    pub name: String,
    /// The toolbox.
    pub toolbox: String,
    /// `tool`, `toolbox` or `workflow`.
    #[serde(rename = "assetType")]
    pub asset_type: AssetType,
    /// Whether the registry holds the function a call would run.
    pub registered: bool,
    /// `world`, `library`, or `mcp:<server>` for a tool of an upstream MCP server.
    pub from: String,
    /// One line: what it does.
    pub description: String,
    /// How a tool is called after `tools.<box>.` (`name(a: T): R`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Why a query hit it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<Matched>,
    /// Stable id of the asset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guid: Option<String>,
    /// Whether the world holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installed: Option<bool>,
    /// The `tool_exec` script that acts on it.
    #[serde(rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_script: Option<String>,
    /// The call that copies its library toolbox into the world.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub install: Option<String>,
    /// Relevance in 0..1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<f32>,
}

/// What one search reads. Docs are made from the snapshot for the few assets a query
/// touches (hits, nearest by meaning, exact names), never kept for the whole catalogue.
pub(crate) struct Context<'a> {
    pub(crate) keyword: &'a KeywordIndex,
    pub(crate) table: &'a Table,
    pub(crate) index: &'a AssetIndex,
    /// The upstream servers whose cached tools are indexed beside the snapshot's.
    pub(crate) upstream: &'a [ServerView],
    pub(crate) fusion: &'a Fusion,
    pub(crate) tuning: &'a super::keyword::Tuning,
}

/// The docs of the assets one query touches, by key.
type Docs = HashMap<String, AssetDoc>;

/// A candidate on its way to a row.
struct Candidate<'a> {
    doc: &'a AssetDoc,
    pin: u8,
    score: f32,
    keyword: f32,
    cosine: Option<f32>,
}

impl Context<'_> {
    /// The doc of one asset of the snapshot or of an upstream server, by key.
    fn doc(&self, key: &str) -> Option<AssetDoc> {
        if key.starts_with("function:") {
            return super::surface::surface_docs().find(|d| d.key == key);
        }
        if let Some(identity) = key.strip_prefix("tool:") {
            if let Some(entry) = self.index.tool(identity) {
                return Some(AssetDoc::tool(entry));
            }
            let (server, name) = identity.split_once('.')?;
            let view = self.upstream.iter().find(|v| v.name == server)?;
            let tool = view.tools().iter().find(|t| t.name == name)?;
            return Some(AssetDoc::upstream_tool(server, tool));
        }
        let name = key.strip_prefix("toolbox:")?;
        AssetDoc::toolbox(self.index, name).or_else(|| {
            let view = self.upstream.iter().find(|v| v.name == name)?;
            Some(AssetDoc::upstream_toolbox(view))
        })
    }

    /// Runs the request.
    pub(crate) fn search(&self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        let query = bounded(&request.query).trim();
        if query.is_empty() {
            return Ok(self.listing(request));
        }
        let in_scope = |doc: &AssetDoc| match &request.toolbox {
            Some(b) => doc.toolbox == *b && doc.asset_type == AssetType::Tool,
            None => true,
        };
        let fetch = self.fusion.depth.max(request.limit);
        let (hits, total) = self
            .keyword
            .search(query, fetch, request.toolbox.as_deref())?;
        // A query with no letter or digit (punctuation only) has no meaning to rank by.
        let nearest = match request.mode {
            Mode::Semantic if query.chars().any(char::is_alphanumeric) => {
                match StaticModel::bundled().embed(query) {
                    Some(qv) => self.table.nearest(&qv, self.fusion.depth),
                    None => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        let exact = self.keyword.exact(query)?;
        let mut docs: Docs = HashMap::new();
        let keys = hits
            .iter()
            .map(|h| h.key.as_str())
            .chain(nearest.iter().map(|(_, k)| *k))
            .chain(exact.iter().map(String::as_str));
        for key in keys {
            if !docs.contains_key(key) {
                if let Some(doc) = self.doc(key) {
                    docs.insert(key.to_string(), doc);
                }
            }
        }
        let mut total = total;
        let mut candidates: HashMap<&str, Candidate> = HashMap::new();
        let mut scored: Vec<(&AssetDoc, f32, f32)> = hits
            .iter()
            .filter_map(|hit| {
                let doc = docs.get(&hit.key).filter(|d| in_scope(d))?;
                let factor = match doc.asset_type {
                    AssetType::Tool | AssetType::Function => 1.0,
                    _ => self.tuning.toolbox_factor,
                };
                Some((doc, hit.score * factor, self.coverage(&hit.found)))
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.identity.cmp(&b.0.identity)));
        for (rank, (doc, score, coverage)) in scored.into_iter().enumerate() {
            let fused = match request.mode {
                Mode::Keyword => score,
                // A hit's rank says it beat other keyword hits, not how much of the query
                // it carries: a lone README word at keyword rank 1 must not outrank the
                // closest meaning, so its share follows its coverage.
                Mode::Semantic => {
                    self.fusion.keyword_weight
                        * (coverage / self.fusion.full_coverage)
                            .min(1.0)
                            .powf(self.fusion.coverage_power)
                        / (self.fusion.k + rank as f32 + 1.0)
                }
            };
            candidates.insert(
                &doc.key,
                Candidate {
                    doc,
                    pin: 0,
                    score: fused,
                    keyword: score,
                    cosine: None,
                },
            );
        }
        total += self.add_meaning(&nearest, &docs, &in_scope, &mut candidates);
        self.pin_exact(query, &exact, &docs, &in_scope, &mut candidates);
        let mut ranked: Vec<Candidate> = candidates.into_values().collect();
        ranked.sort_by(|a, b| {
            b.pin
                .cmp(&a.pin)
                .then(bucket(b.score).cmp(&bucket(a.score)))
                .then(a.doc.identity.cmp(&b.doc.identity))
        });
        let total = total.max(ranked.iter().filter(|c| c.pin > 0).count());
        let words = self.keyword.analyze(query);
        let rows = ranked
            .into_iter()
            .take(request.limit)
            .map(|c| self.row(&c, &words, request.mode))
            .collect();
        Ok(SearchResult {
            rows,
            total,
            mode: request.mode,
        })
    }

    /// How much of the query a keyword hit carries, in 0..1: the mean over the query's
    /// words of the best role's boost relative to the name's. A hit that carries none of
    /// the words matched a misspelt name only, and counts in full.
    fn coverage(&self, found: &[Option<Role>]) -> f32 {
        if found.iter().all(Option::is_none) {
            return 1.0;
        }
        let top = self
            .tuning
            .boosts
            .iter()
            .map(|(_, b)| *b)
            .fold(f32::MIN_POSITIVE, f32::max);
        let weight = |role: Role| {
            self.tuning
                .boosts
                .iter()
                .find(|(r, _)| *r == role)
                .map_or(0.0, |(_, b)| (b / top).min(1.0))
        };
        let sum: f32 = found.iter().flatten().map(|r| weight(*r)).sum();
        sum / found.len() as f32
    }

    /// Adds the assets closest in meaning (`nearest`, best first); returns how many close
    /// ones were not keyword hits.
    fn add_meaning<'a>(
        &self,
        nearest: &[(f32, &str)],
        docs: &'a Docs,
        in_scope: &dyn Fn(&AssetDoc) -> bool,
        candidates: &mut HashMap<&'a str, Candidate<'a>>,
    ) -> usize {
        let mut extra = 0;
        let mut rank = 0;
        for (cos, key) in nearest {
            let Some(doc) = docs.get(*key).filter(|d| in_scope(d)) else {
                continue;
            };
            rank += 1;
            let add = self.fusion.meaning_weight / (self.fusion.k + rank as f32);
            match candidates.get_mut(*key) {
                Some(c) if *cos < self.fusion.meaning_floor => c.cosine = Some(*cos),
                Some(c) => {
                    c.score += add;
                    c.cosine = Some(*cos);
                }
                // Only assets close in meaning join without a shared word.
                None if *cos >= self.fusion.close => {
                    extra += 1;
                    candidates.insert(
                        &doc.key,
                        Candidate {
                            doc,
                            pin: 0,
                            score: add,
                            keyword: 0.0,
                            cosine: Some(*cos),
                        },
                    );
                }
                None => {}
            }
        }
        extra
    }

    /// Puts assets whose identity (pin 3), tool name (pin 2) or toolbox name (pin 1) is a
    /// word of the query first; within each, the one whose case matches the query's wins.
    fn pin_exact<'a>(
        &self,
        query: &str,
        exact: &[String],
        docs: &'a Docs,
        in_scope: &dyn Fn(&AssetDoc) -> bool,
        candidates: &mut HashMap<&'a str, Candidate<'a>>,
    ) {
        let words: Vec<String> = super::words::candidate_names(query);
        // Only what is unmistakably a name pins: the whole query, or a dotted identity in
        // it. A word inside a sentence never does (`API`, `URL` and `GitHub` are words
        // there, and a tool of that name would take rank 1 for unrelated requests).
        let whole = query.trim().to_lowercase();
        for key in exact {
            let Some(doc) = docs.get(key).filter(|d| in_scope(d)) else {
                continue;
            };
            let identity = doc.identity.to_lowercase();
            let name = doc.name.to_lowercase();
            // Identities are exact, case included: `calculate_BMI` and `calculate_bmi` are two
            // tools, and the one written as queried goes first.
            let as_written = query
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .map(|w| w.trim_matches('.'))
                .any(|w| w == doc.identity || w == doc.name);
            let pin = if doc.asset_type == AssetType::Tool && words.contains(&identity) {
                3
            } else if !(whole == name || whole == identity) {
                continue;
            } else if doc.asset_type == AssetType::Tool {
                2
            } else {
                1
            };
            let c = candidates.entry(&doc.key).or_insert(Candidate {
                doc,
                pin: 0,
                score: 0.0,
                keyword: 0.0,
                cosine: None,
            });
            c.pin = c.pin.max(pin * 2 + u8::from(as_written));
        }
    }

    /// An empty query: the toolbox's tools, or every asset, by identity.
    fn listing(&self, request: &SearchRequest) -> SearchResult {
        let mut keys: Vec<(&str, &str)> = self
            .table
            .keys()
            .filter(|(key, kind)| match &request.toolbox {
                Some(b) => {
                    *kind == AssetType::Tool
                        && key.strip_prefix("tool:").is_some_and(|id| {
                            match self.index.tool(id) {
                                Some(e) => e.toolbox() == b,
                                // An upstream tool: `<server>.<tool>`.
                                None => id.split_once('.').is_some_and(|(server, _)| server == b),
                            }
                        })
                }
                // The catalogue is the world's, the library's and the servers'; `tools.help()`
                // lists the functions of `tools`.
                None => *kind != AssetType::Function,
            })
            .map(|(key, _)| (key.split_once(':').map_or(key, |(_, id)| id), key))
            .collect();
        let total = keys.len();
        let limit = request.limit.min(total);
        if limit > 0 {
            keys.select_nth_unstable(limit - 1);
            keys.truncate(limit);
            keys.sort_unstable();
        }
        let rows = keys
            .iter()
            .filter_map(|(_, key)| self.doc(key))
            .map(|d| base_row(&d))
            .collect();
        SearchResult {
            rows,
            total,
            mode: request.mode,
        }
    }

    fn row(&self, c: &Candidate, words: &[String], mode: Mode) -> Row {
        let doc = c.doc;
        let mut row = base_row(doc);
        let matched = self.matched(doc, words, c.keyword);
        let keyword_p = 1.0 - (-c.keyword / 10.0).exp();
        let p = match (c.pin, mode, c.cosine) {
            (1.., _, _) => 1.0,
            (_, Mode::Semantic, Some(cos)) => keyword_p.max(cos.clamp(0.0, 1.0)),
            _ => keyword_p,
        };
        row.matched = Some(matched);
        row.guid = Some(doc.guid());
        row.installed = Some(doc.installed);
        row.use_script = Some(use_script(doc));
        // Installing copies a library toolbox so it can be edited: the hint is for a library
        // tool that does not work as it is. A callable tool needs no copy, and when the
        // world has the toolbox install would refuse (its folder speaks for the toolbox).
        let world_has_box = self
            .index
            .toolbox(&doc.toolbox)
            .is_some_and(|b| b.origin == Origin::World);
        // Only a library tool that cannot be called as is needs a copy in the world.
        row.install = (!doc.installed && !world_has_box && !doc.registered)
            .then(|| format!("tools.install('{}')", doc.toolbox));
        row.p = Some((p * 1000.0).round() / 1000.0);
        row
    }

    /// The best role a query word was found in, and how many words were found.
    fn matched(&self, doc: &AssetDoc, words: &[String], weight: f32) -> Matched {
        let mut found = vec![false; words.len()];
        let mut best: Option<Role> = None;
        let mut fields: Vec<(Role, String)> = ROLES
            .iter()
            .map(|r| (*r, doc.field(*r).to_string()))
            .collect();
        if doc.asset_type == AssetType::Tool {
            fields[0].1.push(' ');
            fields[0].1.push_str(&doc.toolbox);
        }
        for (role, text) in fields {
            if text.is_empty() {
                continue;
            }
            let field_words = self.keyword.analyze(&text);
            for (i, w) in words.iter().enumerate() {
                if field_words.contains(w) {
                    found[i] = true;
                    best = Some(best.map_or(role, |b: Role| b.min(role)));
                }
            }
        }
        let role = match best {
            Some(r) => r,
            None if weight > 0.0 => Role::Name,
            None => Role::Meaning,
        };
        Matched {
            role,
            file: role.file(doc.asset_type),
            words: found.iter().filter(|f| **f).count(),
            of: words.len(),
            weight: (weight * 1000.0).round() / 1000.0,
        }
    }
}

/// Scores compared at a fixed precision, so ties fall to the identity deterministically.
fn bucket(score: f32) -> i64 {
    (score as f64 * 1e6).round() as i64
}

fn base_row(doc: &AssetDoc) -> Row {
    Row {
        identity: doc.identity.clone(),
        name: doc.name.clone(),
        toolbox: doc.toolbox.clone(),
        asset_type: doc.asset_type,
        registered: doc.registered,
        from: doc.from.clone(),
        description: doc.description.clone(),
        signature: doc.signature.clone(),
        matched: None,
        guid: None,
        installed: None,
        use_script: None,
        install: None,
        p: None,
    }
}

/// The script that acts on an asset: call a tool, start a workflow, read a toolbox.
fn use_script(doc: &AssetDoc) -> String {
    match doc.asset_type {
        AssetType::Tool => format!("return tools.use('{}', '{}')", doc.toolbox, doc.name),
        AssetType::Workflow => format!("return tools.use('{}', 'start')", doc.toolbox),
        AssetType::Toolbox => format!("return tools.list('{}', 2)", doc.toolbox),
        AssetType::Function => format!("return tools.help('{}')", doc.name),
    }
}
