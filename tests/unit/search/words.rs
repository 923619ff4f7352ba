//! Tests of `engine/search/words.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn words_written_as_names_are_found_in_a_sentence() {
    assert_eq!(
        name_shaped("use wordCount, then base64Encode it; send_email _x_ iPhone HTTP"),
        ["wordCount", "base64Encode", "send_email", "iPhone"]
    );
    assert!(name_shaped("Parse a CSV file, then SEND it").is_empty());
}

#[test]
fn a_request_spells_a_name_whatever_its_case_and_articles() {
    assert_eq!(spelt_words("parseCsv"), ["parse", "csv"]);
    assert_eq!(spelt_words("Parse a CSV"), ["parse", "csv"]);
    assert_eq!(spelt_words("to_csv"), ["to", "csv"]);
    assert_ne!(spelt_words("parse csv"), spelt_words("toCsv"));
}

#[test]
fn camel_case_splits_on_case_and_digits() {
    assert_eq!(split_camel("getWeather"), ["get", "Weather"]);
    assert_eq!(split_camel("HTTPServer2"), ["HTTP", "Server", "2"]);
    assert_eq!(split_camel("plain"), ["plain"]);
}

#[test]
fn identifiers_keep_the_joined_form() {
    let text = expand_identifiers("call getWeather now");
    assert!(text.contains("getWeather") && text.contains("get Weather"));
}

#[test]
fn names_become_words() {
    assert_eq!(name_words("mail.sendEmail_now"), "mail send Email now");
}

#[test]
fn candidates_keep_dotted_identities() {
    assert_eq!(
        candidate_names("use text.slugify, please!"),
        ["use", "text.slugify", "please"]
    );
}

#[test]
fn long_queries_are_cut_on_a_char_boundary() {
    let q = "é".repeat(5_000);
    assert_eq!(bounded(&q).chars().count(), MAX_QUERY_CHARS);
}
