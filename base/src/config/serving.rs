//! What this process serves and runs: its HTTP connection limits, the proxies whose
//! `X-Forwarded-For` it believes, and its job workers.

use std::time::Duration;

use super::{ConfigError, parse_number};

/// The job workers of this process.
#[derive(Clone, Copy, Debug)]
pub struct JobsConfig {
    /// How many jobs of the shared lane (sends, notices, billing, exports…) run at once.
    pub workers: usize,
    /// How many replies — model calls — one process keeps in flight (`LLM_MAX_CONCURRENCY`); they
    /// have a lane of their own, so they never wait for, nor hold up, the shared one.
    pub model_calls: usize,
    /// How many WhatsApp sends one process keeps in flight (`WHATSAPP_SEND_CONCURRENCY`, 64): their
    /// own lane, I/O to Meta. Meta limits a number's throughput on its side — 80 messages a second,
    /// 1,000 once upgraded — and answers 130429 beyond it, which is retried; at its usual latency 64
    /// in flight stays within an upgraded number's rate, and a crowd of 1,000 measured its fastest
    /// between 64 and 128 (16 left the sends waiting on our own cap; docs/performance.md).
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

pub(super) fn connection_limits(
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

/// `TRUSTED_PROXIES`: comma-separated addresses or networks (`10.0.0.0/8`, `127.0.0.1`).
pub(super) fn trusted_proxies(
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ipnet::IpNet>, ConfigError> {
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

pub(super) fn jobs_config(var: &dyn Fn(&str) -> Option<String>) -> Result<JobsConfig, ConfigError> {
    Ok(JobsConfig {
        workers: parse_number(&var, "SOCIO_WORKERS", 4)?.clamp(1, 64) as usize,
        model_calls: parse_number(&var, "LLM_MAX_CONCURRENCY", 1024)?.clamp(1, 4096) as usize,
        sends: parse_number(&var, "WHATSAPP_SEND_CONCURRENCY", 64)?.clamp(1, 256) as usize,
        retry_base: Duration::from_millis(parse_number(&var, "SOCIO_JOB_RETRY_BASE_MS", 2000)?.max(1)),
        lease: Duration::from_millis(parse_number(&var, "SOCIO_JOB_LEASE_MS", 30_000)?.max(300)),
        reminders_every: Some(parse_number(&var, "SOCIO_REMINDERS_EVERY_S", 60)?)
            .filter(|s| *s > 0)
            .map(Duration::from_secs),
    })
}
