//! The test harness: `spawn_app` starts the real application on a random port against a fresh
//! database (a temporary SQLite file, or a new PostgreSQL database), with one helper per protocol.

use std::collections::HashMap;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use prost::Message;
use socio::{app::Application, config::Config, db::Db};
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};

/// Runs an async test body once per engine: `<name>::sqlite` and `<name>::postgres`.
#[macro_export]
macro_rules! on_both_engines {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name($crate::helpers::TestDatabase::sqlite()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(
                not(postgres_tests),
                ignore = "TEST_DATABASE_URL is not set: the PostgreSQL case did not run"
            )]
            async fn postgres() {
                $crate::helpers::on_a_postgres_database(super::$name).await;
            }
        }
    };
}

/// `on_postgres!(name)`: the test only on PostgreSQL, for what SQLite (one process's file) cannot be
/// asked: several servers on one database, the database going away under a running server.
#[macro_export]
macro_rules! on_postgres {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(
                not(postgres_tests),
                ignore = "TEST_DATABASE_URL is not set: the PostgreSQL case did not run"
            )]
            async fn postgres() {
                $crate::helpers::on_a_postgres_database(super::$name).await;
            }
        }
    };
}

/// Runs `test` on a fresh PostgreSQL database. The PostgreSQL cases are built to run only when
/// TEST_DATABASE_URL was set for the build (otherwise they are reported as ignored), so here it
/// must still be set.
pub async fn on_a_postgres_database<F: std::future::Future<Output = ()>>(
    test: impl FnOnce(TestDatabase) -> F,
) {
    let db = TestDatabase::postgres()
        .await
        .expect("the tests were built with TEST_DATABASE_URL set: set it again to run them");
    test(db).await
}

/// The `n` column of a test's own counting query (`select count(*) as n …`).
pub async fn count(db: &Db, sql: &str) -> i64 {
    use sqlx::Row;
    sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).fetch_one(db.pool()).await.unwrap().try_get("n").unwrap()
}

/// A fresh, empty database that goes away with the test.
pub struct TestDatabase {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    postgres: Option<(String, String)>,
}

impl TestDatabase {
    /// The same database for a second server (the first one's copy drops it at the end).
    pub fn shared(&self) -> Self {
        Self { url: self.url.clone(), _dir: None, postgres: None }
    }

    /// The same database reached at another address (through a proxy); this copy drops nothing.
    pub fn reached_at(&self, url: String) -> Self {
        Self { url, _dir: None, postgres: None }
    }

    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("a temp dir");
        let url = format!("sqlite://{}/socio.db", dir.path().display());
        Self { url, _dir: Some(dir), postgres: None }
    }

    /// None when `TEST_DATABASE_URL` is unset.
    pub async fn postgres() -> Option<Self> {
        use sqlx::Connection;
        let admin_url = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty())?;
        let name = format!("socio_test_{}", uuid::Uuid::new_v4().simple());
        let mut conn = sqlx::PgConnection::connect(&admin_url)
            .await
            .expect("TEST_DATABASE_URL is set but PostgreSQL is unreachable");
        sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
            .execute(&mut conn)
            .await
            .expect("create a test database");
        let base = admin_url.rsplit_once('/').map(|(base, _)| base).unwrap_or(&admin_url);
        Some(Self { url: format!("{base}/{name}"), _dir: None, postgres: Some((admin_url, name)) })
    }

    pub fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// Drops a PostgreSQL database now, connections and all: the database is gone.
    pub async fn drop_now(&self) {
        use sqlx::Connection;
        if let Some((admin_url, name)) = &self.postgres {
            let mut conn = sqlx::PgConnection::connect(admin_url).await.expect("admin connection");
            sqlx::query(sqlx::AssertSqlSafe(format!("drop database if exists {name} with (force)")))
                .execute(&mut conn)
                .await
                .expect("drop the test database");
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.postgres.take() {
            // Drop runs outside any runtime we may block: use a thread with its own.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
                rt.block_on(async {
                    use sqlx::Connection;
                    let mut conn = sqlx::PgConnection::connect(&admin_url).await.ok()?;
                    sqlx::query(sqlx::AssertSqlSafe(format!("drop database if exists {name} with (force)")))
                        .execute(&mut conn)
                        .await
                        .ok()
                })
            })
            .join();
        }
    }
}

