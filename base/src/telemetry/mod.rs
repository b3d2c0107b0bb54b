//! Logging: human-readable lines filtered by `RUST_LOG` (default `info`). Tests send logs to a
//! sink unless `TEST_LOG=1`. Nothing here ever logs a header, body or query string. Metrics live
//! in [`metrics`], what the health endpoints read in [`health`].

pub mod health;
pub mod metrics;
pub mod throttle;

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,h2=warn,hyper=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).try_init();
}

/// For tests: logs only when `TEST_LOG` is set.
pub fn init_for_tests() {
    if std::env::var_os("TEST_LOG").is_some() {
        init();
    }
}
