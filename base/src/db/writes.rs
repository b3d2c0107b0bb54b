//! Turns at writing: a transaction ([`Tx`]) or one statement on the write connection
//! ([`Writer`]), each timed for the metrics.
//!
//! On PostgreSQL a turn is a pooled connection: the server locks rows, not the database. On SQLite
//! every write goes through one connection of its own, [`SqliteWriter`], kept out of sqlx's pool:
//! a pool hands a connection back through a spawned task that pings it first (a round trip to the
//! connection's thread), so each turn's end waited on the runtime's queue and a hand-off before the
//! next turn could start — with a crowd's thousands of short turns in a row, the one writer spent
//! more time changing hands than writing (issue 46). Here the next turn is woken the moment the
//! one before lets go (a fair queue, at most [`WRITE_TURN_WAIT`] long).

use std::{sync::Arc, time::Duration};

use sqlx::{AnyConnection, Executor};
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::{Engine, Notice, jobs::JobSignals};
use crate::clock::Clock;

/// The longest a writer waits for its turn at SQLite's write connection: its busy timeout.
const WRITE_TURN_WAIT: Duration = Duration::from_secs(5);

/// A turn's timing for the metrics: how long it waited for the connection
/// (`socio_db_write_wait_seconds`) and how long it held it (`socio_db_write_held_seconds`). On
/// SQLite the turns take one connection one after another, so the held time's sum over a span of
/// time is how busy the one writer was.
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

/// SQLite's one write connection, taken in turns.
#[derive(Clone, Debug)]
pub(super) struct SqliteWriter(Arc<Mutex<WriteConnection>>);

#[derive(Debug)]
struct WriteConnection {
    /// None once the database is closed.
    conn: Option<AnyConnection>,
    /// A transaction may be open on it — begun and neither committed nor rolled back (its turn was
    /// dropped, or cancelled mid-way): the next turn rolls it back before anything else.
    open: bool,
}

impl SqliteWriter {
    pub(super) fn new(conn: AnyConnection) -> Self {
        Self(Arc::new(Mutex::new(WriteConnection { conn: Some(conn), open: false })))
    }

    /// The connection, once the turns before this one are done.
    async fn turn(&self) -> Result<SqliteTurn, sqlx::Error> {
        let mut guard = tokio::time::timeout(WRITE_TURN_WAIT, self.0.clone().lock_owned())
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)?;
        let WriteConnection { conn, open } = &mut *guard;
        let Some(conn) = conn.as_mut() else { return Err(sqlx::Error::PoolClosed) };
        if *open {
            // "No transaction is active" when it never began: nothing to undo either way.
            let _ = conn.execute("rollback").await;
            *open = false;
        }
        Ok(SqliteTurn(Some(guard)))
    }

    /// Closes the connection once the turn in progress is done; later turns fail.
    pub(super) async fn close(&self) {
        let mut guard = self.0.lock().await;
        if let Some(conn) = guard.conn.take() {
            let _ = sqlx::Connection::close(conn).await;
        }
    }
}

/// A turn at SQLite's write connection; a transaction left open when it is dropped is rolled back
/// at once (by a task that keeps the turn until then), or else by the next turn.
struct SqliteTurn(Option<OwnedMutexGuard<WriteConnection>>);

impl SqliteTurn {
    fn conn(&self) -> &AnyConnection {
        self.0.as_ref().and_then(|g| g.conn.as_ref()).expect("a turn holds an open connection")
    }

    fn conn_mut(&mut self) -> &mut AnyConnection {
        self.0.as_mut().and_then(|g| g.conn.as_mut()).expect("a turn holds an open connection")
    }

    fn set_open(&mut self, open: bool) {
        if let Some(guard) = self.0.as_mut() {
            guard.open = open;
        }
    }

    async fn begin(&mut self) -> Result<(), sqlx::Error> {
        // Said open before asking: a turn cancelled during the statement is undone by the next.
        self.set_open(true);
        self.conn_mut().execute("begin immediate").await?;
        Ok(())
    }

    async fn end(&mut self, statement: &'static str) -> Result<(), sqlx::Error> {
        self.conn_mut().execute(statement).await?;
        self.set_open(false);
        Ok(())
    }
}

