//! What production refuses: the dev simulator off loopback (in any environment), dev defaults,
//! a public address that is not https, providers reached over plain http, predictable or short
//! secrets. Each refusal names the variable to set.

use super::{Config, ConfigError, MIN_SECRET_BYTES, PaymentsProvider, RunMode, WhatsAppMode};

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
                Some(url::Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
                None => true,
            };
        if public.scheme() != "https" || local {
            return Err(ConfigError(format!(
                "PUBLIC_URL must be the public https address in production (links in messages, Stripe's \
                 return pages and cookies depend on it), not {:?}",
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
        if let Some(token) = &self.metrics_token
            && token.expose().len() < MIN_SECRET_BYTES
        {
            return Err(ConfigError(format!(
                "METRICS_TOKEN must be at least {MIN_SECRET_BYTES} bytes in production (it guards /metrics): \
                 use a random one (openssl rand -base64 32)"
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
        if !varied_enough(self.jwt_secret.expose()) || predictable(self.jwt_secret.expose()) {
            return Err(ConfigError(
                "JWT_SECRET is too predictable for production (a placeholder, an example, a run of the alphabet \
                 or of a keyboard row): use a random one (openssl rand -base64 48)"
                    .into(),
            ));
        }
        let secrets = [
            ("WHATSAPP_APP_SECRET", self.whatsapp.app_secret.as_ref()),
            ("STRIPE_WEBHOOK_SECRET", self.stripe.as_ref().map(|s| &s.webhook_secret)),
        ];
        for (name, secret) in secrets {
            if let Some(secret) = secret
                && secret.expose().len() < MIN_SECRET_BYTES
            {
                return Err(ConfigError(format!(
                    "{name} must be at least {MIN_SECRET_BYTES} bytes in production: copy the whole secret"
                )));
            }
        }
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

/// A secret anyone could guess: a placeholder or one of the examples people copy (our own tests',
/// scripts' and docs' included: they all say "secret" or "long-enough"), or mostly a run of the
/// alphabet, the digits or a keyboard row ("abcdefghijklmnopqrstuvwxyz012345", "qwertyuiop…"). A
/// random secret steps to a neighbour about one time in sixteen; these, nearly always.
fn predictable(secret: &str) -> bool {
    const PLACEHOLDERS: [&str; 7] =
        ["secret", "changeme", "change-me", "example", "password", "placeholder", "long-enough"];
    let lower = secret.to_lowercase();
    if PLACEHOLDERS.iter().any(|word| lower.contains(word)) {
        return true;
    }
    const ROWS: [&str; 4] = ["`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./"];
    let place = |c: char| ROWS.iter().enumerate().find_map(|(row, keys)| keys.find(c).map(|at| (row, at)));
    let chars: Vec<char> = lower.chars().collect();
    if chars.len() < 2 {
        return true;
    }
    let neighbours = chars
        .windows(2)
        .filter(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let in_sequence = (a as i64 - b as i64).abs() == 1;
            let on_the_keyboard = matches!((place(a), place(b)), (Some((r1, i1)), Some((r2, i2))) if r1 == r2 && i1.abs_diff(i2) == 1);
            in_sequence || on_the_keyboard
        })
        .count();
    neighbours * 5 >= (chars.len() - 1) * 2
}

/// An https address, or one on this machine (a local proxy or test double may speak http).
fn https_or_loopback(address: &str) -> bool {
    let Ok(url) = url::Url::parse(address) else { return false };
    let loopback = match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    url.scheme() == "https" || (url.scheme() == "http" && loopback)
}

/// A secret with enough different characters to be random (a generated one of 32 bytes has dozens;
/// "aaaa…" or "1234…1234" has a handful), estimated as the Shannon entropy of its characters: at
/// least 3.5 bits per character and 128 bits in all.
fn varied_enough(secret: &str) -> bool {
    let mut counts = std::collections::HashMap::new();
    for c in secret.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let n = secret.chars().count() as f64;
    let per_char: f64 = counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum();
    per_char >= 3.5 && per_char * n >= 128.0
}
