//! Ranking: exact names first, then keyword (BM25 over role fields) or the fusion of
//! keyword and meaning, then role, then identity. Builds the rows a script sees.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::document::{AssetDoc, AssetType, Role};
use super::keyword::{KeywordHit, KeywordIndex, ROLES};
use super::meaning::Meaning;
use super::relevance::Relevance;
use super::table::Table;
use super::words::{bounded, name_shaped, spelt_words};
use super::{Mode, SearchError, SearchRequest};
use crate::assets::{AssetIndex, Origin};
use crate::upstream::ServerView;

/// How keyword and meaning rankings are fused (reciprocal-rank fusion); tuned on dev.
#[derive(Debug, Clone)]
pub(crate) struct Fusion {
    /// The RRF constant: larger flattens the contribution of top ranks.
    pub k: f32,
    /// Weight of the keyword ranking.
    pub keyword_weight: f32,
    /// Weight of the meaning ranking.
    pub meaning_weight: f32,
    /// How many candidates each side contributes.
    pub(crate) depth: usize,
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
    /// How a row's relevance `p` is read from its evidence, and the threshold rows must
    /// clear to be shown.
    pub relevance: Relevance,
    /// How a request of several parts is ranked: the ranking of the whole request and
    /// those of its parts are fused, each row scoring `weight × lead / (k + rank)` per
    /// ranking.
    pub parts: PartFusion,
}

/// How the ranking of a whole request and those of its parts are fused (tuned on dev).
#[derive(Debug, Clone)]
pub(crate) struct PartFusion {
    /// Weight of the whole request's ranking.
    pub whole: f32,
    /// Weight of each part's ranking (0 ranks a request as one part).
    pub part: f32,
    /// The fusion constant: small lets each ranking's first row lead.
    pub k: f32,
    /// How strongly a ranking's weight follows the relevance of its first row (0 = not
    /// at all): the part that surely found its tool leads, filler follows.
    pub lead: f32,
}

impl Default for PartFusion {
    fn default() -> PartFusion {
        PartFusion {
            whole: 3.0,
            part: 1.0,
            k: 0.5,
            lead: 1.0,
        }
    }
}

impl Default for Fusion {
    fn default() -> Fusion {
        Fusion {
            k: 20.0,
            keyword_weight: 2.0,
            meaning_weight: 1.2,
            depth: 100,
            close: 0.3,
            coverage_power: 1.0,
            full_coverage: 0.4,
            meaning_floor: 0.1,
            relevance: Relevance::default(),
            parts: PartFusion::default(),
        }
    }
}

/// Which role a query hit and how much of the query it carried.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Matched {
    /// The best role any query word was found in (`meaning` when none).
    pub(crate) role: Role,
    /// The file that role's text is read from.
    pub(crate) file: &'static str,
    /// How many of the query's words the asset carries.
    pub(crate) words: usize,
    /// How many words the query has.
    pub(crate) of: usize,
    /// The keyword score (BM25 over role fields, boosted by role).
    pub(crate) weight: f32,
}

/// What a search found.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SearchResult {
    /// The best `limit` rows.
    pub rows: Vec<Row>,
    /// How many assets matched in all: those clearing the relevance threshold, or with
    /// `all`, every asset that shares a word with the query or is close in meaning.
    pub(crate) total: usize,
    /// How many rows `all` adds for the same request and limit: matches below the
    /// relevance threshold, not shown (0 with `all`). No rows but some weak ones means
    /// "nothing fits; these are guesses".
    pub(crate) weak: usize,
    /// The mode that ranked them.
    pub(crate) mode: Mode,
}

