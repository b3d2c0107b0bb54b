//! The upper bounds production holds its time limits and caps to: past them a value is a typo or
//! an attack on the server's own defences (a body timeout of a day keeps a slow client's
//! connection for a day; 10⁸ connections is no cap at all; a batch window of three years never
//! answers). Each bound is far above any sane setting and stated in README (Security).

use std::time::Duration;

use super::{Config, ConfigError};

/// A setting's name, its value and the most production accepts.
struct Bound {
    name: &'static str,
    value: u128,
    max: u128,
    unit: &'static str,
}

const MINUTE_MS: u128 = 60_000;

fn ms(name: &'static str, value: Duration, max_ms: u128) -> Bound {
    Bound { name, value: value.as_millis(), max: max_ms, unit: " ms" }
}

fn count(name: &'static str, value: usize, max: u128) -> Bound {
    Bound { name, value: value as u128, max, unit: "" }
}

impl Config {
    pub(super) fn refuse_absurd_limits(&self) -> Result<(), ConfigError> {
        let c = &self.connections;
        let bounds = [
            ms("HTTP_FIRST_BYTES_TIMEOUT_MS", c.first_bytes, MINUTE_MS),
            ms("HTTP_HEADERS_TIMEOUT_MS", c.headers, MINUTE_MS),
            ms("HTTP_BODY_TIMEOUT_MS", c.body, 10 * MINUTE_MS),
            ms("HTTP_IDLE_TIMEOUT_MS", c.idle, 60 * MINUTE_MS),
            count("HTTP_MAX_CONNECTIONS", c.max_connections, 1_000_000),
            count("HTTP_MAX_CONNECTIONS_PER_ADDRESS", c.max_per_address, 65_536),
            count("HTTP2_MAX_STREAMS", c.max_streams_per_connection as usize, 1_000),
            ms("WHATSAPP_BATCH_WINDOW_MS", self.whatsapp.batch_window, MINUTE_MS),
            ms("WHATSAPP_BATCH_MAX_MS", self.whatsapp.batch_max, 5 * MINUTE_MS),
            ms("SOCIO_JOB_RETRY_BASE_MS", self.jobs.retry_base, 10 * MINUTE_MS),
            ms("SOCIO_JOB_LEASE_MS", self.jobs.lease, 10 * MINUTE_MS),
        ];
        if let Some(over) = bounds.iter().find(|b| b.value > b.max) {
            return Err(ConfigError(format!(
                "{} is {}{unit}, beyond the {}{unit} production accepts (README, Security): a limit that \
                 large is no limit",
                over.name,
                over.value,
                over.max,
                unit = over.unit
            )));
        }
        Ok(())
    }
}
