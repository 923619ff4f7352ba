//! The static embedding models, compiled into the binary: a token-vector table
//! distilled from MiniLM (`scripts/distill_static.py`, WordPiece tokens) and
//! WordLlama's table (`scripts/wordllama_table.py`, Llama 2's BPE tokens). A text's
//! vector is the normalised mean of its tokens' rows, so embedding costs microseconds
//! and nothing is downloaded or loaded at run time.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::bpe::Bpe;
use super::wordpiece::WordPiece;
use super::words::expand_identifiers;

static MINILM_TABLE: &[u8] = include_bytes!("model/static.bin");
static MINILM_VOCAB: &str = include_str!("model/vocab.txt");
static WORDLLAMA_TABLE: &[u8] = include_bytes!("model/wordllama.bin");
static WORDLLAMA_VOCAB: &str = include_str!("model/wordllama_vocab.txt");
static WORDLLAMA_MERGES: &str = include_str!("model/wordllama_merges.txt");

/// At most this many tokens of one text are embedded (bounded work per asset).
const MAX_TOKENS: usize = 512;

/// Most words [`StaticModel::neighbours`] gives for one word.
const MAX_NEIGHBOURS: usize = 8;
/// Most words whose neighbours one process keeps (bounded memory).
const MAX_KEPT_NEIGHBOURS: usize = 4096;

/// A static table and its tokenizer.
pub(crate) struct StaticModel {
    table: &'static [u8],
    rows: usize,
    dims: usize,
    tokenizer: Tokenizer,
}

enum Tokenizer {
    /// BERT uncased; identifiers are split into words first (`getWeather` adds `get
    /// Weather`), as the table was distilled on words.
    WordPiece(WordPiece),
    /// Llama 2's; cased, and given the text as written, as WordLlama was trained.
    Bpe(Bpe),
}

impl StaticModel {
    /// The table distilled from MiniLM (parsed once per process).
    pub(crate) fn minilm() -> &'static StaticModel {
        static MODEL: OnceLock<StaticModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            StaticModel::new(
                MINILM_TABLE,
                Tokenizer::WordPiece(WordPiece::new(MINILM_VOCAB)),
            )
        })
    }

    /// WordLlama's table (parsed once per process).
    pub(crate) fn wordllama() -> &'static StaticModel {
        static MODEL: OnceLock<StaticModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            StaticModel::new(
                WORDLLAMA_TABLE,
                Tokenizer::Bpe(Bpe::new(WORDLLAMA_VOCAB, WORDLLAMA_MERGES)),
            )
        })
    }

    fn new(table: &'static [u8], tokenizer: Tokenizer) -> StaticModel {
        let (rows, dims) = header(table);
        StaticModel {
            table,
            rows,
            dims,
            tokenizer,
        }
    }

    /// Length of every vector.
    pub(crate) fn dims(&self) -> usize {
        self.dims
    }

    /// The unit vector of `text`, or `None` when no token of it is in the vocabulary.
    pub(crate) fn embed(&self, text: &str) -> Option<Vec<f32>> {
        let mut ids = Vec::new();
        match &self.tokenizer {
            Tokenizer::WordPiece(t) => {
                t.ids(&expand_identifiers(text), &mut ids);
                ids.truncate(MAX_TOKENS);
            }
            Tokenizer::Bpe(t) => t.ids(text, MAX_TOKENS, &mut ids),
        }
        let mut sum = vec![0f32; self.dims];
        let mut used = 0;
        for id in ids {
            if (id as usize) < self.rows {
                self.add_row(id as usize, &mut sum);
                used += 1;
            }
        }
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        if used == 0 || norm == 0.0 {
            return None;
        }
        sum.iter_mut().for_each(|x| *x /= norm);
        Some(sum)
    }

    /// The whole words of the vocabulary nearest `word` (a lower-case word that is one
    /// token of MiniLM's vocabulary), cosine `close` or more, nearest first, `word` itself
    /// left out; none for another word or model. Kept per process: a scan of the table
    /// takes milliseconds.
    pub(crate) fn neighbours(&self, word: &str, close: f32) -> Vec<String> {
        static KEPT: OnceLock<Mutex<HashMap<String, Vec<String>>>> = OnceLock::new();
        let Tokenizer::WordPiece(pieces) = &self.tokenizer else {
            return Vec::new();
        };
        let Some(row) = pieces.word(word).map(|r| r as usize) else {
            return Vec::new();
        };
        let kept = KEPT.get_or_init(Mutex::default);
        let key = format!("{word} {close}");
        if let Some(found) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return found.clone();
        }
        let mut own = vec![0f32; self.dims];
        self.add_row(row, &mut own);
        let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
        let own_norm = norm(&own);
        let mut near: Vec<(f32, &str)> = Vec::new();
        let mut other = vec![0f32; self.dims];
        for (i, token) in MINILM_VOCAB.lines().enumerate().take(self.rows) {
            // Whole words only: no `##` pieces, no `[CLS]`, no numbers or punctuation.
            if i == row || token.len() < 3 || !token.bytes().all(|b| b.is_ascii_lowercase()) {
                continue;
            }
            other.iter_mut().for_each(|x| *x = 0.0);
            self.add_row(i, &mut other);
            let dot: f32 = own.iter().zip(&other).map(|(a, b)| a * b).sum();
            let cos = dot / (own_norm * norm(&other)).max(f32::MIN_POSITIVE);
            if cos >= close {
                near.push((cos, token));
            }
        }
        near.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let found: Vec<String> = near
            .into_iter()
            .take(MAX_NEIGHBOURS)
            .map(|(_, t)| t.to_string())
            .collect();
        let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < MAX_KEPT_NEIGHBOURS {
            kept.insert(key, found.clone());
        }
        found
    }

    fn add_row(&self, row: usize, sum: &mut [f32]) {
        let table = self.table;
        let stride = 4 + self.dims;
        let at = 12 + row * stride;
        let scale = f32::from_le_bytes([table[at], table[at + 1], table[at + 2], table[at + 3]]);
        for (s, &q) in sum.iter_mut().zip(&table[at + 4..at + stride]) {
            *s += (q as i8) as f32 * scale;
        }
    }
}

/// Rows and dims from the `CMSE` header; the build fails loudly if the table is corrupt.
fn header(table: &[u8]) -> (usize, usize) {
    assert!(
        table.len() >= 12 && &table[..4] == b"CMSE",
        "a table under engine/search/model is not a codemode static table; regenerate it (scripts/distill_static.py, scripts/wordllama_table.py)"
    );
    let rows = u32::from_le_bytes([table[4], table[5], table[6], table[7]]) as usize;
    let dims = u32::from_le_bytes([table[8], table[9], table[10], table[11]]) as usize;
    assert_eq!(
        table.len(),
        12 + rows * (4 + dims),
        "a table under engine/search/model has the wrong length"
    );
    (rows, dims)
}

/// Cosine of two unit vectors.
#[cfg(test)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
#[path = "../../tests/unit/search/embed.rs"]
mod tests;
