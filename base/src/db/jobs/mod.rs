//! A durable job queue in the application's own database, for every piece of work that may fail
//! (replies, sends, notices).
//!
//! A job is enqueued inside the caller's transaction, so it exists exactly when the data it acts on
//! does. Each claim takes one job under a lease and a lock token of its own (`FOR UPDATE SKIP
//! LOCKED` on PostgreSQL; a single atomic `UPDATE … RETURNING` on SQLite, whose writers are
//! serialised); failures are retried with exponential backoff and jitter, and a job is left
//! `failed` with its last error when the attempts run out or the error is permanent. The runner
//! renews the lease of the job it runs; one that dies mid-job stops renewing, and once the lease
//! expires the job is claimed again.
//!
//! Jobs run in lanes: each lane claims its own kinds and runs up to its capacity of them at once,
//! as tasks, so slow work (a reply waiting on the model) never holds up the rest (sends, notices).
//! A job may act for a subject (a person): that subject's jobs of one kind run one at a time, the
//! earliest first. A batched job waits under a batch key, at most one per key, and each new
//! request moves its time later, up to a cap from the first (a trailing debounce). The jobs that
//! end together are marked done together, one statement for all of them (`completions`).

mod completions;
mod lanes;
mod queue;
mod signals;
mod tidy;

use std::time::Duration;

use rand::Rng;
use sqlx::{Any, Executor};

pub use self::{
    lanes::{Handlers, JobHandler, RunsJob, WorkerOptions, spawn_workers},
    queue::{Depth, Queue, depth, running_for},
    signals::JobSignals,
};
use super::Tx;

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
    /// Whom the job acts for: that subject's jobs of this kind run one at a time, in order.
    pub subject: Option<String>,
}

impl NewJob {
    pub fn new(kind: &'static str, payload: serde_json::Value) -> Self {
        Self { kind, payload, dedupe_key: None, run_at: None, max_attempts: 8, subject: None }
    }
    pub fn subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
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

/// A job kind's payload: the kind's name and its fields in one type, so that the code enqueueing
/// a job and the handler running it cannot disagree on a key (a renamed field fails to compile,
/// not at run time). Stored as JSON with camelCase keys.
pub trait JobPayload: serde::Serialize + serde::de::DeserializeOwned {
    /// The job kind, as stored and as the handlers are registered.
    const KIND: &'static str;

    /// The job to enqueue with this payload (the builder's other settings at their defaults).
    fn job(&self) -> NewJob {
        // A payload is plain strings and numbers: serialising it cannot fail.
        let payload = serde_json::to_value(self).unwrap_or_default();
        NewJob::new(Self::KIND, payload)
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
    /// This claim's token: renewing, completing and failing the job need it, so a claim that lost
    /// its lease to another can no longer touch the job.
    pub lock: String,
    /// When it was enqueued (Unix ms).
    pub created_at: i64,
    /// Whom it acts for, if anyone.
    pub subject: Option<String>,
}

impl Job {
    /// A job of `kind` as its first claim hands it over (id `j1`), for the tests of the handlers
    /// and of the payloads' reading.
    pub fn first_claim(kind: &str, payload: serde_json::Value) -> Self {
        Self {
            id: "j1".into(),
            kind: kind.into(),
            payload,
            attempt: 1,
            max_attempts: 8,
            lock: "l".into(),
            created_at: 0,
            subject: None,
        }
    }

