//! The tantivy side: one index (in RAM, or on disk under the world's cache) with fields
//! per role, and queries built term by term (never parsed, so query syntax characters are
//! just text).

use std::collections::HashMap;
use std::path::Path;

use tantivy::collector::{Count, TopDocs};
use tantivy::directory::MmapDirectory;
use tantivy::query::{
    BooleanQuery, BoostQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur, Query, TermQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, STORED, STRING,
};
use tantivy::tokenizer::{
    Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter,
    TextAnalyzer,
};
use tantivy::{
    doc, DocAddress, DocSet, Index, IndexReader, IndexWriter, ReloadPolicy, Searcher,
    TantivyDocument, Term,
};

use super::document::{AssetDoc, Role};
use super::words::{candidate_names, expand_identifiers, name_words};

/// Words of one query beyond this are ignored (bounded work per query).
pub(crate) const MAX_QUERY_WORDS: usize = 32;
/// English function words: they carry no meaning a tool could be found by, and in a small
/// catalogue BM25 alone would still weigh them (few tools say "how" or "it"). The tokenizer
/// splits at apostrophes, so a possessive or a contraction leaves `s` or `t` behind
/// ("last week's", "don't"): those are function words too.
const STOP_WORDS: &str = "a an the of to in on at by for from with and or but is are was were be been \
    it its this that these those i me my we our you your he she they them his her their what which \
    who whom how when where why will would can could should shall may might do does did have has had \
    not no so if then than there here into onto about as up down out over all any some please s t";

/// Queries of at most this many words also match misspelt names.
const MAX_FUZZY_WORDS: usize = 3;
/// Writer memory: plenty for tens of thousands of small docs.
const WRITER_BYTES: usize = 20_000_000;

/// Weights of the roles and how their scores combine; tuned on the dev split only.
#[derive(Debug, Clone)]
pub(crate) struct Tuning {
    /// Boost per role field.
    pub boosts: Vec<(Role, f32)>,
    /// Boost of the toolbox-name field.
    pub(crate) toolbox_boost: f32,
    /// Boost of a misspelt-name match (edit distance 1 or 2).
    pub fuzzy_boost: f32,
    /// How much the other fields add to a word's best field (0 = max only, 1 = sum).
    pub tie_breaker: f32,
    /// Factor on a toolbox's or workflow's score: a toolbox is a drill-in, not an
    /// answer, so a tool carrying the same words ranks first.
    pub toolbox_factor: f32,
    /// Factor on a function of `tools` itself (`tools.get`, `tools.use`), whose words
    /// ("get", "use", "list") are those of many a request for a tool. 1: at 0.5 they left
    /// the top 5 of a third fewer requests over a catalogue of services, but "call a tool
    /// by name" lost `tools.callable` to `json.get`.
    pub function_factor: f32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            boosts: vec![
                (Role::Name, 1.6),
                (Role::Tag, 1.5),
                (Role::Description, 1.4),
                (Role::Argument, 0.8),
                (Role::Returns, 0.6),
                (Role::Example, 0.6),
                (Role::Readme, 0.4),
            ],
            toolbox_boost: 1.0,
            fuzzy_boost: 1.5,
            tie_breaker: 0.5,
            toolbox_factor: 0.3,
            function_factor: 1.0,
        }
    }
}

/// One keyword hit: the asset's key, its score and where it carries each query word.
pub(crate) struct KeywordHit {
    /// The asset key.
    pub(crate) key: String,
    /// BM25 score summed over the query's words.
    pub(crate) score: f32,
    /// For each analyzed query word (in [`KeywordIndex::analyze`] order), the best role
    /// that carries it (the toolbox name counts as the name), `None` when none does.
    pub(crate) found: Vec<Option<Role>>,
}

