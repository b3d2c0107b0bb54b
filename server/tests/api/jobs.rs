//! The durable job queue against real databases: nothing lost across restarts, nothing run twice,
//! failures retried with backoff and left visible.

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use futures::future::BoxFuture;
use socio::{
    clock::Clock,
    db::{
        Db,
        jobs::{self, Backoff, Handlers, Job, JobError, JobHandler, NewJob, Queue, WorkerOptions},
    },
};
use sqlx::Row;
use tokio::sync::watch;

use crate::{
    helpers::{TestDatabase, enqueue_now},
    on_both_engines, on_postgres,
};

async fn open(db: &TestDatabase) -> Db {
    let db = Db::connect(&db.url).await.expect("connect");
    db.migrate().await.expect("migrate");
    db
}

/// Records each run; fails the way it is told to.
struct Recorder {
    seen: Arc<Mutex<Vec<String>>>,
    fail: Option<fn(&Job) -> JobError>,
}

impl JobHandler for Recorder {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(async move {
            self.seen.lock().unwrap().push(job.id.clone());
            // Lets the other workers run meanwhile, as a job that waits on the network would.
            tokio::task::yield_now().await;
            match self.fail {
                Some(fail) => Err(fail(job)),
                None => Ok(()),
            }
        })
    }
}

fn fast_options(workers: usize) -> WorkerOptions {
    WorkerOptions {
        workers,
        idle_poll: Duration::from_millis(10),
        lease: Duration::from_secs(30),
        backoff: Backoff { base: Duration::from_millis(10), max: Duration::from_millis(40) },
        tidy_every: Duration::from_millis(50),
    }
}

/// Tells the workers to stop and waits until every one has.
async fn stop_workers(stop: watch::Sender<bool>, pools: impl IntoIterator<Item = tokio::task::JoinSet<()>>) {
    stop.send(true).unwrap();
    for mut workers in pools {
        while workers.join_next().await.is_some() {}
    }
}

async fn count_with_status(db: &Db, status: &str) -> i64 {
    sqlx::query("select count(*) as n from jobs where status = $1")
        .bind(status)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .try_get::<i64, _>("n")
        .unwrap()
}

async fn wait_for(db: &Db, status: &str, count: i64) {
    let what = format!("{count} jobs {status}");
    crate::helpers::eventually(&what, || async { count_with_status(db, status).await >= count }).await;
}

async fn a_job_survives_a_restart(test_db: TestDatabase) {
    let first = open(&test_db).await;
    let id = enqueue_now(&first, NewJob::new("reply", serde_json::json!({"to": "+5511987654321"})))
        .await
        .unwrap()
        .unwrap();
    first.close().await;

    let second = open(&test_db).await;
    let job = Queue::new(second.clone(), "after-restart")
        .claim(&["reply"])
        .await
        .unwrap()
        .expect("the job is still there");
    assert_eq!(job.id, id);
    assert_eq!(job.payload["to"], "+5511987654321");
    assert_eq!(job.attempt, 1);
}
on_both_engines!(a_job_survives_a_restart);