/// The running application.
pub struct TestApp {
    pub address: String,
    pub db: Db,
    pub http: reqwest::Client,
    pub database: TestDatabase,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<anyhow::Result<()>>>,
    _web: tempfile::TempDir,
}

/// The marker the stand-in web build's index.html (the landing page) carries.
pub const LANDING_MARKER: &str = "<div id=\"root\" data-test=\"socio-landing\"></div>";
/// The marker the stand-in web build's app.html (every other page) carries.
pub const APP_MARKER: &str = "<div id=\"root\" data-test=\"socio-app\"></div>";

pub async fn spawn_app(database: TestDatabase) -> TestApp {
    spawn_app_with(database, &[]).await
}

pub async fn spawn_app_with(database: TestDatabase, extra: &[(&str, String)]) -> TestApp {
    socio::telemetry::init_for_tests();
    let web = tempfile::tempdir().expect("a temp dir");
    std::fs::write(web.path().join("index.html"), format!("<!doctype html>{LANDING_MARKER}")).unwrap();
    std::fs::write(web.path().join("app.html"), format!("<!doctype html>{APP_MARKER}")).unwrap();
    std::fs::create_dir_all(web.path().join("assets")).unwrap();
    std::fs::write(web.path().join("assets/app-1234.js"), "console.log('socio')").unwrap();
    // As the build writes them: the compressed copy beside the file (a stand-in body here).
    std::fs::write(web.path().join("assets/app-1234.js.gz"), "gzipped console.log").unwrap();

    let mut vars: HashMap<String, String> = [
        ("SOCIO_ADDR", "127.0.0.1:0"),
        // Any free port: links need the address named.
        ("PUBLIC_URL", "http://localhost:8080"),
        ("DATABASE_URL", database.url.as_str()),
        ("JWT_SECRET", "test-secret-that-is-long-enough-0123456789"),
        ("SOCIO_WEB_DIR", web.path().to_str().unwrap()),
        // The tests run the reminder scheduler as of the instants they choose.
        ("SOCIO_REMINDERS_EVERY_S", "0"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in extra {
        vars.insert(k.to_string(), v.clone());
    }
    let mut config = Config::from_source(&vars).expect("test configuration");
    // A clock the test can move (`app.db.clock().advance(…)`), instead of waiting or rewriting rows.
    config.clock = socio::clock::Clock::adjustable();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let app = Application::build_on(config, listener).await.expect("the app builds");
    let port = app.port();
    let db = app.db().clone();
    let (shutdown, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until_stopped(async move {
        let _ = stopped.await;
    }));
    let address = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder().http1_only().build().unwrap();
    wait_until_serving(&http, &address).await;
    TestApp { address, db, http, database, shutdown: Some(shutdown), server: Some(server), _web: web }
}

async fn wait_until_serving(http: &reqwest::Client, address: &str) {
    eventually("the app serves", || async { http.get(format!("{address}/healthz")).send().await.is_ok() })
        .await;
}

impl TestApp {
    /// Moves the injected clock to the start of the next minute: a burst that a fixed one-minute
    /// window counts then falls in one window, however slowly a loaded machine sends it (a
    /// boundary crossed mid-burst would start the count again). The clock keeps running, so what
    /// comes due later (a reply after its batch window) still does; a test that needs time stopped
    /// too calls [`Self::still_at_a_window_s_start`].
    pub fn at_a_minute_s_start(&self) {
        let now = self.db.clock().now_ms();
        self.db.clock().set(now - now.rem_euclid(60_000) + 60_000);
    }

    /// Moves the injected clock to the start of the next `window_ms` (a fixed window a limit
    /// counts in) and stops it there: a burst, however long a loaded machine takes to send it,
    /// falls in one window. The clock then moves only when the test moves it.
    pub fn still_at_a_window_s_start(&self, window_ms: i64) {
        // Paused first, then set: the clock reads the window's very first millisecond.
        self.db.clock().pause();
        let now = self.db.clock().now_ms();
        self.db.clock().set(now - now.rem_euclid(window_ms) + window_ms);
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(mut self) -> TestDatabase {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            server.await.expect("server task").expect("server stopped cleanly");
        }
        std::mem::replace(&mut self.database, TestDatabase::sqlite())
    }

    pub async fn grpc_channel(&self) -> tonic::transport::Channel {
        tonic::transport::Channel::from_shared(self.address.clone())
            .unwrap()
            .connect()
            .await
            .expect("a gRPC connection")
    }

    /// The messages the dev outbox holds for a number (E.164), oldest first.
    pub async fn outbox_messages(&self, phone: &str) -> Vec<serde_json::Value> {
        let path = format!("/api/dev/whatsapp/outbox?phone={}", phone.replace('+', "%2B"));
        let (_, body) = self.rest_get(&path, "pt-BR").await;
        body["data"]["messages"].as_array().cloned().unwrap_or_default()
    }

    /// True once a message to the number contains `needle`.
    pub async fn outbox_has(&self, phone: &str, needle: &str) -> bool {
        self.outbox_messages(phone)
            .await
            .iter()
            .any(|m| m["text"].as_str().is_some_and(|t| t.contains(needle)))
    }

    pub async fn rest_get(&self, path: &str, language: &str) -> (u16, serde_json::Value) {
        let response = self
            .http
            .get(format!("{}{path}", self.address))
            .header("accept-language", language)
            .send()
            .await
            .unwrap();
        Self::json_of(response).await
    }

    pub async fn rest_send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: &str,
    ) -> (u16, serde_json::Value) {
        let response = self
            .http
            .request(method, format!("{}{path}", self.address))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .unwrap();
        Self::json_of(response).await
    }

    async fn json_of(response: reqwest::Response) -> (u16, serde_json::Value) {
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        let json = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        (status, json)
    }

    /// One unary gRPC-Web call over HTTP/1.1, as a browser makes it. Returns the decoded message
    /// (when the status is OK) and the grpc-status.
    pub async fn grpc_web<Req: Message, Res: Message + Default>(
        &self,
        path: &str,
        request: &Req,
    ) -> (Option<Res>, String) {
        let mut body = BytesMut::new();
        let encoded = request.encode_to_vec();
        body.put_u8(0);
        body.put_u32(encoded.len() as u32);
        body.put_slice(&encoded);
        let response = self
            .http
            .post(format!("{}{path}", self.address))
            .header("content-type", "application/grpc-web+proto")
            .header("x-grpc-web", "1")
            .header("origin", "http://localhost:8080")
            .body(body.freeze())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "gRPC-Web answers over HTTP 200");
        let mut bytes: Bytes = response.bytes().await.unwrap();
        let (mut message, mut status) = (None, String::new());
        while bytes.len() >= 5 {
            let flag = bytes.get_u8();
            let len = bytes.get_u32() as usize;
            let chunk = bytes.split_to(len);
            if flag & 0x80 == 0 {
                message = Some(Res::decode(chunk).unwrap());
            } else {
                let trailers = String::from_utf8_lossy(&chunk).to_string();
                status = trailers
                    .lines()
                    .find_map(|l| l.strip_prefix("grpc-status:"))
                    .map(|s| s.trim().to_owned())
                    .unwrap_or_default();
            }
        }
        (message, status)
    }
}

