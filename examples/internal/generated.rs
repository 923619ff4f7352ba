//! The generated world the search and scale benchmarks share: tools named verb + noun with
//! well-formed docstrings, the queries run over them, and the plain BM25 baseline.

use std::path::Path;

use crate::assets::AssetIndex;
use tantivy::query::QueryParser;
use tantivy::schema::{Schema, TEXT};
use tantivy::{doc, Index};

const VERBS: [&str; 16] = [
    "send", "read", "parse", "convert", "list", "create", "delete", "update", "fetch", "compute",
    "format", "validate", "search", "merge", "split", "render",
];
const NOUNS: [&str; 24] = [
    "email", "invoice", "calendar", "event", "image", "document", "table", "user", "account",
    "payment", "order", "ticket", "message", "file", "report", "chart", "weather", "route", "song",
    "playlist", "recipe", "contact", "note", "task",
];

/// The queries timed: requests, exact identities and names.
pub const QUERIES: [&str; 10] = [
    "send an email to a colleague",
    "convert a document to pdf",
    "what's the weather tomorrow",
    "list my calendar events",
    "pay an invoice",
    "box17.fetchPayment3",
    "render a chart of the report",
    "validateTicket",
    "find a good recipe for dinner",
    "merge two playlists",
];

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Writes `tools` tools under `dir`; tool `i` goes into toolbox `box<toolbox_of(i)>`.
pub fn write_world(dir: &Path, tools: usize, toolbox_of: impl Fn(usize) -> usize) {
    for i in 0..tools {
        let (verb, noun) = (
            VERBS[i % VERBS.len()],
            NOUNS[(i / VERBS.len()) % NOUNS.len()],
        );
        let name = format!(
            "{verb}{}{}",
            capitalise(noun),
            i / (VERBS.len() * NOUNS.len())
        );
        let folder = dir.join(format!("box{}.toolbox/{name}.tool", toolbox_of(i)));
        std::fs::create_dir_all(&folder).unwrap();
        let source = format!(
            "--!desc {} the {noun} given by id, for tool number {i}.\n--!arg id string Which {noun}.\n--!return table The {noun} after the change.\nlocal function {name}(id: string): any\n\treturn nil\nend\n\nreturn {name}\n",
            capitalise(verb)
        );
        std::fs::write(folder.join("init.luau"), source).unwrap();
    }
}

/// A plain single-field BM25 index over each tool's identity and description, in RAM.
pub fn bm25_baseline(index: &AssetIndex) -> (Index, QueryParser) {
    let mut schema = Schema::builder();
    let body = schema.add_text_field("body", TEXT);
    let idx = Index::create_in_ram(schema.build());
    let mut writer = idx.writer_with_num_threads(1, 50_000_000).unwrap();
    for e in index.tools.values() {
        writer
            .add_document(doc!(body => format!("{} {}", e.identity, e.meta().description)))
            .unwrap();
    }
    writer.commit().unwrap();
    let parser = QueryParser::for_index(&idx, vec![body]);
    (idx, parser)
}