/// The index, its writer and reader, and the analyzers the queries reuse.
pub(crate) struct KeywordIndex {
    index: Index,
    /// Open while changes are being made; an index on disk lets it go after each commit,
    /// so another process can take its turn.
    writer: Option<IndexWriter<TantivyDocument>>,
    on_disk: bool,
    reader: IndexReader,
    key: Field,
    /// A tool's toolbox name as one term: scopes a search to one toolbox.
    scope: Field,
    exact: Field,
    spelled: Field,
    toolbox: Field,
    roles: HashMap<Role, Field>,
    words: TextAnalyzer,
    tuning: Tuning,
}

fn words_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(StopWordFilter::remove(
            STOP_WORDS.split_whitespace().map(str::to_string),
        ))
        .filter(Stemmer::new(Language::English))
        .build()
}

fn text(tokenizer: &str, record: IndexRecordOption) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(tokenizer)
            .set_index_option(record),
    )
}

/// Role fields, in rank order (also the tie-break order).
pub(crate) const ROLES: [Role; 7] = [
    Role::Name,
    Role::Tag,
    Role::Description,
    Role::Argument,
    Role::Returns,
    Role::Example,
    Role::Readme,
];

impl KeywordIndex {
    /// An empty index in RAM.
    pub(crate) fn new(tuning: Tuning) -> tantivy::Result<KeywordIndex> {
        KeywordIndex::open(tuning, None)
    }

    /// The index in `dir` (created when missing), or an empty one in RAM when `dir` is
    /// `None`. Fails when the folder holds an index of another schema or a damaged one.
    pub(crate) fn open(tuning: Tuning, dir: Option<&Path>) -> tantivy::Result<KeywordIndex> {
        let mut schema = Schema::builder();
        let key = schema.add_text_field("key", STRING | STORED);
        let scope = schema.add_text_field("scope", STRING);
        let exact = schema.add_text_field("exact", text("cm_exact", IndexRecordOption::Basic));
        let spelled = schema.add_text_field("spelled", text("cm_plain", IndexRecordOption::Basic));
        let toolbox =
            schema.add_text_field("toolbox", text("cm_words", IndexRecordOption::WithFreqs));
        let roles = ROLES
            .iter()
            .map(|r| {
                let name = format!("{r:?}").to_lowercase();
                (
                    *r,
                    schema.add_text_field(&name, text("cm_words", IndexRecordOption::WithFreqs)),
                )
            })
            .collect();
        let index = match dir {
            Some(dir) => Index::open_or_create(MmapDirectory::open(dir)?, schema.build())?,
            None => Index::create_in_ram(schema.build()),
        };
        index.tokenizers().register("cm_words", words_analyzer());
        index.tokenizers().register(
            "cm_exact",
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(LowerCaser)
                .build(),
        );
        index.tokenizers().register(
            "cm_plain",
            TextAnalyzer::builder(SimpleTokenizer::default())
                .filter(LowerCaser)
                .build(),
        );
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(KeywordIndex {
            index,
            writer: None,
            on_disk: dir.is_some(),
            reader,
            key,
            scope,
            exact,
            spelled,
            toolbox,
            roles,
            words: words_analyzer(),
            tuning,
        })
    }

    fn writer(&mut self) -> tantivy::Result<&mut IndexWriter<TantivyDocument>> {
        if self.writer.is_none() {
            self.writer = Some(self.index.writer_with_num_threads(1, WRITER_BYTES)?);
        }
        Ok(self.writer.as_mut().expect("just opened"))
    }

    /// The payload of the last commit (see [`KeywordIndex::commit`]).
    pub(crate) fn payload(&self) -> Option<String> {
        self.index.load_metas().ok()?.payload
    }

    /// Removes every doc (visible after [`KeywordIndex::commit`]).
    pub(crate) fn clear(&mut self) -> tantivy::Result<()> {
        self.writer()?.delete_all_documents()?;
        Ok(())
    }

