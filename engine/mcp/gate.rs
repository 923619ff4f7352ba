//! Who may call the HTTP server. Every request to `/mcp` must carry `Authorization:
//! Bearer TOKEN`: an agent's token (`cm_...`, checked against the agents file) or, when
//! the server was given a JWKS, an OAuth access token (a JWT). The [`Agent`] it stands for
//! goes into the request's extensions, where rmcp hands it on to the handler (inside the
//! `http::request::Parts` it puts in each MCP request's extensions), so every run of the
//! request gets the agent's profile. A request without a valid token gets 401 with
//! `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 9728), whose document at
//! `/.well-known/oauth-protected-resource` names the authorization server to get a token
//! from. With `--no-auth` (loopback only) nothing is checked and runs get the server's
//! own profile.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, HOST, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::auth::{Agent, Agents, JwtVerifier, TOKEN_PREFIX};

/// Where the protected-resource metadata is served (and with `/mcp` after it).
pub(crate) const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// How the HTTP server authenticates its callers.
#[derive(Debug, Clone)]
pub(crate) enum Authentication {
    /// Nobody is asked who they are (loopback only, `--no-auth`).
    Off,
    /// Agent tokens from the world's agents file, and JWTs when a verifier is given.
    Tokens {
        /// The world's agents.
        agents: Arc<Agents>,
        /// Accepts OAuth access tokens too.
        jwt: Option<Arc<JwtVerifier>>,
    },
}

/// Axum middleware: lets a request through with its [`Agent`] in its extensions, or
/// answers 401 saying how to get a token.
pub(crate) async fn authenticate(
    State(auth): State<Arc<Authentication>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Authentication::Tokens { agents, jwt } = auth.as_ref() else {
        return next.run(request).await;
    };
    let given = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, token) = v.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        });
    let metadata = metadata_url(&request);
    let Some(token) = given.filter(|t| !t.is_empty()) else {
        let why = match request.headers().contains_key(AUTHORIZATION) {
            true => "the Authorization header is not 'Bearer TOKEN'",
            false => "this server needs a bearer token (Authorization: Bearer TOKEN)",
        };
        return unauthorized(&metadata, None, why, jwt.is_some());
    };
    let verified = if token.starts_with(TOKEN_PREFIX) || jwt.is_none() {
        agents.verify(token).ok_or_else(|| {
            "the agent token is not known to this server (revoked, or never issued)".to_string()
        })
    } else {
        jwt.as_ref().map_or_else(
            || Err("no JWKS configured".to_string()),
            |jwt| jwt.verify(token),
        )
    };
    match verified {
        Ok(agent) => {
            tracing::debug!(agent = %agent.name, profile = %agent.profile, "authenticated");
            request.extensions_mut().insert(agent);
            next.run(request).await
        }
        Err(why) => {
            tracing::info!("refused a request: {why}");
            unauthorized(&metadata, Some("invalid_token"), &why, jwt.is_some())
        }
    }
}

/// The 401: RFC 6750's challenge with RFC 9728's `resource_metadata`, and a body a person
/// (or a model) reads to know what to do.
fn unauthorized(metadata: &str, error: Option<&str>, why: &str, oauth: bool) -> Response {
    let mut challenge = format!("Bearer resource_metadata=\"{metadata}\"");
    if let Some(error) = error {
        challenge.push_str(&format!(", error=\"{error}\""));
    }
    let how = match oauth {
        true => "send an agent token from the operator (codemode agent add NAME --profile P prints one), or an access token from the authorization server named in the resource metadata",
        false => "ask the server's operator for an agent token: codemode agent add NAME --profile PROFILE prints one; send it as Authorization: Bearer cm_...",
    };
    let mut response = (
        StatusCode::UNAUTHORIZED,
        [(CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("Unauthorized: {why}. To get a token, {how}. Resource metadata: {metadata}\n"),
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// This server's `/mcp` URL as the client addressed it.
fn resource_url(request: &Request) -> String {
    let host = request
        .headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.bytes().all(|b| b.is_ascii_graphic()))
        .unwrap_or("localhost");
    format!("http://{host}/mcp")
}

fn metadata_url(request: &Request) -> String {
    let resource = resource_url(request);
    let base = resource.trim_end_matches("/mcp");
    format!("{base}{METADATA_PATH}/mcp")
}

/// The RFC 9728 protected-resource metadata document.
pub(crate) async fn resource_metadata(
    State(auth): State<Arc<Authentication>>,
    request: Request,
) -> Response {
    let resource = resource_url(&request);
    let mut document = json!({
        "resource": resource,
        "bearer_methods_supported": ["header"],
        "resource_name": "codemode",
    });
    if let Authentication::Tokens { jwt: Some(jwt), .. } = auth.as_ref() {
        document["authorization_servers"] = json!([jwt.config().issuer]);
    } else {
        document["authorization_servers"] = json!([]);
    }
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, "application/json"),
            (CACHE_CONTROL, "max-age=300"),
        ],
        document.to_string(),
    )
        .into_response()
}

/// The agent a request was authenticated as, from the extensions of an MCP request
/// (rmcp puts the HTTP request's parts there). `None` over stdio and with `--no-auth`.
pub(crate) fn agent_of(extensions: &rmcp::model::Extensions) -> Option<Agent> {
    extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Agent>())
        .cloned()
}
