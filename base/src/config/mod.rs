//! Configuration from the environment (and a `.env` file when present); docs/ARCHITECTURE.md,
//! "Configuration", lists every variable.
//!
//! Every variable has an embedded default that runs the whole product on one machine. In
//! production (`SOCIO_ENV=production`) the dev defaults are refused with a message that names the
//! variable to set, so a misconfigured deployment never starts half-safe.
//!
//! The variables are read here in the order of a `Config`'s fields; the providers' settings
//! (`providers`), this process's serving and job limits (`serving`) and the refusals of production
//! (`production`; its secrets in `secrets`, its upper bounds in `bounds`) have modules of their own.

use std::{collections::HashMap, fmt, net::SocketAddr, path::PathBuf};

use rand::RngCore;

mod bounds;
mod production;
mod providers;
mod secrets;
mod serving;
#[cfg(test)]
mod tests;

pub use providers::{LlmConfig, MessageRates, PaymentsProvider, StripeConfig, WhatsAppConfig, WhatsAppMode};
use providers::{llm_config, payments, whatsapp_config};
pub use serving::JobsConfig;
use serving::{connection_limits, jobs_config, trusted_proxies};

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

    /// A key of its own for one use of the secret (login codes, links, exports): HMAC-SHA256 of the
    /// purpose under the secret, so what is signed for one use is never valid for another.
    pub fn purpose_key(&self, purpose: &str) -> Vec<u8> {
        use hmac::{Hmac, Mac};
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(self.0.as_bytes()).expect("any key length");
        mac.update(purpose.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
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
    /// `REFRESH_REUSE_INTERVAL_S` (10, at most 60): a refresh token presented again this soon after
    /// its first use renews the same session instead of revoking it (two tabs, a lost answer).
    pub refresh_reuse_interval: std::time::Duration,
    pub web_dir: PathBuf,
    /// `SOCIO_FACTS_FILE`: a facts file (the format of `base/data/business-facts.json`) used in
    /// place of the built-in one, checked at start — a new year's DAS without a build.
    pub facts_file: Option<PathBuf>,
    /// `SOCIO_TESTIMONIALS_FILE`: the testimonials the landing page may quote (a JSON list of
    /// `{name, role, text, language}`), checked at start; unset, it quotes none.
    pub testimonials_file: Option<PathBuf>,
    pub whatsapp: WhatsAppConfig,
    /// None: the offline guided consultant.
    pub llm: Option<LlmConfig>,
    pub payments: PaymentsProvider,
    pub stripe: Option<StripeConfig>,
    pub jobs: JobsConfig,
    /// "Now" for the whole application: the machine's time; in development `SOCIO_DEV_CLOCK`
    /// starts it at another instant, from where it runs (`make eval`'s personas of 2027); tests
    /// give the application an adjustable clock and move it.
    pub clock: crate::clock::Clock,
}

/// A configuration that cannot run; the message names the variable to fix.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(pub String);

/// The address people reach a server bound to `addr` at, on this machine: `localhost` for a
/// loopback or every-interface bind (`0.0.0.0:3000` → `http://localhost:3000`), else its IP.
fn local_url(addr: std::net::SocketAddr) -> String {
    let ip = addr.ip();
    if ip.is_loopback() || ip.is_unspecified() {
        format!("http://localhost:{}", addr.port())
    } else {
        format!("http://{addr}")
    }
}

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
        let mode = run_mode(&var)?;
        let addr = var("SOCIO_ADDR")
            .unwrap_or_else(|| "127.0.0.1:8080".into())
            .parse()
            .map_err(|_| ConfigError("SOCIO_ADDR must be host:port, e.g. 127.0.0.1:8080".into()))?;
        // Without PUBLIC_URL, links (checkout, login, the plan) point at the address served.
        let public_url =
            var("PUBLIC_URL").unwrap_or_else(|| local_url(addr)).trim_end_matches('/').to_owned();
        let database_url = var("DATABASE_URL").unwrap_or_else(|| "sqlite://data/socio.db".into());
        if !(database_url.starts_with("sqlite:")
            || database_url.starts_with("postgres://")
            || database_url.starts_with("postgresql://"))
        {
            return Err(ConfigError("DATABASE_URL must start with sqlite:// or postgres://".into()));
        }

        let jwt_secret = jwt_secret(&var, mode)?;

        let whatsapp = whatsapp_config(&var)?;
        let llm = llm_config(&var)?;
        let (payments, stripe) = payments(&var)?;

        let config = Config {
            clock: dev_clock(&var, mode)?,
            addr,
            mode,
            public_url,
            database_url,
            jwt_secret,
            admin_phones: var("ADMIN_PHONES")
                .map(|list| list.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect())
                .unwrap_or_default(),
            support_email: var("SUPPORT_EMAIL").unwrap_or_else(|| "suporte@socio.app".into()),
            controller: controller(&var),
            trusted_proxies: trusted_proxies(&var)?,
            metrics_token: var("METRICS_TOKEN").filter(|t| !t.trim().is_empty()).map(Secret::new),
            connections: connection_limits(&var)?,
            refresh_reuse_interval: refresh_reuse_interval(&var)?,
            web_dir: PathBuf::from(var("SOCIO_WEB_DIR").unwrap_or_else(|| "web/dist".into())),
            facts_file: var("SOCIO_FACTS_FILE").map(PathBuf::from),
            testimonials_file: var("SOCIO_TESTIMONIALS_FILE").map(PathBuf::from),
            whatsapp,
            llm,
            payments,
            stripe,
            jobs: jobs_config(&var)?,
        };
        config.refuse_an_open_simulator()?;
        config.refuse_dev_defaults_in_production()?;
        Ok(config)
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

fn run_mode(var: &dyn Fn(&str) -> Option<String>) -> Result<RunMode, ConfigError> {
    Ok(match var("SOCIO_ENV").as_deref() {
        None | Some("development") | Some("dev") | Some("test") => RunMode::Development,
        Some("production") | Some("prod") => RunMode::Production,
        Some(other) => {
            return Err(ConfigError(format!("SOCIO_ENV must be development or production, not {other:?}")));
        }
    })
}

/// `SOCIO_DEV_CLOCK`: in development, the instant the application's clock starts at — a day
/// (`2027-01-05`, 09:00 in São Paulo, outside the quiet hours) or an instant with its offset
/// (`2027-01-05T10:00:00-03:00`) — from where it runs; unset, the machine's time. Production
/// refuses it: a server living on another day would charge, remind and send on the wrong one.
fn dev_clock(
    var: &dyn Fn(&str) -> Option<String>,
    mode: RunMode,
) -> Result<crate::clock::Clock, ConfigError> {
    let Some(text) = var("SOCIO_DEV_CLOCK") else {
        return Ok(crate::clock::Clock::system());
    };
    if mode == RunMode::Production {
        return Err(ConfigError("SOCIO_DEV_CLOCK is refused in production: unset it".into()));
    }
    let clock = crate::clock::Clock::adjustable();
    clock.set(dev_clock_start(&text)?);
    Ok(clock)
}

/// The instant a `SOCIO_DEV_CLOCK` value names (Unix ms): a day at 09:00 in São Paulo, or the
/// instant written. Also how `make eval` reads the day it starts a server on.
pub fn dev_clock_start(text: &str) -> Result<i64, ConfigError> {
    match crate::clock::CivilDate::parse_iso(text) {
        Some(day) => Ok(day.starts_at() + 9 * 60 * 60 * 1000),
        None => text.parse::<jiff::Timestamp>().map(|t| t.as_millisecond()).map_err(|_| {
            ConfigError(format!(
                "SOCIO_DEV_CLOCK must be a day (2027-01-05) or an instant with its offset \
                 (2027-01-05T10:00:00-03:00), not {text:?}"
            ))
        }),
    }
}

/// `JWT_SECRET`: required in production, and long enough; generated and kept in development.
fn jwt_secret(var: &dyn Fn(&str) -> Option<String>, mode: RunMode) -> Result<Secret, ConfigError> {
    Ok(match (var("JWT_SECRET"), mode) {
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
    })
}

/// `REFRESH_REUSE_INTERVAL_S`: 0 to 60 seconds (longer would let a stolen token's reuse pass as a
/// second tab's for too long).
fn refresh_reuse_interval(var: &dyn Fn(&str) -> Option<String>) -> Result<std::time::Duration, ConfigError> {
    let seconds = parse_number(var, "REFRESH_REUSE_INTERVAL_S", 10)?;
    if seconds > 60 {
        return Err(ConfigError(format!(
            "REFRESH_REUSE_INTERVAL_S must be at most 60 seconds (a reused refresh token beyond it revokes its session), not {seconds}"
        )));
    }
    Ok(std::time::Duration::from_secs(seconds))
}

fn controller(var: &dyn Fn(&str) -> Option<String>) -> Controller {
    Controller {
        name: var("CONTROLLER_NAME").filter(|n| !n.trim().is_empty()).unwrap_or_else(|| "Sócio".into()),
        cnpj: var("CONTROLLER_CNPJ").map(|c| c.trim().to_owned()).unwrap_or_default(),
    }
}

fn required(var: &dyn Fn(&str) -> Option<String>, key: &str, because: &str) -> Result<String, ConfigError> {
    var(key).ok_or_else(|| ConfigError(format!("{key} is required with {because}")))
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
