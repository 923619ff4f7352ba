//! The parts of a request: a long request that asks for several things ("find the series
//! Dark, and then suggest similar titles on Netflix; also text my wife") is ranked part by
//! part, so that each thing asked finds its own tool instead of the words of all of them
//! being scored together against every tool.

/// Requests of fewer words than this are one part: a short request asks for one thing,
/// and "cats and dogs" is a phrase, not two requests.
const MIN_WORDS_TO_SPLIT: usize = 9;
/// A piece with fewer words than this joins its neighbour ("Hey," or "then" alone asks
/// for nothing).
const MIN_PART_WORDS: usize = 3;
/// At most this many parts are ranked (bounded work per query); the rest joins the last.
pub(crate) const MAX_PARTS: usize = 8;

/// Words that join two things asked for: a piece starts at one of them. "and" joins
/// two things only after a comma (", and then") or before a verb ("and upload it"):
/// otherwise it joins the words of one thing ("base 10 and height 5"), as a bare comma
/// does ("a=1, b=-3") unless a verb follows it ("remove the background, resize it").
const JOINERS: [&str; 5] = ["then", "also", "afterwards", "finally", "and"];

/// Verbs a request for a tool starts with ("resize it", "block the IP", "text my wife"):
/// after a comma or an "and" one starts another thing asked for. Words that are as often
/// nouns in a list ("report", "order", "email") are left out: a cut in the middle of one
/// thing loses more than a missed one.
const VERBS: &str = "\
    add analyse analyze approve archive assign block book buy calculate cancel change \
    charge check close compare compress compute convert copy count create crop decode \
    decrypt delete deploy describe detect download draft draw encode encrypt estimate \
    explain export extract fetch find fix forward generate geocode get give grab import \
    invite kick list locate lock log look make merge move notify open pay ping pull push \
    put read refund reject release remind remove rename reply reschedule reserve resize \
    restart restore retrieve revert rotate run save scan schedule search send set share \
    show sign sort start stop submit subscribe suggest summarise summarize sync tag tell \
    text transcribe transfer translate trigger unblock unsubscribe update upload \
    validate verify write";

/// True when `word` is one of [`VERBS`], in any case.
fn is_verb(word: &str) -> bool {
    !word.is_empty()
        && VERBS
            .split_whitespace()
            .any(|v| word.eq_ignore_ascii_case(v))
}

/// The word `text` starts with (letters and digits), after any blanks.
fn first_word(text: &str) -> &str {
    let rest = text.trim_start();
    let end = rest
        .find(|ch: char| !ch.is_alphanumeric())
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The parts of `query`, in order: the query itself when it is short or has no joints.
/// Clauses are cut at sentence ends, semicolons and joining words, and pieces too short
/// to ask for anything are joined to the one before (or after, at the start).
pub(crate) fn split(query: &str) -> Vec<&str> {
    let words = query.split_whitespace().count();
    if words < MIN_WORDS_TO_SPLIT {
        return vec![query];
    }
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    let mut after_comma = false;
    let mut iter = query.char_indices().peekable();
    while let Some((at, c)) = iter.next() {
        let next_blank = iter.peek().is_none_or(|(_, n)| n.is_whitespace());
        // A full stop inside a word is a dotted identity or a version, not a joint.
        let joint = matches!(c, ';' | '!' | '?') || (c == '.' && next_blank);
        if joint {
            cuts.push((start, at));
            start = at + c.len_utf8();
            after_comma = false;
        } else if c.is_whitespace() {
            let rest = &query[at..].trim_start();
            let word = first_word(rest);
            let after = &rest[word.len()..];
            let boundary = after.starts_with(char::is_whitespace);
            let and = word.eq_ignore_ascii_case("and");
            let joins = JOINERS.iter().any(|j| word.eq_ignore_ascii_case(j))
                && (after_comma || !and || is_verb(first_word(after)));
            let verb = after_comma && is_verb(word);
            if boundary && (joins || verb) {
                cuts.push((start, at));
                start = at;
            }
            if !rest.is_empty() {
                after_comma = false;
            }
        } else {
            after_comma = c == ',';
        }
    }
    cuts.push((start, query.len()));
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for (s, e) in cuts {
        let piece = &query[s..e];
        let content = piece
            .split_whitespace()
            .filter(|w| !JOINERS.iter().any(|j| w.eq_ignore_ascii_case(j)))
            .count();
        if content == 0 {
            continue;
        }
        let full = parts.len() >= MAX_PARTS;
        match parts.last_mut() {
            Some(last) if content < MIN_PART_WORDS || full => last.1 = e,
            _ => parts.push((s, e)),
        }
    }
    // A short first piece ("Hey,") joins the one after it.
    if parts.len() > 1 {
        let (s, e) = parts[0];
        if query[s..e].split_whitespace().count() < MIN_PART_WORDS {
            parts[1].0 = s;
            parts.remove(0);
        }
    }
    let out: Vec<&str> = parts
        .into_iter()
        .map(|(s, e)| query[s..e].trim())
        .filter(|p| !p.is_empty())
        .collect();
    if out.is_empty() {
        vec![query]
    } else {
        out
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/parts.rs"]
mod tests;
