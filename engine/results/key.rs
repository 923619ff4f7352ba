//! The key of one call: what makes two calls the same call.

use sha2::{Digest, Sha256};

/// Hex characters of a key: 128 bits, so two different calls never share one.
pub(crate) const KEY_CHARS: usize = 32;

/// The key of calling `identity` (whose files hash to `stamp`) with `args`, the
/// canonical JSON of its arguments (object keys sorted, as `sandbox::to_json` writes them),
/// in `scope`: the capabilities the call ran with, since a tool's result depends on what
/// it was allowed to reach.
pub(crate) fn key(identity: &str, stamp: &str, scope: &str, args: &str) -> String {
    let mut hasher = Sha256::new();
    for part in [identity, stamp, scope, args] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let mut out = String::with_capacity(KEY_CHARS);
    for byte in &digest[..KEY_CHARS / 2] {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

#[cfg(test)]
#[path = "../../tests/unit/results/key.rs"]
mod tests;