/// One result row.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Row {
    /// `<box>.<name>` for a tool, the toolbox name for a toolbox or workflow.
    pub identity: String,
    /// The tool's or toolbox's name.
    pub(crate) name: String,
    /// The toolbox.
    pub(crate) toolbox: String,
    /// `tool`, `toolbox` or `workflow`.
    #[serde(rename = "assetType")]
    pub(crate) asset_type: AssetType,
    /// Whether the registry holds the function a call would run.
    pub(crate) registered: bool,
    /// `world`, `library`, or `mcp:<server>` for a tool of an upstream MCP server.
    pub(crate) from: String,
    /// One line: what it does.
    pub(crate) description: String,
    /// How a tool is called after `tools.<box>.` (`name(a: T): R`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) signature: Option<String>,
    /// Why a query hit it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) matched: Option<Matched>,
    /// Stable id of the asset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) guid: Option<String>,
    /// Whether the world holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) installed: Option<bool>,
    /// The `tool_exec` script that acts on it.
    #[serde(rename = "use", skip_serializing_if = "Option::is_none")]
    pub(crate) use_script: Option<String>,
    /// The call that copies its library toolbox into the world.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) install: Option<String>,
    /// Relevance in 0..1, to three places.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "three_places"
    )]
    pub p: Option<f32>,
    /// What `p` was read from: the row's coverage of the words of the part of the
    /// request it answers, its cosine to that part (semantic mode) and the cosine of the
    /// part's tenth nearest asset. For fitting the relevance curves; not sent to scripts.
    #[serde(skip)]
    pub evidence: Option<(f32, Option<f32>, f32)>,
}

/// What one search reads. Docs are made from the snapshot for the few assets a query
/// touches (hits, nearest by meaning, exact names), never kept for the whole catalogue.
pub(crate) struct Context<'a> {
    pub(crate) keyword: &'a KeywordIndex,
    pub(crate) table: &'a Table,
    pub(crate) index: &'a AssetIndex,
    /// The upstream servers whose cached tools are indexed beside the snapshot's.
    pub(crate) upstream: &'a [ServerView],
    /// The names a request may give as a service (see [`ServiceNames`]).
    pub(crate) services: &'a ServiceNames,
    pub(crate) fusion: &'a Fusion,
    pub(crate) tuning: &'a super::keyword::Tuning,
    pub(crate) meaning: &'a dyn Meaning,
}

/// `p` as the three places it was rounded to: widened to a script's or JSON's f64 as it
/// is, 0.435 would read 0.4350000023841858.
fn three_places<S: serde::Serializer>(p: &Option<f32>, to: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => to.serialize_f64((f64::from(*p) * 1000.0).round() / 1000.0),
        None => to.serialize_none(),
    }
}

/// The docs of the assets one query touches, by key.
type Docs = HashMap<String, AssetDoc>;

/// A candidate on its way to a row: how one part of the request ranks one asset.
#[derive(Clone)]
struct Candidate<'a> {
    doc: &'a AssetDoc,
    pin: u8,
    /// The part's ranking score: the keyword score, or the fusion.
    score: f32,
    keyword: f32,
    cosine: Option<f32>,
    /// How much of the part's words the asset carries, by rarity and role (0..1).
    coverage: f32,
    /// Calibrated relevance (see [`Relevance`]).
    p: f32,
    /// The cosine of the part's tenth nearest asset.
    crowd: f32,
}

/// How one part of a request ranks.
struct Ranked<'a> {
    /// The candidates, best first.
    ranked: Vec<Candidate<'a>>,
    /// How many assets close in meaning joined without a keyword hit.
    extra: usize,
    /// The nearest in meaning that did not join (neither a keyword hit nor close).
    far: Vec<Candidate<'a>>,
}

/// What one part of a request found, before any doc is read.
struct Found<'t> {
    /// Toolboxes the part names as the service to use ("on Spotify").
    services: Vec<String>,
    /// The words the part spells (see [`spelt_words`]): a tool whose name spells the same
    /// ones ("parse csv" for `parseCsv`) is the one asked for by name.
    spelt: Vec<String>,
    /// The part's words written as only a name is (see [`name_shaped`]).
    names: Vec<String>,
    hits: Vec<KeywordHit>,
    total: usize,
    nearest: Vec<(f32, &'t str)>,
    rarity: Vec<f32>,
}

