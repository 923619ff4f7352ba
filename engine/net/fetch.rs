//! One request: every hop's URL checked against the grant, its host resolved here and
//! each address checked by the guard, the connection made only to those addresses (the
//! client's resolver answers with them and refuses every other name, so a second DNS
//! answer cannot rebind), redirects followed by hand and re-checked, the body decoded
//! (the client asks for gzip, deflate and br; a script cannot choose the encoding) and
//! capped after decoding. The response is what the server sent: the host masks the
//! engine's secrets in it (`crate::secrets`) before a script sees any of it.
//!
//! The request runs on a small runtime of its own; the calling thread (a script's, which
//! may itself be inside an async runtime) waits for it, asking `stop` as it waits, and
//! drops it at its time limit, which cancels it.

use std::net::SocketAddr;
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, LOCATION};
use reqwest::{Method, StatusCode};

use super::allow::Allow;
use super::credentials::Credentials;
use super::error::NetError;
use super::guard::{check_address, refused_address, Target};

/// Most redirects followed for one request (each one re-checked).
pub(crate) const MAX_REDIRECTS: usize = 5;

/// How often a waiting thread asks its stop check.
const STOP_POLL: Duration = Duration::from_millis(10);

/// What a script asks for.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// An absolute `http://` or `https://` URL.
    pub url: String,
    /// Headers the script sets (a credential for the same name replaces its value).
    pub headers: Vec<(String, String)>,
    /// The body to send.
    pub body: Option<Vec<u8>>,
    /// How long the whole request (redirects included) may take.
    pub timeout: Duration,
    /// The largest response body accepted.
    pub max_body: usize,
}

/// What came back.
#[derive(Debug, Clone)]
pub(crate) struct Response {
    /// The status code.
    pub status: u16,
    /// Header names (lower-case) and values; repeated headers joined with `, `.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

/// The runtime requests run on, started on first use.
fn runtime() -> Result<&'static tokio::runtime::Runtime, String> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("codemode-http")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Sends `request` if `allow` lets it through, attaching `credentials`, and waits for the
/// response until `request.timeout`, or until `stop` says the run has stopped.
pub(crate) fn fetch(
    request: Request,
    allow: &Allow,
    credentials: &Credentials,
    stop: &dyn Fn() -> bool,
) -> Result<Response, NetError> {
    let url = request.url.clone();
    let timeout = request.timeout;
    // Refuse what can be refused before anything is started.
    Target::parse(&url, allow)?;
    check_request(&request)?;
    let runtime = runtime().map_err(|why| NetError::Failed {
        url: url.clone(),
        why: format!("cannot start the HTTP runtime ({why})"),
    })?;
    let (tx, rx) = mpsc::sync_channel(1);
    let (allow, credentials) = (allow.clone(), credentials.clone());
    let task = runtime.spawn(async move {
        let _ = tx.send(send(request, &allow, &credentials).await);
    });
    let until = Instant::now() + timeout;
    let outcome = loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break Err(NetError::Timeout {
                url,
                after: timeout,
            });
        }
        match rx.recv_timeout(left.min(STOP_POLL)) {
            Ok(result) => break result,
            Err(mpsc::RecvTimeoutError::Timeout) if stop() => break Err(NetError::Stopped { url }),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Err(NetError::Failed {
                    url,
                    why: "the request ended without an answer".into(),
                })
            }
        }
    };
    // A request still in flight is dropped, which closes its connection.
    task.abort();
    outcome
}

