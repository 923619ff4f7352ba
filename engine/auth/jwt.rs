//! OAuth 2.1 access tokens, as the MCP authorization spec has a resource server take them:
//! a JWT signed by a key of the authorization server's JWKS (a file, re-read when it
//! changes, or a URL, fetched at start and again every few minutes), whose `iss` and
//! `aud` are the ones configured and whose `exp` has not passed. The profile comes from
//! a claim the operator names; the agent's name is the `sub` claim. Symmetric (`oct`)
//! keys are never used: a JWKS is public, so anyone could sign with one.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use jsonwebtoken::jwk::{AlgorithmParameters, JwkSet};
use jsonwebtoken::{decode, decode_header, errors::ErrorKind, DecodingKey, Validation};
use serde_json::Value;

use super::{Agent, AuthError};

/// Where the keys come from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JwksSource {
    /// A JWKS file on disk.
    File(PathBuf),
    /// An `http://` or `https://` URL serving the JWKS.
    Url(String),
}

impl JwksSource {
    /// A URL when `text` starts with `http://` or `https://`, else a file path.
    pub(crate) fn parse(text: &str) -> JwksSource {
        match text.starts_with("https://") || text.starts_with("http://") {
            true => JwksSource::Url(text.into()),
            false => JwksSource::File(text.into()),
        }
    }

    fn name(&self) -> String {
        match self {
            JwksSource::File(path) => path.display().to_string(),
            JwksSource::Url(url) => url.clone(),
        }
    }
}

/// What a JWT must be to be accepted.
#[derive(Debug, Clone)]
pub(crate) struct JwtConfig {
    /// The signing keys.
    pub jwks: JwksSource,
    /// The `iss` every token must carry.
    pub issuer: String,
    /// The `aud` every token must carry (this server's resource URL, usually).
    pub audience: String,
    /// The claim whose string value names the profile.
    pub profile_claim: String,
}

/// The usable keys of a JWKS, each with its `kid`.
type Keys = Vec<(Option<String>, DecodingKey)>;

/// Checks JWTs against a [`JwtConfig`].
pub(crate) struct JwtVerifier {
    config: JwtConfig,
    /// The usable keys by `kid` (a key without one is tried for tokens without one).
    keys: RwLock<Arc<Keys>>,
    /// The file's modification stamp when last read.
    stamp: RwLock<Option<(u64, i64, i64)>>,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("config", &self.config)
            .finish()
    }
}

impl JwtVerifier {
    /// A verifier whose keys are read now (for a URL: fetched, so call from a runtime).
    pub(crate) async fn new(config: JwtConfig) -> Result<JwtVerifier, AuthError> {
        let verifier = JwtVerifier {
            config,
            keys: RwLock::new(Arc::new(Vec::new())),
            stamp: RwLock::new(None),
        };
        verifier.refresh().await?;
        Ok(verifier)
    }

    /// The configuration.
    pub(crate) fn config(&self) -> &JwtConfig {
        &self.config
    }

    /// Reads the keys again (the file, or the URL).
    pub(crate) async fn refresh(&self) -> Result<(), AuthError> {
        match &self.config.jwks {
            JwksSource::File(_) => self.read_file(),
            JwksSource::Url(url) => {
                let text = fetch(url).await.map_err(|e| self.bad(e))?;
                self.install(&text)
            }
        }
    }

    /// Reads the JWKS file (a URL source is left as it is).
    fn read_file(&self) -> Result<(), AuthError> {
        let JwksSource::File(path) = &self.config.jwks else {
            return Ok(());
        };
        *self.stamp.write().unwrap_or_else(|e| e.into_inner()) = file_stamp(path);
        let text =
            std::fs::read_to_string(path).map_err(|e| self.bad(format!("cannot read it ({e})")))?;
        self.install(&text)
    }

