//! The `socio` binary: `serve` (the default), `migrate`, `admin promote <phone>`,
//! `reminders run [--now <RFC 3339 instant>]`, `facts [--on <YYYY-MM-DD>]`.

use std::process::ExitCode;

use socio::{
    app::Application,
    config::Config,
    db::Db,
    identity::{phone::PhoneNumber, roles},
    telemetry,
};

/// jemalloc rather than glibc's malloc: the server allocates for every call (headers, JSON,
/// protobuf, the REST transcoder's in-process gRPC round), and malloc/free were about 16 % of a
/// signed-in call's CPU (perf; docs/performance.md). (mimalloc was as fast but its per-thread
/// pages cost 30 MiB more at rest with the SQLite and blocking threads.) The `jemalloc` feature, which
/// `make build` and `make bench` turn on; debug builds and tests keep the system allocator.
#[cfg(feature = "jemalloc")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, read at its start (its `malloc_conf` symbol; `_RJEM_MALLOC_CONF` in the
/// environment still overrides them). By default it keeps four arenas a core — 64 on a 16-core
/// machine, each holding freed pages of its own — which is why peak memory grew with the core count
/// (issue 46: 132 MiB under the bench on 16 cores, under 100 on 2). Four arenas whatever the
/// machine: the server's threads (one a core for tokio, eight for SQLite, a few blocking) share
/// them, and allocation is a small part of a call's time. Freed pages go back to the system
/// within a second, by jemalloc's own background thread.
#[cfg(feature = "jemalloc")]
#[allow(non_upper_case_globals)]
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static malloc_conf: &[u8; 73] =
    b"narenas:4,background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:1000\0";

const USAGE: &str = "usage: socio [serve | migrate | admin promote <phone> | reminders run [--now <RFC 3339 instant>] | facts [--on <YYYY-MM-DD>]]";

#[tokio::main]
async fn main() -> ExitCode {
    telemetry::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let outcome = match args.as_slice() {
        [] | ["serve"] => serve().await,
        ["migrate"] => migrate().await,
        ["admin", "promote", phone] => promote(phone).await,
        ["reminders", "run"] => run_reminders(None).await,
        ["reminders", "run", "--now", now] => run_reminders(Some(now)).await,
        ["facts"] => facts(None),
        ["facts", "--on", day] => facts(Some(day)),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("socio: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> anyhow::Result<()> {
    let stop = shutdown_signal()?;
    let config = Config::from_env()?;
    match socio::connections::raise_open_files() {
        Ok(files) => tracing::info!(files, "open-file limit"),
        Err(error) => tracing::warn!(%error, "could not raise the open-file limit"),
    }
    let app = Application::build(config).await?;
    app.run_until_stopped(stop).await
}

/// Checks the facts in use (`SOCIO_FACTS_FILE` when set, as `serve` reads it) and prints each dated
/// table as it stands on a day (today in São Paulo by default): what to run before restarting with
/// a new year's values.
fn facts(day: Option<&str>) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    if let Some(path) = &config.facts_file {
        socio::facts::install(path).map_err(anyhow::Error::msg)?;
        println!("facts from {}", path.display());
    }
    let today = socio::clock::CivilDate::in_sao_paulo(config.clock.now_ms()).iso();
    let day = match day {
        Some(day) if day.len() == 10 && day.as_bytes()[4] == b'-' && day.as_bytes()[7] == b'-' => {
            day.to_owned()
        }
        Some(other) => anyhow::bail!("--on takes a day as YYYY-MM-DD, not {other:?}"),
        None => today,
    };
    println!("on {day}:");
    for table in socio::facts::tables(&day) {
        println!(
            "  {:<22} {:<8} {} … {}  {}",
            table.id,
            table.status(),
            table.valid_from,
            table.valid_until.as_deref().unwrap_or(""),
            table.summary
        );
    }
    let expired = socio::facts::expired_on(&day);
    if !expired.is_empty() {
        println!("expired: {}", expired.join(", "));
    }
    Ok(())
}

async fn migrate() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    println!("database is up to date");
    for conflict in socio::identity::directory::Directory::new(db.clone()).identity_conflicts().await? {
        println!(
            "two accounts are one person: {} did not keep the number, {} did (docs/admin.md)",
            conflict.user_id, conflict.kept_user_id
        );
    }
    Ok(())
}

/// Grants the admin role to a number (registering it if it never wrote to us).
async fn promote(phone: &str) -> anyhow::Result<()> {
    let phone = PhoneNumber::parse(phone).map_err(|_| anyhow::anyhow!("{phone:?} is not a phone number"))?;
    let config = Config::from_env()?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    let user = roles::Roles::new(db).promote(&phone).await?;
    tracing::info!(target: "security", event = "admin_promoted", user = %user.id, phone = %phone.masked());
    println!("{} is now an admin", user.handle());
    Ok(())
}

/// Runs the reminder scheduler once, as of `now` (default: this instant), and says what it sent.
/// The send jobs it queues go out when a server runs.
async fn run_reminders(now: Option<&str>) -> anyhow::Result<()> {
    let now = match now {
        Some(text) => text
            .parse::<jiff::Timestamp>()
            .map_err(|e| {
                anyhow::anyhow!(
                    "--now {text:?} is not an RFC 3339 instant ({e}); e.g. 2026-12-01T09:00:00-03:00"
                )
            })?
            .as_millisecond(),
        None => socio::clock::Clock::system().now_ms(),
    };
    let config = Config::from_env()?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    let run = socio::conversation::proactive::Proactive::new(db).run(now).await?;
    println!("reminders: {} sent, {} people with reminders on", run.sent, run.considered);
    Ok(())
}

/// Resolves on SIGINT or SIGTERM. The handlers are installed here, before the server starts
/// answering, so a signal that arrives as soon as it is up still stops it gracefully.
#[cfg(unix)]
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
        tracing::info!("shutting down");
    })
}

#[cfg(not(unix))]
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    })
}
