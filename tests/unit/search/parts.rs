//! Tests of `engine/search/parts.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn short_requests_are_one_part() {
    assert_eq!(
        split("find flights and hotels"),
        ["find flights and hotels"]
    );
    assert_eq!(split("send an email"), ["send an email"]);
}

#[test]
fn clauses_and_joining_words_cut_a_long_request() {
    let q = "Hey, please find the TV series titled Dark using the Movie DB, and then \
                 suggest similar titles on Netflix; also text my wife that I'm on my way.";
    assert_eq!(
        split(q),
        [
            "Hey, please find the TV series titled Dark using the Movie DB,",
            "then suggest similar titles on Netflix",
            "also text my wife that I'm on my way"
        ]
    );
}

#[test]
fn a_verb_after_a_comma_or_an_and_starts_another_part() {
    let q = "Remove the background from the headshot, resize it to 400 pixels wide \
                 and upload the result to our S3 bucket";
    assert_eq!(
        split(q),
        [
            "Remove the background from the headshot,",
            "resize it to 400 pixels wide",
            "and upload the result to our S3 bucket"
        ]
    );
}

#[test]
fn a_comma_or_an_and_inside_one_thing_does_not_cut() {
    let q = "find a hotel in Lisbon, Porto or Faro with a pool and parking for two adults";
    assert_eq!(split(q), [q]);
}

#[test]
fn identities_and_versions_are_not_cut() {
    let q = "please publish version 2.1.0 of the app with text.slugify notes for everyone today";
    assert_eq!(split(q), [q]);
}

#[test]
fn parts_are_bounded() {
    let q = "send a mail, and ".repeat(40);
    let parts = split(&q);
    assert_eq!(parts.len(), MAX_PARTS);
    assert!(
        parts.last().unwrap().len() > 100,
        "the rest joins the last part"
    );
}

#[test]
fn a_request_of_only_joints_is_itself() {
    let q = ", , and then , and also ; ; then , , also";
    assert_eq!(split(q), [q]);
}
