//! Costs that must not grow with other people's data: a person's calls (who they are, their
//! dashboard, their messages, their results) and the admin's page of users, measured on a database
//! that holds only the people measured and on the seeded one (10k users, 200k messages), one after
//! the other in the same run. Each side runs twice, alternating, and keeps its better figure, so a
//! passing moment of the machine does not decide the comparison.

use std::time::Duration;

use serde_json::{Value, json};

use crate::{
    fakes::Fakes,
    load::{self, Outcome},
    seed::Size,
    server::Server,
    setup::{self, BenchDatabase},
    wrk,
};

/// The people the empty database holds: the admin and the measured Pro user have their rows (a
/// plan, twenty messages each), nobody else exists.
pub const EMPTY: Size = Size { users: 20, messages: 400 };
/// Within this share of the empty database's throughput, a call's cost does not grow with the data.
pub const SAME_COST: f64 = 0.80;

/// One call on both databases.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub call: String,
    pub empty: Outcome,
    pub seeded: Outcome,
}

impl Comparison {
    /// The seeded database's throughput as a share of the empty one's.
    pub fn ratio(&self) -> f64 {
        self.seeded.per_second / self.empty.per_second.max(1.0)
    }

    pub fn json(&self) -> Value {
        json!({"call": self.call, "empty": self.empty.json(), "seeded": self.seeded.json(),
               "seededShare": load::round(self.ratio())})
    }
}

/// Every call of the comparison, on `seeded` (already seeded) and on a fresh database of [`EMPTY`]
/// size, each served by its own release server.
/// `seeded_tokens` are the seeded database's (its people logged in once already).
pub async fn compare(
    engine: &str,
    seeded: &str,
    seeded_tokens: &setup::Tokens,
    options: &setup::Options,
) -> anyhow::Result<Vec<Comparison>> {
    // The ingestion scenario left thousands of welcomes queued on the seeded database: its server
    // would send them while the empty one is measured, on the same cores.
    let db = socio::db::Db::connect(seeded).await?;
    sqlx::query("delete from jobs where status in ('queued', 'running')").execute(db.pool()).await?;
    db.close().await;
    let empty = setup::fresh_database(engine, BenchDatabase::Empty, EMPTY, options).await?;
    let fakes = Fakes::start().await?;
    let empty_server = Server::start(&setup::server_env(&fakes, &empty)).await?;
    let seeded_server = Server::start(&setup::server_env(&fakes, seeded)).await?;
    let channel =
        tonic::transport::Channel::from_shared(format!("http://{}", empty_server.address))?.connect().await?;
    let empty_tokens = setup::Tokens {
        admin: setup::login(&channel, &fakes, 1).await?,
        user: setup::login(&channel, &fakes, setup::DASHBOARD_USER).await?,
    };
    let sides = [
        (format!("http://{}", empty_server.address), &empty_tokens.user, &empty_tokens.admin),
        (format!("http://{}", seeded_server.address), &seeded_tokens.user, &seeded_tokens.admin),
    ];
    let calls = [
        ("GetMe", "/api/auth/me", false),
        ("GetDashboard", "/api/dashboard", false),
        ("the person's messages", "/api/dashboard/messages", false),
        ("the person's results", "/api/results", false),
        ("ListUsers (admin, page of 20)", "/api/admin/users?page=1&limit=20", true),
    ];
    let mut comparisons = Vec::new();
    for (name, path, as_admin) in calls {
        eprintln!("   same cost on an empty and a seeded database: {name}");
        let mut best: [Option<Outcome>; 2] = [None, None];
        for _round in 0..2 {
            for (side, (base, user, admin)) in sides.iter().enumerate() {
                let token = if as_admin { admin } else { user };
                let outcome = get(&format!("{base}{path}"), token, options).await?;
                if best[side].as_ref().is_none_or(|b| outcome.per_second > b.per_second) {
                    best[side] = Some(outcome);
                }
            }
        }
        let [Some(empty), Some(seeded)] = best else { unreachable!("two rounds ran") };
        comparisons.push(Comparison { call: name.to_owned(), empty, seeded });
    }
    empty_server.stop()?;
    seeded_server.stop()?;
    Ok(comparisons)
}

/// `GET url` as the REST targets are measured: `wrk` when installed, else the bench's client.
async fn get(url: &str, token: &str, options: &setup::Options) -> anyhow::Result<Outcome> {
    let (c, d) = (options.concurrency, (options.duration / 2).max(Duration::from_secs(1)));
    if wrk::available() {
        tokio::time::sleep(Duration::from_millis(300)).await;
        return wrk::get(url, token, c, d).await;
    }
    let http = reqwest::Client::builder().pool_max_idle_per_host(c).build()?;
    let (url, token) = (url.to_owned(), token.to_owned());
    Ok(load::drive(c, Duration::from_millis(300), d, move |_, _| {
        let request = http.get(&url).bearer_auth(&token);
        async move { request.send().await.is_ok_and(|r| r.status().is_success()) }
    })
    .await)
}
