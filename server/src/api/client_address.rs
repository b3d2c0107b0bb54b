//! Who is calling, by address, for the per-address limits. Behind a load balancer the TCP peer is
//! the balancer; when the peer is one of `TRUSTED_PROXIES`, the client is the nearest address in
//! `X-Forwarded-For` that is not a trusted proxy (read right to left: entries further left were
//! written by whoever called the proxy and cannot be trusted beyond that point). Without trusted
//! proxies, `X-Forwarded-For` is ignored: anyone could write it. Every `X-Forwarded-For` line is
//! read, in order, as one list (a client may write a line of its own before the proxy appends its
//! own; reading only the first would trust the client's).
//!
//! An entry is an address as balancers write it: `203.0.113.5`, `203.0.113.5:4711` (with the port
//! the client used), `[2001:db8::1]:443` or `2001:db8::1`. One that is none of these (`unknown`,
//! `_hidden`, garbage) stops the walk: what lies beyond it cannot be read, so the request counts
//! under the last hop that could — the balancer that wrote it, as if it were an untrusted peer —
//! and a warning names that balancer (once a minute per balancer, with the count).
//!
//! The limits key a caller by what they hold: an IPv4 address (an IPv4-mapped IPv6 address,
//! `::ffff:1.2.3.4`, is that IPv4 address), or the /64 of an IPv6 address — one subscriber is given
//! a whole /64 and can use any address in it.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::{extract::Request, middleware::Next, response::Response};
use ipnet::IpNet;
use tonic::transport::server::TcpConnectInfo;

use crate::{connections::monotonic_ms, telemetry::throttle::LogThrottle};

/// The caller's address as the limits key it (after `from_trusted_proxies`); None in process.
pub fn of<T>(request: &tonic::Request<T>) -> Option<String> {
    request.remote_addr().map(|addr| limit_key(addr.ip()))
}

/// The key per-address limits count a caller under: an IPv4 address, or an IPv6 address's /64.
pub fn limit_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

/// The client's address given the TCP peer and the request's `X-Forwarded-For`.
pub fn client_ip(peer: IpAddr, forwarded_for: Option<&str>, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    let peer = peer.to_canonical();
    if !is_trusted(&peer) {
        return peer;
    }
    let mut client = peer;
    for entry in forwarded_for.unwrap_or("").rsplit(',') {
        match hop(entry) {
            Some(ip) => {
                client = ip;
                if !is_trusted(&ip) {
                    break;
                }
            }
            // Unreadable: what is left of it cannot be trusted; the last good hop is the client.
            None => {
                if let Some(left_out) = UNREADABLE_LOGGED.admit(&client, monotonic_ms()) {
                    tracing::warn!(target: "security", event = "forwarded_for_unreadable", counted_as = %client, left_out, "an X-Forwarded-For entry is not an address: the request counts under the hop that wrote it");
                }
                break;
            }
        }
    }
    client
}

/// One `X-Forwarded-For` entry's address: bare, with a port, or bracketed IPv6 with or without one.
fn hop(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim().trim_matches('"');
    let ip = if let Some(rest) = entry.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port_ok = after.is_empty() || after.strip_prefix(':').is_some_and(is_port);
        if !port_ok {
            return None;
        }
        inside.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6)?
    } else if let Ok(ip) = entry.parse::<IpAddr>() {
        ip
    } else {
        let (host, port) = entry.rsplit_once(':')?;
        if !is_port(port) {
            return None;
        }
        host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)?
    };
    Some(ip.to_canonical())
}

fn is_port(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 5
        && text.bytes().all(|b| b.is_ascii_digit())
        && text.parse::<u16>().is_ok()
}

/// Unreadable entries are logged once a minute per hop they are counted under.
static UNREADABLE_LOGGED: std::sync::LazyLock<LogThrottle<IpAddr>> =
    std::sync::LazyLock::new(|| LogThrottle::new(std::time::Duration::from_secs(60)));

