//! Storage: one sqlx code path over SQLite (the embedded default) and PostgreSQL (for scale).
//!
//! Queries are written once with `$n` placeholders, which both engines accept; the few statements
//! that must differ (row locking in the job queue) branch on [`Engine`]. Times are stored as Unix
//! milliseconds.

pub mod jobs;
pub mod key_lock;
pub mod notify;
pub mod rate_limit;

use std::{
    str::FromStr,
    sync::{Arc, Once},
    time::Duration,
};

use anyhow::Context;
use sqlx::{
    AnyPool, Connection, Executor,
    any::{AnyConnectOptions, AnyPoolOptions},
};

use crate::clock::Clock;

/// The longest a writer waits for its turn at SQLite's write connection: its busy timeout.
const WRITE_TURN_WAIT: Duration = Duration::from_secs(5);

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
    jobs_added: Arc<tokio::sync::Notify>,
    /// Notices committed here (and, on PostgreSQL, relayed from other processes): see [`Notice`].
    notices: tokio::sync::broadcast::Sender<Notice>,
    /// This process's per-key mutexes (`key_lock`).
    local_locks: key_lock::LocalLocks,
    /// "Now" for everything that reaches the database through this pool.
    clock: Clock,
    /// SQLite's connection for writes (None on PostgreSQL, where every connection writes).
    writes: Option<AnyPool>,
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
                    conn.execute(
                        "pragma journal_mode = wal; pragma foreign_keys = on; \
                         pragma busy_timeout = 5000; pragma synchronous = normal;",
                    )
                    .await?;
                    Ok(())
                })
            }),
            Engine::Postgres => pool_options,
        };
        // On SQLite every write goes through one connection of its own (`writes`): a connection
        // that sees another's commit throws its page cache away and reads the pages again, so
        // writers taking turns on eight connections spent most of each write re-reading the
        // database (issue 46: a crowd's writes went from ~0.8 ms to a fraction of that). The
        // readers keep their eight.
        let writes = match engine {
            Engine::Sqlite => Some(
                pool_options
                    .clone()
                    .max_connections(1)
                    .acquire_timeout(WRITE_TURN_WAIT)
                    .connect_with(options.clone())
                    .await
                    .with_context(|| format!("cannot open the database ({})", redact(&url)))?,
            ),
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
            jobs_added: Arc::default(),
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
        let waiting = std::time::Instant::now();
        let inner = match self.engine {
            Engine::Sqlite => self.writes().begin_with("begin immediate").await?,
            Engine::Postgres => self.pool.begin().await?,
        };
        Ok(Tx {
            _turn: Turn::taken_after(waiting),
            inner,
            engine: self.engine,
            jobs_added: self.jobs_added.clone(),
            enqueued: false,
            notices: self.notices.clone(),
            announced: Vec::new(),
            clock: self.clock.clone(),
        })
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
        let waiting = std::time::Instant::now();
        let conn = self.writes().acquire().await?;
        Ok(Writer { conn, _turn: Turn::taken_after(waiting) })
    }

    /// The pool writes go through: SQLite's one writing connection, or PostgreSQL's pool.
    fn writes(&self) -> &AnyPool {
        self.writes.as_ref().unwrap_or(&self.pool)
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

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Tells this process's idle job workers that a job was just committed, so that it runs at
    /// once instead of at their next poll. Call it after the commit: before, a worker could look
    /// and find nothing. Jobs committed by another process are found by the poll.
    /// Wakes this process's idle workers: a job was committed outside a [`Tx`].
    pub(crate) fn jobs_added(&self) {
        self.jobs_added.notify_waiters();
    }

    pub(crate) fn jobs_signal(&self) -> &tokio::sync::Notify {
        &self.jobs_added
    }

    pub(crate) fn url(&self) -> &str {
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

/// A turn at writing — a transaction ([`Db::begin`]) or a statement on [`Db::writer`]'s
/// connection — timed for the metrics: how long it waited for the connection
/// (`socio_db_write_wait_seconds`) and how long it held it (`socio_db_write_held_seconds`). On
/// SQLite the turns take one connection one after another, so the held time's sum over a span of
/// time is how busy the one writer was (issue 46: what bounds a crowd's replies there).
struct Turn {
    taken: std::time::Instant,
}

impl Turn {
    fn taken_after(waiting: std::time::Instant) -> Self {
        let taken = std::time::Instant::now();
        ::metrics::histogram!("socio_db_write_wait_seconds").record(taken - waiting);
        Self { taken }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        ::metrics::histogram!("socio_db_write_held_seconds").record(self.taken.elapsed());
    }
}

/// The connection to write one statement on ([`Db::writer`]), held until dropped; dereferences to
/// the connection: `query.execute(&mut *db.writer().await?)`.
pub struct Writer {
    conn: sqlx::pool::PoolConnection<sqlx::Any>,
    _turn: Turn,
}

impl std::ops::Deref for Writer {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &Self::Target {
        &self.conn
    }
}

impl std::ops::DerefMut for Writer {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.conn
    }
}

/// A database transaction in which enqueueing a job and waking the workers are one step: when a
/// transaction that enqueued a job (`jobs::enqueue`) commits, this process's idle workers wake at
/// once, whatever the job's kind (other processes find it at their next poll). Dereferences to the
/// connection, so queries take `&mut *tx` as with sqlx's own transaction.
/// Notices announced in it ([`Tx::announce`]) are heard when, and only if, it commits.
pub struct Tx {
    inner: sqlx::Transaction<'static, sqlx::Any>,
    _turn: Turn,
    engine: Engine,
    jobs_added: Arc<tokio::sync::Notify>,
    enqueued: bool,
    notices: tokio::sync::broadcast::Sender<Notice>,
    announced: Vec<Notice>,
    clock: Clock,
}

impl Tx {
    /// Milliseconds since the Unix epoch, by the application's clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await?;
        if self.enqueued {
            self.jobs_added.notify_waiters();
        }
        for notice in self.announced {
            let _ = self.notices.send(notice);
        }
        Ok(())
    }

    /// Announces a change made in this transaction, heard once it commits: by this process
    /// directly, by the others through PostgreSQL's NOTIFY (which also waits for the commit).
    pub async fn announce(&mut self, channel: &'static str, payload: String) -> Result<(), sqlx::Error> {
        if self.engine == Engine::Postgres {
            sqlx::query("select pg_notify($1, $2)")
                .bind(channel)
                .bind(&payload)
                .execute(&mut *self.inner)
                .await?;
        }
        self.announced.push(Notice { channel, payload });
        Ok(())
    }

    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        self.inner.rollback().await
    }

    pub(crate) fn job_enqueued(&mut self) {
        self.enqueued = true;
    }
}

impl std::ops::Deref for Tx {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.inner
    }
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