/// The method and headers are ones HTTP can carry; the script may not set `Host`, which
/// would let one allowed connection speak for another name, nor the encodings of the
/// answer (`Accept-Encoding`, `TE`).
fn check_request(request: &Request) -> Result<(), NetError> {
    Method::from_bytes(request.method.as_bytes()).map_err(|_| {
        NetError::Invalid(format!(
            "'{}' is not an HTTP method; use GET, POST, PUT, ...",
            request.method
        ))
    })?;
    for (name, value) in &request.headers {
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| NetError::Invalid(format!("'{name}' is not a header name")))?;
        if header == reqwest::header::HOST {
            return Err(NetError::Invalid(
                "the Host header is set from the URL; leave it out".into(),
            ));
        }
        // A compressed answer would carry an echoed credential past the masking, which
        // reads decoded bytes: the client asks for gzip, deflate and br and decodes them.
        if header == reqwest::header::ACCEPT_ENCODING || header == reqwest::header::TE {
            return Err(NetError::Invalid(format!(
                "the {name} header is set by codemode (gzip, deflate and br are asked for and decoded before the script sees the body); leave it out"
            )));
        }
        HeaderValue::from_str(value).map_err(|_| {
            NetError::Invalid(format!(
                "the value of header '{name}' holds characters a header cannot carry (a newline?)"
            ))
        })?;
    }
    Ok(())
}

/// Every hop: check, resolve, connect, and follow a redirect or read the body.
async fn send(
    request: Request,
    allow: &Allow,
    credentials: &Credentials,
) -> Result<Response, NetError> {
    let first = request.url.clone();
    let mut url = request.url.clone();
    let mut method = Method::from_bytes(request.method.as_bytes())
        .map_err(|_| NetError::Invalid(format!("'{}' is not an HTTP method", request.method)))?;
    let mut body = request.body.clone();
    for hop in 0..=MAX_REDIRECTS {
        let target = Target::parse(&url, allow)?;
        let addrs = addresses(&target, &url).await?;
        let client = client(&target, addrs).map_err(|why| NetError::Failed {
            url: url.clone(),
            why,
        })?;
        let default_port = if target.url.scheme() == "https" {
            443
        } else {
            80
        };
        let attached = credentials.for_host(&target.host, target.port, default_port)?;
        if !attached.is_empty() && !credentials_may_go(target.url.scheme(), &target.host) {
            return Err(NetError::Refused {
                url: url.clone(),
                why: format!(
                    "the credentials .codemode/http.json holds for {} go over https only, and this request is plain http (anyone on the way could read them)",
                    target.host
                ),
                fix: "ask for the https:// URL (a local test server on a loopback address may use http)".into(),
            });
        }
        let mut headers = HeaderMap::new();
        for (name, value) in &request.headers {
            if let (Ok(n), Ok(v)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                headers.append(n, v);
            }
        }
        for (name, value) in &attached {
            if let (Ok(n), Ok(mut v)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                v.set_sensitive(true);
                headers.insert(n, v);
            }
        }
        let mut builder = client
            .request(method.clone(), target.url.clone())
            .headers(headers);
        if let Some(body) = &body {
            builder = builder.body(body.clone());
        }
        let mut response = builder.send().await.map_err(|e| failed(&url, e))?;
        let status = response.status();
        if status.is_redirection() {
            if let Some(location) = response.headers().get(LOCATION) {
                if hop == MAX_REDIRECTS {
                    return Err(NetError::Redirects {
                        url: first,
                        max: MAX_REDIRECTS,
                    });
                }
                let location = location.to_str().map_err(|_| NetError::Failed {
                    url: url.clone(),
                    why: "a redirect's Location is not text".into(),
                })?;
                let next = target.url.join(location).map_err(|e| NetError::Failed {
                    url: url.clone(),
                    why: format!("a redirect to '{location}', which is not a URL ({e})"),
                })?;
                // As browsers do: 303, and 301/302 after a POST, go on as GET without a body.
                if status == StatusCode::SEE_OTHER
                    || (matches!(status, StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND)
                        && method == Method::POST)
                {
                    if method != Method::HEAD {
                        method = Method::GET;
                    }
                    body = None;
                }
                url = next.to_string();
                continue;
            }
        }
        // A HEAD answer's length is the length of the body it does not send.
        if method != Method::HEAD
            && response
                .content_length()
                .is_some_and(|n| n > request.max_body as u64)
        {
            return Err(NetError::TooLarge {
                url,
                cap: request.max_body,
            });
        }
        let mut headers: Vec<(String, String)> = Vec::new();
        for (name, value) in response.headers() {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            match headers.iter_mut().find(|(n, _)| n == name.as_str()) {
                Some((_, joined)) => {
                    joined.push_str(", ");
                    joined.push_str(&value);
                }
                None => headers.push((name.as_str().to_string(), value)),
            }
        }
        let mut read = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| failed(&url, e))? {
            if read.len() + chunk.len() > request.max_body {
                return Err(NetError::TooLarge {
                    url,
                    cap: request.max_body,
                });
            }
            read.extend_from_slice(&chunk);
        }
        return Ok(Response {
            status: status.as_u16(),
            headers,
            body: read,
        });
    }
    Err(NetError::Redirects {
        url: first,
        max: MAX_REDIRECTS,
    })
}

