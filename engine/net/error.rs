//! Why a request was refused or failed. Messages never hold a credential's value.

use std::time::Duration;

/// What the profile's grant is called, for the fixes refusals suggest.
pub(crate) const GRANT: &str = "capabilities.http of the profile in .codemode/policy.json";

/// Why `http.request` did not return a response.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NetError {
    /// The request names something the grant or the address guard does not allow.
    #[error("http.request refused {url}: {why}; {fix}")]
    Refused {
        /// The URL refused (as the script or a redirect gave it).
        url: String,
        /// The rule that refused it.
        why: String,
        /// What to change to allow it.
        fix: String,
    },
    /// The request itself is malformed (a bad URL, method or header).
    #[error("http.request: {0}")]
    Invalid(String),
    /// The request's own `timeoutMs` passed before the response was read.
    #[error("http.request to {url} took longer than its timeoutMs of {} ms and was cancelled; raise timeoutMs or ask for less", .after.as_millis())]
    Timeout {
        /// The URL asked for.
        url: String,
        /// The time it was given.
        after: Duration,
    },
    /// The response body passed the cap.
    #[error("http.request to {url}: the response body is larger than the cap of {cap} bytes and was dropped; ask for less (a page, a range) or raise the file limit")]
    TooLarge {
        /// The URL asked for.
        url: String,
        /// The cap in bytes.
        cap: usize,
    },
    /// Too many redirects.
    #[error("http.request to {url}: more than {max} redirects; request the final URL directly")]
    Redirects {
        /// The first URL.
        url: String,
        /// How many are followed.
        max: usize,
    },
    /// The host could not be resolved or reached, or the connection failed.
    #[error("http.request to {url} failed: {why}")]
    Failed {
        /// The URL asked for.
        url: String,
        /// Why (without credentials).
        why: String,
    },
    /// The credentials file is unreadable, malformed, or names an unset variable.
    #[error("{file}: {why}")]
    Credentials {
        /// The file, relative to the world.
        file: String,
        /// What is wrong and how to fix it.
        why: String,
    },
    /// The run's deadline passed or its caller stopped it while the request was in flight.
    #[error("http.request to {url} was cancelled: the run stopped")]
    Stopped {
        /// The URL asked for.
        url: String,
    },
}

impl NetError {
    pub(crate) fn refused(url: &str, why: impl Into<String>, fix: impl Into<String>) -> NetError {
        NetError::Refused {
            url: url.to_string(),
            why: why.into(),
            fix: fix.into(),
        }
    }
}
