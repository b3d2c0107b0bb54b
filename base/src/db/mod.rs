//! Storage: one sqlx code path over SQLite (the embedded default) and PostgreSQL (for scale).
//!
//! Queries are written once with `$n` placeholders, which both engines accept; the few statements
//! that must differ (row locking in the job queue) branch on [`Engine`]. Times are stored as Unix
//! milliseconds.

pub mod jobs;
pub mod key_lock;
pub mod notify;
pub mod personal;
pub mod rate_limit;
mod sqlite_build;
mod writes;

use writes::{Hearing, SqliteWriter};
pub use writes::{Tx, Writer};

use std::{
    str::FromStr,
    sync::{Arc, Once},
    time::Duration,
};

use anyhow::Context;
use sqlx::{
    AnyConnection, AnyPool, Connection, Executor,
    any::{AnyConnectOptions, AnyPoolOptions},
};

use crate::clock::Clock;

/// Every SQLite connection's settings: write-ahead log, foreign keys, a busy timeout for other
/// processes' writes, and commits that do not wait for the disk (safe with the log).
const SQLITE_PRAGMAS: &str = "pragma journal_mode = wal; pragma foreign_keys = on; \
                              pragma busy_timeout = 5000; pragma synchronous = normal;";

/// How long a pooled connection may sit idle before it is checked on the way out of the pool.
const IDLE_BEFORE_PING: Duration = Duration::from_secs(1);

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// A pool on one of the two engines.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    engine: Engine,
    /// PostgreSQL's address, for LISTEN (a dedicated connection).
    url: String,
    /// Wakes this process's idle job workers when a job was committed here.
    job_signals: Arc<jobs::JobSignals>,
    /// Notices committed here (and, on PostgreSQL, relayed from other processes): see [`Notice`].
    notices: tokio::sync::broadcast::Sender<Notice>,
    /// This process's per-key mutexes (`key_lock`).
    local_locks: key_lock::LocalLocks,
    /// "Now" for everything that reaches the database through this pool.
    clock: Clock,
    /// SQLite's connection for writes (None on PostgreSQL, where every connection writes).
    writes: Option<SqliteWriter>,
}

/// A committed change that this process's caches and open streams may need to hear of, named by
/// its channel (one per kind of change) and a payload the channel's owner defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub channel: &'static str,
    pub payload: String,
}

impl Db {
    /// Connects (creating the SQLite file and its folder on first run) without migrating.
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        static DRIVERS: Once = Once::new();
        DRIVERS.call_once(sqlx::any::install_default_drivers);

