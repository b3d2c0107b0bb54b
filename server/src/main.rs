//! The `socio` binary: `serve` (the default), `migrate`, `admin promote <phone>`.

use std::process::ExitCode;

use socio::{
    app::Application,
    config::Config,
    db::Db,
    identity::{phone::PhoneNumber, roles},
    telemetry,
};

const USAGE: &str = "usage: socio [serve | migrate | admin promote <phone>]";

#[tokio::main]
async fn main() -> ExitCode {
    telemetry::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let outcome = match args.as_slice() {
        [] | ["serve"] => serve().await,
        ["migrate"] => migrate().await,
        ["admin", "promote", phone] => promote(phone).await,
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

async fn migrate() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    println!("database is up to date");
    for conflict in socio::identity::directory::identity_conflicts(&db).await? {
        println!(
            "two accounts are one person: {} did not keep the number, {} did (README, Administration)",
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
    let mut tx = db.begin().await?;
    let user = roles::ensure_admin(&mut tx, &phone).await?;
    tx.commit().await?;
    tracing::info!(target: "security", event = "admin_promoted", user = %user.id, phone = %phone.masked());
    println!("{} is now an admin", user.handle());
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
