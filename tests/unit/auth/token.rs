//! Tests of `engine/auth/token.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::cache::digest_bytes;

#[test]
fn tokens_are_random_prefixed_and_43_characters_of_base64url() {
    let a = new_token().unwrap();
    let b = new_token().unwrap();
    assert_ne!(a, b);
    let body = a.strip_prefix(TOKEN_PREFIX).unwrap();
    assert_eq!(body.len(), 43);
    assert!(body
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
}

#[test]
fn the_hash_is_sha256_hex_and_reads_back() {
    let hash = hash_token("abc");
    assert_eq!(
        hash,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(digest_bytes(&hash).unwrap()[0], 0xba);
    assert!(digest_bytes("zz").is_none());
}