/// Rewrites the connection's remote address to the client's, when the peer is a trusted proxy.
pub async fn from_trusted_proxies(trusted: Arc<Vec<IpNet>>, mut request: Request, next: Next) -> Response {
    if !trusted.is_empty()
        && let Some(info) = request.extensions().get::<TcpConnectInfo>()
        && let Some(peer) = info.remote_addr
    {
        // Every line, in order: a line that is not text breaks the chain where it stands.
        let forwarded: Vec<&str> = request
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .map(|v| v.to_str().unwrap_or("unreadable"))
            .collect();
        let forwarded = forwarded.join(",");
        let client = client_ip(peer.ip(), Some(&forwarded), &trusted);
        if client != peer.ip() {
            let rewritten =
                TcpConnectInfo { local_addr: info.local_addr, remote_addr: Some(SocketAddr::new(client, 0)) };
            request.extensions_mut().insert(rewritten);
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        assert_eq!(client_ip(ip("198.51.100.9"), Some("203.0.113.7"), &[]), ip("198.51.100.9"));
    }

    #[test]
    fn an_untrusted_peer_cannot_claim_another_address() {
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(client_ip(ip("198.51.100.9"), Some("203.0.113.7"), &trusted), ip("198.51.100.9"));
    }

    #[test]
    fn behind_trusted_proxies_the_client_is_the_nearest_untrusted_hop() {
        let trusted = nets(&["10.0.0.0/8", "127.0.0.1/32"]);
        assert_eq!(client_ip(ip("10.0.0.2"), Some("203.0.113.7"), &trusted), ip("203.0.113.7"));
        // A spoofed entry on the left does not win over what the proxies saw.
        assert_eq!(
            client_ip(ip("10.0.0.2"), Some("1.2.3.4, 203.0.113.7, 10.0.0.5"), &trusted),
            ip("203.0.113.7")
        );
        assert_eq!(client_ip(ip("10.0.0.2"), Some("2001:db8::1"), &trusted), ip("2001:db8::1"));
    }

    #[test]
    fn an_ipv4_mapped_address_is_the_ipv4_address_and_an_ipv6_client_is_its_64() {
        assert_eq!(limit_key(ip("::ffff:1.2.3.4")), limit_key(ip("1.2.3.4")));
        assert_eq!(limit_key(ip("1.2.3.4")), "1.2.3.4");
        assert_eq!(limit_key(ip("2001:db8:1:2::1")), "2001:db8:1:2::/64");
        assert_eq!(limit_key(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")), limit_key(ip("2001:db8:1:2::1")));
        assert_ne!(limit_key(ip("2001:db8:1:3::1")), limit_key(ip("2001:db8:1:2::1")));
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(client_ip(ip("::ffff:10.0.0.2"), Some("203.0.113.7"), &trusted), ip("203.0.113.7"));
    }

    #[test]
    fn entries_with_ports_or_brackets_name_the_client_as_balancers_write_them() {
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(client_ip(ip("10.0.0.2"), Some("203.0.113.5:4711"), &trusted), ip("203.0.113.5"));
        assert_eq!(client_ip(ip("10.0.0.2"), Some("[2001:db8::1]:443"), &trusted), ip("2001:db8::1"));
        assert_eq!(client_ip(ip("10.0.0.2"), Some("[2001:db8::1]"), &trusted), ip("2001:db8::1"));
        assert_eq!(
            client_ip(ip("10.0.0.2"), Some("198.51.100.9, 10.0.0.7:80"), &trusted),
            ip("198.51.100.9")
        );
        assert_eq!(client_ip(ip("10.0.0.2"), Some("\"[2001:db8::2]:8443\""), &trusted), ip("2001:db8::2"));
    }

    #[test]
    fn an_unreadable_entry_counts_as_the_hop_that_wrote_it() {
        let trusted = nets(&["10.0.0.0/8"]);
        for garbage in
            ["unknown", "_hidden", "203.0.113.5:port", "[2001:db8::1", "1.2.3.4:99999", "2001:db8::1:443x"]
        {
            assert_eq!(client_ip(ip("10.0.0.2"), Some(garbage), &trusted), ip("10.0.0.2"), "{garbage}");
        }
        assert_eq!(
            client_ip(ip("10.0.0.2"), Some("203.0.113.5, unknown, 10.0.0.3"), &trusted),
            ip("10.0.0.3")
        );
    }

    #[test]
    fn a_missing_or_garbled_header_leaves_the_nearest_good_hop() {
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(client_ip(ip("10.0.0.2"), None, &trusted), ip("10.0.0.2"));
        assert_eq!(client_ip(ip("10.0.0.2"), Some("<script>, 10.0.0.3"), &trusted), ip("10.0.0.3"));
    }
}
