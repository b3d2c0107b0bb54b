//! What every measurement of `socio-bench` starts from: its options, a freshly seeded database
//! for an engine, the bench server's settings, and people signed in the real way (a code over
//! WhatsApp to the fake Graph API, then verified).

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, bail};
use socio::{
    db::Db,
    proto::socio::v1::{SendCodeRequest, VerifyCodeRequest, auth_service_client::AuthServiceClient},
};
use tonic::{Request, transport::Channel};

use crate::{
    fakes::Fakes,
    seed::{self, Size},
};

pub struct Options {
    pub engines: Vec<String>,
    pub concurrency: usize,
    /// How many people the crowd has.
    pub people: usize,
    pub duration: Duration,
    pub out: PathBuf,
    pub postgres_url: String,
}

/// The seeded Pro user with a plan whose dashboard is measured.
pub const DASHBOARD_USER: usize = 10;

/// Which of the bench's databases: the seeded one every scenario runs on, or the one holding only
/// the people measured (the costs' comparison).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchDatabase {
    Seeded,
    Empty,
}

impl BenchDatabase {
    fn name(self) -> &'static str {
        match self {
            BenchDatabase::Seeded => "socio_bench",
            BenchDatabase::Empty => "socio_bench_empty",
        }
    }
}

/// A new, migrated database for `engine` holding `size`'s people; its address.
pub async fn fresh_database(
    engine: &str,
    which: BenchDatabase,
    size: Size,
    options: &Options,
) -> anyhow::Result<String> {
    let name = which.name();
    let url = match engine {
        "sqlite" => {
            let dir = std::env::current_dir()?.join("target/bench");
            std::fs::create_dir_all(&dir)?;
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(dir.join(format!("{name}.db{suffix}")));
            }
            format!("sqlite://{}", dir.join(format!("{name}.db")).display())
        }
        "postgres" => {
            let admin = Db::connect(&options.postgres_url).await?;
            sqlx::query(sqlx::AssertSqlSafe(format!("drop database if exists {name} with (force)")))
                .execute(admin.pool())
                .await?;
            sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}"))).execute(admin.pool()).await?;
            admin.close().await;
            let (base, _) = options.postgres_url.split_once('?').unwrap_or((&options.postgres_url, ""));
            let (server, _) = base.rsplit_once('/').context("BENCH_POSTGRES_URL has no database name")?;
            format!("{server}/{name}")
        }
        other => bail!("unknown engine {other}: sqlite or postgres"),
    };
    let db = Db::connect(&url).await?;
    db.migrate().await?;
    let took = seed::seed(&db, size).await?;
    eprintln!("   seeded {} users and {} messages in {:.1} s", size.users, size.messages, took.as_secs_f64());
    db.close().await;
    Ok(url)
}

/// Access tokens of the seeded admin (user 1) and of the user whose dashboard is measured.
pub struct Tokens {
    pub admin: String,
    pub user: String,
}

/// A bench server's settings: the fakes, the database, user 1 as the admin, replies at once.
pub fn server_env(fakes: &Fakes, url: &str) -> Vec<(&'static str, String)> {
    let mut env = fakes.config();
    env.extend([
        ("DATABASE_URL", url.to_owned()),
        ("JWT_SECRET", "bench-secret-that-is-long-enough-0123456789".into()),
        ("ADMIN_PHONES", seed::phone(1)),
        // Reply at once: the batch window is a deliberate wait, not pipeline overhead.
        ("WHATSAPP_BATCH_WINDOW_MS", "0".into()),
    ]);
    env
}

/// A gRPC request carrying `token` (none when empty).
pub fn authorized<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    if !token.is_empty() {
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().expect("ascii token"));
    }
    request
}

/// Logs seeded user `n` in the real way: a code sent over WhatsApp (to the fake Graph API), then
/// verified. The access token.
pub async fn login(channel: &Channel, fakes: &Fakes, n: usize) -> anyhow::Result<String> {
    let phone = seed::phone(n);
    let mut auth = AuthServiceClient::new(channel.clone());
    auth.send_code(SendCodeRequest { phone_number: phone.clone(), language: "pt-BR".into() }).await?;
    let digits = phone.trim_start_matches('+');
    for _ in 0..500 {
        if let Some(code) = fakes.latest_code(digits) {
            let verified = auth
                .verify_code(VerifyCodeRequest {
                    phone_number: phone,
                    verification_code: code,
                    language: "pt-BR".into(),
                })
                .await?;
            return Ok(verified.into_inner().token);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    bail!("no login code reached the Graph API for {phone}")
}
