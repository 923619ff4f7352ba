//! Text made safe for HTML: the docs page and the upstream servers' sections both write
//! it.

/// Escapes text for HTML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Escapes text and shows its `code` spans as `<code>`.
pub(crate) fn prose(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in escape(text).split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    if text.matches('`').count() % 2 == 1 {
        return escape(text);
    }
    out
}

#[cfg(test)]
#[path = "../../tests/unit/docs/escape.rs"]
mod tests;
