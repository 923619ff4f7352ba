//! Today's date as ISO 8601 (`2026-05-09`), without a calendar dependency.

use std::time::{SystemTime, UNIX_EPOCH};

/// The current UTC date.
pub(crate) fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    civil_date((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
pub(crate) fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// True for `YYYY-MM-DD`, optionally followed by an ISO 8601 time (`T...`).
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
    let (m, d): (u32, u32) = (m.parse().unwrap_or(0), d.parse().unwrap_or(0));
    (1..=12).contains(&m) && (1..=31).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_day_counts() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(20_582), "2026-05-09");
        assert_eq!(civil_date(11_016), "2000-02-29");
    }

    #[test]
    fn recognises_iso_dates() {
        assert!(is_iso_date("2026-05-09") && is_iso_date("2026-05-09T10:00:00Z"));
        assert!(!is_iso_date("09/05/2026") && !is_iso_date("2026-13-01") && !is_iso_date(""));
    }
}