    /// The job's payload as its kind's type. A job of another kind, or one whose payload does not
    /// read, fails for good: running it again would fail the same way.
    pub fn payload_as<P: JobPayload>(&self) -> Result<P, JobError> {
        if self.kind != P::KIND {
            return Err(JobError::Permanent(format!("a {} job given to the {} handler", self.kind, P::KIND)));
        }
        P::deserialize(&self.payload)
            .map_err(|err| JobError::Permanent(format!("a {} job's payload: {err}", P::KIND)))
    }
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

/// A service's error while running a job: what may pass (the database, a provider, a limit, a
/// conversation another holds) is tried again later; what will be refused the same way every time
/// ends the job `failed` now.
impl From<crate::error::AppError> for JobError {
    fn from(err: crate::error::AppError) -> Self {
        use crate::error::AppError as E;
        let text = err.to_string();
        match err {
            E::Internal(_)
            | E::Unavailable(_)
            | E::PaymentsUnavailable(_)
            | E::RateLimited { .. }
            | E::CodeAlreadySent { .. }
            | E::NumberLocked { .. }
            | E::TooManyStreams { .. }
            | E::ConversationTaken { .. } => JobError::Retryable(text),
            E::InvalidInput(_)
            | E::MalformedBody(_)
            | E::Unauthenticated
            | E::PermissionDenied
            | E::NotFound(_)
            | E::AlreadyExists(_)
            | E::FailedPrecondition(_)
            | E::NotRegistered { .. }
            | E::InvalidCode
            | E::PaymentsRefused(_) => JobError::Permanent(text),
        }
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
    let now = tx.now_ms();
    let kind = job.kind;
    let id = insert(&mut **tx, job, now).await?;
    tx.job_enqueued(kind);
    Ok(id)
}

async fn insert<'e, E>(executor: E, job: NewJob, now: i64) -> Result<Option<String>, sqlx::Error>
where
    E: Executor<'e, Database = Any>,
{
    // Time-ordered (UUIDv7: ordered by creation within the process), so two jobs of one subject
    // enqueued in the same millisecond of the app's clock still run in the order they were made.
    let id = uuid::Uuid::now_v7().to_string();
    let row = sqlx::query(
        "insert into jobs (id, kind, payload, dedupe_key, subject, status, attempts, max_attempts, run_at, created_at, updated_at) \
         values ($1, $2, $3, $4, $5, 'queued', 0, $6, $7, $8, $8) \
         on conflict (dedupe_key) do nothing returning id",
    )
    .bind(&id)
    .bind(job.kind)
    .bind(job.payload.to_string())
    .bind(job.dedupe_key)
    .bind(job.subject)
    .bind(job.max_attempts)
    .bind(job.run_at.unwrap_or(now))
    .bind(now)
    .fetch_optional(executor)
    .await?;
    Ok(row.map(|_| id))
}

/// How a batched job waits: `window` after the latest request, but no later than `cap` after the
/// batch's first.
#[derive(Clone, Copy, Debug)]
pub struct Batching {
    pub window: Duration,
    pub cap: Duration,
}

/// Enqueues a batched job in the caller's transaction, with its subject as batch key: a new batch
/// when none waits (due `window` after `at`), else the waiting one moves to `window` after `at`,
/// capped at `cap` after its first request.
pub async fn enqueue_batched(
    tx: &mut Tx,
    job: NewJob,
    at: i64,
    batching: Batching,
) -> Result<(), sqlx::Error> {
    let subject = job.subject.clone().unwrap_or_default();
    let cap = batching.cap.max(batching.window).as_millis() as i64;
    sqlx::query(
        "insert into jobs (id, kind, payload, subject, batch_key, status, attempts, max_attempts, run_at, created_at, updated_at) \
         values ($1, $2, $3, $4, $5, 'queued', 0, $6, $7, $8, $8) \
         on conflict (batch_key) where status = 'queued' do update set \
             run_at = case when excluded.run_at < jobs.created_at + $9 then excluded.run_at else jobs.created_at + $9 end, \
             updated_at = excluded.updated_at",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(job.kind)
    .bind(job.payload.to_string())
    .bind(&subject)
    .bind(format!("{}:{subject}", job.kind))
    .bind(job.max_attempts)
    .bind(at + batching.window.as_millis() as i64)
    .bind(at)
    .bind(cap)
    .execute(&mut **tx)
    .await?;
    tx.job_enqueued(job.kind);
    Ok(())
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