/// Waits until the job queue in `db` has nothing left to do now or in the next few seconds,
/// whichever server (or process) runs it.
pub async fn drain_jobs(db: &Db) {
    drain_jobs_within(db, std::time::Duration::from_secs(10)).await
}

/// [`drain_jobs`] for a test that queues hundreds of jobs at once, within `limit`.
pub async fn drain_jobs_within(db: &Db, limit: std::time::Duration) {
    let busy = || async {
        let sql = format!(
            "select count(*) as n from jobs where status in ('queued', 'running') and run_at <= {}",
            db.now_ms() + 5_000
        );
        count(db, &sql).await
    };
    eventually_within("the job queue drains", limit, || async { busy().await == 0 }).await;
}

/// A job enqueued in a transaction of its own, as a service enqueues one (the commit wakes the
/// workers).
pub async fn enqueue_now(db: &Db, job: socio::db::jobs::NewJob) -> Result<Option<String>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let id = socio::db::jobs::enqueue(&mut tx, job).await?;
    tx.commit().await?;
    Ok(id)
}

/// Polls `check` until it holds, for up to ten seconds. The tests' one polling loop: what a test
/// waits for (a job, a request to a fake, a row) it names here, and only this sleeps between looks.
pub async fn eventually<F, Fut>(what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_within(what, std::time::Duration::from_secs(10), check).await
}

