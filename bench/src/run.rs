//! `socio-bench run`: for each engine, a freshly seeded database, the release binary started
//! against it with the fakes, then every scenario in turn while the server's memory is sampled.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use socio::{
    db::Db,
    proto::socio::v1::{
        GetDashboardRequest, GetMeRequest, ListUsersRequest, admin_service_client::AdminServiceClient,
        auth_service_client::AuthServiceClient, dashboard_service_client::DashboardServiceClient,
    },
};
use tonic::transport::Channel;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

use crate::{
    costs, crowd,
    deliveries::{delivery, post_delivery},
    fakes::Fakes,
    load::{self, Outcome},
    report::{EngineResult, Pipeline, Report, WRK_WEBHOOK},
    seed::{self, Size},
    server::{Server, memory_mib},
    setup::{BenchDatabase, DASHBOARD_USER, Options, Tokens, authorized, fresh_database, login, server_env},
    wrk,
};

const WARMUP: Duration = Duration::from_secs(1);
/// Messages through the reply pipeline, one at a time, each from another person: two hundred, so
/// that the figure includes a queue that has worked a while (a hundred showed PostgreSQL's claims
/// at their cheapest, before the table's old versions piled up: `db::jobs::tidy`).
const PIPELINE_ROUNDS: usize = 200;

pub async fn run(options: Options) -> anyhow::Result<()> {
    let mut report = Report::new(options.concurrency, options.duration);
    for engine in &options.engines {
        eprintln!("── {engine}");
        let url = fresh_database(engine, BenchDatabase::Seeded, Size::default(), &options).await?;
        report.engines.push(bench_engine(engine, &url, &options).await?);
    }
    report.print();
    report.write(&options.out)?;
    eprintln!("wrote {}", options.out.display());
    Ok(())
}

/// `socio-bench crowd`: the crowd alone, on freshly seeded databases.
pub async fn crowd_only(options: Options) -> anyhow::Result<()> {
    for engine in &options.engines {
        eprintln!("── {engine}: the crowd");
        let url = fresh_database(engine, BenchDatabase::Seeded, Size::default(), &options).await?;
        let setup = crowd::Setup { people: options.people, ..crowd::Setup::default() };
        let result = crowd::crowd(&url, setup).await?;
        println!("{engine}: {}", result.json());
    }
    Ok(())
}

/// The reply pipeline alone, on a quiet server over the seeded database: a message at a time, how
/// long from the webhook to the model and from the model's answer to the Graph API.
pub async fn pipeline_only(options: Options) -> anyhow::Result<()> {
    for engine in &options.engines {
        eprintln!("── {engine}: the reply pipeline, {PIPELINE_ROUNDS} messages one at a time");
        let url = fresh_database(engine, BenchDatabase::Seeded, Size::default(), &options).await?;
        let fakes = Fakes::start().await?;
        let server = Server::start(&server_env(&fakes, &url)).await?;
        let http = reqwest::Client::builder().pool_max_idle_per_host(options.concurrency).build()?;
        let measured = pipeline(&http, &format!("http://{}", server.address), &fakes).await;
        server.stop()?;
        let measured = measured?;
        println!(
            "{engine}: webhook sent → model asked p50 {:.2} ms, p99 {:.2} ms; model's answer → Graph call p50 {:.2} ms, p99 {:.2} ms",
            measured.to_llm_p50_ms,
            measured.to_llm_p99_ms,
            measured.to_graph_p50_ms,
            measured.to_graph_p99_ms
        );
    }
    Ok(())
}