/// The addresses of `target` the guard lets through.
async fn addresses(target: &Target, url: &str) -> Result<Vec<SocketAddr>, NetError> {
    if let Some(ip) = target.ip {
        return Ok(vec![SocketAddr::new(ip, target.port)]);
    }
    let found = tokio::net::lookup_host((target.host.as_str(), target.port))
        .await
        .map_err(|e| NetError::Failed {
            url: url.to_string(),
            why: format!("cannot resolve {} ({e}); check the host name", target.host),
        })?;
    let mut allowed = Vec::new();
    let mut refused = None;
    for addr in found {
        match check_address(target.exact, addr.ip()) {
            Ok(()) => allowed.push(addr),
            Err(range) => {
                refused.get_or_insert((addr.ip(), range));
            }
        }
    }
    match (allowed.is_empty(), refused) {
        (false, _) => Ok(allowed),
        (true, Some((ip, range))) => {
            Err(refused_address(url, &target.host, target.port, ip, range))
        }
        (true, None) => Err(NetError::Failed {
            url: url.to_string(),
            why: format!("{} resolved to no address", target.host),
        }),
    }
}

/// Answers the client's look-ups: the checked addresses for the checked host, nothing
/// for any other name.
struct Pinned {
    host: String,
    addrs: Vec<SocketAddr>,
}

impl reqwest::dns::Resolve for Pinned {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let asked = name.as_str().trim_end_matches('.');
        let answer: Result<reqwest::dns::Addrs, Box<dyn std::error::Error + Send + Sync>> =
            if asked.eq_ignore_ascii_case(&self.host) {
                Ok(Box::new(self.addrs.clone().into_iter()))
            } else {
                Err(format!("{asked} was not checked by the http guard").into())
            };
        Box::pin(std::future::ready(answer))
    }
}

/// A client for one hop: no proxy, no redirects of its own, and a resolver that knows
/// only the checked addresses.
fn client(target: &Target, addrs: Vec<SocketAddr>) -> Result<reqwest::Client, String> {
    use rustls::{ClientConfig, RootCertStore};
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?;
    let tls = if target.url.scheme() == "https" {
        let verifier = rustls_platform_verifier::Verifier::new(provider).map_err(|e| {
            format!("cannot load the trusted certificate authorities ({e}); install the system's CA bundle or set SSL_CERT_FILE")
        })?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
            .with_no_client_auth()
    } else {
        // reqwest builds a TLS connector even for http://; this one can never be used.
        builder
            .with_root_certificates(RootCertStore::empty())
            .with_no_client_auth()
    };
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .pool_max_idle_per_host(0)
        .dns_resolver(Arc::new(Pinned {
            host: target.host.clone(),
            addrs,
        }))
        .tls_backend_preconfigured(tls)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// A failed send or read, in words (reqwest's own chain, without the URL twice).
fn failed(url: &str, error: reqwest::Error) -> NetError {
    use std::error::Error;
    let error = error.without_url();
    let mut why = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        why.push_str(": ");
        why.push_str(&cause.to_string());
        source = cause.source();
    }
    NetError::Failed {
        url: url.to_string(),
        why,
    }
}

#[cfg(test)]
#[path = "../../tests/unit/net/fetch.rs"]
mod tests;

/// True when credentials may go in a request of `scheme` to `host`: over https, or to this
/// machine, where a plain-http request never crosses a network.
fn credentials_may_go(scheme: &str, host: &str) -> bool {
    scheme == "https" || loopback(host)
}

/// True for a host that names this machine: `localhost` or a loopback address.
fn loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}
