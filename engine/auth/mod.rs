//! Who may call `codemode serve --http`, and under which profile.
//!
//! An operator names each agent and gives it a profile of `.codemode/policy.json`:
//! `codemode agent add NAME --profile P` prints a bearer token once and keeps only its
//! SHA-256 in `<world>/.codemode/agents.json` ([`AgentsFile`]). The server reads that file
//! again whenever it changed ([`Agents`]), so a revoked token stops working at its next
//! request. An OAuth 2.1 access token (a JWT) is the other way in: [`JwtVerifier`] checks
//! its signature against a JWKS, its issuer, audience and expiry, and reads the profile
//! from a claim. Either way the request carries an [`Agent`]: its name and the profile its
//! runs get.

mod agents;
mod jwt;
mod token;

pub(crate) use agents::{Agents, AgentsFile, AGENTS_FILE};
pub(crate) use jwt::{JwksSource, JwtConfig, JwtVerifier};
pub(crate) use token::TOKEN_PREFIX;

/// An authenticated caller: its name and the profile every run, tool call and denial of
/// its requests is decided by. The MCP server finds it in the HTTP request's extensions
/// (put there by the authentication layer) and hands it along with each run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Agent {
    /// The name the operator gave it (`codemode agent add NAME`), or for a JWT, its
    /// `sub` claim prefixed with `jwt:`.
    pub(crate) name: String,
    /// The profile of `.codemode/policy.json` its runs get.
    pub(crate) profile: String,
}

/// Why agents could not be read, written or checked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AuthError {
    /// The agents file could not be read or written.
    #[error("{path}: {reason}")]
    File {
        /// The file.
        path: String,
        /// What went wrong, and what to do.
        reason: String,
    },
    /// An agent name that cannot be used.
    #[error("'{0}' is not an agent name; use 1 to 64 letters, digits, '-', '_' or '.'")]
    BadName(String),
    /// `agent add` of a name that exists.
    #[error(
        "agent '{0}' exists; revoke it first (codemode agent revoke {0}) to give it a new token"
    )]
    Exists(String),
    /// `agent revoke` of a name that does not exist.
    #[error("there is no agent '{0}'; codemode agent list shows the agents")]
    Unknown(String),
    /// The JWKS could not be read or used.
    #[error("the JWKS {source_name}: {reason}")]
    Jwks {
        /// The file or URL.
        source_name: String,
        /// What went wrong.
        reason: String,
    },
}