async fn two_workers_never_run_the_same_job(test_db: TestDatabase) {
    // Two pools stand for two server processes, each with several workers.
    let (a, b) = (open(&test_db).await, open(&test_db).await);
    const JOBS: usize = 120;
    for n in 0..JOBS {
        enqueue_now(&a, NewJob::new("work", serde_json::json!({ "n": n }))).await.unwrap();
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let handlers = Handlers::new().register("work", Arc::new(Recorder { seen: seen.clone(), fail: None }));
    let (stop, stopped) = watch::channel(false);
    let one = jobs::spawn_workers(&a, handlers.clone(), fast_options(3), stopped.clone());
    let two = jobs::spawn_workers(&b, handlers, fast_options(3), stopped);
    wait_for(&a, "done", JOBS as i64).await;
    stop_workers(stop, [one, two]).await;

    let seen = seen.lock().unwrap();
    let unique: HashSet<&String> = seen.iter().collect();
    assert_eq!(seen.len(), JOBS, "every job ran exactly once");
    assert_eq!(unique.len(), JOBS);
}
on_both_engines!(two_workers_never_run_the_same_job);

async fn a_failing_job_is_retried_with_backoff_then_left_failed_with_its_error(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let id =
        enqueue_now(&db, NewJob::new("flaky", serde_json::json!({})).max_attempts(3)).await.unwrap().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let fail: fn(&Job) -> JobError =
        |job| JobError::Retryable(format!("Graph API answered 500 on attempt {}", job.attempt));
    let handlers =
        Handlers::new().register("flaky", Arc::new(Recorder { seen: seen.clone(), fail: Some(fail) }));
    let (stop, stopped) = watch::channel(false);
    let workers = jobs::spawn_workers(&db, handlers, fast_options(2), stopped);
    wait_for(&db, "failed", 1).await;
    stop_workers(stop, [workers]).await;

    let state = Queue::new(db.clone(), "reader").state(&id).await.unwrap().unwrap();
    assert_eq!(state.status, "failed");
    assert_eq!(state.attempts, 3);
    assert_eq!(state.last_error.as_deref(), Some("Graph API answered 500 on attempt 3"));
    assert_eq!(seen.lock().unwrap().len(), 3);
}
on_both_engines!(a_failing_job_is_retried_with_backoff_then_left_failed_with_its_error);

async fn a_permanent_error_fails_the_job_without_retrying(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let id = enqueue_now(&db, NewJob::new("send", serde_json::json!({}))).await.unwrap().unwrap();
    let queue = Queue::new(db.clone(), "w1");
    let job = queue.claim(&["send"]).await.unwrap().unwrap();
    queue.fail(&job, &JobError::Permanent("131047: outside the 24-hour window".into())).await.unwrap();
    let state = queue.state(&id).await.unwrap().unwrap();
    assert_eq!((state.status.as_str(), state.attempts), ("failed", 1));
    assert!(queue.claim(&["send"]).await.unwrap().is_none(), "a failed job is not run again");
}
on_both_engines!(a_permanent_error_fails_the_job_without_retrying);

async fn a_job_whose_worker_died_is_claimed_again_after_its_lease(test_db: TestDatabase) {
    let db = open(&test_db).await.with_clock(Clock::adjustable());
    // Only the test moves time: a loaded machine must not run the 50 ms lease out between claims.
    db.clock().pause();
    let id = enqueue_now(&db, NewJob::new("reply", serde_json::json!({}))).await.unwrap().unwrap();
    let dead = Queue::new(db.clone(), "dead-worker").with_lease(Duration::from_millis(50));
    let alive = Queue::new(db.clone(), "live-worker");
    let claimed = dead.claim(&["reply"]).await.unwrap().unwrap();
    assert!(alive.claim(&["reply"]).await.unwrap().is_none(), "leased to the first worker");

    db.clock().advance(80);
    let again = alive.claim(&["reply"]).await.unwrap().expect("the lease ran out");
    assert_eq!((again.id.as_str(), again.attempt), (id.as_str(), 2));
    assert!(!dead.complete(&claimed).await.unwrap(), "the dead worker no longer owns it");
    assert!(alive.complete(&again).await.unwrap());
}
on_both_engines!(a_job_whose_worker_died_is_claimed_again_after_its_lease);

async fn a_dedupe_key_enqueues_once_and_a_rolled_back_job_never_exists(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let job = || NewJob::new("reply", serde_json::json!({})).dedupe_key("reply:wamid.1");
    assert!(enqueue_now(&db, job()).await.unwrap().is_some());
    assert!(enqueue_now(&db, job()).await.unwrap().is_none(), "the duplicate is a no-op");

    let mut tx = db.begin().await.unwrap();
    jobs::enqueue(&mut tx, NewJob::new("ghost", serde_json::json!({}))).await.unwrap();
    tx.rollback().await.unwrap();
    assert!(Queue::new(db.clone(), "w").claim(&["ghost"]).await.unwrap().is_none());
    assert_eq!(count_with_status(&db, "queued").await, 1);
}
on_both_engines!(a_dedupe_key_enqueues_once_and_a_rolled_back_job_never_exists);

async fn a_job_scheduled_for_later_waits_for_its_time(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let later = db.now_ms() + 60_000;
    enqueue_now(&db, NewJob::new("notice", serde_json::json!({})).run_at(later)).await.unwrap();
    assert!(Queue::new(db.clone(), "w").claim(&["notice"]).await.unwrap().is_none());
}
on_both_engines!(a_job_scheduled_for_later_waits_for_its_time);

/// Workers whose poll is a minute away, so that only being woken can make a job run in time: "work"
/// in the shared lane, "slow" in a lane of its own.
fn sleepy_workers(
    db: &Db,
    seen: &Arc<Mutex<Vec<String>>>,
) -> (watch::Sender<bool>, tokio::task::JoinSet<()>) {
    let handlers = Handlers::new()
        .register("work", Arc::new(Recorder { seen: seen.clone(), fail: None }))
        .register_in_lane("slow", Arc::new(Recorder { seen: seen.clone(), fail: None }), 2);
    let options = WorkerOptions { idle_poll: Duration::from_secs(60), ..fast_options(2) };
    let (stop, stopped) = watch::channel(false);
    (stop, jobs::spawn_workers(db, handlers, options, stopped))
}

async fn a_job_committed_in_this_process_wakes_idle_workers_at_once(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (stop, workers) = sleepy_workers(&db, &seen);
    // A first job, done: the workers have looked since, found nothing, and sleep a minute.
    enqueue_now(&db, NewJob::new("work", serde_json::json!({}))).await.unwrap();
    wait_for(&db, "done", 1).await;

    // Enqueued in a transaction: its commit wakes the lane that claims its kind, whichever it is.
    for kind in ["work", "slow"] {
        let mut tx = db.begin().await.unwrap();
        jobs::enqueue(&mut tx, NewJob::new(kind, serde_json::json!({}))).await.unwrap();
        tx.commit().await.unwrap();
    }

    wait_for(&db, "done", 3).await; // gives up after ~10 s, long before the next poll
    stop_workers(stop, [workers]).await;
}
on_both_engines!(a_job_committed_in_this_process_wakes_idle_workers_at_once);

async fn a_subject_s_next_job_runs_as_soon_as_the_one_before_it_ends(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (stop, workers) = sleepy_workers(&db, &seen);
    // Two jobs of one person in one commit: the second waits for the first, and the first's end
    // (not the poll, a minute away) is what lets it run.
    let mut tx = db.begin().await.unwrap();
    for n in 0..2 {
        jobs::enqueue(&mut tx, NewJob::new("slow", serde_json::json!({"n": n})).subject("ana"))
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();

    wait_for(&db, "done", 2).await;
    stop_workers(stop, [workers]).await;
}
on_both_engines!(a_subject_s_next_job_runs_as_soon_as_the_one_before_it_ends);

/// The number a statement reads (its column `n`), on the pool or on one connection.
async fn number<'c>(on: impl sqlx::Executor<'c, Database = sqlx::Any>, sql: &'static str) -> i64 {
    sqlx::query(sql).fetch_one(on).await.unwrap().get::<i64, _>("n")
}

/// Vacuums of the jobs table so far, as PostgreSQL counts them.
async fn vacuums_of_jobs(db: &Db) -> i64 {
    number(db.pool(), "select vacuum_count as n from pg_stat_user_tables where relname = 'jobs'").await
}

async fn on_postgresql_the_workers_vacuum_the_queue_s_table_when_they_start_and_while_jobs_end(
    test_db: TestDatabase,
) {
    let db = open(&test_db).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let handlers = Handlers::new().register("work", Arc::new(Recorder { seen: seen.clone(), fail: None }));
    let (stop, stopped) = watch::channel(false);
    let workers = jobs::spawn_workers(&db, handlers, fast_options(2), stopped);
    // The queue they inherit (a backlog's, a crash's old versions) first.
    crate::helpers::eventually("the workers vacuum the queue they start on", || async {
        vacuums_of_jobs(&db).await >= 1
    })
    .await;

    // Then again once jobs have ended (and only then: nothing else ends here).
    for _ in 0..20 {
        enqueue_now(&db, NewJob::new("work", serde_json::json!({}))).await.unwrap();
    }
    wait_for(&db, "done", 20).await;
    crate::helpers::eventually("the table is vacuumed after jobs end", || async {
        vacuums_of_jobs(&db).await >= 2
    })
    .await;
    stop_workers(stop, [workers]).await;
}
on_postgres!(on_postgresql_the_workers_vacuum_the_queue_s_table_when_they_start_and_while_jobs_end);

/// How many times PostgreSQL ran the claim on this connection on a generic plan: one made once for
/// whatever the table held then, and kept.
async fn generic_runs_of_the_claim(conn: &mut sqlx::AnyConnection) -> i64 {
    number(
        conn,
        "select cast(coalesce(sum(generic_plans), 0) as bigint) as n from pg_prepared_statements \
         where statement like 'update jobs set status = ''running''%'",
    )
    .await
}

async fn on_postgresql_a_claim_is_planned_for_the_queue_as_it_is_not_as_it_was_when_it_first_ran(
    test_db: TestDatabase,
) {
    let db = open(&test_db).await;
    let queue = Queue::new(db.clone(), "planner");
    let mut conn = db.pool().acquire().await.unwrap();
    // A new database's first claims, on an empty queue: past the fifth, PostgreSQL would keep a
    // generic plan of a named statement, made for an empty table.
    for _ in 0..10 {
        assert!(queue.claim_many_on(&mut conn, &["work"], 32).await.unwrap().is_empty());
    }
    // The queue's history grows (two thousand finished jobs of as many people), and a job is due.
    sqlx::query(
        "insert into jobs (id, kind, payload, subject, status, attempts, max_attempts, run_at, created_at, updated_at) \
         select 'done-' || n, 'work', '{}', 'person-' || n, 'done', 1, 3, n, n, n from generate_series(1, 2000) as n",
    )
    .execute(&mut *conn)
    .await
    .unwrap();
    enqueue_now(&db, NewJob::new("work", serde_json::json!({})).subject("person-7")).await.unwrap();

    let claimed = queue.claim_many_on(&mut conn, &["work"], 32).await.unwrap();
    assert_eq!(claimed.len(), 1, "the due job is claimed");
    assert_eq!(
        generic_runs_of_the_claim(&mut conn).await,
        0,
        "every claim was planned for the table as it was"
    );
}
on_postgres!(on_postgresql_a_claim_is_planned_for_the_queue_as_it_is_not_as_it_was_when_it_first_ran);

/// How many times the database refused to mark a job done (a sequence: a rollback does not undo it).
async fn refusals(db: &Db) -> i64 {
    number(db.pool(), "select case when is_called then last_value else 0 end as n from refusals").await
}

async fn on_postgresql_a_job_whose_outcome_the_database_refused_a_moment_is_recorded_done_once_it_accepts_it(
    test_db: TestDatabase,
) {
    let db = open(&test_db).await;
    // The database refuses to mark a job done while `refusing` holds a row, as one out of reach
    // would (a pool's timeout, a dropped connection), and counts each refusal.
    for statement in [
        "create table refusing (since bigint)",
        "create sequence refusals",
        "create function refuse_done() returns trigger language plpgsql as $$ begin \
           if exists (select 1 from refusing) then perform nextval('refusals'); \
           raise exception 'the database is out of reach'; end if; return new; end $$",
        "create trigger refuse_done before update on jobs for each row when (new.status = 'done') \
         execute function refuse_done()",
        "insert into refusing values (0)",
    ] {
        sqlx::query(statement).execute(db.pool()).await.unwrap();
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let handlers = Handlers::new().register("work", Arc::new(Recorder { seen: seen.clone(), fail: None }));
    let (stop, stopped) = watch::channel(false);
    let workers = jobs::spawn_workers(&db, handlers, fast_options(1), stopped);
    enqueue_now(&db, NewJob::new("work", serde_json::json!({}))).await.unwrap();
    crate::helpers::eventually("the database refuses the job's outcome", || async {
        refusals(&db).await >= 1
    })
    .await;

    sqlx::query("delete from refusing").execute(db.pool()).await.unwrap();
    // Done long before its lease (30 s) could hand it to another run.
    wait_for(&db, "done", 1).await;
    assert_eq!(seen.lock().unwrap().len(), 1, "the job ran once");
    stop_workers(stop, [workers]).await;
}
on_postgres!(
    on_postgresql_a_job_whose_outcome_the_database_refused_a_moment_is_recorded_done_once_it_accepts_it
);

async fn an_idle_worker_wakes_when_a_scheduled_job_falls_due(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let soon = db.now_ms() + 300;
    enqueue_now(&db, NewJob::new("work", serde_json::json!({})).run_at(soon)).await.unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (stop, workers) = sleepy_workers(&db, &seen);

    wait_for(&db, "done", 1).await; // at its time: the next poll is a minute away
    stop_workers(stop, [workers]).await;
}
on_both_engines!(an_idle_worker_wakes_when_a_scheduled_job_falls_due);

/// Holds each run until the test lets it end (a permit each), counting how many run at once,
/// overall and per subject, and the order each subject's jobs started in.
struct Overlap {
    running: Mutex<(usize, usize)>,
    by_subject: Mutex<std::collections::HashMap<String, usize>>,
    overlapped_subject: std::sync::atomic::AtomicBool,
    order: Mutex<Vec<(String, i64)>>,
    permits: tokio::sync::Semaphore,
}

impl Overlap {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            running: Mutex::default(),
            by_subject: Mutex::default(),
            overlapped_subject: std::sync::atomic::AtomicBool::default(),
            order: Mutex::default(),
            permits: tokio::sync::Semaphore::new(0),
        })
    }

    /// How many runs have started.
    fn started(&self) -> usize {
        self.order.lock().unwrap().len()
    }

    /// Lets `n` more runs end.
    fn let_end(&self, n: usize) {
        self.permits.add_permits(n);
    }
}