        let (engine, url) = if url.starts_with("sqlite:") {
            (Engine::Sqlite, sqlite_url(url)?)
        } else {
            (Engine::Postgres, url.to_owned())
        };
        let options =
            AnyConnectOptions::from_str(&url).context("DATABASE_URL is not a valid database address")?;
        // A call waits at most two seconds for a connection: when the database is away, callers
        // get a quick 503 (and a balancer's /readyz probe a quick answer), not a hung request.
        // sqlx pings a connection when it goes back to the pool and, by default, again when it is
        // taken out: two round trips (a network one on PostgreSQL, a hand-off to the connection's
        // thread on SQLite) around every statement. The one on release stays (it is sqlx's own and
        // catches a connection a cancelled call left mid-way); the one on acquire only for a
        // connection that sat idle long enough for the server to have gone away meanwhile, as
        // sqlx's documentation suggests (`PoolOptions::before_acquire`). Issue 31: a dashboard is
        // one statement, and was three round trips.
        let pool_options = AnyPoolOptions::new()
            .acquire_timeout(Duration::from_secs(2))
            .max_connections(match engine {
                Engine::Sqlite => 8,
                Engine::Postgres => 16,
            })
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= IDLE_BEFORE_PING {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
            });
        let pool_options = match engine {
            Engine::Sqlite => pool_options.after_connect(|conn, _meta| {
                Box::pin(async move {
                    conn.execute(SQLITE_PRAGMAS).await?;
                    Ok(())
                })
            }),
            Engine::Postgres => pool_options,
        };
        // On SQLite every write goes through one connection of its own (`writes`): a connection
        // that sees another's commit throws its page cache away and reads the pages again, so
        // writers taking turns on eight connections spent most of each write re-reading the
        // database (issue 46: a crowd's writes went from ~0.8 ms to a fraction of that). The
        // readers keep their eight. The writer is not pooled: `writes` says why.
        let writes = match engine {
            Engine::Sqlite => {
                let mut conn = AnyConnection::connect_with(&options)
                    .await
                    .with_context(|| format!("cannot open the database ({})", redact(&url)))?;
                conn.execute(SQLITE_PRAGMAS).await.context("cannot set up the database connection")?;
                Some(SqliteWriter::new(conn))
            }
            Engine::Postgres => None,
        };
        let pool = pool_options
            .connect_with(options)
            .await
            .with_context(|| format!("cannot open the database ({})", redact(&url)))?;
        let notices = tokio::sync::broadcast::channel(4096).0;
        Ok(Db {
            pool,
            engine,
            url,
            job_signals: Arc::default(),
            notices,
            local_locks: Arc::default(),
            clock: Clock::system(),
            writes,
        })
    }

    /// The same pool reading the time from `clock` (the application's, which tests move).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The application's clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Milliseconds since the Unix epoch, by the application's clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Brings the schema up to date; safe to run on every start and from several processes.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let migrator = match self.engine {
            Engine::Sqlite => &SQLITE_MIGRATIONS,
            Engine::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&self.pool).await.context("database migration failed")
    }

    /// A transaction that may write. On SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`): a deferred transaction that reads first and writes later fails with
    /// SQLITE_BUSY_SNAPSHOT when another connection wrote in between, and waiting cannot help.
    /// A transaction ([`Tx`]): a job enqueued in it wakes this process's workers once it commits.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        let hearing = Hearing {
            job_signals: self.job_signals.clone(),
            notices: self.notices.clone(),
            clock: self.clock.clone(),
        };
        Tx::begin(&self.pool, self.writes.as_ref(), hearing).await
    }

    /// A connection to write on outside a transaction (one statement that changes rows):
    /// `query.execute(&mut *db.writer().await?)`. On SQLite it is the one write connection, held
    /// until dropped, as [`Db::begin`]'s transactions hold it. SQLite lets one connection write at
    /// a time and makes the others wait in its busy handler, which sleeps 1, 2, 5 … up to 100 ms
    /// between tries and serves nobody in order: under a crowd a write waited 1.5 s for a lock held
    /// 50 µs at a time (issue 46). Waiting for the connection instead — the pool's fair queue,
    /// woken the moment the writer before is done, for at most SQLite's busy timeout — leaves the
    /// busy handler for other processes (a `socio migrate` beside a running server). PostgreSQL
    /// locks rows, not the database: there it is a plain pooled connection.
    pub async fn writer(&self) -> Result<Writer, sqlx::Error> {
        Writer::take(&self.pool, self.writes.as_ref()).await
    }

    /// Announces a change already committed (a statement outside a transaction): to this
    /// process at once and, on PostgreSQL, to every process listening on the channel.
    pub async fn announce(&self, channel: &'static str, payload: String) -> Result<(), sqlx::Error> {
        if self.engine == Engine::Postgres {
            sqlx::query("select pg_notify($1, $2)").bind(channel).bind(&payload).execute(&self.pool).await?;
        }
        let _ = self.notices.send(Notice { channel, payload });
        Ok(())
    }

    /// Every notice this process hears from now on, whatever its channel.
    pub fn notices(&self) -> tokio::sync::broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    /// On PostgreSQL, passes the notices other processes send on `channel` to this process's
    /// listeners (its own arrive twice, which a listener that only invalidates or re-checks does
    /// not mind). Does nothing on SQLite, where there is one process.
    pub async fn relay(&self, channel: &'static str) -> Result<(), sqlx::Error> {
        let Some(mut heard) = notify::listen(self, channel).await? else { return Ok(()) };
        let notices = self.notices.clone();
        tokio::spawn(async move {
            while let Some(payload) = heard.recv().await {
                let _ = notices.send(Notice { channel, payload });
            }
        });
        Ok(())
    }

    /// A connection to read on, for a use case that reads several domains at once and hands it to
    /// each service's `…_in` (a reply's context: its prompt, plan, messages and summary) — the
    /// read counterpart of [`Db::begin`]: one turn at the pool instead of one a read, each of which
    /// sqlx ends with a round trip to the database (its ping on release). Writes go through
    /// [`Db::begin`] or [`Db::writer`].
    pub async fn read(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Any>, sqlx::Error> {
        self.pool.acquire().await
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// What this process's idle lanes wait on (by the kinds each claims), and how a job committed
    /// or a subject's job ended wakes them (call `added` after the commit: before, a lane could
    /// look and find nothing; other processes' jobs are found by the poll).
    pub fn job_signals(&self) -> &jobs::JobSignals {
        &self.job_signals
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// True when the database answers a trivial query in time.
    pub async fn is_ready(&self) -> bool {
        let probe = sqlx::query("select 1").execute(&self.pool);
        matches!(tokio::time::timeout(Duration::from_secs(2), probe).await, Ok(Ok(_)))
    }

    pub async fn close(&self) {
        if let Some(writes) = &self.writes {
            writes.close().await;
        }
        self.pool.close().await;
    }
}

/// `sqlite://data/socio.db` → the same address with `mode=rwc`, after creating `data/`.
fn sqlite_url(url: &str) -> anyhow::Result<String> {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path.contains(":memory:") {
        anyhow::bail!("DATABASE_URL: use a SQLite file (an in-memory database is one per connection)");
    }
    if let Some(parent) = std::path::Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the database folder {}", parent.display()))?;
    }
    Ok(if url.contains("mode=") {
        url.to_owned()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    })
}

/// The address without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{}{}:***{}", &url[..scheme_end + 3], user, &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// Reads a boolean column on either engine: PostgreSQL's `boolean`, or SQLite's 0/1 integer.
pub fn get_bool(row: &sqlx::any::AnyRow, column: &str) -> Result<Option<bool>, sqlx::Error> {
    use sqlx::Row;
    match row.try_get::<Option<bool>, _>(column) {
        Ok(value) => Ok(value),
        Err(_) => Ok(row.try_get::<Option<i64>, _>(column)?.map(|v| v != 0)),
    }
}

/// SQLite's plan for a statement (`EXPLAIN QUERY PLAN`), one line a step: what the tests that
/// hold a statement to its index compare. Its parameters are left unbound (NULL), which does not
/// change the plan. Only tests call it (of this crate and the layers above).
#[doc(hidden)]
pub async fn sqlite_query_plan(db: &Db, sql: &str) -> Vec<String> {
    use sqlx::Row;
    let explain = format!("explain query plan {sql}");
    let rows = sqlx::query(sqlx::AssertSqlSafe(explain)).fetch_all(db.pool()).await.expect("explain");
    rows.iter().map(|row| row.try_get::<String, _>("detail").expect("detail")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted_from_database_addresses() {
        assert_eq!(redact("postgres://app:s3cret@db:5432/socio"), "postgres://app:***@db:5432/socio");
        assert_eq!(redact("sqlite://data/socio.db"), "sqlite://data/socio.db");
    }

    #[test]
    fn sqlite_addresses_create_the_file_on_first_run() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/nested/socio.db", dir.path().display());
        assert!(sqlite_url(&url).unwrap().ends_with("?mode=rwc"));
        assert!(dir.path().join("nested").is_dir());
    }

    #[test]
    fn in_memory_sqlite_is_refused() {
        assert!(sqlite_url("sqlite::memory:").is_err());
    }
}