async fn bench_engine(engine: &str, url: &str, options: &Options) -> anyhow::Result<EngineResult> {
    let fakes = Fakes::start().await?;
    let server = Server::start(&server_env(&fakes, url)).await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle_mib = memory_mib(server.pid(), "VmRSS").unwrap_or_default();
    let sampler = MemorySampler::start(server.pid(), idle_mib);

    // Tokens of the admin and the measured user, used again by the costs' comparison (a second
    // code for the same number within a minute is refused, as it should be).
    let channel = Channel::from_shared(format!("http://{}", server.address))?.connect().await?;
    let tokens = Tokens {
        admin: login(&channel, &fakes, 1).await?,
        user: login(&channel, &fakes, DASHBOARD_USER).await?,
    };
    let calls = calls(&server, &tokens, options).await?;
    // The pipeline on a quiet server first; then the ingestion load, whose replies are left queued.
    eprintln!("   reply pipeline, {PIPELINE_ROUNDS} messages one at a time");
    let http = reqwest::Client::builder().pool_max_idle_per_host(options.concurrency).build()?;
    let base = format!("http://{}", server.address);
    let pipeline = pipeline(&http, &base, &fakes).await?;
    let ingestion = ingestion(engine, url, &http, &base, options).await?;

    let peak_mib = sampler.stop().await?;
    let high_water_mib = memory_mib(server.pid(), "VmHWM").unwrap_or(peak_mib);
    server.stop()?;
    let costs = costs::compare(engine, url, &tokens, options).await?;
    let setup = crowd::Setup { people: options.people, ..crowd::Setup::default() };
    eprintln!("   the crowd: {} Pro users at once, the model taking {:?}", setup.people, setup.model_time);
    // On a database seeded afresh, as `socio-bench crowd` does: the one the scenarios above used
    // keeps the ingestion's thousands of people, whose messages stay unanswered once the crowd
    // empties the queue — a backlog the crowd would measure besides its own replies.
    let crowd_url = fresh_database(engine, BenchDatabase::Seeded, Size::default(), options).await?;
    let crowd = crowd::crowd(&crowd_url, setup).await?;
    Ok(EngineResult {
        engine: engine.to_owned(),
        calls,
        ingestion,
        pipeline,
        idle_mib,
        peak_mib: peak_mib.max(high_water_mib),
        crowd,
        costs,
    })
}

/// The server's resident memory, sampled every 100 ms while the scenarios run: the peak seen.
struct MemorySampler {
    peak: Arc<std::sync::Mutex<f64>>,
    sampling: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<()>,
}

