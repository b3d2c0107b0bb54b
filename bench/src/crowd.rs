//! The crowd: hundreds of Pro users write at once while the model takes two seconds an answer.
//! Measured: each person's time to reply (their message's webhook → the reply at the Graph API),
//! the most model calls in flight at once, and how long a login code asked for in the middle of it
//! takes to reach the Graph API. Nothing may be lost and nobody answered twice.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use anyhow::bail;
use serde_json::{Value, json};
use socio::proto::socio::v1::{SendCodeRequest, auth_service_client::AuthServiceClient};
use tonic::transport::Channel;

use crate::{deliveries, fakes::Fakes, load, seed, server::Server};

/// How the crowd is set up.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub people: usize,
    pub batch_window: Duration,
    pub model_time: Duration,
}

impl Default for Setup {
    fn default() -> Self {
        Self { people: 1000, batch_window: Duration::from_secs(1), model_time: Duration::from_secs(2) }
    }
}

/// What the crowd measured.
#[derive(Clone, Debug)]
pub struct Crowd {
    pub setup: Setup,
    pub answered: usize,
    pub answered_twice: usize,
    pub reply_p50_ms: f64,
    pub reply_p99_ms: f64,
    pub reply_max_ms: f64,
    pub peak_model_calls: usize,
    pub login_code_ms: f64,
    /// Where the time goes (p99): message posted → model asked, and model answered → reply at
    /// the Graph API.
    pub to_model_p99_ms: f64,
    pub after_model_p99_ms: f64,
    /// How long the webhook took to answer 200 (the message stored), p99.
    pub stored_p99_ms: f64,
    /// The server's turns at writing over the crowd (its `/metrics`): how many, how long they held
    /// the write connection in all, and how long they waited for it on average.
    pub writes: Writes,
}

/// The server's turns at writing, from its metrics (`socio_db_write_*`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Writes {
    pub turns: f64,
    pub held_s: f64,
    pub waited_s: f64,
}

impl Writes {
    /// Read from a Prometheus text page.
    fn read(page: &str) -> Self {
        let value = |name: &str| {
            page.lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.trim().parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        Self {
            turns: value("socio_db_write_held_seconds_count"),
            held_s: value("socio_db_write_held_seconds_sum"),
            waited_s: value("socio_db_write_wait_seconds_sum"),
        }
    }

    fn since(self, before: Self) -> Self {
        Self {
            turns: self.turns - before.turns,
            held_s: self.held_s - before.held_s,
            waited_s: self.waited_s - before.waited_s,
        }
    }
}

/// The server's write metrics now.
async fn writes(http: &reqwest::Client, base: &str) -> Writes {
    match http.get(format!("{base}/metrics")).send().await {
        Ok(answer) => Writes::read(&answer.text().await.unwrap_or_default()),
        Err(_) => Writes::default(),
    }
}

impl Crowd {
    /// The p99 the product promises: the batch window, the model's time and two seconds.
    pub fn reply_budget_ms(&self) -> f64 {
        (self.setup.batch_window + self.setup.model_time + Duration::from_secs(2)).as_secs_f64() * 1000.0
    }