impl Drop for SqliteTurn {
    fn drop(&mut self) {
        let Some(mut guard) = self.0.take().filter(|g| g.open) else { return };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Some(conn) = guard.conn.as_mut()
                    && conn.execute("rollback").await.is_ok()
                {
                    guard.open = false;
                }
            });
        }
    }
}

/// Where a turn writes: a pooled connection (PostgreSQL) or SQLite's write connection.
enum Held {
    Pooled(sqlx::pool::PoolConnection<sqlx::Any>),
    Sqlite(SqliteTurn),
}

impl Held {
    fn conn(&self) -> &AnyConnection {
        match self {
            Held::Pooled(conn) => conn,
            Held::Sqlite(turn) => turn.conn(),
        }
    }

    fn conn_mut(&mut self) -> &mut AnyConnection {
        match self {
            Held::Pooled(conn) => conn,
            Held::Sqlite(turn) => turn.conn_mut(),
        }
    }
}

/// The connection to write one statement on ([`super::Db::writer`]), held until dropped;
/// dereferences to the connection: `query.execute(&mut *db.writer().await?)`.
pub struct Writer {
    held: Held,
    _turn: Turn,
}

impl Writer {
    pub(super) async fn take(
        pool: &sqlx::AnyPool,
        sqlite: Option<&SqliteWriter>,
    ) -> Result<Self, sqlx::Error> {
        let waiting = std::time::Instant::now();
        let held = match sqlite {
            Some(writer) => Held::Sqlite(writer.turn().await?),
            None => Held::Pooled(pool.acquire().await?),
        };
        Ok(Self { held, _turn: Turn::taken_after(waiting) })
    }
}

impl std::ops::Deref for Writer {
    type Target = AnyConnection;

    fn deref(&self) -> &Self::Target {
        self.held.conn()
    }
}

impl std::ops::DerefMut for Writer {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.held.conn_mut()
    }
}

/// A transaction, on either engine.
enum Open {
    Pooled(sqlx::Transaction<'static, sqlx::Any>),
    /// SQLite's write connection, `BEGIN IMMEDIATE` issued.
    Sqlite(SqliteTurn),
}

/// A database transaction in which enqueueing a job and waking the workers are one step: when a
/// transaction that enqueued a job (`jobs::enqueue`) commits, this process's idle lanes that claim
/// its kind wake at once (other processes find it at their next poll). Dereferences to the
/// connection, so queries take `&mut *tx` as with sqlx's own transaction.
/// Notices announced in it ([`Tx::announce`]) are heard when, and only if, it commits. Dropped
/// without a commit, it is rolled back.
pub struct Tx {
    open: Open,
    _turn: Turn,
    engine: Engine,
    job_signals: Arc<JobSignals>,
    /// The kinds of the jobs enqueued in it: their lanes wake when it commits.
    enqueued: Vec<&'static str>,
    notices: tokio::sync::broadcast::Sender<Notice>,
    announced: Vec<Notice>,
    clock: Clock,
}

/// What a transaction tells when it commits, and its clock.
pub(super) struct Hearing {
    pub job_signals: Arc<JobSignals>,
    pub notices: tokio::sync::broadcast::Sender<Notice>,
    pub clock: Clock,
}

impl Tx {
    /// Begins a transaction: on SQLite with the write lock taken at once (`BEGIN IMMEDIATE`).
    pub(super) async fn begin(
        pool: &sqlx::AnyPool,
        sqlite: Option<&SqliteWriter>,
        hearing: Hearing,
    ) -> Result<Self, sqlx::Error> {
        let waiting = std::time::Instant::now();
        let (open, engine) = match sqlite {
            Some(writer) => {
                let mut turn = writer.turn().await?;
                turn.begin().await?;
                (Open::Sqlite(turn), Engine::Sqlite)
            }
            None => (Open::Pooled(pool.begin().await?), Engine::Postgres),
        };
        Ok(Tx {
            open,
            _turn: Turn::taken_after(waiting),
            engine,
            job_signals: hearing.job_signals,
            enqueued: Vec::new(),
            notices: hearing.notices,
            announced: Vec::new(),
            clock: hearing.clock,
        })
    }

