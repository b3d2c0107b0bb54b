//! Configuration from the environment (and a `.env` file when present); docs/ARCHITECTURE.md,
//! "Configuration", lists every variable.
//!
//! Every variable has an embedded default that runs the whole product on one machine. In
//! production (`SOCIO_ENV=production`) the dev defaults are refused with a message that names the
//! variable to set, so a misconfigured deployment never starts half-safe.

use std::{collections::HashMap, fmt, net::SocketAddr, path::PathBuf, time::Duration};

use rand::RngCore;

/// Where the configuration was read from: the process environment, or a map in tests.
pub trait Source {
    fn get(&self, key: &str) -> Option<String>;
}

/// The process environment, after loading `.env` if there is one.
pub struct Environment;

impl Source for Environment {
    fn get(&self, key: &str) -> Option<String> {
        std::env::var(key).ok()
    }
}

impl Source for HashMap<String, String> {
    fn get(&self, key: &str) -> Option<String> {
        HashMap::get(self, key).cloned()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunMode {
    Development,
    Production,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhatsAppMode {
    /// Outbound messages go to the outbox the simulator page shows.
    Dev,
    /// Meta's WhatsApp Cloud API.
    Cloud,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaymentsProvider {
    Sandbox,
    Stripe,
}

/// A secret that never shows in logs or debug output.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[derive(Clone, Debug)]
pub struct WhatsAppConfig {
    pub mode: WhatsAppMode,
    /// The number every wa.me link points to. Required in cloud mode; in dev mode, unset, a
    /// placeholder keeps the links well formed and `business_number_set` is false, so nothing
    /// shows it to people as a real number.
    pub business_number: String,
    pub business_number_set: bool,
    pub graph_url: String,
    pub phone_number_id: Option<String>,
    pub access_token: Option<Secret>,
    pub app_secret: Option<Secret>,
    pub verify_token: Option<Secret>,
    pub otp_template: String,
    /// Approved utility template (one body parameter) for notices outside the 24-hour window.
    pub notice_template: String,
    /// Approved utility templates of the proactive messages people asked for (README, "Staying
    /// on track"): the monthly check-in and the fiscal reminders.
    pub checkin_template: String,
    pub reminder_template: String,
    /// How long to wait for more messages of a burst before replying: the window restarts with
    /// each message of the person's…
    pub batch_window: Duration,
    /// …but a reply waits no longer than this after the burst's first message.
    pub batch_max: Duration,
    /// What Meta charges per billable message, by category, in reais: the admin's cost estimate.
    pub rates: MessageRates,
}

/// Meta's per-message rates for Brazilian numbers by template category, in BRL (the admin's
/// estimate of what WhatsApp costs). Defaults: Meta's Brazil rates effective 1 January 2026 (USD
/// 0.0625 marketing, 0.0068 utility, 0.0068 authentication; Meta's "Pricing" page and rate card)
/// at R$ 5.40 to the dollar; service messages beyond the monthly free allowance (metered since
/// 1 October 2026) are estimated at the utility rate until Meta publishes theirs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MessageRates {
    pub marketing: f64,
    pub utility: f64,
    pub authentication: f64,
    pub service: f64,
}

impl Default for MessageRates {
    fn default() -> Self {
        Self { marketing: 0.3375, utility: 0.0367, authentication: 0.0367, service: 0.0367 }
    }
}

impl MessageRates {
    /// The rate of one of the four categories (`analytics::costs` sorts what Meta reports into
    /// them); anything else is service.
    pub fn of(&self, category: &str) -> f64 {
        match category {
            "marketing" => self.marketing,
            "utility" => self.utility,
            "authentication" => self.authentication,
            _ => self.service,
        }
    }
}

#[derive(Clone, Debug)]
pub struct LlmConfig {
    pub base_url: String,
    pub api_key: Option<Secret>,
    pub model: String,
    pub transcribe_model: Option<String>,
    pub timeout: Duration,
}

#[derive(Clone, Debug)]
pub struct StripeConfig {
    pub secret_key: Secret,
    pub webhook_secret: Secret,
    pub price_pro_monthly: String,
    pub price_pro_yearly: String,
    pub api_url: String,
}

/// The job workers of this process.
#[derive(Clone, Copy, Debug)]
pub struct JobsConfig {
    /// How many jobs of the shared lane (sends, notices, billing, exports…) run at once.
    pub workers: usize,
    /// How many replies — model calls — one process keeps in flight (`LLM_MAX_CONCURRENCY`); they
    /// have a lane of their own, so they never wait for, nor hold up, the shared one.
    pub model_calls: usize,
    /// How many WhatsApp sends one process keeps in flight (`WHATSAPP_SEND_CONCURRENCY`): their
    /// own lane, I/O to Meta, which limits a number's throughput on its side.
    pub sends: usize,
    /// First retry delay; each further retry doubles it (with jitter), up to ten minutes.
    pub retry_base: Duration,
    /// How long a claimed job stays a worker's without news: running workers renew it, so this is
    /// how soon the jobs of a server that died are taken up by another (or by it, restarted).
    pub lease: Duration,
    /// How often the reminder scheduler runs (`SOCIO_REMINDERS_EVERY_S`, 60; 0 turns it off, as
    /// the tests do: they run it as of an instant, like `socio reminders run --now`).
    pub reminders_every: Option<Duration>,
}

/// The legal entity that controls the personal data: its name and, once registered, its CNPJ
/// (`CONTROLLER_NAME`, `CONTROLLER_CNPJ`; the pages leave the CNPJ out while it is empty).
#[derive(Clone, Debug)]
pub struct Controller {
    pub name: String,
    pub cnpj: String,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub mode: RunMode,
    pub public_url: String,
    pub database_url: String,
    pub jwt_secret: Secret,
    pub admin_phones: Vec<String>,
    /// Where people write to us; shown on the landing page and, as the data protection officer's
    /// address, on the legal pages.
    pub support_email: String,
    /// Who controls the personal data (LGPD art. 5º, VI), as the legal pages name it.
    pub controller: Controller,
    /// Load balancers whose `X-Forwarded-For` names the client (empty: the header is ignored).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `METRICS_TOKEN`: when set, `/metrics` needs `Authorization: Bearer <token>`; production
    /// serves `/metrics` only with one.
    pub metrics_token: Option<Secret>,
    /// Connection time limits and caps (`HTTP_*`).
    pub connections: crate::connections::Limits,
    pub web_dir: PathBuf,
    pub whatsapp: WhatsAppConfig,
    /// None: the offline guided consultant.
    pub llm: Option<LlmConfig>,
    pub payments: PaymentsProvider,
    pub stripe: Option<StripeConfig>,
    pub jobs: JobsConfig,
    /// "Now" for the whole application: the machine's time (no variable sets it; tests give the
    /// application an adjustable clock and move it).
    pub clock: crate::clock::Clock,
}

/// A configuration that cannot run; the message names the variable to fix.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(pub String);

/// The shortest secret production accepts (JWT, WhatsApp app secret, Stripe webhook secret).
const MIN_SECRET_BYTES: usize = 32;

impl Config {
    /// Reads `.env` (if present) and the environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let _ = dotenvy::dotenv();
        Self::from_source(&Environment)
    }

    pub fn from_source(src: &dyn Source) -> Result<Self, ConfigError> {
        let var = |key: &str| src.get(key).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let mode = match var("SOCIO_ENV").as_deref() {
            None | Some("development") | Some("dev") | Some("test") => RunMode::Development,
            Some("production") | Some("prod") => RunMode::Production,
            Some(other) => {
                return Err(ConfigError(format!(
                    "SOCIO_ENV must be development or production, not {other:?}"
                )));
            }
        };
        let addr = var("SOCIO_ADDR")
            .unwrap_or_else(|| "127.0.0.1:8080".into())
            .parse()
            .map_err(|_| ConfigError("SOCIO_ADDR must be host:port, e.g. 127.0.0.1:8080".into()))?;
        let public_url = var("PUBLIC_URL")
            .unwrap_or_else(|| "http://localhost:8080".into())
            .trim_end_matches('/')
            .to_owned();
        let database_url = var("DATABASE_URL").unwrap_or_else(|| "sqlite://data/socio.db".into());
        if !(database_url.starts_with("sqlite:")
            || database_url.starts_with("postgres://")
            || database_url.starts_with("postgresql://"))
        {
            return Err(ConfigError("DATABASE_URL must start with sqlite:// or postgres://".into()));
        }

        let jwt_secret = match (var("JWT_SECRET"), mode) {
            (Some(secret), RunMode::Production) if secret.len() < MIN_SECRET_BYTES => {
                return Err(ConfigError(format!(
                    "JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes in production"
                )));
            }
            (Some(secret), _) => Secret::new(secret),
            (None, RunMode::Production) => {
                return Err(ConfigError("JWT_SECRET is required in production".into()));
            }
            (None, RunMode::Development) => development_jwt_secret()?,
        };

        let whatsapp = whatsapp_config(&var)?;
        let llm_timeout = Duration::from_secs(parse_number(&var, "LLM_TIMEOUT_S", 25)?);
        let llm = var("LLM_BASE_URL").map(|base_url| LlmConfig {
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: var("LLM_API_KEY").map(Secret::new),
            model: var("LLM_MODEL").unwrap_or_else(|| "gpt-4o-mini".into()),
            transcribe_model: var("LLM_TRANSCRIBE_MODEL"),
            timeout: llm_timeout,
        });
        let payments = match var("PAYMENTS_PROVIDER").as_deref() {
            None | Some("sandbox") => PaymentsProvider::Sandbox,
            Some("stripe") => PaymentsProvider::Stripe,
            Some(other) => {
                return Err(ConfigError(format!(
                    "PAYMENTS_PROVIDER must be sandbox or stripe, not {other:?}"
                )));
            }
        };
        let stripe = match payments {
            PaymentsProvider::Sandbox => None,
            PaymentsProvider::Stripe => Some(StripeConfig {
                secret_key: Secret::new(required(&var, "STRIPE_SECRET_KEY", "PAYMENTS_PROVIDER=stripe")?),
                webhook_secret: Secret::new(required(
                    &var,
                    "STRIPE_WEBHOOK_SECRET",
                    "PAYMENTS_PROVIDER=stripe",
                )?),
                price_pro_monthly: required(&var, "STRIPE_PRICE_PRO_MONTHLY", "PAYMENTS_PROVIDER=stripe")?,
                price_pro_yearly: required(&var, "STRIPE_PRICE_PRO_YEARLY", "PAYMENTS_PROVIDER=stripe")?,
                api_url: var("STRIPE_API_URL").unwrap_or_else(|| "https://api.stripe.com".into()),
            }),
        };

        let config = Config {
            clock: crate::clock::Clock::system(),
            addr,
            mode,
            public_url,
            database_url,
            jwt_secret,
            admin_phones: var("ADMIN_PHONES")
                .map(|list| list.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect())
                .unwrap_or_default(),
            support_email: var("SUPPORT_EMAIL").unwrap_or_else(|| "suporte@socio.app".into()),
            controller: Controller {
                name: var("CONTROLLER_NAME")
                    .filter(|n| !n.trim().is_empty())
                    .unwrap_or_else(|| "Sócio".into()),
                cnpj: var("CONTROLLER_CNPJ").map(|c| c.trim().to_owned()).unwrap_or_default(),
            },
            trusted_proxies: trusted_proxies(&var)?,
            metrics_token: var("METRICS_TOKEN").filter(|t| !t.trim().is_empty()).map(Secret::new),
            connections: connection_limits(&var)?,
            web_dir: PathBuf::from(var("SOCIO_WEB_DIR").unwrap_or_else(|| "web/dist".into())),
            whatsapp,
            llm,
            payments,
            stripe,
            jobs: JobsConfig {
                workers: parse_number(&var, "SOCIO_WORKERS", 4)?.clamp(1, 64) as usize,
                model_calls: parse_number(&var, "LLM_MAX_CONCURRENCY", 64)?.clamp(1, 1024) as usize,
                sends: parse_number(&var, "WHATSAPP_SEND_CONCURRENCY", 16)?.clamp(1, 256) as usize,
                retry_base: Duration::from_millis(
                    parse_number(&var, "SOCIO_JOB_RETRY_BASE_MS", 2000)?.max(1),
                ),
                lease: Duration::from_millis(parse_number(&var, "SOCIO_JOB_LEASE_MS", 30_000)?.max(300)),
                reminders_every: Some(parse_number(&var, "SOCIO_REMINDERS_EVERY_S", 60)?)
                    .filter(|s| *s > 0)
                    .map(Duration::from_secs),
            },
        };
        config.refuse_an_open_simulator()?;
        config.refuse_dev_defaults_in_production()?;
        Ok(config)
    }

    /// The dev mode's simulator and outbox let anyone write as anyone and read every login code:
    /// they may listen on this machine only, whatever the environment.
    fn refuse_an_open_simulator(&self) -> Result<(), ConfigError> {
        if self.whatsapp.mode == WhatsAppMode::Dev && !self.addr.ip().is_loopback() {
            return Err(ConfigError(format!(
                "WHATSAPP_MODE=dev serves a simulator that shows every login code, so SOCIO_ADDR must be \
                 a loopback address (127.0.0.1), not {}: set WHATSAPP_MODE=cloud to listen on other interfaces",
                self.addr
            )));
        }
        Ok(())
    }

    fn refuse_dev_defaults_in_production(&self) -> Result<(), ConfigError> {
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

    pub fn is_production(&self) -> bool {
        self.mode == RunMode::Production
    }

    /// Whether links and pages are served over https (then browsers are told to keep to it):
    /// the scheme compared as a URL does, whatever its case.
    pub fn serves_https(&self) -> bool {
        url::Url::parse(&self.public_url).is_ok_and(|u| u.scheme() == "https")
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

fn connection_limits(
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<crate::connections::Limits, ConfigError> {
    let defaults = crate::connections::Limits::default();
    let ms = |key: &str, default: Duration| -> Result<Duration, ConfigError> {
        Ok(Duration::from_millis(parse_number(var, key, default.as_millis() as u64)?.max(10)))
    };
    Ok(crate::connections::Limits {
        first_bytes: ms("HTTP_FIRST_BYTES_TIMEOUT_MS", defaults.first_bytes)?,
        headers: ms("HTTP_HEADERS_TIMEOUT_MS", defaults.headers)?,
        body: ms("HTTP_BODY_TIMEOUT_MS", defaults.body)?,
        idle: ms("HTTP_IDLE_TIMEOUT_MS", defaults.idle)?,
        keep_alive: defaults.keep_alive,
        max_connections: parse_number(var, "HTTP_MAX_CONNECTIONS", defaults.max_connections as u64)?.max(1)
            as usize,
        max_per_address: parse_number(
            var,
            "HTTP_MAX_CONNECTIONS_PER_ADDRESS",
            defaults.max_per_address as u64,
        )?
        .max(1) as usize,
        max_streams_per_connection: parse_number(
            var,
            "HTTP2_MAX_STREAMS",
            u64::from(defaults.max_streams_per_connection),
        )?
        .clamp(1, 10_000) as u32,
    })
}

fn whatsapp_config(var: &dyn Fn(&str) -> Option<String>) -> Result<WhatsAppConfig, ConfigError> {
    let mode = match var("WHATSAPP_MODE").as_deref() {
        None | Some("dev") => WhatsAppMode::Dev,
        Some("cloud") => WhatsAppMode::Cloud,
        Some(other) => {
            return Err(ConfigError(format!("WHATSAPP_MODE must be dev or cloud, not {other:?}")));
        }
    };
    let cloud_required = |key: &str| match mode {
        WhatsAppMode::Cloud => required(var, key, "WHATSAPP_MODE=cloud").map(Some),
        WhatsAppMode::Dev => Ok(var(key)),
    };
    let configured_number = cloud_required("WHATSAPP_BUSINESS_NUMBER")?;
    let business_number_set = configured_number.is_some();
    let business_number: String = configured_number
        .unwrap_or_else(|| "5511900000000".into())
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if !(8..=15).contains(&business_number.len()) {
        return Err(ConfigError("WHATSAPP_BUSINESS_NUMBER must have 8 to 15 digits".into()));
    }
    Ok(WhatsAppConfig {
        mode,
        business_number,
        business_number_set,
        graph_url: var("WHATSAPP_GRAPH_URL")
            .unwrap_or_else(|| "https://graph.facebook.com/v23.0".into())
            .trim_end_matches('/')
            .to_owned(),
        phone_number_id: cloud_required("WHATSAPP_PHONE_NUMBER_ID")?,
        access_token: cloud_required("WHATSAPP_ACCESS_TOKEN")?.map(Secret::new),
        app_secret: cloud_required("WHATSAPP_APP_SECRET")?.map(Secret::new),
        verify_token: var("WHATSAPP_VERIFY_TOKEN").map(Secret::new),
        otp_template: var("WHATSAPP_OTP_TEMPLATE").unwrap_or_else(|| "login_code".into()),
        notice_template: var("WHATSAPP_NOTICE_TEMPLATE").unwrap_or_else(|| "account_notice".into()),
        checkin_template: var("WHATSAPP_TEMPLATE_CHECKIN").unwrap_or_else(|| "monthly_checkin".into()),
        reminder_template: var("WHATSAPP_TEMPLATE_REMINDER").unwrap_or_else(|| "fiscal_reminder".into()),
        batch_window: Duration::from_millis(parse_number(var, "WHATSAPP_BATCH_WINDOW_MS", 4000)?),
        batch_max: Duration::from_millis(parse_number(var, "WHATSAPP_BATCH_MAX_MS", 15_000)?),
        rates: message_rates(var)?,
    })
}

/// `WHATSAPP_RATE_{MARKETING,UTILITY,AUTHENTICATION,SERVICE}_BRL`: reais per billable message.
fn message_rates(var: &dyn Fn(&str) -> Option<String>) -> Result<MessageRates, ConfigError> {
    let defaults = MessageRates::default();
    let rate = |key: &str, default: f64| match var(key) {
        None => Ok(default),
        Some(value) => value
            .trim()
            .replace(',', ".")
            .parse::<f64>()
            .ok()
            .filter(|r| r.is_finite() && *r >= 0.0 && *r < 100.0)
            .ok_or_else(|| ConfigError(format!("{key} must be reais per message, like 0.04"))),
    };
    Ok(MessageRates {
        marketing: rate("WHATSAPP_RATE_MARKETING_BRL", defaults.marketing)?,
        utility: rate("WHATSAPP_RATE_UTILITY_BRL", defaults.utility)?,
        authentication: rate("WHATSAPP_RATE_AUTHENTICATION_BRL", defaults.authentication)?,
        service: rate("WHATSAPP_RATE_SERVICE_BRL", defaults.service)?,
    })
}

fn required(var: &dyn Fn(&str) -> Option<String>, key: &str, because: &str) -> Result<String, ConfigError> {
    var(key).ok_or_else(|| ConfigError(format!("{key} is required with {because}")))
}

/// `TRUSTED_PROXIES`: comma-separated addresses or networks (`10.0.0.0/8`, `127.0.0.1`).
fn trusted_proxies(var: &dyn Fn(&str) -> Option<String>) -> Result<Vec<ipnet::IpNet>, ConfigError> {
    let Some(list) = var("TRUSTED_PROXIES") else { return Ok(Vec::new()) };
    list.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.parse::<ipnet::IpNet>()
                .or_else(|_| item.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| {
                    ConfigError(format!("TRUSTED_PROXIES has {item:?}, which is not an address or network"))
                })
        })
        .collect()
}

fn parse_number(var: &dyn Fn(&str) -> Option<String>, key: &str, default: u64) -> Result<u64, ConfigError> {
    match var(key) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| ConfigError(format!("{key} must be a whole number, not {v:?}"))),
    }
}

/// In development the JWT key is generated once and kept in `data/`, so sessions survive restarts
/// without anyone having to invent a secret.
fn development_jwt_secret() -> Result<Secret, ConfigError> {
    let path = PathBuf::from("data/jwt_secret");
    if let Ok(existing) = std::fs::read_to_string(&path)
        && existing.trim().len() >= MIN_SECRET_BYTES
    {
        return Ok(Secret::new(existing.trim()));
    }
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::create_dir_all("data").and_then(|()| std::fs::write(&path, &secret)).map_err(|e| {
        ConfigError(format!("JWT_SECRET is unset and data/jwt_secret cannot be written: {e}"))
    })?;
    Ok(Secret::new(secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let mut map: HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        map.entry("JWT_SECRET".into()).or_insert_with(|| "x".repeat(40));
        Config::from_source(&map)
    }

    const CLOUD: [(&str, &str); 6] = [
        ("WHATSAPP_MODE", "cloud"),
        ("WHATSAPP_BUSINESS_NUMBER", "+55 11 3456-7890"),
        ("WHATSAPP_PHONE_NUMBER_ID", "123"),
        ("WHATSAPP_ACCESS_TOKEN", "token"),
        ("WHATSAPP_APP_SECRET", "0123456789abcdef0123456789abcdef"),
        ("WHATSAPP_VERIFY_TOKEN", "a-verify-token"),
    ];
    const STRIPE: [(&str, &str); 5] = [
        ("PAYMENTS_PROVIDER", "stripe"),
        ("STRIPE_SECRET_KEY", "sk_live_x"),
        ("STRIPE_WEBHOOK_SECRET", "whsec_0123456789abcdef0123456789abcdef"),
        ("STRIPE_PRICE_PRO_MONTHLY", "price_m"),
        ("STRIPE_PRICE_PRO_YEARLY", "price_y"),
    ];

    /// A production configuration that starts, with `changes` applied.
    fn production(changes: &[(&'static str, &'static str)]) -> Result<Config, ConfigError> {
        let mut pairs: HashMap<&str, &str> = [
            ("SOCIO_ENV", "production"),
            ("PUBLIC_URL", "https://socio.app"),
            ("SOCIO_ADDR", "0.0.0.0:8080"),
            ("JWT_SECRET", "a-production-secret-of-forty-bytes-012345"),
        ]
        .into_iter()
        .chain(CLOUD)
        .chain(STRIPE)
        .collect();
        pairs.extend(changes.iter().copied());
        config(&pairs.into_iter().collect::<Vec<_>>())
    }

    #[test]
    fn production_refuses_settings_an_attacker_could_use() {
        let refused = |changes: &[(&'static str, &'static str)], names: &str| {
            let err = production(changes).unwrap_err();
            assert!(err.0.contains(names), "{changes:?}: {err}");
        };
        refused(&[("TRUSTED_PROXIES", "0.0.0.0/0")], "TRUSTED_PROXIES");
        refused(&[("TRUSTED_PROXIES", "10.0.0.0/8, ::/0")], "TRUSTED_PROXIES");
        refused(&[("WHATSAPP_GRAPH_URL", "http://graph.facebook.com/v23.0")], "WHATSAPP_GRAPH_URL");
        refused(&[("STRIPE_API_URL", "http://api.stripe.com")], "STRIPE_API_URL");
        refused(&[("LLM_BASE_URL", "http://llm.example.com/v1")], "LLM_BASE_URL");
        refused(&[("JWT_SECRET", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")], "JWT_SECRET");
        refused(&[("JWT_SECRET", "12341234123412341234123412341234")], "JWT_SECRET");
        let without_verify_token = {
            let mut pairs: Vec<(&str, &str)> = vec![
                ("SOCIO_ENV", "production"),
                ("PUBLIC_URL", "https://socio.app"),
                ("SOCIO_ADDR", "0.0.0.0:8080"),
                ("JWT_SECRET", "a-production-secret-of-forty-bytes-012345"),
            ];
            pairs.extend(CLOUD.iter().filter(|(k, _)| *k != "WHATSAPP_VERIFY_TOKEN"));
            pairs.extend(STRIPE);
            config(&pairs).unwrap_err()
        };
        assert!(without_verify_token.0.contains("WHATSAPP_VERIFY_TOKEN"), "{without_verify_token}");
        // What a real deployment uses still starts.
        let ok = production(&[
            ("TRUSTED_PROXIES", "10.0.0.0/8"),
            ("LLM_BASE_URL", "http://127.0.0.1:11434/v1"),
            ("PUBLIC_URL", "HTTPS://Socio.App"),
        ])
        .unwrap();
        assert!(ok.serves_https(), "an upper-case scheme is still https");
    }

    #[test]
    fn embedded_defaults_run_everything_locally() {
        let c = config(&[]).unwrap();
        assert_eq!(c.addr.to_string(), "127.0.0.1:8080");
        assert_eq!(c.database_url, "sqlite://data/socio.db");
        assert_eq!(c.whatsapp.mode, WhatsAppMode::Dev);
        assert_eq!(c.payments, PaymentsProvider::Sandbox);
        assert!(c.llm.is_none());
        assert_eq!(c.whatsapp.batch_window, Duration::from_secs(4));
    }

    #[test]
    fn trusted_proxies_are_addresses_or_networks_and_anything_else_is_refused_by_name() {
        let c = config(&[("TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1")]).unwrap();
        assert_eq!(c.trusted_proxies.len(), 2);
        assert!(config(&[]).unwrap().trusted_proxies.is_empty());
        let err = config(&[("TRUSTED_PROXIES", "10.0.0.0/8, balancer")]).unwrap_err();
        assert!(err.0.contains("TRUSTED_PROXIES") && err.0.contains("balancer"), "{err}");
    }

    #[test]
    fn production_refuses_whatsapp_dev_mode_naming_the_variable() {
        let err = config(&[("SOCIO_ENV", "production")]).unwrap_err();
        assert!(err.0.contains("WHATSAPP_MODE"), "{err}");
    }

    #[test]
    fn production_refuses_sandbox_payments_naming_the_variable() {
        let mut pairs = vec![("SOCIO_ENV", "production")];
        pairs.extend(CLOUD);
        let err = config(&pairs).unwrap_err();
        assert!(err.0.contains("PAYMENTS_PROVIDER"), "{err}");
    }

    #[test]
    fn production_refuses_a_missing_or_short_jwt_secret() {
        let map: HashMap<String, String> =
            [("SOCIO_ENV", "production")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert!(Config::from_source(&map).unwrap_err().0.contains("JWT_SECRET"));
        let err = config(&[("SOCIO_ENV", "production"), ("JWT_SECRET", "short")]).unwrap_err();
        assert!(err.0.contains("JWT_SECRET"), "{err}");
    }

    #[test]
    fn cloud_mode_requires_its_credentials() {
        let err = config(&[("WHATSAPP_MODE", "cloud")]).unwrap_err();
        assert!(err.0.contains("WHATSAPP_BUSINESS_NUMBER"), "every wa.me link needs the real number: {err}");
        let err =
            config(&[("WHATSAPP_MODE", "cloud"), ("WHATSAPP_BUSINESS_NUMBER", "551134567890")]).unwrap_err();
        assert!(err.0.contains("WHATSAPP_PHONE_NUMBER_ID"), "{err}");
    }

    #[test]
    fn production_starts_with_real_providers_and_a_strong_secret() {
        assert!(production(&[]).unwrap().is_production());
    }

    #[test]
    fn production_refuses_an_http_or_local_public_url_naming_the_variable() {
        for url in [
            "http://socio.app",
            "https://localhost:8080",
            "https://127.0.0.1",
            "https://app.localhost",
            "https://[::1]",
        ] {
            let err = production(&[("PUBLIC_URL", url)]).unwrap_err();
            assert!(err.0.contains("PUBLIC_URL"), "{url}: {err}");
        }
    }

    #[test]
    fn production_refuses_short_webhook_secrets_naming_the_variable() {
        let err = production(&[("WHATSAPP_APP_SECRET", "secret")]).unwrap_err();
        assert!(err.0.contains("WHATSAPP_APP_SECRET"), "{err}");
        let err = production(&[("STRIPE_WEBHOOK_SECRET", "whsec_short")]).unwrap_err();
        assert!(err.0.contains("STRIPE_WEBHOOK_SECRET"), "{err}");
        let err = production(&[("JWT_SECRET", "thirty-one-bytes-is-not-enough")]).unwrap_err();
        assert!(err.0.contains("JWT_SECRET"), "{err}");
    }

    #[test]
    fn the_dev_simulator_listens_on_loopback_only_in_any_environment() {
        let err = config(&[("SOCIO_ADDR", "0.0.0.0:8080")]).unwrap_err();
        assert!(err.0.contains("WHATSAPP_MODE") && err.0.contains("SOCIO_ADDR"), "{err}");
        assert!(config(&[("SOCIO_ADDR", "[::1]:8080")]).is_ok());
        let mut cloud = vec![("SOCIO_ADDR", "0.0.0.0:8080")];
        cloud.extend(CLOUD);
        assert!(config(&cloud).is_ok(), "the Cloud API may listen anywhere");
    }

    #[test]
    fn secrets_never_show_in_debug_output() {
        let c = config(&[("JWT_SECRET", "a-very-long-secret-that-must-not-leak-0123")]).unwrap();
        assert!(!format!("{c:?}").contains("must-not-leak"));
    }

    #[test]
    fn unknown_database_scheme_is_refused() {
        assert!(config(&[("DATABASE_URL", "mysql://x")]).unwrap_err().0.contains("DATABASE_URL"));
    }
}
