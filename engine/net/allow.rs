//! The hosts a profile lets `http.request` reach: `api.example.com`, `*.example.org`,
//! `127.0.0.1:8080`, `[::1]:9000`. A pattern without a port allows the scheme's default
//! port only (80 for `http`, 443 for `https`), so granting a host does not open every
//! service it runs.

use std::fmt;
use std::net::IpAddr;

/// The host part of a pattern or of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Name {
    /// A DNS name, lower-case, without a trailing dot.
    Domain(String),
    /// An address literal (IPv6 without brackets).
    Ip(IpAddr),
}

impl Name {
    fn parse(host: &str) -> Option<Name> {
        let host = host.trim_end_matches('.');
        if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            return inner.parse().ok().map(Name::Ip);
        }
        if let Ok(ip) = host.parse::<IpAddr>() {
            return Some(Name::Ip(ip));
        }
        let ok = !host.is_empty()
            && host.len() <= 253
            && host.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && l.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            });
        ok.then(|| Name::Domain(host.to_ascii_lowercase()))
    }
}

/// One allowed host pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HostPattern {
    /// For `*.example.org`, `example.org` (the pattern matches names below it only).
    name: Name,
    wildcard: bool,
    port: Option<u16>,
}

impl HostPattern {
    /// Reads a pattern; says what is wrong with one that is not `host`, `*.domain`,
    /// `host:port` or `[v6]:port`.
    pub(crate) fn parse(text: &str) -> Result<HostPattern, String> {
        let text = text.trim();
        let bad = || {
            format!(
                "'{text}' is not a host pattern: write a host (api.example.com), a wildcard \
                 (*.example.org) or an address, optionally with :port"
            )
        };
        let (host, port) = match text.rsplit_once(':') {
            // `::1` alone is an address, not a host with a port.
            Some((host, port)) if !host.contains(':') || host.ends_with(']') => {
                (host, Some(port.parse::<u16>().map_err(|_| bad())?))
            }
            _ => (text, None),
        };
        let (wildcard, host) = match host.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, host),
        };
        let name = Name::parse(host).ok_or_else(bad)?;
        // No domain ends in a number: `*.1` or `*.0.0.1` would be a wildcard over
        // addresses, which match no URL host (addresses are matched whole).
        let numeric_end = host
            .rsplit('.')
            .next()
            .is_some_and(|label| !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()));
        if wildcard && (matches!(name, Name::Ip(_)) || numeric_end) {
            return Err(bad());
        }
        Ok(HostPattern {
            name,
            wildcard,
            port,
        })
    }

    /// Whether the pattern allows `host` (as a URL holds it) on `port`, where
    /// `default_port` is the scheme's.
    fn matches(&self, host: &Name, port: u16, default_port: u16) -> bool {
        if self.port.unwrap_or(default_port) != port {
            return false;
        }
        match (&self.name, host) {
            (Name::Domain(p), Name::Domain(h)) if self.wildcard => {
                h.len() > p.len() + 1
                    && h.ends_with(p.as_str())
                    && h.as_bytes()[h.len() - p.len() - 1] == b'.'
            }
            (Name::Ip(p), Name::Ip(h)) => p.to_canonical() == h.to_canonical(),
            (p, h) => p == h,
        }
    }
}

impl fmt::Display for HostPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.wildcard {
            f.write_str("*.")?;
        }
        match &self.name {
            Name::Domain(d) => f.write_str(d)?,
            Name::Ip(IpAddr::V6(ip)) => write!(f, "[{ip}]")?,
            Name::Ip(ip) => write!(f, "{ip}")?,
        }
        match self.port {
            Some(port) => write!(f, ":{port}"),
            None => Ok(()),
        }
    }
}

/// How a host is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grant {
    /// No pattern names it.
    No,
    /// A wildcard names it: public addresses only.
    ByWildcard,
    /// A pattern names this very host: it may be reached even at a private address.
    Exactly,
}

/// The allowed host patterns of a profile.
#[derive(Debug, Clone, Default)]
pub(crate) struct Allow {
    patterns: Vec<HostPattern>,
}

impl Allow {
    /// The patterns of a grant; ones that do not parse are left out (and logged: the policy
    /// file's reader refuses them before a run gets here).
    pub(crate) fn new(patterns: &[String]) -> Allow {
        let patterns = patterns
            .iter()
            .filter_map(|p| match HostPattern::parse(p) {
                Ok(p) => Some(p),
                Err(why) => {
                    tracing::warn!("capabilities.http: {why}; the pattern is ignored");
                    None
                }
            })
            .collect();
        Allow { patterns }
    }

    /// Whether any host is allowed at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// How `host` (a URL's host, `[v6]` in brackets) on `port` is allowed.
    pub(crate) fn grant(&self, host: &str, port: u16, default_port: u16) -> Grant {
        let Some(name) = Name::parse(host) else {
            return Grant::No;
        };
        let mut grant = Grant::No;
        for p in self
            .patterns
            .iter()
            .filter(|p| p.matches(&name, port, default_port))
        {
            if !p.wildcard {
                return Grant::Exactly;
            }
            grant = Grant::ByWildcard;
        }
        grant
    }

    /// The patterns, as written back (for messages).
    pub(crate) fn describe(&self) -> String {
        self.patterns
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
#[path = "../../tests/unit/net/allow.rs"]
mod tests;
