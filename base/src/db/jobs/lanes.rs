//! The workers: one dispatcher per lane claims its kinds while the lane has a free slot and runs
//! each job as a task under its handler, renewing the job's lease meanwhile and recording the
//! outcome.

use std::{collections::HashMap, sync::Arc, time::Duration};

use futures::future::BoxFuture;
use tokio::{
    sync::{OwnedSemaphorePermit, Semaphore, watch},
    task::JoinSet,
};

use super::{
    Backoff, Job, JobError, JobPayload,
    completions::Completions,
    queue::{CLAIM_AT_ONCE, DEFAULT_LEASE, Queue},
    tidy::{Endings, keep_tidy},
};
use crate::db::Db;

/// Runs the jobs of the kinds it is registered for (the application registers one, which reads
/// each job as its kind's payload and hands it to that kind's [`RunsJob`]).
pub trait JobHandler: Send + Sync + 'static {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>>;
}

/// Runs the jobs whose payload is `P`, given the payload already read from the job.
pub trait RunsJob<P: JobPayload>: Send + Sync + 'static {
    fn run<'a>(&'a self, job: &'a Job, payload: P) -> BoxFuture<'a, Result<(), JobError>>;
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
    /// How often, while jobs end, the queue's table is vacuumed (PostgreSQL; `db::jobs::tidy`).
    pub tidy_every: Duration,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        Self {
            workers: 4,
            idle_poll: Duration::from_millis(200),
            lease: DEFAULT_LEASE,
            backoff: Backoff::default(),
            tidy_every: Duration::from_secs(5),
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
    // One gatherer of completions for every lane; it ends once the last job's runner is done.
    let (completions, gathering) = Completions::start(Queue::new(db.clone(), &process[..12]));
    set.spawn(gathering);
    let endings = Endings::default();
    set.spawn(keep_tidy(db.clone(), endings.clone(), options.tidy_every, shutdown.clone()));
    for (n, (kinds, capacity)) in handlers.lanes(options.workers).into_iter().enumerate() {
        let queue = Queue::new(db.clone(), format!("{}-{n}", &process[..12]))
            .with_lease(options.lease)
            .with_backoff(options.backoff);
        let lane = Lane {
            queue,
            kinds,
            slots: Arc::new(Semaphore::new(capacity)),
            completions: completions.clone(),
            endings: endings.clone(),
        };
        set.spawn(lane.dispatch(handlers.clone(), options.idle_poll, shutdown.clone()));
    }
    set
}

/// Claims a lane's kinds while it has a free slot, and runs each job as a task of its own.
struct Lane {
    queue: Queue,
    kinds: Vec<&'static str>,
    slots: Arc<Semaphore>,
    completions: Completions,
    endings: Endings,
}

impl Lane {
    async fn dispatch(self, handlers: Handlers, idle_poll: Duration, mut shutdown: watch::Receiver<bool>) {
        let db = self.queue.db.clone();
        let signal = db.job_signals().listen(&self.kinds);
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
            let added = signal.notified();
            tokio::pin!(added);
            added.as_mut().enable();
            match self.queue.claim_many(&self.kinds, slots.len()).await {
                Ok(jobs) if !jobs.is_empty() => {
                    for (job, slot) in jobs.into_iter().zip(slots) {
                        running.spawn(run_one(
                            self.queue.clone(),
                            self.completions.clone(),
                            self.endings.clone(),
                            handlers.clone(),
                            job,
                            slot,
                        ));
                    }
                }
                Ok(_) => {
                    drop(slots);
                    // A job due but not claimed waits for its subject's running job, whose end
                    // wakes this lane (or, in another process, the next poll does).
                    // The next job's time is waited for on the app's clock, so a test moving it
                    // there wakes the lane at once; the poll catches other processes' jobs.
                    let now = db.now_ms();
                    let due = match self.queue.next_due(&self.kinds).await {
                        Ok(Some(at)) if at > now => Some(at),
                        _ => None,
                    };
                    let clock = db.clock();
                    tokio::select! {
                        _ = tokio::time::sleep(idle_poll) => {}
                        _ = clock.sleep_until(due.unwrap_or(i64::MAX)), if due.is_some() => {}
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

/// How many times a job's outcome is written before its lease is left to hand the job on, and the
/// waits between tries: the queue's backoff from 0.25 s to 2 s (with its jitter, so runners that
/// met the same outage do not come back together), well inside a lease.
const RECORD_TRIES: i32 = 5;
const RECORD_BACKOFF: Backoff = Backoff { base: Duration::from_millis(250), max: Duration::from_secs(2) };

/// Runs one claimed job, renewing its lease meanwhile, and records the outcome; the lane's slot
/// is free again when it ends.
async fn run_one(
    queue: Queue,
    completions: Completions,
    endings: Endings,
    handlers: Handlers,
    job: Job,
    _slot: OwnedSemaphorePermit,
) {
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
    if let Err(err) = &outcome {
        tracing::warn!(job = %job.id, kind = %job.kind, attempt = job.attempt, error = %err, "job failed");
    }
    // A database that refuses the outcome for a moment (a pool's timeout, a dropped connection)
    // is asked again: a job done but not recorded would run again once its lease ran out.
    for attempt in 1..=RECORD_TRIES {
        let stored = match &outcome {
            Ok(()) => completions.complete(&queue, &job).await.map(|_| ()),
            Err(err) => queue.fail(&job, err).await.map_err(|e| e.to_string()),
        };
        match stored {
            Ok(()) => break,
            Err(err) if attempt < RECORD_TRIES => {
                tracing::warn!(job = %job.id, error = %err, "could not record a job's outcome; trying again");
                tokio::time::sleep(RECORD_BACKOFF.delay(attempt)).await;
            }
            Err(err) => {
                tracing::error!(job = %job.id, error = %err, "could not record a job's outcome; its lease will expire");
            }
        }
    }
    endings.one();
    if job.subject.is_some() {
        queue.db.job_signals().added(&job.kind); // the subject's next job may run now
    }
}
