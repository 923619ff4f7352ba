//! The HTTP client behind streamable-HTTP servers: reqwest over rustls with the `ring`
//! provider, so `https://` servers work without OpenSSL or a C toolchain beyond what
//! `ring` needs. Certificates are checked against the platform's roots (on Linux the
//! system CA bundle; `SSL_CERT_FILE` and `SSL_CERT_DIR` replace it, which is how a private
//! CA is trusted), and failures are put in words that say what to do.

use std::error::Error as StdError;
use std::sync::Arc;

use rmcp::service::ClientInitializeError;
use rmcp::transport::streamable_http_client::StreamableHttpError;
use rustls::crypto::CryptoProvider;
use rustls::{CertificateError, ClientConfig, RootCertStore};

/// Most same-origin redirects followed for one request.
const MAX_REDIRECTS: usize = 10;

/// A client for `url`. The platform's roots are loaded only for `https://`, so a machine
/// without a CA bundle still reaches plain-HTTP servers.
pub(crate) fn client(url: &str) -> Result<reqwest::Client, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = if is_https(url) {
        let verifier = rustls_platform_verifier::Verifier::new(provider.clone())
            .map_err(|e| no_authorities(url, &e))?;
        builder(provider)?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
            .with_no_client_auth()
    } else {
        // reqwest builds a TLS connector even for http:// URLs; an empty root store makes
        // it one that can never be used, since redirects stay on the same origin.
        builder(provider)?
            .with_root_certificates(RootCertStore::empty())
            .with_no_client_auth()
    };
    reqwest::Client::builder()
        // As rmcp's own default client: no idle pooling (Linux delayed-ACK stalls when a
        // pooled connection is reused before its last body was read).
        .pool_max_idle_per_host(0)
        .redirect(same_origin_redirects())
        .tls_backend_preconfigured(tls)
        .build()
        .map_err(|e| format!("cannot build the HTTP client for {url}: {e}"))
}

/// Why no certificate authority could be loaded, and where to put one.
fn no_authorities(url: &str, error: &rustls::Error) -> String {
    let given: Vec<String> = ["SSL_CERT_FILE", "SSL_CERT_DIR"]
        .iter()
        .filter_map(|name| {
            Some(format!(
                "{name}={}",
                std::env::var_os(name)?.to_string_lossy()
            ))
        })
        .collect();
    if given.is_empty() {
        format!(
            "cannot load the trusted certificate authorities for {url} ({error}); install the \
             system's CA bundle (the ca-certificates package) or point SSL_CERT_FILE at a PEM \
             file of the authorities to trust"
        )
    } else {
        format!(
            "cannot load the trusted certificate authorities for {url}: {} holds none that can \
             be read ({error}); point it at a PEM file of certificates",
            given.join(" and ")
        )
    }
}

fn builder(
    provider: Arc<CryptoProvider>,
) -> Result<rustls::ConfigBuilder<ClientConfig, rustls::WantsVerifier>, String> {
    ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))
}

fn is_https(url: &str) -> bool {
    url.get(..8)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
}

/// Only same-origin 307 and 308 redirects are followed: those keep the method and body,
/// so the JSON-RPC message arrives intact, and a redirect to another origin would hand
/// the session id and the configured headers (often a token) to another host.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    })
}

/// When `error` (or what caused it) is a TLS failure, what it means and the fix.
pub(crate) fn tls_failure(error: &(dyn StdError + 'static), url: &str) -> Option<String> {
    let trust = "if the server uses a private or self-signed certificate authority, point \
                 SSL_CERT_FILE at a PEM file holding it (SSL_CERT_DIR for a folder of them) \
                 when starting codemode";
    let certificate = format!("the TLS certificate of {url}");
    Some(match rustls_error(error)? {
        rustls::Error::InvalidCertificate(why) => match why {
            CertificateError::UnknownIssuer => format!(
                "{certificate} is not signed by a certificate authority codemode trusts; {trust}"
            ),
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                format!("{certificate} has expired ({why}); the server's operator must renew it")
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                format!("{certificate} is not valid yet ({why}); check this machine's clock")
            }
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                format!(
                    "{certificate} is not issued for that host name ({why}); use the host name \
                     the certificate names in \"url\""
                )
            }
            other => format!("{certificate} was rejected ({other}); {trust}"),
        },
        other => format!(
            "the TLS handshake with {url} failed ({other}); check that the server speaks https \
             at that address"
        ),
    })
}

/// The rustls error somewhere in `error`'s chain. rmcp's transport errors hold reqwest's
/// without naming it as their source, so those links are followed by hand.
fn rustls_error<'a>(error: &'a (dyn StdError + 'static)) -> Option<&'a rustls::Error> {
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        next = cause(e);
    }
    None
}

fn cause<'a>(e: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    if let Some(ClientInitializeError::TransportError { error, .. }) = e.downcast_ref() {
        return Some(error);
    }
    if let Some(StreamableHttpError::<reqwest::Error>::Client(inner)) = e.downcast_ref() {
        return Some(inner);
    }
    if let Some(inner) = e
        .downcast_ref::<std::io::Error>()
        .and_then(|io| io.get_ref())
    {
        return Some(inner);
    }
    e.source()
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/http_client.rs"]
mod tests;
