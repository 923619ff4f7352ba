//! The forms one secret value can take in a text: its parts (the token behind an
//! authorization scheme, the decoded parts of a `Basic` credential), each as written and
//! in the encodings servers and scripts commonly apply.

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Values (and parts, and encoded forms) shorter than this many bytes are not masked.
pub(crate) const MIN_SECRET_LEN: usize = 6;

/// What a URL leaves as it is (RFC 3986's unreserved characters; Python's `quote(s, '')`,
/// PHP's `rawurlencode`).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Python's `quote(s)`: the unreserved characters and `/`.
const PATH: &AsciiSet = &UNRESERVED.remove(b'/');

/// JavaScript's `encodeURIComponent`.
const COMPONENT: &AsciiSet = &UNRESERVED
    .remove(b'!')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// JavaScript's `encodeURI`.
const URI: &AsciiSet = &COMPONENT
    .remove(b';')
    .remove(b',')
    .remove(b'/')
    .remove(b'?')
    .remove(b':')
    .remove(b'@')
    .remove(b'&')
    .remove(b'=')
    .remove(b'+')
    .remove(b'$')
    .remove(b'#');

/// HTML forms (`application/x-www-form-urlencoded`), before a space becomes `+`.
const FORM: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'*')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_');

/// Every form of `value` to mask, none shorter than [`MIN_SECRET_LEN`].
pub(crate) fn forms(value: &str) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = parts(value)
        .iter()
        .filter(|p| p.len() >= MIN_SECRET_LEN)
        .flat_map(|p| encodings(p))
        .filter(|f| f.len() >= MIN_SECRET_LEN)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `value`, and what a server may quote of it alone: the token of `Bearer TOKEN` (any
/// one-word scheme), and for `Basic` the decoded `user:password`, the user and the password.
fn parts(value: &str) -> Vec<String> {
    let mut out = vec![value.to_string()];
    let trimmed = value.trim();
    out.push(trimmed.to_string());
    let Some((scheme, token)) = trimmed.split_once(char::is_whitespace) else {
        return out;
    };
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return out;
    }
    let token = token.trim();
    out.push(token.to_string());
    if scheme.eq_ignore_ascii_case("basic") {
        let decoded = STANDARD
            .decode(token)
            .or_else(|_| STANDARD_NO_PAD.decode(token))
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok());
        if let Some(pair) = decoded {
            if let Some((user, password)) = pair.split_once(':') {
                out.push(user.to_string());
                out.push(password.to_string());
            }
            out.push(pair);
        }
    }
    out
}

/// `part` as written, JSON-escaped, percent-encoded, base64-encoded and hex-encoded.
fn encodings(part: &str) -> Vec<Vec<u8>> {
    let bytes = part.as_bytes();
    let mut out = vec![bytes.to_vec()];
    out.extend(json_escaped(part).into_iter().map(String::into_bytes));
    out.extend(percent_encoded(part).into_iter().map(String::into_bytes));
    out.extend(base64_encoded(bytes).into_iter().map(String::into_bytes));
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    out.push(hex.to_ascii_uppercase().into_bytes());
    out.push(hex.into_bytes());
    out
}

/// As a JSON string's content: serde's escaping, with `/` escaped as some encoders do,
/// and with every non-ASCII character as `\uXXXX` (Python's default), either hex case.
fn json_escaped(part: &str) -> Vec<String> {
    let quoted = serde_json::to_string(part).unwrap_or_default();
    let plain = quoted[1..quoted.len().saturating_sub(1).max(1)].to_string();
    let mut ascii = String::new();
    for c in plain.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                ascii.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    let upper = escapes_in_case(&ascii, "\\u", 4, true);
    let slashed = plain.replace('/', "\\/");
    // Go's encoder also writes `<`, `>` and `&` as escapes (safe inside HTML).
    let html_safe = ascii
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let html_upper = escapes_in_case(&html_safe, "\\u", 4, true);
    vec![plain, ascii, upper, slashed, html_safe, html_upper]
}

/// Percent-encoded as common encoders do (keeping more or fewer characters as they are,
/// down to every byte encoded), in either hex case, a space as `%20` or `+`.
fn percent_encoded(part: &str) -> Vec<String> {
    let mut spellings: Vec<String> = [UNRESERVED, PATH, COMPONENT, URI, FORM, NON_ALPHANUMERIC]
        .into_iter()
        .map(|set| utf8_percent_encode(part, set).to_string())
        .collect();
    spellings.push(part.bytes().map(|b| format!("%{b:02X}")).collect());
    spellings.sort();
    spellings.dedup();
    let mut out = Vec::new();
    for encoded in spellings {
        out.push(encoded.replace("%20", "+"));
        out.push(escapes_in_case(&encoded, "%", 2, false));
        out.push(encoded);
    }
    out
}

/// `text` with the `digits` hex digits after each `escape` in upper case, or in lower case.
fn escapes_in_case(text: &str, escape: &str, digits: usize, upper: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(escape) {
        let end = (at + escape.len() + digits).min(rest.len());
        out.push_str(&rest[..at + escape.len()]);
        let hex = &rest[at + escape.len()..end];
        out.push_str(&if upper {
            hex.to_ascii_uppercase()
        } else {
            hex.to_ascii_lowercase()
        });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Base64, standard and URL-safe: the whole value encoded alone (padded or not), and,
/// for each of the three alignments the value can have inside a longer encoded text (an
/// echoed `Authorization: Bearer TOKEN` line, say), the characters that depend on the
/// value's bytes only.
fn base64_encoded(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for (padded, unpadded) in [(STANDARD, STANDARD_NO_PAD), (URL_SAFE, URL_SAFE_NO_PAD)] {
        out.push(padded.encode(bytes));
        for offset in 0..3usize {
            let mut shifted = vec![0u8; offset];
            shifted.extend_from_slice(bytes);
            let encoded = unpadded.encode(&shifted);
            // Character i holds bits [6i, 6i + 6); the value's bits are
            // [8 * offset, 8 * (offset + len)).
            let start = (8 * offset).div_ceil(6);
            let end = (8 * (offset + bytes.len())) / 6;
            if start < end {
                out.push(encoded[start..end].to_string());
            }
        }
        out.push(unpadded.encode(bytes));
    }
    out
}

#[cfg(test)]
#[path = "../../tests/unit/secrets/forms.rs"]
mod tests;
