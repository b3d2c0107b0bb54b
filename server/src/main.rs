//! The `socio` binary: `serve` (the default), `migrate`, `admin promote <phone>`.

use std::process::ExitCode;

use socio::{
    app::Application,
    config::Config,
    db::Db,
    identity::{phone::PhoneNumber, users},
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
    let config = Config::from_env()?;
    let app = Application::build(config).await?;
    app.run_until_stopped(shutdown_signal()).await
}

async fn migrate() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    println!("database is up to date");
    Ok(())
}

/// Grants the admin role to a number (registering it if it never wrote to us).
async fn promote(phone: &str) -> anyhow::Result<()> {
    let phone = PhoneNumber::parse(phone).map_err(|_| anyhow::anyhow!("{phone:?} is not a phone number"))?;
    let config = Config::from_env()?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    let mut conn = db.pool().acquire().await?;
    let user = users::ensure_admin(&mut conn, &phone).await?;
    tracing::info!(target: "security", event = "admin_promoted", user = %user.id, phone = %phone.masked());
    println!("{} is now an admin", phone.e164());
    Ok(())
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}
