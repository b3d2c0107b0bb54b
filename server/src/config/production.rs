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
        let local = match public.host() {
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
        if !varied_enough(self.jwt_secret.expose()) {
            return Err(ConfigError(
                "JWT_SECRET is too predictable for production: use a random one (openssl rand -base64 48)"
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