impl<'t> Context<'t> {
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
            return Some(AssetDoc::upstream_tool(view, tool));
        }
        let name = key.strip_prefix("toolbox:")?;
        AssetDoc::toolbox(self.index, name).or_else(|| {
            let view = self.upstream.iter().find(|v| v.name == name)?;
            Some(AssetDoc::upstream_toolbox(view))
        })
    }

    /// The keyword hits and nearest assets of one part of the request.
    fn find(
        &self,
        part: &str,
        depth: usize,
        request: &SearchRequest,
    ) -> Result<Found<'t>, SearchError> {
        let fetch = depth.max(request.limit);
        let (hits, total) =
            self.keyword
                .search(part, fetch, request.toolbox.as_deref(), request.all)?;
        let (services, rest) = services(part, self.services);
        // A part with no letter or digit (punctuation only) has no meaning to rank by.
        // Its meaning is read without the service it names: every tool of that toolbox
        // carries the name, so it says nothing of which one is asked for.
        let nearest = match request.mode {
            Mode::Semantic if rest.chars().any(char::is_alphanumeric) => {
                match self.meaning.request(&rest) {
                    Some(qv) => self.table.nearest(&qv, depth),
                    None => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        let mut words = self.keyword.analyze(part);
        words.truncate(super::keyword::MAX_QUERY_WORDS);
        let rarity = self.keyword.rarity(&words)?;
        Ok(Found {
            services,
            spelt: spelt_words(part),
            names: name_shaped(part).into_iter().map(str::to_string).collect(),
            hits,
            total,
            nearest,
            rarity,
        })
    }

    /// Runs the request: each part of it is ranked on its own (a short request is one
    /// part), the parts' rankings are merged so each part's best rows lead, rows below the
    /// relevance threshold are dropped unless `all`, and exact names go first.
    pub(crate) fn search(&self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        let query = bounded(&request.query).trim();
        if query.is_empty() {
            return Ok(self.listing(request));
        }
        let in_scope = |doc: &AssetDoc| match &request.toolbox {
            Some(b) => doc.toolbox == *b && doc.asset_type == AssetType::Tool,
            None => true,
        };
        let parts = match self.fusion.parts.part > 0.0 {
            true => super::parts::split(query),
            false => vec![query],
        };
        // Each part needs only its first rows: the depth is shared out among the parts,
        // so a long request costs about what a short one does.
        let depth = match parts.len() {
            1 => self.fusion.depth,
            n => (self.fusion.depth / n).max(PART_DEPTH),
        };
        // A request of several parts is also ranked whole: a question of several
        // sentences often asks for one thing, and its sentences alone say less of it.
        let mut lists: Vec<(&str, usize, f32)> = Vec::with_capacity(parts.len() + 1);
        let whole = parts.len() > 1 && self.fusion.parts.whole > 0.0;
        if whole {
            lists.push((query, self.fusion.depth, self.fusion.parts.whole));
        }
        let weight = match parts.len() {
            1 => 1.0,
            _ => self.fusion.parts.part,
        };
        lists.extend(parts.into_iter().map(|p| (p, depth, weight)));
        let found = lists
            .iter()
            .map(|(part, depth, _)| self.find(part, *depth, request))
            .collect::<Result<Vec<_>, _>>()?;
        let weights: Vec<f32> = lists.iter().map(|(_, _, w)| *w).collect();
        let exact = self.keyword.exact(query)?;
        let mut docs: Docs = HashMap::new();
        let keys = found
            .iter()
            .flat_map(|f| {
                f.hits
                    .iter()
                    .map(|h| h.key.as_str())
                    .chain(f.nearest.iter().map(|(_, k)| *k))
            })
            .chain(exact.iter().map(String::as_str));
        for key in keys {
            if !docs.contains_key(key) {
                if let Some(doc) = self.doc(key) {
                    docs.insert(key.to_string(), doc);
                }
            }
        }
        let mut matches = 0;
        let relevance = &self.fusion.relevance;
        let mut far: Vec<Candidate> = Vec::new();
        let ranked: Vec<Vec<Candidate>> = found
            .iter()
            .map(|part| {
                let mut part_ranked = self.rank_part(part, request.mode, &docs, &in_scope);
                matches = matches.max(part.total + part_ranked.extra);
                far.append(&mut part_ranked.far);
                part_ranked.ranked
            })
            .collect();
        // A part fits when one of its first rows clears the threshold; then its rows from
        // the floor stay (alternatives to the best are what an agent compares), and none
        // of a part that nothing fits ("no rush, thanks"). The whole request fits when any
        // of its parts does: its words are spread thin over its parts.
        let fit: Vec<bool> = ranked
            .iter()
            .zip(&found)
            .map(|(r, f)| r.iter().take(5).any(|c| relevance.clears(c.p, f.total > 0)))
            .collect();
        let any_fits = fit.iter().any(|f| *f);
        let mut strong = Vec::with_capacity(ranked.len());
        let mut weak = Vec::with_capacity(ranked.len());
        for (i, list) in ranked.into_iter().enumerate() {
            let fits = fit[i] || (i == 0 && whole && any_fits);
            let (clear, below): (Vec<Candidate>, Vec<Candidate>) = list
                .into_iter()
                .partition(|c| fits && relevance.accompanies(c.p));
            strong.push(clear);
            weak.push(below);
        }
        let mut pinned = self.pins(query, &exact, &docs, &in_scope);
        for pin in &mut pinned {
            let mut same = strong.iter().chain(&weak).flatten();
            if let Some(c) = same.find(|c| c.doc.key == pin.doc.key) {
                pin.keyword = c.keyword;
                pin.cosine = c.cosine;
            }
        }
        let is_pinned = |c: &Candidate| pinned.iter().any(|p| p.doc.key == c.doc.key);
        let mix = &self.fusion.parts;
        let mut ranked: Vec<Candidate> = merge(strong, &weights, mix);
        ranked.retain(|c| !is_pinned(c));
        let mut hidden: Vec<Candidate> = merge(weak, &weights, mix);
        hidden.retain(|c| !is_pinned(c) && !ranked.iter().any(|r| r.doc.key == c.doc.key));
        // The assets nearest in meaning that no part let in, nearest first: what every
        // row up to `limit` means when fewer matched, and, when no row is shown, the
        // weak ones hidden (a request of words the index never saw, "bake a cake").
        far.sort_by(|a, b| {
            b.cosine
                .unwrap_or(0.0)
                .total_cmp(&a.cosine.unwrap_or(0.0))
                .then(a.doc.identity.cmp(&b.doc.identity))
        });
        let mut seen: HashSet<&str> = pinned
            .iter()
            .chain(&ranked)
            .chain(&hidden)
            .map(|c| c.doc.key.as_str())
            .collect();
        far.retain(|c| seen.insert(c.doc.key.as_str()));
        far.truncate(request.limit);
        let words = self.keyword.analyze(query);
        let ranked = toolboxes_in_their_place(ranked, words.len());
        // The rows shown, and the weak ones `all` adds after them: one list for both
        // answers, so `weak` is what `all` would add, at the same limit.
        let mut rows: Vec<Candidate> = pinned.into_iter().chain(ranked).collect();
        let shown = rows.len();
        let mut extra: Vec<Candidate> = hidden.into_iter().chain(far).collect();
        in_order_of_relevance(&mut rows, &mut extra);
        let with_extra = (shown + extra.len()).min(request.limit);
        let (total, weak) = if request.all {
            (matches.max(shown + extra.len()), 0)
        } else {
            (shown, with_extra - shown.min(request.limit))
        };
        if request.all {
            rows.extend(extra);
        }
        let rows = rows
            .into_iter()
            .take(request.limit)
            .map(|c| self.row(&c, &words))
            .collect();
        Ok(SearchResult {
            rows,
            total,
            weak,
            mode: request.mode,
        })
    }

    /// One part's ranking (see [`Ranked`]).
    fn rank_part<'a>(
        &self,
        found: &Found,
        mode: Mode,
        docs: &'a Docs,
        in_scope: &dyn Fn(&AssetDoc) -> bool,
    ) -> Ranked<'a> {
        let mut candidates: HashMap<&str, Candidate> = HashMap::new();
        let mut scored: Vec<(&AssetDoc, f32, f32, f32)> = found
            .hits
            .iter()
            .filter_map(|hit| {
                let doc = docs.get(&hit.key).filter(|d| in_scope(d))?;
                let factor = match doc.asset_type {
                    AssetType::Tool => 1.0,
                    AssetType::Function => self.tuning.function_factor,
                    _ => self.tuning.toolbox_factor,
                };
                Some((
                    doc,
                    hit.score * factor,
                    self.coverage(&hit.found, None),
                    self.coverage(&hit.found, Some(&found.rarity)),
                ))
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.identity.cmp(&b.0.identity)));
        for (rank, (doc, score, share, coverage)) in scored.into_iter().enumerate() {
            let fused = match mode {
                Mode::Keyword => score,
                // A hit's rank says it beat other keyword hits, not how much of the query
                // it carries: a lone README word at keyword rank 1 must not outrank the
                // closest meaning, so its share follows its coverage.
                Mode::Semantic => {
                    self.fusion.keyword_weight
                        * (share / self.fusion.full_coverage)
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
                    coverage,
                    p: 0.0,
                    crowd: 0.0,
                },
            );
        }
        let mut far = Vec::new();
        let extra = self.add_meaning(&found.nearest, docs, in_scope, &mut candidates, &mut far);
        let mut ranked: Vec<Candidate> = candidates.into_values().collect();
        // A tool of the service the part names goes before the same tool elsewhere: as
        // much as a first keyword rank adds.
        if mode == Mode::Semantic && !found.services.is_empty() {
            let bonus = self.fusion.keyword_weight / (self.fusion.k + 1.0);
            for c in &mut ranked {
                if c.doc.asset_type == AssetType::Tool && found.services.contains(&c.doc.toolbox) {
                    c.score += bonus;
                }
            }
        }
        // A tool whose name the part spells in words of two or more ("parse csv", or with
        // its toolbox, "storage list") goes first, as much as a first keyword rank adds:
        // its meaning may sit nearer a sibling (`toCsv`), but the request named it. (One
        // word that is a name is a pin.)
        // So does a tool whose exact name is a word of the part written as only a name is
        // ("use wordCount, then base64Encode it"): a word in a sentence never pins, but
        // it names a tool.
        if mode == Mode::Semantic && (found.spelt.len() > 1 || !found.names.is_empty()) {
            let bonus = self.fusion.keyword_weight / (self.fusion.k + 1.0);
            for c in &mut ranked {
                let named = found.names.contains(&c.doc.name)
                    || (found.spelt.len() > 1 && spells(&found.spelt, c.doc));
                if c.doc.asset_type == AssetType::Tool && named {
                    c.score += bonus;
                }
            }
        }
        // How close the assets near the part are in general: a cosine that stands out
        // from them says more than the same cosine among many alike.
        let crowd = found
            .nearest
            .get(CROWD - 1)
            .or(found.nearest.last())
            .map_or(0.0, |(cos, _)| *cos);
        for c in ranked.iter_mut().chain(&mut far) {
            let cosine = match mode {
                Mode::Semantic => Some(c.cosine),
                Mode::Keyword => None,
            };
            c.crowd = crowd;
            c.p = self
                .fusion
                .relevance
                .p(c.coverage, cosine.map(|cos| (cos, crowd)));
        }
        ranked.sort_by(|a, b| {
            bucket(b.score)
                .cmp(&bucket(a.score))
                .then(a.doc.identity.cmp(&b.doc.identity))
        });
        Ranked { ranked, extra, far }
    }

    /// How much of the query a keyword hit carries, in 0..1: the mean over the query's
    /// words (weighted by `rarity` when given) of the best role's boost relative to the
    /// name's. A hit that carries none of the words matched a misspelt name only, and
    /// counts in full.
    fn coverage(&self, found: &[Option<Role>], rarity: Option<&[f32]>) -> f32 {
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
        let of = |i: usize| rarity.map_or(1.0, |r| r.get(i).copied().unwrap_or(1.0));
        let mut sum = 0.0;
        let mut all = 0.0;
        for (i, role) in found.iter().enumerate() {
            all += of(i);
            if let Some(role) = role {
                sum += of(i) * weight(*role);
            }
        }
        if all > 0.0 {
            sum / all
        } else {
            0.0
        }
    }

    /// Adds the assets closest in meaning (`nearest`, best first); returns how many close
    /// ones were not keyword hits. The nearest that are neither keyword hits nor close
    /// go to `far`, best first: rows only for a caller that asks for every row.
    fn add_meaning<'a>(
        &self,
        nearest: &[(f32, &str)],
        docs: &'a Docs,
        in_scope: &dyn Fn(&AssetDoc) -> bool,
        candidates: &mut HashMap<&'a str, Candidate<'a>>,
        far: &mut Vec<Candidate<'a>>,
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
                None => {
                    let candidate = Candidate {
                        doc,
                        pin: 0,
                        score: add,
                        keyword: 0.0,
                        cosine: Some(*cos),
                        coverage: 0.0,
                        p: 0.0,
                        crowd: 0.0,
                    };
                    if *cos >= self.fusion.close {
                        extra += 1;
                        candidates.insert(&doc.key, candidate);
                    } else {
                        far.push(candidate);
                    }
                }
            }
        }
        extra
    }

    /// The assets whose identity (pin 3), tool name (pin 2) or toolbox name (pin 1) the
    /// query is, or whose identity is a word of it, best pin first; within each, the one
    /// whose case matches the query's wins.
    fn pins<'a>(
        &self,
        query: &str,
        exact: &[String],
        docs: &'a Docs,
        in_scope: &dyn Fn(&AssetDoc) -> bool,
    ) -> Vec<Candidate<'a>> {
        let words: Vec<String> = super::words::candidate_names(query);
        // Only what is unmistakably a name pins: the whole query, or a dotted identity in
        // it. A word inside a sentence never does (`API`, `URL` and `GitHub` are words
        // there, and a tool of that name would take rank 1 for unrelated requests).
        let whole = query.trim().to_lowercase();
        let mut pinned: Vec<Candidate> = Vec::new();
        for key in exact {
            let Some(doc) = docs.get(key).filter(|d| in_scope(d)) else {
                continue;
            };
            if pinned.iter().any(|c| c.doc.key == doc.key) {
                continue;
            }
            let identity = doc.identity.to_lowercase();
            let name = doc.name.to_lowercase();
            // Identities are exact, case included: `calculate_BMI` and `calculate_bmi` are two
            // tools, and the one written as queried goes first.
            let as_written = query
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .map(|w| w.trim_matches('.'))
                .any(|w| w == doc.identity || w == doc.name);
            let callable = matches!(doc.asset_type, AssetType::Tool | AssetType::Function);
            let pin = if callable && identity.contains('.') && words.contains(&identity) {
                3
            } else if !(whole == name || whole == identity) {
                continue;
            } else if doc.asset_type == AssetType::Tool {
                2
            } else {
                1
            };
            pinned.push(Candidate {
                doc,
                pin: pin * 2 + u8::from(as_written),
                score: 0.0,
                keyword: 0.0,
                cosine: None,
                coverage: 1.0,
                p: 1.0,
                crowd: 0.0,
            });
        }
        // A name written exactly as one asset has it pins that asset only: its twin in
        // another case (`storage.url` for `storage.URL`) ranks as any other asset does.
        let written: Vec<(String, String)> = pinned
            .iter()
            .filter(|c| c.pin % 2 == 1)
            .map(|c| (c.doc.identity.to_lowercase(), c.doc.name.to_lowercase()))
            .collect();
        pinned.retain(|c| {
            c.pin % 2 == 1
                || !written.iter().any(|(identity, name)| {
                    *identity == c.doc.identity.to_lowercase()
                        || (c.pin / 2 < 3 && *name == c.doc.name.to_lowercase())
                })
        });
        pinned.sort_by(|a, b| b.pin.cmp(&a.pin).then(a.doc.identity.cmp(&b.doc.identity)));
        pinned
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
            weak: 0,
            mode: request.mode,
        }
    }

    fn row(&self, c: &Candidate, words: &[String]) -> Row {
        let doc = c.doc;
        let mut row = base_row(doc);
        let matched = self.matched(doc, words, c.keyword);
        let p = c.p;
        row.evidence = Some((c.coverage, c.cosine, c.crowd));
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

/// The toolbox names of a snapshot and the upstream servers' names, by lower-cased name.
#[derive(Debug, Default)]
pub(crate) struct ServiceNames(foldhash::HashMap<String, String>);

impl ServiceNames {
    /// The names `index` shows (after its profile's rules) and those of `upstream`.
    pub(crate) fn of(index: &AssetIndex, upstream: &[ServerView]) -> ServiceNames {
        let names = index.toolbox_names().into_iter();
        let names = names.chain(upstream.iter().map(|v| v.name.as_str()));
        ServiceNames(names.map(|n| (n.to_lowercase(), n.to_string())).collect())
    }
}

/// True when `word`, opening a sentence, is still written as a name: with a capital after
/// its first letter, or exactly as a toolbox of `names` is named.
fn branded(word: &str, names: &ServiceNames) -> bool {
    word.chars().skip(1).any(char::is_uppercase)
        || names.0.get(&word.to_lowercase()).is_some_and(|n| n == word)
}

/// The toolboxes `part` names as a service, and the part without those names. A
/// service is named as people write brand names: a capitalised word (or two written
/// together, "Apple Music"), not in capitals only (`URL`, `SMS` are words) and not
/// opening a sentence unless written as only a name is (see [`branded`]), equal to a
/// toolbox name case aside.
fn services(part: &str, names: &ServiceNames) -> (Vec<String>, String) {
    let words: Vec<(usize, &str)> = part
        .split(|c: char| c.is_whitespace())
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let core = |w: &str| -> String { w.chars().filter(|c| c.is_alphanumeric()).collect() };
    let mut found = Vec::new();
    let mut cut: Vec<(usize, usize)> = Vec::new();
    for i in 0..words.len() {
        let (at, w) = words[i];
        let first = core(w);
        let opens = i == 0 || words[i - 1].1.ends_with(['.', '!', '?', ':']);
        let capital = first.chars().next().is_some_and(char::is_uppercase)
            && first.chars().any(char::is_lowercase);
        // A word opening a sentence is capitalised anyway ("Send an email"): there it names
        // a service only when written as only a name is, with a capital inside (`GitHub`,
        // `PayPal`) or exactly as the toolbox is named.
        if !capital || (opens && !branded(&first, names)) {
            continue;
        }
        let pair = words.get(i + 1).map(|(_, n)| format!("{first}{}", core(n)));
        for (joined, end) in [
            (pair, words.get(i + 1).map(|(a, n)| a + n.len())),
            (Some(first.clone()), Some(at + w.len())),
        ] {
            if let (Some(joined), Some(end)) = (joined, end) {
                if let Some(name) = names.0.get(&joined.to_lowercase()) {
                    if !found.iter().any(|f| f == name) {
                        found.push(name.to_string());
                    }
                    cut.push((at, end));
                    break;
                }
            }
        }
    }
    let mut rest = String::with_capacity(part.len());
    let mut from = 0;
    for (s, e) in cut {
        if s >= from {
            rest.push_str(&part[from..s]);
            from = e;
        }
    }
    rest.push_str(&part[from.min(part.len())..]);
    (found, rest)
}

/// One ranking from several (the whole request's and its parts'): a row scores
/// `weight × lead / (k + rank)` in each ranking it is in (`lead`: that ranking's first
/// row's `p`, to the power `mix.lead`), keeps its best relevance, and ties fall to the
/// more relevant row, then to the identity. With a small `k` every part's first row reaches the top rows, so each
/// thing a request asks for has its tool there. One ranking keeps its order.
fn merge<'a>(
    mut lists: Vec<Vec<Candidate<'a>>>,
    weights: &[f32],
    mix: &PartFusion,
) -> Vec<Candidate<'a>> {
    if lists.len() == 1 {
        return lists.pop().unwrap_or_default();
    }
    let mut out: Vec<(f32, Candidate)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (list, weight) in lists.iter().zip(weights) {
        let lead = list.first().map_or(0.0, |c| c.p).powf(mix.lead);
        for (rank, c) in list.iter().enumerate() {
            let add = weight * lead / (mix.k + rank as f32 + 1.0);
            match at.get(c.doc.key.as_str()) {
                Some(&i) => {
                    out[i].0 += add;
                    out[i].1.p = out[i].1.p.max(c.p);
                }
                None => {
                    at.insert(&c.doc.key, out.len());
                    out.push((add, c.clone()));
                }
            }
        }
    }
    out.sort_by(|a, b| {
        bucket(b.0)
            .cmp(&bucket(a.0))
            .then(b.1.p.total_cmp(&a.1.p))
            .then(a.1.doc.identity.cmp(&b.1.doc.identity))
    });
    // Each ranking's first row leads, in the merged order: the other tools of the
    // toolbox a request names for one thing ("refund the Stripe charge") score in the
    // whole request's ranking too, and took the places of the later things' tools.
    let leads: Vec<&str> = lists
        .iter()
        .filter_map(|list| list.first())
        .map(|c| c.doc.key.as_str())
        .collect();
    let (first, rest): (Vec<_>, Vec<_>) = out
        .into_iter()
        .partition(|(_, c)| leads.contains(&c.doc.key.as_str()));
    first.into_iter().chain(rest).map(|(_, c)| c).collect()
}