    /// Uses the keys of the JWKS `text` from now on.
    fn install(&self, text: &str) -> Result<(), AuthError> {
        let set: JwkSet = serde_json::from_str(text)
            .map_err(|e| self.bad(format!("not a JWKS ({e}); it must be {{\"keys\": [...]}}")))?;
        let keys: Vec<_> = set
            .keys
            .iter()
            .filter(|jwk| !matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)))
            .filter_map(|jwk| Some((jwk.common.key_id.clone(), DecodingKey::from_jwk(jwk).ok()?)))
            .collect();
        if keys.is_empty() {
            return Err(self.bad("it holds no usable public key (RSA, EC or OKP)".into()));
        }
        *self.keys.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(keys);
        Ok(())
    }

    fn bad(&self, reason: String) -> AuthError {
        AuthError::Jwks {
            source_name: self.config.jwks.name(),
            reason,
        }
    }

    /// The agent a JWT stands for, or why it is refused (said to the client).
    pub(crate) fn verify(&self, token: &str) -> Result<Agent, String> {
        self.reread_changed_file();
        let header = decode_header(token).map_err(|e| format!("not a JWT ({e})"))?;
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner()).clone();
        let candidates = keys
            .iter()
            .filter(|(kid, _)| header.kid.is_none() || kid == &header.kid);
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.config.issuer]);
        validation.set_audience(&[&self.config.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 30;
        // A token is not good before its `nbf` (RFC 7519, 4.1.5); the crate skips it
        // unless asked.
        validation.validate_nbf = true;
        let mut why = "no key of the JWKS has the token's kid".to_string();
        for (_, key) in candidates {
            match decode::<Value>(token, key, &validation) {
                Ok(data) => return self.agent(&data.claims),
                Err(e) => {
                    why = describe(e.kind());
                    if !matches!(
                        e.kind(),
                        ErrorKind::InvalidSignature | ErrorKind::InvalidAlgorithm
                    ) {
                        break;
                    }
                }
            }
        }
        Err(why)
    }

    fn agent(&self, claims: &Value) -> Result<Agent, String> {
        let claim = &self.config.profile_claim;
        let profile = claims
            .get(claim)
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .ok_or_else(|| format!("the token has no string claim '{claim}' naming its profile"))?;
        let subject = claims
            .get("sub")
            .and_then(Value::as_str)
            .unwrap_or_default();
        Ok(Agent {
            name: format!("jwt:{}", subject.chars().take(128).collect::<String>()),
            profile: profile.into(),
        })
    }

    fn reread_changed_file(&self) {
        let JwksSource::File(path) = &self.config.jwks else {
            return;
        };
        let now = file_stamp(path);
        if *self.stamp.read().unwrap_or_else(|e| e.into_inner()) == now {
            return;
        }
        if let Err(e) = self.read_file() {
            tracing::warn!("{e}; the keys read before stay in use");
        }
    }
}

fn file_stamp(path: &std::path::Path) -> Option<(u64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.ino(), meta.mtime(), meta.mtime_nsec()))
}

/// What was wrong with a token, for the 401 a client reads.
fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::InvalidIssuer => {
            "the token's issuer (iss) is not the one this server trusts".into()
        }
        ErrorKind::InvalidAudience => "the token's audience (aud) is not this server".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no '{claim}' claim"),
        ErrorKind::InvalidSignature => {
            "the token's signature does not match any key of the JWKS".into()
        }
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit the key".into(),
        other => format!("the token cannot be read ({other:?})"),
    }
}

/// The JWKS at `url`, at most 1 MiB.
async fn fetch(url: &str) -> Result<String, String> {
    let client = crate::upstream::http_client(url)?;
    let response = client
        .get(url)
        .timeout(std::time::Duration::from_secs(10))
        .send()
        .await
        .map_err(|e| format!("cannot fetch it ({e})"))?;
    if !response.status().is_success() {
        return Err(format!("fetching it answered {}", response.status()));
    }
    let bytes = response
        .bytes()
        .await
        .map_err(|e| format!("cannot fetch it ({e})"))?;
    if bytes.len() > 1 << 20 {
        return Err("larger than 1 MiB".into());
    }
    String::from_utf8(bytes.to_vec()).map_err(|_| "not UTF-8".into())
}
