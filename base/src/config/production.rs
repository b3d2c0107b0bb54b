//! What production refuses: the dev simulator off loopback (in any environment), dev defaults,
//! a public address that is not https, providers reached over plain http, predictable or short
//! secrets. Each refusal names the variable to set.

use super::{Config, ConfigError, PaymentsProvider, RunMode, WhatsAppMode};

impl Config {
    /// The dev mode's simulator and outbox let anyone write as anyone and read every login code:
    /// they may listen on this machine only, whatever the environment.
    pub(super) fn refuse_an_open_simulator(&self) -> Result<(), ConfigError> {
        if self.whatsapp.mode == WhatsAppMode::Dev && !self.addr.ip().is_loopback() {
            return Err(ConfigError(format!(
                "WHATSAPP_MODE=dev serves a simulator that shows every login code, so SOCIO_ADDR must be \
                 a loopback address (127.0.0.1), not {}: set WHATSAPP_MODE=cloud to listen on other interfaces",
                self.addr
            )));
        }
        Ok(())
    }

    pub(super) fn refuse_dev_defaults_in_production(&self) -> Result<(), ConfigError> {
        if self.mode != RunMode::Production {
            return Ok(());
        }
        if self.whatsapp.mode == WhatsAppMode::Dev {
            return Err(ConfigError(
                "WHATSAPP_MODE=dev is refused in production: set WHATSAPP_MODE=cloud".into(),
            ));
        }
        if self.payments == PaymentsProvider::Sandbox {
            return Err(ConfigError(
                "PAYMENTS_PROVIDER=sandbox is refused in production: set PAYMENTS_PROVIDER=stripe".into(),
            ));
        }
        let public = url::Url::parse(&self.public_url)
            .map_err(|_| ConfigError(format!("PUBLIC_URL is not an address: {:?}", self.public_url)))?;
        // A trailing dot names the same host ("localhost." is localhost) and slips past comparisons.
        let trailing_dot = matches!(public.host(), Some(url::Host::Domain(name)) if name.ends_with('.'));
        let local = trailing_dot
            || match public.host() {
                Some(url::Host::Domain(name)) => name == "localhost" || name.ends_with(".localhost"),
                Some(url::Host::Ipv4(ip)) => ip.is_loopback() || ip.is_unspecified(),
                // `[::ffff:127.0.0.1]` is 127.0.0.1 written as IPv6.
                Some(url::Host::Ipv6(ip)) => {
                    ip.is_loopback()
                        || ip.is_unspecified()
                        || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback() || v4.is_unspecified())
                }
                None => true,
            };
        if public.scheme() != "https" || local {
            return Err(ConfigError(format!(
                "PUBLIC_URL must be the public https address in production (links in messages, Stripe's \
                 return pages and cookies depend on it), not {:?}",
                self.public_url
            )));
        }
        // Links are the address followed by a path of ours: credentials would travel in every
        // message, and a path, query or fragment would make every link another page.
        if !public.username().is_empty()
            || public.password().is_some()
            || public.path() != "/"
            || public.query().is_some()
            || public.fragment().is_some()
        {
            return Err(ConfigError(format!(
                "PUBLIC_URL must be the bare public address in production (https://host[:port]: no user or \
                 password, path, query or fragment; links add their own paths), not {:?}",
                self.public_url
            )));
        }
        if let Some(everyone) = self.trusted_proxies.iter().find(|net| net.prefix_len() == 0) {
            return Err(ConfigError(format!(
                "TRUSTED_PROXIES must name your load balancers, not {everyone} (every address): anyone could \
                 then write X-Forwarded-For and escape the per-address limits"
            )));
        }
        if let Some((family, share)) = too_wide(&self.trusted_proxies) {
            return Err(ConfigError(format!(
                "TRUSTED_PROXIES must name your load balancers, yet together they cover {:.1} % of all {family} \
                 addresses (at most 1/64, four /8s, is accepted): anyone in them could write X-Forwarded-For \
                 and escape the per-address limits",
                share * 100.0
            )));
        }
        let providers = [
            ("WHATSAPP_GRAPH_URL", Some(self.whatsapp.graph_url.as_str())),
            ("STRIPE_API_URL", self.stripe.as_ref().map(|s| s.api_url.as_str())),
            ("LLM_BASE_URL", self.llm.as_ref().map(|l| l.base_url.as_str())),
        ];
        for (name, address) in providers {
            if let Some(address) = address
                && !https_or_loopback(address)
            {
                return Err(ConfigError(format!(
                    "{name} must be an https address in production (tokens travel on it), not {address:?}"
                )));
            }
        }
        if self.whatsapp.mode == WhatsAppMode::Cloud && self.whatsapp.verify_token.is_none() {
            return Err(ConfigError(
                "WHATSAPP_VERIFY_TOKEN is required with WHATSAPP_MODE=cloud in production (Meta's webhook handshake)"
                    .into(),
            ));
        }
        self.refuse_weak_secrets()?;
        self.refuse_absurd_limits()?;
        refuse_plain_database(&self.database_url)?;
        Ok(())
    }
}

