//! The address guard: which addresses `http.request` never reaches unless the grant names
//! the very host, and the check of a URL against the grant. Pure functions, tested
//! without opening a connection.
//!
//! A URL's host is read the way browsers and the `url` crate read it, so `2130706433`,
//! `0x7f000001` and `0177.0.0.1` are the address 127.0.0.1 by the time the guard looks;
//! IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by
//! the address they carry.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use reqwest::Url;

use super::allow::{Allow, Grant};
use super::error::{NetError, GRANT};

/// The reserved range `ip` lies in, named for the refusal, or `None` for a public address.
pub(crate) fn refused_range(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b) {
        (0, _) => "the unspecified/this-network range 0.0.0.0/8",
        (127, _) => "loopback (127.0.0.0/8)",
        (10, _) => "a private range (10.0.0.0/8)",
        (172, 16..=31) => "a private range (172.16.0.0/12)",
        (192, 168) => "a private range (192.168.0.0/16)",
        (169, 254) => "link-local (169.254.0.0/16, where cloud metadata services answer)",
        (100, 64..=127) => "shared address space (100.64.0.0/10)",
        (192, 0) if c == 0 => "IETF protocol assignments (192.0.0.0/24)",
        (198, 18..=19) => "the benchmarking range (198.18.0.0/15)",
        (224..=239, _) => "multicast (224.0.0.0/4)",
        (240..=255, _) => "a reserved range (240.0.0.0/4, broadcast included)",
        _ => return None,
    })
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if ip.is_unspecified() {
        return Some("the unspecified address (::)");
    }
    if ip.is_loopback() {
        return Some("loopback (::1)");
    }
    // Forms that carry an IPv4 address are judged by it.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refused_v4(v4);
    }
    if s[..6] == [0; 6] {
        return Some("an IPv4-compatible address (::/96)");
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return refused_v4(v4);
    }
    if s[0] == 0x2002 {
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        return refused_v4(v4);
    }
    Some(match s[0] {
        0xfc00..=0xfdff => "a unique local range (fc00::/7)",
        0xfe80..=0xfebf => "link-local (fe80::/10)",
        0xfec0..=0xfeff => "site-local (fec0::/10)",
        0xff00..=0xffff => "multicast (ff00::/8)",
        0x2001 if s[1] == 0 => "Teredo (2001::/32)",
        _ => return None,
    })
}

/// Whether `ip`, an address of a host the grant allows as `grant`, may be connected to.
/// A reserved address is allowed only when a pattern names the host itself (with its
/// port): a wildcard never reaches one.
pub(crate) fn check_address(grant_exact: bool, ip: IpAddr) -> Result<(), &'static str> {
    match refused_range(ip) {
        Some(range) if !grant_exact => Err(range),
        _ => Ok(()),
    }
}

/// A URL the grant allows, read and checked; its addresses are checked once resolved.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// The URL.
    pub url: Url,
    /// Its host as the URL holds it (`[v6]` in brackets, without a trailing dot for names).
    pub host: String,
    /// Its port (the scheme's default when none is written).
    pub port: u16,
    /// The address, when the host is an address literal.
    pub ip: Option<IpAddr>,
    /// Whether a pattern names this very host (and port).
    pub exact: bool,
}

impl Target {
    /// Reads `url` and checks it against `allow`: scheme, host and port, and (for an
    /// address literal) the address guard.
    pub(crate) fn parse(url: &str, allow: &Allow) -> Result<Target, NetError> {
        let parsed = Url::parse(url).map_err(|e| {
            NetError::Invalid(format!(
                "'{}' is not a URL ({e}); write an absolute http:// or https:// URL",
                shortened(url)
            ))
        })?;
        let default_port = match parsed.scheme() {
            "http" => 80,
            "https" => 443,
            other => {
                return Err(NetError::refused(
                    url,
                    format!("the scheme '{other}' is not allowed"),
                    "use an http:// or https:// URL",
                ))
            }
        };
        let ip = match parsed.host() {
            Some(url::Host::Ipv4(v4)) => Some(IpAddr::V4(v4)),
            Some(url::Host::Ipv6(v6)) => Some(IpAddr::V6(v6)),
            Some(url::Host::Domain(_)) => None,
            None => {
                return Err(NetError::Invalid(format!(
                    "'{}' has no host",
                    shortened(url)
                )))
            }
        };
        let host = parsed
            .host_str()
            .unwrap_or_default()
            .trim_end_matches('.')
            .to_string();
        let port = parsed.port().unwrap_or(default_port);
        let exact = match allow.grant(&host, port, default_port) {
            Grant::No => {
                let named = if parsed.port().is_some() {
                    format!("{host}:{port}")
                } else {
                    host.clone()
                };
                return Err(NetError::refused(
                    url,
                    format!(
                        "the host {named} is not allowed (allowed: {})",
                        if allow.is_empty() {
                            "none".to_string()
                        } else {
                            allow.describe()
                        }
                    ),
                    format!("add `{host}:{port}` to {GRANT} if this run should reach it"),
                ));
            }
            Grant::ByWildcard => false,
            Grant::Exactly => true,
        };
        if let Some(ip) = ip {
            check_address(exact, ip)
                .map_err(|range| refused_address(url, &host, port, ip, range))?;
        }
        Ok(Target {
            url: parsed,
            host,
            port,
            ip,
            exact,
        })
    }
}

/// The refusal of an address in a reserved range.
pub(crate) fn refused_address(
    url: &str,
    host: &str,
    port: u16,
    ip: IpAddr,
    range: &str,
) -> NetError {
    NetError::refused(
        url,
        format!("{host} is at {ip}, in {range}, which a wildcard never reaches"),
        format!("name the host exactly (`{host}:{port}`) in {GRANT} if this run should reach that internal service"),
    )
}

/// A URL cut for a message.
fn shortened(url: &str) -> String {
    let mut end = url.len().min(200);
    while !url.is_char_boundary(end) {
        end -= 1;
    }
    url[..end].to_string()
}

#[cfg(test)]
#[path = "../../tests/unit/net/guard.rs"]
mod tests;