    /// Milliseconds since the Unix epoch, by the application's clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self.open {
            Open::Pooled(tx) => tx.commit().await?,
            Open::Sqlite(mut turn) => turn.end("commit").await?,
        }
        for kind in self.enqueued {
            self.job_signals.added(kind);
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
            sqlx::query("select pg_notify($1, $2)").bind(channel).bind(&payload).execute(&mut **self).await?;
        }
        self.announced.push(Notice { channel, payload });
        Ok(())
    }

    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.open {
            Open::Pooled(tx) => tx.rollback().await,
            Open::Sqlite(mut turn) => turn.end("rollback").await,
        }
    }

    pub fn job_enqueued(&mut self, kind: &'static str) {
        if !self.enqueued.contains(&kind) {
            self.enqueued.push(kind);
        }
    }
}

impl std::ops::Deref for Tx {
    type Target = AnyConnection;

    fn deref(&self) -> &Self::Target {
        match &self.open {
            Open::Pooled(tx) => tx,
            Open::Sqlite(turn) => turn.conn(),
        }
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match &mut self.open {
            Open::Pooled(tx) => tx,
            Open::Sqlite(turn) => turn.conn_mut(),
        }
    }
}

#[cfg(test)]
mod tests {
    use sqlx::Row;

    use crate::db::Db;

    async fn sqlite() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/writes.db", dir.path().display())).await.unwrap();
        sqlx::query("create table notes (text text not null)")
            .execute(&mut *db.writer().await.unwrap())
            .await
            .unwrap();
        (dir, db)
    }

    async fn notes(db: &Db) -> Vec<String> {
        let rows = sqlx::query("select text from notes order by text").fetch_all(db.pool()).await.unwrap();
        rows.iter().map(|r| r.get("text")).collect()
    }

    async fn note(tx: &mut super::Tx, text: &str) {
        sqlx::query("insert into notes (text) values ($1)").bind(text).execute(&mut **tx).await.unwrap();
    }

    #[tokio::test]
    async fn a_transaction_dropped_without_its_commit_is_undone_and_the_next_one_writes() {
        let (_dir, db) = sqlite().await;
        let mut tx = db.begin().await.unwrap();
        note(&mut tx, "abandoned").await;
        drop(tx);
        let mut tx = db.begin().await.unwrap();
        note(&mut tx, "kept").await;
        tx.commit().await.unwrap();
        let mut tx = db.begin().await.unwrap();
        note(&mut tx, "rolled back").await;
        tx.rollback().await.unwrap();
        assert_eq!(notes(&db).await, ["kept"]);
    }

    #[tokio::test]
    async fn a_turn_cancelled_mid_transaction_is_undone_by_the_next_turn() {
        let (_dir, db) = sqlite().await;
        // Outside a runtime's reach the dropped turn cannot roll back at once: the next does.
        let mut tx = db.begin().await.unwrap();
        note(&mut tx, "cancelled").await;
        let held = std::thread::spawn(move || drop(tx));
        held.join().unwrap();
        let mut tx = db.begin().await.unwrap();
        note(&mut tx, "after").await;
        tx.commit().await.unwrap();
        assert_eq!(notes(&db).await, ["after"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_writers_at_once_each_get_a_whole_turn() {
        let (_dir, db) = sqlite().await;
        let writers = (0..200).map(|n| {
            let db = db.clone();
            tokio::spawn(async move {
                let mut tx = db.begin().await.unwrap();
                note(&mut tx, &format!("{n:03}")).await;
                tokio::task::yield_now().await;
                tx.commit().await.unwrap();
            })
        });
        for writer in futures::future::join_all(writers).await {
            writer.unwrap();
        }
        let written = notes(&db).await;
        let expected: Vec<String> = (0..200).map(|n| format!("{n:03}")).collect();
        assert_eq!(written, expected);
    }

    #[tokio::test]
    async fn a_closed_database_refuses_a_turn_instead_of_hanging() {
        let (_dir, db) = sqlite().await;
        db.close().await;
        assert!(matches!(db.writer().await, Err(sqlx::Error::PoolClosed)));
        assert!(matches!(db.begin().await, Err(sqlx::Error::PoolClosed)));
    }
}
