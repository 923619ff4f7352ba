//! Llama 2's SentencePiece BPE tokenizer, as WordLlama's table was trained on it, over
//! the bundled vocabulary and merges (`scripts/wordllama_table.py` writes both).
//!
//! Written here for the reason `wordpiece.rs` is: the `tokenizers` crate brings regex
//! engines, training code and a JSON model loader, where this needs the tokenizer's two
//! normalising steps (a space before the text, every space as `▁`), the merges applied
//! lowest rank first, and bytes for characters the vocabulary lacks.

use std::borrow::Cow;

use foldhash::HashMap;

/// How SentencePiece writes a space.
const SPACE: char = '▁';

/// Characters merged as one word at most. Merging is quadratic in a word's length, and
/// the part of a longer word (a hash, a blob of base64) past this adds nothing to a
/// text's meaning that the first part does not. Llama's tokenizer merges a whole word:
/// the two agree on words up to this long (paths and URLs with no space included).
const MAX_WORD_CHARS: usize = 128;

/// The vocabulary and merges.
pub(crate) struct Bpe {
    ids: HashMap<Cow<'static, str>, u32>,
    /// A pair of adjacent tokens to the rank of its merge and the token it makes.
    merges: HashMap<(u32, u32), (u32, u32)>,
    /// The tokens `<0x00>` to `<0xFF>`, for characters the vocabulary lacks.
    bytes: Vec<u32>,
}

impl Bpe {
    /// Reads the vocabulary (token `i` on line `i`, `\\` and `\r` escaped) and the
    /// merges (in priority order, each the ids of its two tokens and of the token they
    /// make). Both are read once per process, at its first search by meaning.
    pub(crate) fn new(vocab: &'static str, merges: &str) -> Bpe {
        let lines = vocab.split_terminator('\n');
        let mut ids: HashMap<Cow<'static, str>, u32> =
            HashMap::with_capacity_and_hasher(lines.clone().count(), Default::default());
        for (i, line) in lines.enumerate() {
            let token = match line.contains('\\') {
                true => Cow::Owned(unescape(line)),
                false => Cow::Borrowed(line),
            };
            ids.insert(token, i as u32);
        }
        let lines = merges.split_terminator('\n');
        let mut table =
            HashMap::with_capacity_and_hasher(lines.clone().count(), Default::default());
        for (rank, line) in lines.enumerate() {
            let mut numbers = line.split(' ').map(|n| n.parse::<u32>().ok());
            if let (Some(Some(a)), Some(Some(b)), Some(Some(joined))) =
                (numbers.next(), numbers.next(), numbers.next())
            {
                table.insert((a, b), (rank as u32, joined));
            }
        }
        let bytes = (0..=255u8)
            .map(|b| {
                ids.get(format!("<0x{b:02X}>").as_str())
                    .copied()
                    .unwrap_or(0)
            })
            .collect();
        Bpe {
            ids,
            merges: table,
            bytes,
        }
    }

    /// Token ids of `text`, at most `limit` of them.
    pub(crate) fn ids(&self, text: &str, limit: usize, out: &mut Vec<u32>) {
        if text.is_empty() {
            return;
        }
        let mut word = Vec::new();
        let mut chars = 0;
        let mut last = None;
        let normalised = std::iter::once(SPACE).chain(text.chars().map(|c| match c {
            ' ' => SPACE,
            c => c,
        }));
        for c in normalised {
            let mut buf = [0u8; 4];
            let known = self.ids.get(&*c.encode_utf8(&mut buf)).copied();
            // A word starts at the first `▁` of a run (no merge joins a letter to the `▁`
            // after it) and around a character the vocabulary lacks (its bytes merge
            // with nothing), so merging word by word is merging the whole text.
            let starts = c == SPACE && last.is_some_and(|l| l != SPACE);
            if starts || known.is_none() || chars == MAX_WORD_CHARS {
                self.merge(&mut word);
                out.append(&mut word);
                chars = 0;
            }
            match known {
                Some(id) => {
                    word.push(id);
                    chars += 1;
                }
                None => out.extend(
                    c.encode_utf8(&mut buf)
                        .bytes()
                        .map(|b| self.bytes[b as usize]),
                ),
            }
            if out.len() >= limit {
                out.truncate(limit);
                return;
            }
            last = Some(c);
        }
        self.merge(&mut word);
        out.append(&mut word);
        out.truncate(limit);
    }

    /// Applies the merges to one word, the lowest rank first, leftmost first on a tie.
    fn merge(&self, word: &mut Vec<u32>) {
        loop {
            let best = word
                .windows(2)
                .enumerate()
                .filter_map(|(at, pair)| {
                    let &(rank, joined) = self.merges.get(&(pair[0], pair[1]))?;
                    Some((rank, at, joined))
                })
                .min();
            let Some((_, at, joined)) = best else {
                return;
            };
            word[at] = joined;
            word.remove(at + 1);
        }
    }
}

fn unescape(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
#[path = "../../tests/unit/search/bpe.rs"]
mod tests;
