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
//! request moves its time later, up to a cap from the first (a trailing debounce).

use std::{collections::HashMap, sync::Arc, time::Duration};

use futures::future::BoxFuture;
use rand::Rng;
use sqlx::{Any, Executor, Row};
use tokio::{
    sync::{OwnedSemaphorePermit, Semaphore, watch},
    task::JoinSet,
};

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
    tx.job_enqueued();
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

/// The most jobs one claim statement takes.
const CLAIM_AT_ONCE: usize = 32;

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
    /// whose lease has run out. A job with a subject waits while another job of its kind and
    /// subject runs (with a live lease) or was queued before it.
    pub async fn claim(&self, kinds: &[&str]) -> Result<Option<Job>, sqlx::Error> {
        Ok(self.claim_many(kinds, 1).await?.pop())
    }

    /// Claims up to `count` due jobs at once (one statement), at most one per subject and kind.
    pub async fn claim_many(&self, kinds: &[&str], count: usize) -> Result<Vec<Job>, sqlx::Error> {
        if kinds.is_empty() || count == 0 {
            return Ok(Vec::new());
        }
        let now = now_ms();
        let kind_params: Vec<String> = (0..kinds.len()).map(|i| format!("${}", i + 4)).collect();
        let lock = match self.db.engine() {
            Engine::Postgres => " for update of j skip locked",
            Engine::Sqlite => "",
        };
        let sql = format!(
            "update jobs set status = 'running', attempts = attempts + 1, locked_by = $1, \
             locked_until = $2, updated_at = $3 \
             where id in (select j.id from jobs j \
                 where j.kind in ({kinds}) and ((j.status = 'queued' and j.run_at <= $3) \
                     or (j.status = 'running' and j.locked_until < $3)) \
                 and (j.subject is null or not exists (select 1 from jobs o \
                     where o.subject = j.subject and o.kind = j.kind and o.id <> j.id and \
                     ((o.status = 'running' and o.locked_until >= $3) \
                      or (o.status = 'queued' and (o.run_at < j.run_at \
                          or (o.run_at = j.run_at and o.created_at < j.created_at)))))) \
                 order by j.run_at, j.created_at limit {count}{lock}) \
             returning id, kind, payload, attempts, max_attempts, created_at, subject",
            kinds = kind_params.join(", "),
        );
        let token = format!("{}-{}", self.worker_id, &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&token)
            .bind(now + self.lease.as_millis() as i64)
            .bind(now);
        for kind in kinds {
            query = query.bind(*kind);
        }
        let rows = query.fetch_all(self.db.pool()).await?;
        let mut jobs = rows
            .iter()
            .map(|row| {
                let payload: String = row.try_get("payload")?;
                Ok(Job {
                    id: row.try_get("id")?,
                    kind: row.try_get("kind")?,
                    payload: serde_json::from_str(&payload).unwrap_or(serde_json::Value::Null),
                    attempt: row.try_get("attempts")?,
                    max_attempts: row.try_get("max_attempts")?,
                    lock: token.clone(),
                    created_at: row.try_get("created_at")?,
                    subject: row.try_get("subject")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        jobs.sort_by_key(|j| j.created_at);
        Ok(jobs)
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
        .bind(&job.lock)
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
        .bind(&job.lock)
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
        .bind(&job.lock)
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

/// Whether a job of `kind` for `subject` is running now (under a live lease): a job of another
/// kind that must come after it waits while this holds.
pub async fn running_for(db: &Db, kind: &str, subject: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "select 1 from jobs where kind = $1 and subject = $2 and status = 'running' and locked_until >= $3 limit 1",
    )
    .bind(kind)
    .bind(subject)
    .bind(now_ms())
    .fetch_optional(db.pool())
    .await?;
    Ok(row.is_some())
}

/// The queue of one kind now: due and running jobs, and how late the oldest due one is (ms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Depth {
    pub kind: String,
    pub due: i64,
    pub running: i64,
    pub oldest_due_ms: i64,
}

/// The queue of each of `kinds`, for the metrics (a kind with nothing waiting reads zero).
pub async fn depth(db: &Db, kinds: &[&str]) -> Result<Vec<Depth>, sqlx::Error> {
    let now = now_ms();
    let rows = sqlx::query(
        "select kind, \
             sum(case when status = 'queued' and run_at <= $1 then 1 else 0 end) as due, \
             sum(case when status = 'running' then 1 else 0 end) as running, \
             min(case when status = 'queued' and run_at <= $1 then run_at end) as oldest \
         from jobs where status in ('queued', 'running') group by kind",
    )
    .bind(now)
    .fetch_all(db.pool())
    .await?;
    let mut found = rows
        .iter()
        .map(|row| {
            let oldest: Option<i64> = row.try_get("oldest")?;
            Ok(Depth {
                kind: row.try_get("kind")?,
                due: row.try_get("due")?,
                running: row.try_get("running")?,
                oldest_due_ms: oldest.map(|at| (now - at).max(0)).unwrap_or(0),
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    for kind in kinds {
        if !found.iter().any(|d| d.kind == *kind) {
            found.push(Depth { kind: (*kind).to_owned(), due: 0, running: 0, oldest_due_ms: 0 });
        }
    }
    Ok(found)
}

/// Runs one kind of job.
pub trait JobHandler: Send + Sync + 'static {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>>;
}

/// The handlers of every job kind, by lane: `register` puts a kind in the shared lane (as many at
/// once as `WorkerOptions::workers`), `register_in_lane` gives a kind a lane of its own.
#[derive(Clone, Default)]
pub struct Handlers {
    handlers: HashMap<&'static str, Arc<dyn JobHandler>>,
    /// Kinds with a lane of their own, and how many of them run at once.
    own_lanes: Vec<(&'static str, usize)>,
}

impl Handlers {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn register(mut self, kind: &'static str, handler: Arc<dyn JobHandler>) -> Self {
        self.handlers.insert(kind, handler);
        self
    }
    /// A kind whose jobs wait on something slow (a model): up to `capacity` run at once, and they
    /// never take a place in the shared lane.
    pub fn register_in_lane(
        mut self,
        kind: &'static str,
        handler: Arc<dyn JobHandler>,
        capacity: usize,
    ) -> Self {
        self.own_lanes.push((kind, capacity.max(1)));
        self.register(kind, handler)
    }
    /// Every kind with a handler, in order.
    pub fn kinds(&self) -> Vec<&'static str> {
        let mut kinds: Vec<_> = self.handlers.keys().copied().collect();
        kinds.sort_unstable();
        kinds
    }

    /// The lanes: the kinds each claims and how many of its jobs run at once.
    fn lanes(&self, shared_capacity: usize) -> Vec<(Vec<&'static str>, usize)> {
        let own = |kind: &&'static str| self.own_lanes.iter().any(|(k, _)| k == kind);
        let mut shared: Vec<_> = self.handlers.keys().copied().filter(|k| !own(k)).collect();
        shared.sort_unstable();
        let mut lanes: Vec<_> =
            self.own_lanes.iter().map(|(kind, capacity)| (vec![*kind], *capacity)).collect();
        if !shared.is_empty() {
            lanes.push((shared, shared_capacity.max(1)));
        }
        lanes
    }
}

/// How the lanes poll.
#[derive(Clone, Copy, Debug)]
pub struct WorkerOptions {
    /// How many jobs of the shared lane run at once.
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

/// Starts one dispatcher per lane. They stop claiming once `shutdown` turns true and let the jobs
/// they started finish; await the returned set to wait for them.
pub fn spawn_workers(
    db: &Db,
    handlers: Handlers,
    options: WorkerOptions,
    shutdown: watch::Receiver<bool>,
) -> JoinSet<()> {
    let mut set = JoinSet::new();
    let process = uuid::Uuid::new_v4().simple().to_string();
    for (n, (kinds, capacity)) in handlers.lanes(options.workers).into_iter().enumerate() {
        let queue = Queue::new(db.clone(), format!("{}-{n}", &process[..12]))
            .with_lease(options.lease)
            .with_backoff(options.backoff);
        let lane = Lane { queue, kinds, slots: Arc::new(Semaphore::new(capacity)) };
        set.spawn(lane.dispatch(handlers.clone(), options.idle_poll, shutdown.clone()));
    }
    set
}

/// Claims a lane's kinds while it has a free slot, and runs each job as a task of its own.
struct Lane {
    queue: Queue,
    kinds: Vec<&'static str>,
    slots: Arc<Semaphore>,
}

impl Lane {
    async fn dispatch(self, handlers: Handlers, idle_poll: Duration, mut shutdown: watch::Receiver<bool>) {
        let db = self.queue.db.clone();
        let mut running = JoinSet::new();
        while !*shutdown.borrow() {
            let slot = tokio::select! {
                slot = self.slots.clone().acquire_owned() => slot.expect("the lane's slots are never closed"),
                _ = shutdown.changed() => break,
            };
            while running.try_join_next().is_some() {}
            // The other free slots too: one statement claims for all of them.
            let mut slots = vec![slot];
            while slots.len() < CLAIM_AT_ONCE {
                match self.slots.clone().try_acquire_owned() {
                    Ok(slot) => slots.push(slot),
                    Err(_) => break,
                }
            }
            // Listen before looking, so that a job committed while we look still wakes us.
            let added = db.jobs_signal().notified();
            tokio::pin!(added);
            added.as_mut().enable();
            match self.queue.claim_many(&self.kinds, slots.len()).await {
                Ok(jobs) if !jobs.is_empty() => {
                    for (job, slot) in jobs.into_iter().zip(slots) {
                        running.spawn(run_one(self.queue.clone(), handlers.clone(), job, slot));
                    }
                }
                Ok(_) => {
                    drop(slots);
                    // A job due but not claimed waits for its subject's running job, whose end
                    // wakes this lane (or, in another process, the next poll does).
                    let nap = match self.queue.next_due(&self.kinds).await {
                        Ok(Some(at)) if at > now_ms() => {
                            Duration::from_millis((at - now_ms()) as u64).min(idle_poll)
                        }
                        _ => idle_poll,
                    };
                    tokio::select! {
                        _ = tokio::time::sleep(nap) => {}
                        _ = &mut added => {}
                        _ = shutdown.changed() => {}
                    }
                }
                Err(err) => {
                    drop(slots);
                    tracing::warn!(error = %err, "job queue unavailable; retrying");
                    tokio::select! {
                        _ = tokio::time::sleep(idle_poll * 5) => {}
                        _ = shutdown.changed() => {}
                    }
                }
            }
        }
        while running.join_next().await.is_some() {}
    }
}

/// Runs one claimed job, renewing its lease meanwhile, and records the outcome; the lane's slot
/// is free again when it ends.
async fn run_one(queue: Queue, handlers: Handlers, job: Job, _slot: OwnedSemaphorePermit) {
    let Some(handler) = handlers.handlers.get(job.kind.as_str()) else {
        return;
    };
    // The lease is renewed at a third of its length while the job runs, so that a slow job is
    // never taken over while its runner lives.
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
    if job.subject.is_some() {
        queue.db.jobs_added(); // the subject's next job may run now
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