/// The share of all IPv4 or IPv6 addresses that the trusted proxies cover together (overlaps
/// counted once), when it is more than 1/64 — more than four /8s of IPv4: no set of load
/// balancers is that large, while `0.0.0.0/1,128.0.0.0/1` is everyone in two lines.
fn too_wide(proxies: &[ipnet::IpNet]) -> Option<(&'static str, f64)> {
    let merged = ipnet::IpNet::aggregate(&proxies.to_vec());
    let share = |v4: bool| -> f64 {
        merged
            .iter()
            .filter(|net| matches!(net, ipnet::IpNet::V4(_)) == v4)
            .map(|net| 2f64.powi(-i32::from(net.prefix_len())))
            .sum()
    };
    [("IPv4", share(true)), ("IPv6", share(false))].into_iter().find(|(_, share)| *share > 1.0 / 64.0)
}

/// An https address, or one on this machine (a local proxy or test double may speak http).
fn https_or_loopback(address: &str) -> bool {
    let Ok(url) = url::Url::parse(address) else { return false };
    url.scheme() == "https" || (url.scheme() == "http" && url.host().is_some_and(on_this_machine))
}

/// A host that is this machine: `localhost`, a loopback address, or one written as IPv6
/// (`[::ffff:127.0.0.1]`). A non-"special" URL (`postgres://`) reads an IPv4 host as a name.
fn on_this_machine(host: url::Host<&str>) -> bool {
    match host {
        url::Host::Domain(name) => {
            name == "localhost" || name.parse::<std::net::IpAddr>().is_ok_and(loopback)
        }
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => loopback(ip.into()),
    }
}

fn loopback(ip: std::net::IpAddr) -> bool {
    match ip {
        std::net::IpAddr::V4(v4) => v4.is_loopback(),
        std::net::IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// PostgreSQL without TLS (`sslmode=disable`, or `allow`, which tries without first) to a server
/// on another machine: the people's data and the database password would cross the network in
/// the clear. A server on this machine (loopback, a Unix socket) may go without.
fn refuse_plain_database(database_url: &str) -> Result<(), ConfigError> {
    if !(database_url.starts_with("postgres://") || database_url.starts_with("postgresql://")) {
        return Ok(());
    }
    let url = url::Url::parse(database_url)
        .map_err(|_| ConfigError("DATABASE_URL is not a PostgreSQL address".into()))?;
    let plain = url.query_pairs().any(|(key, value)| {
        key == "sslmode" && matches!(value.to_ascii_lowercase().as_str(), "disable" | "allow")
    });
    let socket = url.query_pairs().any(|(key, value)| key == "host" && value.starts_with('/'));
    // No host: a Unix socket by default.
    let here = url.host().is_none_or(on_this_machine);
    if plain && !(here || socket) {
        return Err(ConfigError(
            "DATABASE_URL turns TLS off (sslmode=disable or allow) to a PostgreSQL server on another machine: \
             use sslmode=require (or verify-full) in production"
                .into(),
        ));
    }
    Ok(())
}
