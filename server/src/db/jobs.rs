//! A durable job queue in the application's own database, for every piece of work that may fail
//! (replies, sends, notices).
//!
//! A job is enqueued inside the caller's transaction, so it exists exactly when the data it acts on
//! does. Workers claim one job at a time with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL; a
//! single atomic `UPDATE … RETURNING` on SQLite, whose writers are serialised), retry failures with
//! exponential backoff and jitter, and leave a job `failed` with its last error when the attempts
//! run out or the error is permanent. A worker renews the lease of the job it runs; one that dies
//! mid-job stops renewing, and once the lease expires the job is claimed again.

use std::{collections::HashMap, sync::Arc, time::Duration};

use futures::future::BoxFuture;
use rand::Rng;
use sqlx::{Any, Executor, Row};
use tokio::{sync::watch, task::JoinSet};

use super::{Db, Engine, Tx, now_ms};

/// A job to enqueue.
#[derive(Clone, Debug)]
pub struct NewJob {
    pub kind: &'static str,
    pub payload: serde_json::Value,
    /// At most one job per key, ever: enqueueing the same key again does nothing.
    pub dedupe_key: Option<String>,
    /// Not before this time (Unix ms); now when None.
    pub run_at: Option<i64>,
    pub max_attempts: i32,
}

impl NewJob {
    pub fn new(kind: &'static str, payload: serde_json::Value) -> Self {
        Self { kind, payload, dedupe_key: None, run_at: None, max_attempts: 8 }
    }
    pub fn dedupe_key(mut self, key: impl Into<String>) -> Self {
        self.dedupe_key = Some(key.into());
        self
    }
    pub fn run_at(mut self, at_ms: i64) -> Self {
        self.run_at = Some(at_ms);
        self
    }
    pub fn max_attempts(mut self, attempts: i32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }
}

/// A claimed job.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: String,
    pub kind: String,
    pub payload: serde_json::Value,
    /// 1 on the first run.
    pub attempt: i32,
    pub max_attempts: i32,
}

/// How a job run failed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Worth another try later (network errors, 5xx, rate limits).
    #[error("{0}")]
    Retryable(String),
    /// Will fail the same way every time: the job ends `failed` now.
    #[error("{0}")]
    Permanent(String),
}

/// A database error while running a job: the job is tried again later.
impl From<sqlx::Error> for JobError {
    fn from(err: sqlx::Error) -> Self {
        JobError::Retryable(format!("database: {err}"))
    }
}

/// Stored state of a job, for tests and the admin panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobState {
    pub status: String,
    pub attempts: i32,
    pub last_error: Option<String>,
}

/// Enqueues a job in the caller's transaction: it exists, and wakes this process's workers, when
/// the transaction commits. Returns the job's id, or None when a job with the same dedupe key
/// already exists.
pub async fn enqueue(tx: &mut Tx, job: NewJob) -> Result<Option<String>, sqlx::Error> {
    let id = insert(&mut **tx, job).await?;
    tx.job_enqueued();
    Ok(id)
}

/// Enqueues a job on its own (no surrounding transaction) and wakes the workers at once.
pub async fn enqueue_now(db: &Db, job: NewJob) -> Result<Option<String>, sqlx::Error> {
    let id = insert(db.pool(), job).await?;
    db.jobs_added();
    Ok(id)
}

async fn insert<'e, E>(executor: E, job: NewJob) -> Result<Option<String>, sqlx::Error>
where
    E: Executor<'e, Database = Any>,
{
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let row = sqlx::query(
        "insert into jobs (id, kind, payload, dedupe_key, status, attempts, max_attempts, run_at, created_at, updated_at) \
         values ($1, $2, $3, $4, 'queued', 0, $5, $6, $7, $7) \
         on conflict (dedupe_key) do nothing returning id",
    )
    .bind(&id)
    .bind(job.kind)
    .bind(job.payload.to_string())
    .bind(job.dedupe_key)
    .bind(job.max_attempts)
    .bind(job.run_at.unwrap_or(now))
    .bind(now)
    .fetch_optional(executor)
    .await?;
    Ok(row.map(|_| id))
}

/// Retry timing: `base · 2^(attempt-1)`, capped, then scaled by a random 50–100 % so that many
/// failing jobs do not retry in lockstep.
#[derive(Clone, Copy, Debug)]
pub struct Backoff {
    pub base: Duration,
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self { base: Duration::from_secs(2), max: Duration::from_secs(600) }
    }
}

impl Backoff {
    pub fn delay(&self, attempt: i32) -> Duration {
        let exp = attempt.clamp(1, 30) as u32 - 1;
        let raw = self.base.saturating_mul(2u32.saturating_pow(exp)).min(self.max);
        raw.mul_f64(rand::rng().random_range(0.5..=1.0))
    }
}