    pub fn json(&self) -> Value {
        json!({
            "people": self.setup.people,
            "batchWindowMs": self.setup.batch_window.as_millis() as u64,
            "modelTimeMs": self.setup.model_time.as_millis() as u64,
            "answered": self.answered, "answeredTwice": self.answered_twice,
            "timeToReplyMs": {"p50": load::round(self.reply_p50_ms), "p99": load::round(self.reply_p99_ms), "max": load::round(self.reply_max_ms)},
            "peakModelCallsInFlight": self.peak_model_calls,
            "loginCodeMs": load::round(self.login_code_ms),
            "p99PostedToModelMs": load::round(self.to_model_p99_ms),
            "p99ModelToGraphMs": load::round(self.after_model_p99_ms),
            "p99WebhookStoredMs": load::round(self.stored_p99_ms),
            "writeTurns": self.writes.turns,
            "writeHeldS": load::round(self.writes.held_s),
            "writeWaitMeanMs": load::round(self.writes.waited_s * 1000.0 / self.writes.turns.max(1.0)),
        })
    }
}

/// The crowd against a server of its own on `url` (a seeded database).
pub async fn crowd(url: &str, setup: Setup) -> anyhow::Result<Crowd> {
    // The ingestion scenario leaves thousands of welcomes queued (it measures intake, not
    // replies); the crowd starts from a quiet queue, or it would measure that backlog.
    let db = socio::db::Db::connect(url).await?;
    sqlx::query("delete from jobs where status in ('queued', 'running')").execute(db.pool()).await?;
    db.close().await;
    let fakes = Fakes::start().await?;
    fakes.model_thinks_for(setup.model_time);
    let mut env = fakes.config();
    env.extend([
        ("DATABASE_URL", url.to_owned()),
        ("JWT_SECRET", "bench-secret-that-is-long-enough-0123456789".into()),
        ("WHATSAPP_BATCH_WINDOW_MS", setup.batch_window.as_millis().to_string()),
        ("LLM_TIMEOUT_S", "30".into()),
    ]);
    let server = Server::start(&env).await?;
    let base = format!("http://{}", server.address);
    let http = reqwest::Client::builder().pool_max_idle_per_host(setup.people).build()?;

    // Every fifth seeded user is Pro; the crowd is made of them.
    let people: Vec<String> =
        (1..=setup.people).map(|k| seed::phone(5 * k).trim_start_matches('+').to_owned()).collect();
    let writes_before = writes(&http, &base).await;
    let started = Instant::now();
    let posts = people.iter().enumerate().map(|(k, digits)| {
        let (http, base) = (http.clone(), base.clone());
        let text = format!("#{digits} Como calculo meu ponto de equilíbrio?");
        let body = deliveries::delivery(&[(digits.clone(), format!("wamid.crowd.{k}"), text)]);
        async move {
            let posted = Instant::now();
            let ok = deliveries::post_delivery(&http, &base, body).await;
            (ok, posted, posted.elapsed())
        }
    });
    let code_asked = login_code_amid(&base, &fakes, setup.batch_window + setup.model_time / 2);
    let (posted, code) = tokio::join!(futures::future::join_all(posts), code_asked);
    let code = code?;
    if posted.iter().any(|(ok, _, _)| !ok) {
        bail!("a crowd delivery was refused");
    }
    let posted_at: HashMap<&String, Instant> =
        people.iter().zip(posted.iter().map(|(_, at, _)| *at)).collect();
    let mut stored: Vec<Duration> = posted.iter().map(|(_, _, took)| *took).collect();
    stored.sort_unstable();

    wait_for_answers(&fakes, &people, started + Duration::from_secs(120)).await;
    // Anything that would be a second answer has had time to show up.
    tokio::time::sleep(setup.batch_window + setup.model_time).await;
    let writes = writes(&http, &base).await.since(writes_before);
    let seen = fakes.seen.lock().unwrap();
    let (mut times, mut to_model, mut after_model) = (Vec::new(), Vec::new(), Vec::new());
    let (mut answered, mut twice) = (0, 0);
    for digits in &people {
        let Some(replies) = seen.sent.get(digits).filter(|s| !s.is_empty()) else { continue };
        answered += 1;
        if replies.len() > 1 {
            twice += 1;
        }
        times.push(replies[0] - posted_at[digits]);
        if let Some(&(asked, answered)) = seen.completions.get(digits).and_then(|c| c.first()) {
            to_model.push(asked.saturating_duration_since(posted_at[digits]));
            after_model.push(replies[0].saturating_duration_since(answered));
        }
    }
    to_model.sort_unstable();
    after_model.sort_unstable();
    let peak = seen.model_peak_in_flight;
    drop(seen);
    times.sort_unstable();
    server.stop()?;
    Ok(Crowd {
        setup,
        answered,
        answered_twice: twice,
        reply_p50_ms: load::quantile_ms(&times, 0.5),
        reply_p99_ms: load::quantile_ms(&times, 0.99),
        reply_max_ms: times.last().map_or(0.0, |t| t.as_secs_f64() * 1000.0),
        peak_model_calls: peak,
        login_code_ms: code.as_secs_f64() * 1000.0,
        to_model_p99_ms: load::quantile_ms(&to_model, 0.99),
        after_model_p99_ms: load::quantile_ms(&after_model, 0.99),
        stored_p99_ms: load::quantile_ms(&stored, 0.99),
        writes,
    })
}

/// In the middle of the crowd (`after` it started), a free user asks for a login code: how long
/// it took to reach WhatsApp.
async fn login_code_amid(base: &str, fakes: &Fakes, after: Duration) -> anyhow::Result<Duration> {
    tokio::time::sleep(after).await;
    let phone = seed::phone(11);
    let channel = Channel::from_shared(base.to_owned())?.connect().await?;
    let asked = Instant::now();
    AuthServiceClient::new(channel)
        .send_code(SendCodeRequest { phone_number: phone.clone(), language: "pt-BR".into() })
        .await?;
    let digits = phone.trim_start_matches('+').to_owned();
    while fakes.latest_code(&digits).is_none() {
        if asked.elapsed() > Duration::from_secs(30) {
            bail!("no login code in 30 s during the crowd");
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    Ok(asked.elapsed())
}

/// Until every one of `people` has had an answer, or `deadline`.
async fn wait_for_answers(fakes: &Fakes, people: &[String], deadline: Instant) {
    loop {
        let answered = {
            let seen = fakes.seen.lock().unwrap();
            people.iter().filter(|d| seen.sent.get(*d).is_some_and(|s| !s.is_empty())).count()
        };
        if answered == people.len() || Instant::now() > deadline {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