/// Polls `check` until it holds, for up to `limit`.
pub async fn eventually_within<F, Fut>(what: &str, limit: std::time::Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + limit;
    while !check().await {
        assert!(std::time::Instant::now() < deadline, "never happened: {what}");
        // The one sleep of a test that waits for something to happen: between two looks.
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// The body of a shared fixture (copied under tests/fixtures).
pub fn fixture(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|_| panic!("fixture {full}"))
}

impl TestApp {
    /// One number from a query returning a single `n` column.
    /// A user's subscription tier as stored ("free" or "pro").
    pub async fn tier_of(&self, phone: &str) -> String {
        use sqlx::Row;
        sqlx::query("select subscription_status from users where phone_number = $1")
            .bind(phone)
            .fetch_one(self.db.pool())
            .await
            .unwrap()
            .get("subscription_status")
    }

    /// Pays (or abandons) a sandbox checkout session over REST: the status and the envelope.
    pub async fn complete_sandbox(&self, session: &str, pay: bool) -> (u16, serde_json::Value) {
        let response = self
            .http
            .post(format!("{}/api/subscriptions/sandbox/{session}/complete", self.address))
            .json(&serde_json::json!({ "pay": pay }))
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(serde_json::Value::Null))
    }

    pub async fn count(&self, sql: &str) -> i64 {
        count(&self.db, sql).await
    }

    /// Waits until the job queue has nothing left to do now or in the next few seconds (a reply's
    /// batch window included), so "sent once", "never answered" and "no retry" are observed, not
    /// guessed with a sleep. A reply job enqueues its send before it ends, so there is no gap.
    pub async fn drain_jobs(&self) {
        drain_jobs(&self.db).await
    }

    /// A text column (`id`, `role`, `language`…) of the user with this phone number.
    pub async fn user_column(&self, phone: &str, column: &str) -> String {
        use sqlx::Row;
        let sql = format!("select {column} as v from users where phone_number = $1");
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(phone).fetch_one(self.db.pool()).await.unwrap().get("v")
    }

    /// Posts a WhatsApp webhook body, signed with `secret` when given.
    pub async fn post_whatsapp_webhook(&self, body: &[u8], secret: Option<&str>) -> u16 {
        let mut request = self
            .http
            .post(format!("{}/api/webhooks/whatsapp", self.address))
            .header("content-type", "application/json")
            .body(body.to_vec());
        if let Some(secret) = secret {
            request = request
                .header("x-hub-signature-256", socio::whatsapp::signature::sign(secret.as_bytes(), body));
        }
        request.send().await.unwrap().status().as_u16()
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}
