//! Splitting identifiers and queries into words, shared by the keyword and semantic sides.

/// At most this many characters of a query are read; the rest is ignored (bounded work).
pub(crate) const MAX_QUERY_CHARS: usize = 1_000;

/// Inserts a space at each camelCase boundary (`getWeather` -> `get Weather`,
/// `HTTPServer` -> `HTTP Server`) and keeps the joined form too, so both
/// `getweather` and `weather` find it. Snake case, dots and hyphens are split by the
/// tokenizers themselves.
pub(crate) fn expand_identifiers(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for word in text.split_inclusive(|c: char| !c.is_alphanumeric()) {
        out.push_str(word);
        let core: String = word.chars().filter(|c| c.is_alphanumeric()).collect();
        let split = split_camel(&core);
        if split.len() > 1 {
            out.push(' ');
            out.push_str(&split.join(" "));
            out.push(' ');
        }
    }
    out
}

/// The camelCase parts of one alphanumeric word. Not `heck`'s word rules: a search also
/// splits at digits (`HTTPServer2` is `HTTP Server 2`, so "server" finds it), keeps the
/// letters' case and borrows the parts rather than building a string for each.
pub(crate) fn split_camel(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let next_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        let boundary = (c.is_uppercase() && (prev.is_lowercase() || prev.is_ascii_digit()))
            || (c.is_uppercase() && prev.is_uppercase() && next_lower)
            || (c.is_ascii_digit() && prev.is_alphabetic());
        if boundary {
            parts.push(&word[start..at]);
            start = at;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// A name or identity written as words: `text.slugify_all` -> `text slugify all`.
pub(crate) fn name_words(name: &str) -> String {
    let spaced: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    spaced
        .split_whitespace()
        .flat_map(split_camel)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of `text` written the way only a name is (`wordCount`, `base64Encode`,
/// `send_email`): a lower-case letter or a digit followed by a capital, or an underscore between
/// letters or digits. "Use wordCount, then ..." names a tool as surely as "word count".
pub(crate) fn name_shaped(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(|w| w.trim_matches('_'))
        .filter(|w| {
            let chars: Vec<char> = w.chars().collect();
            chars
                .windows(2)
                .any(|p| (p[0].is_lowercase() || p[0].is_ascii_digit()) && p[1].is_uppercase())
                || chars
                    .windows(3)
                    .any(|p| p[1] == '_' && p[0].is_alphanumeric() && p[2].is_alphanumeric())
        })
        .collect()
}

/// The words a request or a name spells, lower-cased, articles left out: `parseCsv`,
/// `parse_csv` and "parse a CSV" all spell `parse csv`.
pub(crate) fn spelt_words(text: &str) -> Vec<String> {
    name_words(text)
        .split(' ')
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !matches!(w.as_str(), "a" | "an" | "the"))
        .collect()
}

/// The query, cut to `MAX_QUERY_CHARS` on a character boundary.
pub(crate) fn bounded(query: &str) -> &str {
    match query.char_indices().nth(MAX_QUERY_CHARS) {
        Some((at, _)) => &query[..at],
        None => query,
    }
}

/// Words of the query that could be a tool name or identity: runs of identifier
/// characters and dots, lower-cased, with trailing dots trimmed.
pub(crate) fn candidate_names(query: &str) -> Vec<String> {
    let mut out: Vec<String> = query
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_matches('.').to_lowercase())
        .filter(|w| !w.is_empty() && w.len() <= 200)
        .collect();
    out.dedup();
    out
}

#[cfg(test)]
#[path = "../../tests/unit/search/words.rs"]
mod tests;
