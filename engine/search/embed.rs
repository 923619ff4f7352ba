//! The static embedding models, compiled into the binary: a token-vector table
//! distilled from MiniLM (`scripts/distill_static.py`, WordPiece tokens) and
//! WordLlama's table (`scripts/wordllama_table.py`, Llama 2's BPE tokens). A text's
//! vector is the normalised mean of its tokens' rows, so embedding costs microseconds
//! and nothing is downloaded or loaded at run time.

use std::sync::OnceLock;

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

/// A static table and its tokenizer.
pub struct StaticModel {
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
    pub fn minilm() -> &'static StaticModel {
        static MODEL: OnceLock<StaticModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            StaticModel::new(
                MINILM_TABLE,
                Tokenizer::WordPiece(WordPiece::new(MINILM_VOCAB)),
            )
        })
    }

    /// WordLlama's table (parsed once per process).
    pub fn wordllama() -> &'static StaticModel {
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
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The unit vector of `text`, or `None` when no token of it is in the vocabulary.
    pub fn embed(&self, text: &str) -> Option<Vec<f32>> {
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
mod tests {
    use super::*;

    #[test]
    fn related_texts_are_closer_than_unrelated_ones() {
        let m = StaticModel::minilm();
        let mail = m.embed("compose and send an email message").unwrap();
        let query = m.embed("write a note to a colleague by e-mail").unwrap();
        let other = m.embed("compute the area of a triangle").unwrap();
        assert!(dot(&mail, &query) > dot(&other, &query));
    }

    #[test]
    fn text_without_known_tokens_has_no_vector() {
        assert!(StaticModel::minilm().embed("").is_none());
    }
}