/// How long a claimed job stays its worker's without a renewal, unless configured otherwise.
const DEFAULT_LEASE: Duration = Duration::from_secs(30);

/// The queue's operations for one worker identity.
#[derive(Clone, Debug)]
pub struct Queue {
    db: Db,
    worker_id: String,
    lease: Duration,
    backoff: Backoff,
}

impl Queue {
    pub fn new(db: Db, worker_id: impl Into<String>) -> Self {
        Self { db, worker_id: worker_id.into(), lease: DEFAULT_LEASE, backoff: Backoff::default() }
    }
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }
    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// Claims the next due job of one of `kinds`: a queued job whose time has come, or a running one
    /// whose worker's lease has run out.
    pub async fn claim(&self, kinds: &[&str]) -> Result<Option<Job>, sqlx::Error> {
        if kinds.is_empty() {
            return Ok(None);
        }
        let now = now_ms();
        let kind_params: Vec<String> = (0..kinds.len()).map(|i| format!("${}", i + 4)).collect();
        let lock = match self.db.engine() {
            Engine::Postgres => " for update skip locked",
            Engine::Sqlite => "",
        };
        let sql = format!(
            "update jobs set status = 'running', attempts = attempts + 1, locked_by = $1, \
             locked_until = $2, updated_at = $3 \
             where id = (select id from jobs \
                 where kind in ({kinds}) and ((status = 'queued' and run_at <= $3) \
                     or (status = 'running' and locked_until < $3)) \
                 order by run_at limit 1{lock}) \
             returning id, kind, payload, attempts, max_attempts",
            kinds = kind_params.join(", "),
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&self.worker_id)
            .bind(now + self.lease.as_millis() as i64)
            .bind(now);
        for kind in kinds {
            query = query.bind(*kind);
        }
        let Some(row) = query.fetch_optional(self.db.pool()).await? else {
            return Ok(None);
        };
        let payload: String = row.try_get("payload")?;
        Ok(Some(Job {
            id: row.try_get("id")?,
            kind: row.try_get("kind")?,
            payload: serde_json::from_str(&payload).unwrap_or(serde_json::Value::Null),
            attempt: row.try_get("attempts")?,
            max_attempts: row.try_get("max_attempts")?,
        }))
    }

    /// When the earliest queued job of `kinds` is due (Unix ms), so that an idle worker wakes for
    /// it (a reply waiting out its batch window) rather than at its next poll.
    pub async fn next_due(&self, kinds: &[&str]) -> Result<Option<i64>, sqlx::Error> {
        if kinds.is_empty() {
            return Ok(None);
        }
        let kind_params: Vec<String> = (0..kinds.len()).map(|i| format!("${}", i + 1)).collect();
        let sql = format!(
            "select min(run_at) as due from jobs where status = 'queued' and kind in ({})",
            kind_params.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for kind in kinds {
            query = query.bind(*kind);
        }
        query.fetch_one(self.db.pool()).await?.try_get("due")
    }

    /// Renews this worker's lease on a job it is still running.
    pub async fn renew(&self, job: &Job) -> Result<(), sqlx::Error> {
        sqlx::query(
            "update jobs set locked_until = $1 where id = $2 and locked_by = $3 and status = 'running'",
        )
        .bind(now_ms() + self.lease.as_millis() as i64)
        .bind(&job.id)
        .bind(&self.worker_id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Marks a claimed job done. False when this worker no longer held it (its lease ran out and
    /// another worker took it over).
    pub async fn complete(&self, job: &Job) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "update jobs set status = 'done', locked_by = null, locked_until = null, updated_at = $1 \
             where id = $2 and locked_by = $3 and status = 'running'",
        )
        .bind(now_ms())
        .bind(&job.id)
        .bind(&self.worker_id)
        .execute(self.db.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records a failed run: schedules a retry with backoff, or ends the job `failed` when the error
    /// is permanent or the attempts are spent.
    pub async fn fail(&self, job: &Job, error: &JobError) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let give_up = matches!(error, JobError::Permanent(_)) || job.attempt >= job.max_attempts;
        let (status, run_at) = if give_up {
            ("failed", now)
        } else {
            ("queued", now + self.backoff.delay(job.attempt).as_millis() as i64)
        };
        let mut message = error.to_string();
        message.truncate(2000);
        sqlx::query(
            "update jobs set status = $1, run_at = $2, last_error = $3, locked_by = null, \
             locked_until = null, updated_at = $4 where id = $5 and locked_by = $6",
        )
        .bind(status)
        .bind(run_at)
        .bind(message)
        .bind(now)
        .bind(&job.id)
        .bind(&self.worker_id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// A job's stored state.
    pub async fn state(&self, id: &str) -> Result<Option<JobState>, sqlx::Error> {
        let row = sqlx::query("select status, attempts, last_error from jobs where id = $1")
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?;
        row.map(|row| {
            Ok(JobState {
                status: row.try_get("status")?,
                attempts: row.try_get("attempts")?,
                last_error: row.try_get("last_error")?,
            })
        })
        .transpose()
    }
}

/// Runs one kind of job.
pub trait JobHandler: Send + Sync + 'static {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>>;
}

/// The handlers of every job kind the workers run.
#[derive(Clone, Default)]
pub struct Handlers(HashMap<&'static str, Arc<dyn JobHandler>>);

impl Handlers {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn register(mut self, kind: &'static str, handler: Arc<dyn JobHandler>) -> Self {
        self.0.insert(kind, handler);
        self
    }
    fn kinds(&self) -> Vec<&'static str> {
        let mut kinds: Vec<_> = self.0.keys().copied().collect();
        kinds.sort_unstable();
        kinds
    }
}

/// How the workers poll.
#[derive(Clone, Copy, Debug)]
pub struct WorkerOptions {
    pub workers: usize,
    /// Sleep between empty polls.
    pub idle_poll: Duration,
    pub lease: Duration,
    pub backoff: Backoff,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        Self {
            workers: 4,
            idle_poll: Duration::from_millis(200),
            lease: DEFAULT_LEASE,
            backoff: Backoff::default(),
        }
    }
}

/// Starts the workers. They stop after their current job once `shutdown` turns true; await the
/// returned set to wait for them.
pub fn spawn_workers(
    db: &Db,
    handlers: Handlers,
    options: WorkerOptions,
    shutdown: watch::Receiver<bool>,
) -> JoinSet<()> {
    let mut set = JoinSet::new();
    if handlers.0.is_empty() {
        return set;
    }
    let process = uuid::Uuid::new_v4().simple().to_string();
    for n in 0..options.workers.max(1) {
        let queue = Queue::new(db.clone(), format!("{}-{n}", &process[..12]))
            .with_lease(options.lease)
            .with_backoff(options.backoff);
        set.spawn(work(queue, handlers.clone(), options.idle_poll, shutdown.clone()));
    }
    set
}

async fn work(queue: Queue, handlers: Handlers, idle_poll: Duration, mut shutdown: watch::Receiver<bool>) {
    let kinds = handlers.kinds();
    let db = queue.db.clone();
    while !*shutdown.borrow() {
        // Listen before looking, so that a job committed while we look still wakes us.
        let added = db.jobs_signal().notified();
        tokio::pin!(added);
        added.as_mut().enable();
        match queue.claim(&kinds).await {
            Ok(Some(job)) => run_one(&queue, &handlers, job).await,
            Ok(None) => {
                let nap = match queue.next_due(&kinds).await {
                    Ok(Some(at)) => Duration::from_millis((at - now_ms()).max(0) as u64).min(idle_poll),
                    _ => idle_poll,
                };
                tokio::select! {
                    _ = tokio::time::sleep(nap) => {}
                    _ = &mut added => {}
                    _ = shutdown.changed() => {}
                }
            }
            Err(err) => {
                tracing::warn!(error = %err, "job queue unavailable; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(idle_poll * 5) => {}
                    _ = shutdown.changed() => {}
                }
            }
        }
    }
}

async fn run_one(queue: &Queue, handlers: &Handlers, job: Job) {
    let Some(handler) = handlers.0.get(job.kind.as_str()) else {
        return;
    };
    // The lease is renewed at a third of its length while the job runs, so that a slow job is
    // never taken over while its worker lives.
    let renewing = async {
        loop {
            tokio::time::sleep(queue.lease / 3).await;
            if let Err(err) = queue.renew(&job).await {
                tracing::warn!(job = %job.id, error = %err, "could not renew a job's lease");
            }
        }
    };
    let outcome = tokio::select! {
        outcome = handler.run(&job) => outcome,
        _ = renewing => unreachable!("the renewal loop never ends"),
    };
    let stored = match &outcome {
        Ok(()) => queue.complete(&job).await.map(|_| ()),
        Err(err) => {
            tracing::warn!(job = %job.id, kind = %job.kind, attempt = job.attempt, error = %err, "job failed");
            queue.fail(&job, err).await
        }
    };
    if let Err(err) = stored {
        tracing::error!(job = %job.id, error = %err, "could not record a job's outcome; its lease will expire");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_exponentially_with_jitter_and_a_cap() {
        let backoff = Backoff { base: Duration::from_secs(1), max: Duration::from_secs(60) };
        for _ in 0..50 {
            let first = backoff.delay(1);
            assert!(first >= Duration::from_millis(500) && first <= Duration::from_secs(1));
            let fourth = backoff.delay(4);
            assert!(fourth >= Duration::from_secs(4) && fourth <= Duration::from_secs(8));
            assert!(backoff.delay(30) <= Duration::from_secs(60));
        }
    }
}
