//! Dates in tools.json: today's, written as ISO 8601 (`2026-05-09`), and the check of one
//! read back (a calendar date, optionally followed by a time).

/// The current UTC date.
pub(crate) fn today() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%d").to_string()
}

/// True for `YYYY-MM-DD` naming a real day, optionally followed by an ISO 8601 time
/// (`T...`, not checked).
pub(crate) fn is_iso_date(text: &str) -> bool {
    let date = text.split('T').next().unwrap_or("");
    let parts: Vec<&str> = date.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    let num = |s: &str, len: usize| s.len() == len && s.chars().all(|c| c.is_ascii_digit());
    if !(num(y, 4) && num(m, 2) && num(d, 2)) {
        return false;
    }
    let (y, m, d) = (
        y.parse().unwrap_or(0),
        m.parse().unwrap_or(0),
        d.parse().unwrap_or(0),
    );
    jiff::civil::Date::new(y, m, d).is_ok()
}

#[cfg(test)]
#[path = "../../tests/unit/interop/date.rs"]
mod tests;
