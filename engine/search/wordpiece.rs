//! A small BERT (uncased) WordPiece tokenizer over the bundled vocabulary.
//!
//! Written here instead of using the `tokenizers` crate: that crate pulls in regex
//! engines, rayon-based training code and a JSON model loader, while the static
//! model needs only the basic lower-case/punctuation split and greedy longest-match
//! WordPiece (about 60 lines). Accents are not stripped (no Unicode tables); tool text
//! is almost always ASCII, and an unknown word simply contributes no vector.

use std::collections::HashMap;

/// Words longer than this become `[UNK]` in BERT; here they are skipped.
const MAX_WORD_CHARS: usize = 100;

/// The vocabulary: token text to row.
pub(crate) struct WordPiece {
    ids: HashMap<&'static str, u32>,
}

impl WordPiece {
    /// Reads a `vocab.txt` (one token a line; the line number is the id).
    pub(crate) fn new(vocab: &'static str) -> WordPiece {
        let ids = vocab
            .lines()
            .enumerate()
            .map(|(i, t)| (t, i as u32))
            .collect();
        WordPiece { ids }
    }

    /// The row of `word` when it is one whole token of the vocabulary.
    pub(crate) fn word(&self, word: &str) -> Option<u32> {
        self.ids.get(word).copied()
    }

    /// Token ids of `text`, special and unknown tokens left out.
    pub(crate) fn ids(&self, text: &str, out: &mut Vec<u32>) {
        for word in basic_words(text) {
            self.word_pieces(&word, out);
        }
    }

    fn word_pieces(&self, word: &str, out: &mut Vec<u32>) {
        if word.chars().count() > MAX_WORD_CHARS {
            return;
        }
        let start_len = out.len();
        let mut start = 0;
        let mut piece = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while end > start {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.ids.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                end = prev_boundary(word, end);
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    // BERT maps the whole word to [UNK]: drop what this word added.
                    out.truncate(start_len);
                    return;
                }
            }
        }
    }
}

fn prev_boundary(s: &str, mut at: usize) -> usize {
    at -= 1;
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_alphanumeric() && !c.is_whitespace() && !c.is_ascii())
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0xF900..=0xFAFF)
}

/// Lower-cased words with punctuation and CJK characters as words of their own.
fn basic_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() {
            flush(&mut current, &mut words);
        } else if is_punct(c) || is_cjk(c) {
            flush(&mut current, &mut words);
            words.push(c.to_lowercase().collect());
        } else if !('\u{300}'..='\u{36f}').contains(&c) {
            current.extend(c.to_lowercase());
        }
    }
    flush(&mut current, &mut words);
    words
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/wordpiece.rs"]
mod tests;