    /// Adds or replaces the doc of `key` with `d` (from [`KeywordIndex::document`];
    /// visible after [`KeywordIndex::commit`]).
    pub(crate) fn add(&mut self, key: &str, d: TantivyDocument) -> tantivy::Result<()> {
        self.delete(key)?;
        self.writer()?.add_document(d)?;
        Ok(())
    }

    /// The tantivy document of an asset (no writer needed: made in parallel).
    pub(crate) fn document(&self, doc: &AssetDoc) -> TantivyDocument {
        let mut d = doc!(
            self.key => doc.key.as_str(),
            self.exact => doc.name.as_str(),
            self.exact => doc.identity.as_str(),
            self.spelled => format!("{} {}", doc.name, name_words(&doc.name)),
            self.toolbox => name_words(&doc.toolbox),
        );
        for (role, value) in &doc.fields {
            let value = match role {
                // A title is the name people call the tool by (`pulls_list` is "List pull
                // requests"): its words count as the name's.
                Role::Name => format!(
                    "{} {} {}",
                    doc.name,
                    name_words(&doc.name),
                    doc.title.as_deref().unwrap_or("")
                ),
                _ => expand_identifiers(value),
            };
            d.add_text(self.roles[role], value);
        }
        if doc.asset_type == super::AssetType::Tool {
            d.add_text(self.scope, &doc.toolbox);
        }
        d
    }

    /// Removes a doc by key.
    pub(crate) fn delete(&mut self, key: &str) -> tantivy::Result<()> {
        let term = Term::from_field_text(self.key, key);
        self.writer()?.delete_term(term);
        Ok(())
    }

    /// Commits with `payload` (read back by [`KeywordIndex::payload`]) and reloads the
    /// reader, so the change is searchable at once. An index on disk closes its writer.
    pub(crate) fn commit(&mut self, payload: &str) -> tantivy::Result<()> {
        let writer = self.writer()?;
        let mut prepared = writer.prepare_commit()?;
        prepared.set_payload(payload);
        prepared.commit()?;
        if self.on_disk {
            if let Some(writer) = self.writer.take() {
                writer.wait_merging_threads()?;
            }
        }
        self.reader.reload()
    }

    /// Merges the committed segments into one, when there are several: a query runs once
    /// per segment (its terms looked up, its scorers built), and a large build writes a
    /// segment each time the writer's memory fills (8 of them for 100,000 tools). Worth
    /// its time after a large change only; small edits leave merging to tantivy's policy.
    pub(crate) fn compact(&mut self) -> tantivy::Result<()> {
        let segments = self.index.searchable_segment_ids()?;
        if segments.len() < 2 {
            return Ok(());
        }
        let merged = self.writer()?.merge(&segments).wait().map(drop);
        // An index on disk lets its writer go whatever the merge did, as after a commit.
        if self.on_disk {
            if let Some(writer) = self.writer.take() {
                writer.wait_merging_threads()?;
            }
        }
        merged?;
        self.reader.reload()
    }

    /// The analyzed (lower-cased, stemmed) words of `text`, unique, in order.
    pub(crate) fn analyze(&self, text: &str) -> Vec<String> {
        let mut analyzer = self.words.clone();
        let expanded = expand_identifiers(text);
        let mut stream = analyzer.token_stream(&expanded);
        let mut out: Vec<String> = Vec::new();
        while let Some(t) = stream.next() {
            if !out.contains(&t.text) {
                out.push(t.text.clone());
            }
        }
        out
    }

