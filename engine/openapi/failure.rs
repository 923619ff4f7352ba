//! A request of an API that `crate::net` refused or could not complete, said as the API's:
//! `net`'s messages are written for `http.request` (and point at the profile's
//! `capabilities.http`), but an operation's request is allowed by its entry in
//! `.codemode/apis.json` (the base URL's host, named exactly) and limited there, so that
//! is what the message names, with the fix.

use crate::net::NetError;

/// What went wrong with the request `call` (`github.pulls_list (GET /repos/...)`) of the
/// API named `api` in `apis.json`, whose requests may reach only `host`.
pub(crate) fn explain(error: NetError, call: &str, api: &str, host: &str) -> String {
    let text = match error {
        NetError::Refused { url, why, .. } => format!(
            "{call} was refused {url}: {why}; API '{api}' reaches only {host}, the host of its \"baseUrl\" in {file} (a redirect to another host is not followed); if the API has moved, change \"baseUrl\" there",
            file = super::APIS_FILE
        ),
        NetError::Invalid(why) => {
            format!("{call}: the request cannot be made ({why}); check the call's arguments")
        }
        NetError::Timeout { url, after } => format!(
            "{call} to {url} took longer than {} s and was cancelled; ask for less, or set \"limits\": {{\"timeoutMs\": ...}} for API '{api}' in {}",
            after.as_secs(),
            super::APIS_FILE
        ),
        NetError::TooLarge { url, cap } => format!(
            "{call} to {url}: the answer is larger than the {cap} bytes a call takes in and was dropped; ask for less (a page, a filter)"
        ),
        NetError::Redirects { url, max } => format!(
            "{call} to {url}: more than {max} redirects; check API '{api}''s \"baseUrl\" in {}",
            super::APIS_FILE
        ),
        NetError::Failed { url, why } => format!(
            "{call} to {url} failed: {why}; check that {host} answers (API '{api}''s \"baseUrl\" in {})",
            super::APIS_FILE
        ),
        NetError::Credentials { file, why } => format!("{call}: {file}: {why}"),
        NetError::Stopped { url } => format!("{call} to {url} was cancelled: the run stopped"),
    };
    crate::secrets::mask(&text).into_owned()
}

#[cfg(test)]
#[path = "../../tests/unit/openapi/failure.rs"]
mod tests;
