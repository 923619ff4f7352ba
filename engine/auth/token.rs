//! Bearer tokens for agents: 32 random bytes, base64url, behind a `cm_` prefix (so a
//! leaked one is recognisable by secret scanners and never mistaken for a JWT). Only the
//! SHA-256 of a token is kept: tokens are random, so a fast hash is as strong as a slow one.

use base64::Engine;
use sha2::{Digest, Sha256};

/// What every agent token starts with.
pub(crate) const TOKEN_PREFIX: &str = "cm_";

/// A new random token. Fails only when the system's random source does.
pub(crate) fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let text = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    Ok(format!("{TOKEN_PREFIX}{text}"))
}

/// The SHA-256 of `token`, as lower-case hex: what the agents file keeps.
pub(crate) fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
#[path = "../../tests/unit/auth/token.rs"]
mod tests;