/// Toolbox rows are drill-ins, not answers: they stay only when the request names a
/// domain (a few words, `weather`, `mail tools`) rather than asks for an action, and then
/// never above a relevant tool that would leave the top 3 for them.
fn toolboxes_in_their_place(ranked: Vec<Candidate<'_>>, words: usize) -> Vec<Candidate<'_>> {
    let is_box = |c: &Candidate| c.doc.asset_type == AssetType::Toolbox;
    let ranked: Vec<Candidate> = if words <= DOMAIN_WORDS {
        ranked
    } else {
        ranked.into_iter().filter(|c| !is_box(c)).collect()
    };
    let mut protected = ranked.iter().filter(|c| !is_box(c)).take(3).count();
    let mut out = Vec::with_capacity(ranked.len());
    let mut held = Vec::new();
    for c in ranked {
        if is_box(&c) {
            if protected > 0 && out.len() + protected >= 3 {
                held.push(c);
            } else {
                out.push(c);
            }
            continue;
        }
        out.push(c);
        if protected > 0 {
            protected -= 1;
            if protected == 0 {
                out.append(&mut held);
            }
        }
    }
    out.append(&mut held);
    out
}

/// The fewest candidates each side gives one part of a long request.
const PART_DEPTH: usize = 20;

/// Whether `words` spell the tool's name, alone or with its toolbox's before or after it
/// ("parse csv", "storage list", "list storage" for `storage.list`).
fn spells(words: &[String], doc: &AssetDoc) -> bool {
    let name = spelt_words(&doc.name);
    if name == words {
        return true;
    }
    // A title is a name too: "create a pull request" names the operation `pulls_create`
    // whose title it is.
    if doc
        .title
        .as_deref()
        .is_some_and(|t| spelt_words(t) == words)
    {
        return true;
    }
    let toolbox = spelt_words(&doc.toolbox);
    let n = toolbox.len();
    words.len() == n + name.len()
        && ((words[..n] == toolbox[..] && words[n..] == name[..])
            || (words[..name.len()] == name[..] && words[name.len()..] == toolbox[..]))
}

/// The nearest asset of this rank tells how crowded the part's neighbourhood is.
const CROWD: usize = 10;

/// A request of at most this many words (after stop words) can name a domain.
const DOMAIN_WORDS: usize = 3;

/// Scores compared at a fixed precision, so ties fall to the identity deterministically.
fn bucket(score: f32) -> i64 {
    (score as f64 * 1e6).round() as i64
}

/// Makes `p` follow the order of `shown`, then of the weak rows `extra` after them. The
/// order is the fused ranking's, which places the asked-for tool better than `p` alone
/// does (sorting by `p` lost 9 points of recall@1, docs/search.md); `p` is read from a
/// row's own evidence, so a row could read surer than the one above it. Each list's `p`
/// is fitted to its order by pooling adjacent violators (a run out of order takes its
/// mean: the least-squares non-increasing fit), so a row is as sure as the rows around
/// its place are; a pinned name keeps 1. A weak row is no surer than the weakest shown.
fn in_order_of_relevance(shown: &mut [Candidate], extra: &mut [Candidate]) {
    for c in shown.iter_mut().filter(|c| c.pin > 0) {
        c.p = 1.0;
    }
    pool_adjacent_violators(shown);
    pool_adjacent_violators(extra);
    if let Some(last) = shown.last().map(|c| c.p) {
        for c in extra {
            c.p = c.p.min(last);
        }
    }
}

/// The non-increasing `p` closest to the rows' own (least squares), in place.
fn pool_adjacent_violators(rows: &mut [Candidate]) {
    // Blocks of (sum, count); each block's mean is below the one before it.
    let mut blocks: Vec<(f32, usize)> = Vec::with_capacity(rows.len());
    for c in rows.iter() {
        blocks.push((c.p, 1));
        while blocks.len() > 1 {
            let (s, n) = blocks[blocks.len() - 1];
            let (ps, pn) = blocks[blocks.len() - 2];
            if s / n as f32 <= ps / pn as f32 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (ps + s, pn + n);
        }
    }
    let mut at = 0;
    for (sum, n) in blocks {
        for c in &mut rows[at..at + n] {
            c.p = sum / n as f32;
        }
        at += n;
    }
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
        evidence: None,
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

#[cfg(test)]
#[path = "../../tests/unit/search/rank.rs"]
mod tests;