    /// How rare each word is in the catalogue, as BM25's inverse document frequency over
    /// the field that holds it most often; 0 for a word with a digit (an order number or a
    /// date tells no tool from another). A word no asset holds is as rare as can be: a
    /// request for a pizza is not answered by the tool that holds its other words.
    pub(crate) fn rarity(&self, words: &[String]) -> tantivy::Result<Vec<f32>> {
        let searcher = self.reader.searcher();
        let docs = searcher.num_docs() as f32;
        let mut fields: Vec<Field> = self.roles.values().copied().collect();
        fields.push(self.toolbox);
        words
            .iter()
            .map(|w| {
                if w.chars().any(|c| c.is_ascii_digit()) {
                    return Ok(0.0);
                }
                let mut most = 0u64;
                for field in &fields {
                    most = most.max(searcher.doc_freq(&Term::from_field_text(*field, w))?);
                }
                let df = most as f32;
                Ok((1.0 + (docs - df + 0.5) / (df + 0.5)).ln())
            })
            .collect()
    }

    /// Keys of assets whose name or identity is one of the query's words.
    pub(crate) fn exact(&self, query: &str) -> tantivy::Result<Vec<String>> {
        let candidates = candidate_names(query);
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let clauses: Vec<(Occur, Box<dyn Query>)> = candidates
            .iter()
            .take(MAX_QUERY_WORDS)
            .map(|w| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(self.exact, w),
                    IndexRecordOption::Basic,
                ));
                (Occur::Should, q)
            })
            .collect();
        let hits = self.run(&BooleanQuery::new(clauses), 64)?.0;
        Ok(hits.into_iter().map(|h| h.key).collect())
    }

    /// The best `limit` keyword hits (only tools of toolbox `scope`, when given) and how
    /// many assets matched in all (when `count`; else how many hits there are).
    pub(crate) fn search(
        &self,
        query: &str,
        limit: usize,
        scope: Option<&str>,
        count: bool,
    ) -> tantivy::Result<(Vec<KeywordHit>, usize)> {
        let words = self.analyze(query);
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for word in words.iter().take(MAX_QUERY_WORDS) {
            let mut per_field: Vec<Box<dyn Query>> = Vec::new();
            for (role, boost) in &self.tuning.boosts {
                per_field.push(self.term(self.roles[role], word, *boost));
            }
            per_field.push(self.term(self.toolbox, word, self.tuning.toolbox_boost));
            clauses.push((
                Occur::Should,
                Box::new(DisjunctionMaxQuery::with_tie_breaker(
                    per_field,
                    self.tuning.tie_breaker,
                )),
            ));
        }
        // Misspelt names: only for short queries (a name typed as the query); in a
        // sentence every long word would fuzzily match some tool name and add noise.
        let plain = plain_words(query);
        if plain.len() <= MAX_FUZZY_WORDS {
            for word in plain {
                let chars = word.chars().count();
                if chars >= 5 {
                    let distance = if chars >= 9 { 2 } else { 1 };
                    let fuzzy = FuzzyTermQuery::new(
                        Term::from_field_text(self.spelled, &word),
                        distance,
                        true,
                    );
                    clauses.push((
                        Occur::Should,
                        Box::new(BoostQuery::new(Box::new(fuzzy), self.tuning.fuzzy_boost)),
                    ));
                }
            }
        }
        if clauses.is_empty() {
            return Ok((Vec::new(), 0));
        }
        let mut query: Box<dyn Query> = Box::new(BooleanQuery::new(clauses));
        if let Some(b) = scope {
            // A filter: the toolbox term must match but adds nothing to the score.
            let only: Box<dyn Query> = Box::new(BoostQuery::new(
                Box::new(TermQuery::new(
                    Term::from_field_text(self.scope, b),
                    IndexRecordOption::Basic,
                )),
                0.0,
            ));
            query = Box::new(BooleanQuery::new(vec![
                (Occur::Must, query),
                (Occur::Must, only),
            ]));
        }
        let searcher = self.reader.searcher();
        let (mut hits, addresses, total) = self.run_on(&searcher, &*query, limit, count)?;
        let words = &words[..words.len().min(MAX_QUERY_WORDS)];
        for (hit, found) in hits
            .iter_mut()
            .zip(self.found(&searcher, words, &addresses)?)
        {
            hit.found = found;
        }
        Ok((hits, total))
    }

    /// For each doc, the best role carrying each word: read from the postings of the hit
    /// docs only (a few seeks per word and field), so no per-doc text is kept or re-read.
    fn found(
        &self,
        searcher: &Searcher,
        words: &[String],
        addresses: &[DocAddress],
    ) -> tantivy::Result<Vec<Vec<Option<Role>>>> {
        let mut found = vec![vec![None; words.len()]; addresses.len()];
        // Hits by segment, in doc order (postings only seek forward).
        let mut order: Vec<usize> = (0..addresses.len()).collect();
        order.sort_by_key(|&i| (addresses[i].segment_ord, addresses[i].doc_id));
        let fields: Vec<(Role, Field)> = ROLES
            .iter()
            .map(|r| (*r, self.roles[r]))
            .chain([(Role::Name, self.toolbox)])
            .collect();
        for (w, word) in words.iter().enumerate() {
            for (role, field) in &fields {
                let mut at = 0;
                while at < order.len() {
                    let segment = addresses[order[at]].segment_ord;
                    let end = order[at..]
                        .iter()
                        .position(|&i| addresses[i].segment_ord != segment)
                        .map_or(order.len(), |n| at + n);
                    let inverted = searcher.segment_reader(segment).inverted_index(*field)?;
                    let term = Term::from_field_text(*field, word);
                    if let Some(mut postings) =
                        inverted.read_postings(&term, IndexRecordOption::Basic)?
                    {
                        for &i in &order[at..end] {
                            let doc = addresses[i].doc_id;
                            if postings.doc() <= doc && postings.seek(doc) == doc {
                                let best = &mut found[i][w];
                                *best = Some(best.map_or(*role, |b: Role| b.min(*role)));
                            }
                        }
                    }
                    at = end;
                }
            }
        }
        Ok(found)
    }

    fn term(&self, field: Field, word: &str, boost: f32) -> Box<dyn Query> {
        let q = TermQuery::new(
            Term::from_field_text(field, word),
            IndexRecordOption::WithFreqs,
        );
        Box::new(BoostQuery::new(Box::new(q), boost))
    }

    fn run(&self, query: &dyn Query, limit: usize) -> tantivy::Result<(Vec<KeywordHit>, usize)> {
        let (hits, _, total) = self.run_on(&self.reader.searcher(), query, limit, true)?;
        Ok((hits, total))
    }

    /// The top hits with their addresses in `searcher`, and the match count (when `count`;
    /// else the number of top hits).
    fn run_on(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        limit: usize,
        count: bool,
    ) -> tantivy::Result<(Vec<KeywordHit>, Vec<DocAddress>, usize)> {
        let top_docs = TopDocs::with_limit(limit.max(1)).order_by_score();
        // Counting visits every match; the top docs alone let tantivy skip the docs that
        // cannot reach them (a request's common words match most of a large catalogue).
        let (top, total) = match count {
            true => searcher.search(query, &(top_docs, Count))?,
            false => {
                let top = searcher.search(query, &top_docs)?;
                let len = top.len();
                (top, len)
            }
        };
        let mut hits = Vec::with_capacity(top.len());
        let mut addresses = Vec::with_capacity(top.len());
        for (score, address) in top {
            let doc: TantivyDocument = searcher.doc(address)?;
            if let Some(key) = doc.get_first(self.key).and_then(|v| v.as_str()) {
                hits.push(KeywordHit {
                    key: key.to_string(),
                    score,
                    found: Vec::new(),
                });
                addresses.push(address);
            }
        }
        Ok((hits, addresses, total))
    }
}

/// Lower-cased alphanumeric words of the query, unstemmed (for misspelt names).
fn plain_words(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in name_words(query).split_whitespace() {
        let w = w.to_lowercase();
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

#[cfg(test)]
#[path = "../../tests/unit/search/keyword.rs"]
mod tests;