impl MemorySampler {
    fn start(pid: u32, idle_mib: f64) -> Self {
        let peak = Arc::new(std::sync::Mutex::new(idle_mib));
        let sampling = Arc::new(AtomicBool::new(true));
        let task = {
            let (peak, sampling) = (peak.clone(), sampling.clone());
            tokio::spawn(async move {
                while sampling.load(Ordering::Relaxed) {
                    if let Some(rss) = memory_mib(pid, "VmRSS") {
                        let mut peak = peak.lock().unwrap();
                        *peak = peak.max(rss);
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        };
        Self { peak, sampling, task }
    }

    /// Stops sampling: the peak, in MiB.
    async fn stop(self) -> anyhow::Result<f64> {
        self.sampling.store(false, Ordering::Relaxed);
        self.task.await?;
        Ok(*self.peak.lock().unwrap())
    }
}

/// Each measured call, over gRPC and over REST, by `concurrency` clients for `duration`.
async fn calls(
    server: &Server,
    tokens: &Tokens,
    options: &Options,
) -> anyhow::Result<Vec<(String, String, Outcome)>> {
    let (admin, user) = (tokens.admin.clone(), tokens.user.clone());
    let http = reqwest::Client::builder().pool_max_idle_per_host(options.concurrency).build()?;
    let base = format!("http://{}", server.address);
    let (c, d) = (options.concurrency, options.duration);

    let mut calls = Vec::new();
    // One HTTP/2 connection per client task, as many users' apps would have (REST likewise keeps
    // up to one keep-alive connection per task).
    let mut channels = Vec::with_capacity(c);
    for _ in 0..c {
        channels.push(Channel::from_shared(format!("http://{}", server.address))?.connect().await?);
    }
    let channels = Arc::new(channels);
    macro_rules! grpc {
        ($name:expr, $client:ident, $method:ident, $request:expr, $token:expr) => {{
            let (channels, token) = (channels.clone(), $token.clone());
            eprintln!("   gRPC {}", $name);
            let outcome = load::drive(c, WARMUP, d, move |task, _| {
                let (mut client, token) = ($client::new(channels[task].clone()), token.clone());
                async move { client.$method(authorized($request, &token)).await.is_ok() }
            })
            .await;
            calls.push(("gRPC", $name, outcome));
        }};
    }
    grpc!(
        "ping (health.Check)",
        HealthClient,
        check,
        HealthCheckRequest { service: String::new() },
        String::new()
    );
    grpc!("GetMe", AuthServiceClient, get_me, GetMeRequest {}, user);
    grpc!("GetDashboard", DashboardServiceClient, get_dashboard, GetDashboardRequest {}, user);
    grpc!(
        "ListUsers",
        AdminServiceClient,
        list_users,
        ListUsersRequest { page: 1, limit: 20, ..Default::default() },
        admin
    );
    for (name, path, token) in [
        ("ping (GET /healthz)", "/healthz", String::new()),
        ("GetMe", "/api/auth/me", user.clone()),
        ("GetDashboard", "/api/dashboard", user.clone()),
        ("ListUsers", "/api/admin/users?page=1&limit=20", admin.clone()),
    ] {
        eprintln!("   REST {name}");
        let (http, url) = (http.clone(), format!("{base}{path}"));
        let outcome = load::drive(c, WARMUP, d, move |_, _| {
            let request = http.get(&url).bearer_auth(&token);
            async move { request.send().await.is_ok_and(|r| r.status().is_success()) }
        })
        .await;
        calls.push(("REST", name, outcome));
    }
    if wrk::available() {
        for (name, path, token) in [
            ("ping (GET /healthz)", "/healthz", String::new()),
            ("GetMe", "/api/auth/me", user.clone()),
            ("GetDashboard", "/api/dashboard", user.clone()),
        ] {
            eprintln!("   wrk {name}");
            tokio::time::sleep(WARMUP).await;
            calls.push(("wrk", name, wrk::get(&format!("{base}{path}"), &token, c, d).await?));
        }
    } else {
        eprintln!(
            "   (wrk is not installed: `apt-get install wrk` to measure the REST paths as an outside tool does)"
        );
    }
    Ok(calls.into_iter().map(|(p, n, o)| (p.to_owned(), n.to_owned(), o)).collect())
}

/// The webhook under load, one and ten messages a delivery: each outcome with the messages stored,
/// every acknowledged one of which must be.
async fn ingestion(
    engine: &str,
    url: &str,
    http: &reqwest::Client,
    base: &str,
    options: &Options,
) -> anyhow::Result<Vec<(usize, Outcome, i64)>> {
    let db = Db::connect(url).await?;
    let mut ingestion = Vec::new();
    for batch in [1usize, 10] {
        eprintln!("   webhook, {batch} message(s) a delivery");
        let outcome = ingest(http, base, options.concurrency, options.duration, batch).await;
        let stored = count(
            &db,
            &format!("select count(*) as n from messages where wa_message_id like 'wamid.bench.{batch}.%'"),
        )
        .await?;
        // Every acknowledged delivery's messages must be stored.
        if (stored as usize) < outcome.ok * batch {
            bail!("{engine}: {} messages acknowledged but only {stored} stored", outcome.ok * batch);
        }
        ingestion.push((batch, outcome, stored));
    }
    if wrk::available() {
        eprintln!("   wrk webhook, 1 message a delivery");
        let dir = std::env::current_dir()?.join("target/bench");
        let outcome = wrk::webhook(base, 31, options.concurrency, options.duration, &dir).await?;
        let stored =
            count(&db, "select count(*) as n from messages where wa_message_id like 'wamid.wrk.31.%'")
                .await?;
        // Every acknowledged delivery's message is stored (past the script's end, repeats are
        // acknowledged as the duplicates they are).
        if (stored as usize) < outcome.ok.min(wrk::distinct_deliveries(options.duration)) {
            bail!("{engine}: {} deliveries acknowledged through wrk but only {stored} stored", outcome.ok);
        }
        ingestion.push((WRK_WEBHOOK, outcome, stored));
    }
    db.close().await;
    Ok(ingestion)
}

/// Signed deliveries of `batch` messages each, every message from a new number (first contacts:
/// a user is registered and a welcome queued for each).
async fn ingest(http: &reqwest::Client, base: &str, c: usize, d: Duration, batch: usize) -> Outcome {
    let (http, base) = (http.clone(), base.to_owned());
    load::drive(c, WARMUP, d, move |task, n| {
        let messages: Vec<_> = (0..batch as u64)
            .map(|k| {
                let serial = n * batch as u64 + k;
                let from = format!("55{}9{:03}{:05}", 21 + batch, task, serial % 100_000);
                (
                    from,
                    format!("wamid.bench.{batch}.{task}.{serial}"),
                    "Oi! Quero abrir um negócio.".to_owned(),
                )
            })
            .collect();
        let (http, base) = (http.clone(), base.clone());
        async move { post_delivery(&http, &base, delivery(&messages)).await }
    })
    .await
}

async fn count(db: &Db, sql: &str) -> anyhow::Result<i64> {
    use sqlx::Row;
    Ok(sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).fetch_one(db.pool()).await?.try_get("n")?)
}

/// When the LLM was asked and answered, and when the reply reached the Graph API — once the
/// reply after the `before`-th has arrived.
fn reply_times(
    fakes: &Fakes,
    digits: &str,
    before: usize,
) -> anyhow::Result<Option<(Instant, Instant, Instant)>> {
    let seen = fakes.seen.lock().unwrap();
    let Some(&replied) = seen.sent.get(digits).and_then(|s| s.get(before)) else {
        return Ok(None);
    };
    let &(asked, answered) = seen
        .completions
        .get(digits)
        .and_then(|c| c.last())
        .context("the reply was sent without asking the LLM: is the user Pro?")?;
    Ok(Some((asked, answered, replied)))
}

/// One message at a time from Pro users: webhook sent → LLM asked, and LLM answered → Graph API
/// called with the reply.
async fn pipeline(http: &reqwest::Client, base: &str, fakes: &Fakes) -> anyhow::Result<Pipeline> {
    let (mut to_llm, mut to_graph) = (Vec::new(), Vec::new());
    for round in 0..PIPELINE_ROUNDS {
        let n = 5 * (round + 1);
        debug_assert!(seed::is_pro(n));
        let digits = seed::phone(n).trim_start_matches('+').to_owned();
        let before = fakes.seen.lock().unwrap().sent.get(&digits).map_or(0, Vec::len);
        let text = format!("#{digits} Quanto preciso investir para abrir?");
        let body = delivery(&[(digits.clone(), format!("wamid.pipeline.{round}"), text)]);
        let sent = Instant::now();
        if !post_delivery(http, base, body).await {
            bail!("the pipeline's webhook was refused");
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        let (asked, answered, replied) = loop {
            if let Some(times) = reply_times(fakes, &digits, before)? {
                break times;
            }
            if Instant::now() > deadline {
                bail!("no reply within 10 s for {digits}");
            }
            tokio::time::sleep(Duration::from_micros(500)).await;
        };
        to_llm.push(asked - sent);
        to_graph.push(replied - answered);
    }
    to_llm.sort_unstable();
    to_graph.sort_unstable();
    Ok(Pipeline {
        rounds: PIPELINE_ROUNDS,
        to_llm_p50_ms: load::quantile_ms(&to_llm, 0.5),
        to_llm_p99_ms: load::quantile_ms(&to_llm, 0.99),
        to_graph_p50_ms: load::quantile_ms(&to_graph, 0.5),
        to_graph_p99_ms: load::quantile_ms(&to_graph, 0.99),
    })
}