/// The handler side of an `Overlap` the test keeps a handle on.
struct Overlapping(Arc<Overlap>);

impl JobHandler for Overlapping {
    fn run<'a>(&'a self, job: &'a Job) -> BoxFuture<'a, Result<(), JobError>> {
        let this = &self.0;
        Box::pin(async move {
            let subject = job.subject.clone().unwrap_or_default();
            {
                let mut running = this.running.lock().unwrap();
                running.0 += 1;
                running.1 = running.1.max(running.0);
                let mut by_subject = this.by_subject.lock().unwrap();
                let now = by_subject.entry(subject.clone()).or_default();
                *now += 1;
                if *now > 1 {
                    this.overlapped_subject.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                this.order.lock().unwrap().push((subject.clone(), job.payload["n"].as_i64().unwrap_or(-1)));
            }
            this.permits.acquire().await.expect("never closed").forget();
            this.running.lock().unwrap().0 -= 1;
            *this.by_subject.lock().unwrap().get_mut(&subject).unwrap() -= 1;
            Ok(())
        })
    }
}

async fn a_lane_of_its_own_runs_many_slow_jobs_at_once_and_never_holds_up_the_shared_lane(
    test_db: TestDatabase,
) {
    let db = open(&test_db).await;
    let slow = Overlap::new();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let handlers = Handlers::new()
        .register_in_lane("reply", Arc::new(Overlapping(slow.clone())), 20)
        .register("send", Arc::new(Recorder { seen: seen.clone(), fail: None }));
    for n in 0..30 {
        let job = NewJob::new("reply", serde_json::json!({ "n": n })).subject(format!("person-{n}"));
        enqueue_now(&db, job).await.unwrap();
    }
    let (stop, stopped) = watch::channel(false);
    let workers = jobs::spawn_workers(&db, handlers, fast_options(1), stopped);
    crate::helpers::eventually("twenty slow jobs run side by side", || async {
        slow.running.lock().unwrap().1 >= 20
    })
    .await;

    // The shared lane still has its place: a send committed now runs while the slow ones wait.
    let sent_at = std::time::Instant::now();
    enqueue_now(&db, NewJob::new("send", serde_json::json!({}))).await.unwrap();
    crate::helpers::eventually("the send ran", || async { !seen.lock().unwrap().is_empty() }).await;
    assert!(sent_at.elapsed() < Duration::from_millis(1000), "the send waited {:?}", sent_at.elapsed());
    assert_eq!(slow.running.lock().unwrap().1, 20, "never more than the lane's capacity at once");
    slow.let_end(30);
    wait_for(&db, "done", 31).await;
    stop_workers(stop, [workers]).await;
}
on_both_engines!(a_lane_of_its_own_runs_many_slow_jobs_at_once_and_never_holds_up_the_shared_lane);

async fn one_subject_s_jobs_run_one_at_a_time_in_the_order_they_were_enqueued(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let overlap = Overlap::new();
    let handlers = Handlers::new().register_in_lane("send", Arc::new(Overlapping(overlap.clone())), 16);
    let now = db.now_ms();
    for n in 0..8 {
        for person in ["ana", "bruno"] {
            let job = NewJob::new("send", serde_json::json!({ "n": n })).subject(person).run_at(now + n);
            enqueue_now(&db, job).await.unwrap();
        }
    }
    // Two servers' worth of lanes on the same queue.
    let (stop, stopped) = watch::channel(false);
    let first = jobs::spawn_workers(&db, handlers.clone(), fast_options(1), stopped.clone());
    let second = jobs::spawn_workers(&open(&test_db).await, handlers, fast_options(1), stopped);
    // Each round, one job of each person's runs, and both are held until both have started: a
    // second job of the same person claimed meanwhile would run beside the first.
    for round in 1..=8 {
        crate::helpers::eventually("ana's and bruno's next jobs run side by side", || async {
            overlap.started() >= 2 * round
        })
        .await;
        overlap.let_end(2);
    }
    wait_for(&db, "done", 16).await;
    stop_workers(stop, [first, second]).await;

    assert!(
        !overlap.overlapped_subject.load(std::sync::atomic::Ordering::SeqCst),
        "one at a time per person"
    );
    for person in ["ana", "bruno"] {
        let order: Vec<i64> =
            overlap.order.lock().unwrap().iter().filter(|(s, _)| s == person).map(|(_, n)| *n).collect();
        assert_eq!(order, (0..8).collect::<Vec<_>>(), "{person}'s jobs in order");
    }
    assert!(overlap.running.lock().unwrap().1 >= 2, "different people's jobs do run side by side");
}
on_both_engines!(one_subject_s_jobs_run_one_at_a_time_in_the_order_they_were_enqueued);

async fn a_batched_job_moves_with_each_request_and_waits_no_longer_than_its_cap(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let batching = jobs::Batching { window: Duration::from_secs(4), cap: Duration::from_secs(15) };
    let run_at = || async {
        let rows = sqlx::query("select run_at from jobs where kind = 'reply' and status = 'queued'")
            .fetch_all(db.pool())
            .await
            .unwrap();
        rows.iter().map(|r| r.get::<i64, _>("run_at")).collect::<Vec<_>>()
    };
    let at = 1_000_000;
    for (message_at, due) in [(at, at + 4_000), (at + 3_000, at + 7_000), (at + 12_000, at + 15_000)] {
        let mut tx = db.begin().await.unwrap();
        let job = NewJob::new("reply", serde_json::json!({ "userId": "ana" })).subject("ana");
        jobs::enqueue_batched(&mut tx, job, message_at, batching).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(run_at().await, vec![due], "one waiting reply, due {due}");
    }
    // Once it runs, the next message starts a batch of its own.
    let claimed = Queue::new(db.clone(), "w").claim(&["reply"]).await.unwrap().expect("due long ago");
    let mut tx = db.begin().await.unwrap();
    let job = NewJob::new("reply", serde_json::json!({ "userId": "ana" })).subject("ana");
    jobs::enqueue_batched(&mut tx, job, at + 20_000, batching).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(run_at().await, vec![at + 24_000]);
    assert!(
        Queue::new(db.clone(), "w").claim(&["reply"]).await.unwrap().is_none(),
        "not while the first runs"
    );
    assert_eq!(claimed.subject.as_deref(), Some("ana"));
}
on_both_engines!(a_batched_job_moves_with_each_request_and_waits_no_longer_than_its_cap);

async fn concurrent_messages_of_one_person_leave_exactly_one_waiting_reply(test_db: TestDatabase) {
    let db = open(&test_db).await;
    let batching = jobs::Batching { window: Duration::from_secs(4), cap: Duration::from_secs(15) };
    let at = db.now_ms();
    let enqueues = (0..20).map(|n| {
        let db = db.clone();
        async move {
            let mut tx = db.begin().await.unwrap();
            let job = NewJob::new("reply", serde_json::json!({ "userId": "ana" })).subject("ana");
            jobs::enqueue_batched(&mut tx, job, at + n, batching).await.unwrap();
            tx.commit().await.unwrap();
        }
    });
    futures::future::join_all(enqueues).await;
    assert_eq!(count_with_status(&db, "queued").await, 1, "one reply waits for the whole burst");
    let due: i64 = sqlx::query("select run_at from jobs where status = 'queued'")
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get("run_at");
    assert!(due >= at + 4_000 && due <= at + 19 + 4_000, "moved by the messages: {}", due - at);
}
on_both_engines!(concurrent_messages_of_one_person_leave_exactly_one_waiting_reply);
