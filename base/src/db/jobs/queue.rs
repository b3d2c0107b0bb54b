//! The queue's statements: claiming due jobs under a lease and a lock token (`FOR UPDATE SKIP
//! LOCKED` on PostgreSQL, one atomic `UPDATE … RETURNING` on SQLite), renewing, completing and
//! failing them with backoff, and reading the queue's depth for the metrics.

use std::time::Duration;

use sqlx::Row;

use super::{Backoff, Job, JobError, JobState};
use crate::db::{Db, Engine};

/// The most jobs one claim statement takes.
pub(super) const CLAIM_AT_ONCE: usize = 32;

/// How long a claimed job stays its worker's without a renewal, unless configured otherwise.
pub(super) const DEFAULT_LEASE: Duration = Duration::from_secs(30);

/// The queue's operations for one worker identity.
#[derive(Clone, Debug)]
pub struct Queue {
    pub(super) db: Db,
    worker_id: String,
    pub(super) lease: Duration,
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
        self.claim_many_on(&mut *self.db.writer().await?, kinds, count).await
    }

    /// [`Queue::claim_many`] on `conn`, which must be a connection that may write (the writer's on
    /// SQLite). On PostgreSQL the claim is planned afresh at every run, for the table as it is:
    /// a named statement is planned generically after its fifth run, and a generic plan made
    /// while the queue's table was nearly empty (a new database's first minute) reads the whole
    /// table for every candidate — each claim slower with each job that ended — until a vacuum
    /// makes PostgreSQL plan it again (measured 2026-11-29: the bench's reply pipeline, one message
    /// at a time, went from 5 to 25 ms a message over 3 s, then back to 3 ms at the workers'
    /// vacuum). SQLite plans a statement once, by its indexes, and keeps it.
    pub async fn claim_many_on(
        &self,
        conn: &mut sqlx::AnyConnection,
        kinds: &[&str],
        count: usize,
    ) -> Result<Vec<Job>, sqlx::Error> {
        if kinds.is_empty() || count == 0 {
            return Ok(Vec::new());
        }
        let now = self.db.now_ms();
        let sql = claim_statement(self.db.engine(), kinds.len(), count);
        let token = format!("{}-{}", self.worker_id, &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .persistent(self.db.engine() == Engine::Sqlite)
            .bind(&token)
            .bind(now + self.lease.as_millis() as i64)
            .bind(now);
        for kind in kinds {
            query = query.bind(*kind);
        }
        let rows = query.fetch_all(conn).await?;
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
        .bind(self.db.now_ms() + self.lease.as_millis() as i64)
        .bind(&job.id)
        .bind(&job.lock)
        .execute(&mut *self.db.writer().await?)
        .await?;
        Ok(())
    }

    /// Marks a claimed job done. False when this worker no longer held it (its lease ran out and
    /// another worker took it over).
    pub async fn complete(&self, job: &Job) -> Result<bool, sqlx::Error> {
        Ok(!self.complete_many(&[(job.id.as_str(), job.lock.as_str())]).await?.is_empty())
    }

    /// Marks claimed jobs done in one statement, each by its id and the lock token its runner holds
    /// (`(id, lock)`); the ids of those still held, and so now done. Found by primary key, however
    /// many jobs the table keeps.
    pub(super) async fn complete_many(&self, jobs: &[(&str, &str)]) -> Result<Vec<String>, sqlx::Error> {
        if jobs.is_empty() {
            return Ok(Vec::new());
        }
        let mut query =
            sqlx::query(sqlx::AssertSqlSafe(completion_statement(jobs.len()))).bind(self.db.now_ms());
        for (id, lock) in jobs {
            query = query.bind(*id).bind(*lock);
        }
        let rows = query.fetch_all(&mut *self.db.writer().await?).await?;
        rows.iter().map(|row| row.try_get("id")).collect()
    }

    /// Records a failed run: schedules a retry with backoff, or ends the job `failed` when the error
    /// is permanent or the attempts are spent.
    pub async fn fail(&self, job: &Job, error: &JobError) -> Result<(), sqlx::Error> {
        let now = self.db.now_ms();
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
        .execute(&mut *self.db.writer().await?)
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

/// The claim of up to `count` due jobs of `kinds` kinds (`$1` the lock token, `$2` the lease's
/// end, `$3` now, `$4…` the kinds). The live rows are found through partial indexes (migration
/// 0028: due jobs by kind and time, running ones by kind and lease) and a subject's earlier or
/// running job through `jobs_subject_idx` on its two live statuses, so a claim reads the same rows
/// however many finished jobs the table keeps. Queued and lapsed jobs are taken apart, each up to
/// `count` in order, and the earliest `count` of both kept: a kind's due jobs come in the claim's
/// order from `jobs_due_idx` (kind, run_at, created_at; migration 0032), so the claim stops after
/// `count` free ones instead of checking and sorting every due job (a crowd's thousand replies).
fn claim_statement(engine: Engine, kinds: usize, count: usize) -> String {
    let kind_params: Vec<String> = (0..kinds).map(|i| format!("${}", i + 4)).collect();
    let lock = match engine {
        Engine::Postgres => " for update of j skip locked",
        Engine::Sqlite => "",
    };
    let kinds = kind_params.join(", ");
    // Free: no job of its subject and kind runs under a live lease or was queued before it (by
    // its time, then its creation, then its time-ordered id: two made in one millisecond — the
    // replies to two messages read together — never run side by side or out of order).
    let free = "(j.subject is null or not exists (select 1 from jobs o \
         where o.subject = j.subject and o.kind = j.kind and o.id <> j.id \
         and o.status in ('queued', 'running') and \
         ((o.status = 'running' and o.locked_until >= $3) \
          or (o.status = 'queued' and (o.run_at < j.run_at \
          or (o.run_at = j.run_at and o.created_at < j.created_at) \
          or (o.run_at = j.run_at and o.created_at = j.created_at and o.id < j.id))))))";
    format!(
        "update jobs set status = 'running', attempts = attempts + 1, locked_by = $1, \
         locked_until = $2, updated_at = $3 \
         where id in (select c.id from (\
           select * from (select j.id, j.run_at, j.created_at from jobs j \
             where j.kind in ({kinds}) and j.status = 'queued' and j.run_at <= $3 and {free} \
             order by j.run_at, j.created_at, j.id limit {count}{lock}) as due \
           union all \
           select * from (select j.id, j.run_at, j.created_at from jobs j \
             where j.kind in ({kinds}) and j.status = 'running' and j.locked_until < $3 and {free} \
             order by j.run_at, j.created_at, j.id limit {count}{lock}) as lapsed \
         ) as c order by c.run_at, c.created_at, c.id limit {count}) \
         returning id, kind, payload, attempts, max_attempts, created_at, subject",
    )
}

/// The completion of `count` jobs (`$1` now, then each job's id and lock token).
fn completion_statement(count: usize) -> String {
    let ids: Vec<String> = (0..count).map(|i| format!("${}", 2 * i + 2)).collect();
    let held: Vec<String> =
        (0..count).map(|i| format!("(id = ${} and locked_by = ${})", 2 * i + 2, 2 * i + 3)).collect();
    // A lock token is set only with `running` (a claim) and cleared with every other status, so
    // the token alone says the runner still holds the job; without a term on the status, SQLite's
    // planner looks the rows up by key instead of through the status index.
    format!(
        "update jobs set status = 'done', locked_by = null, locked_until = null, updated_at = $1 \
         where id in ({}) and ({}) returning id",
        ids.join(", "),
        held.join(" or ")
    )
}

/// Whether a job of `kind` for `subject` is running now (under a live lease): a job of another
/// kind that must come after it waits while this holds.
pub async fn running_for(db: &Db, kind: &str, subject: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "select 1 from jobs where kind = $1 and subject = $2 and status = 'running' and locked_until >= $3 limit 1",
    )
    .bind(kind)
    .bind(subject)
    .bind(db.now_ms())
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
    let now = db.now_ms();
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

#[cfg(test)]
mod tests {
    use sqlx::Row;

    use super::*;

    /// SQLite's plan (`EXPLAIN QUERY PLAN`, one line a step) for a claim of the first `kinds` of
    /// reply and send, on a new database.
    async fn claim_plan(kinds: usize) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/claim.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        let explain = format!("explain query plan {}", claim_statement(Engine::Sqlite, kinds, CLAIM_AT_ONCE));
        let mut query = sqlx::query(sqlx::AssertSqlSafe(explain)).bind("token").bind(2_i64).bind(1_i64);
        for kind in ["reply", "send"].into_iter().take(kinds) {
            query = query.bind(kind);
        }
        let rows = query.fetch_all(db.pool()).await.expect("explain");
        rows.iter().map(|row| row.try_get::<String, _>("detail").expect("detail")).collect()
    }

    #[tokio::test]
    async fn a_claim_looks_only_at_live_jobs_through_their_indexes_whatever_the_history() {
        let plan = claim_plan(2).await;
        let text = plan.join("\n");
        // Due jobs: queued ones whose time came (by kind, or by status and time — either way
        // never a finished one); running ones by kind and expired lease, not every running job.
        assert!(
            text.contains("jobs_due_idx (kind=? AND run_at<?)")
                || text.contains("jobs_ready_idx (status=? AND run_at<?)"),
            "{text}"
        );
        assert!(text.contains("jobs_lease_idx (kind=? AND locked_until<?)"), "{text}");
        assert!(text.contains("jobs_subject_idx (subject=? AND kind=? AND status=?)"), "{text}");
        assert!(!plan.iter().any(|step| step.ends_with("jobs_ready_idx (status=?)")), "{text}");
        // The subqueries' results are scanned, never the table.
        assert!(
            !plan.iter().any(|step| ["SCAN j", "SCAN o", "SCAN jobs"].contains(&step.as_str())),
            "{text}"
        );
    }

    #[tokio::test]
    async fn a_claim_of_one_kind_takes_its_due_jobs_in_order_from_the_index_without_sorting_them_all() {
        let plan = claim_plan(1).await;
        let text = plan.join("\n");
        // The queued jobs' part, up to its scan: read in the claim's order from the partial index,
        // nothing sorted, so it stops after the jobs it takes.
        let due: Vec<&str> = plan.iter().map(String::as_str).take_while(|step| *step != "SCAN due").collect();
        assert!(due.contains(&"SEARCH j USING INDEX jobs_due_idx (kind=? AND run_at<?)"), "{text}");
        assert!(!due.iter().any(|step| step.starts_with("USE TEMP B-TREE")), "{text}");
    }

    #[tokio::test]
    async fn a_completion_of_many_jobs_finds_each_by_its_key_whatever_the_history() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/complete.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        let plan = crate::db::sqlite_query_plan(&db, &completion_statement(3)).await;
        let text = plan.join("\n");
        assert_eq!(plan, ["SEARCH jobs USING INDEX sqlite_autoindex_jobs_1 (id=?)"], "{text}");
    }

    #[tokio::test]
    async fn jobs_completed_together_are_done_only_where_their_runner_still_held_them() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/held.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        let mut tx = db.begin().await.unwrap();
        for n in 0..3 {
            crate::db::jobs::enqueue(
                &mut tx,
                crate::db::jobs::NewJob::new("send", serde_json::json!({ "n": n })),
            )
            .await
            .unwrap();
        }
        tx.commit().await.unwrap();
        let queue = Queue::new(db.clone(), "w1");
        let jobs = queue.claim_many(&["send"], 3).await.unwrap();
        assert_eq!(jobs.len(), 3);
        // The third's lease ran out and another worker took it over.
        sqlx::query("update jobs set locked_by = 'w2-token' where id = $1")
            .bind(&jobs[2].id)
            .execute(&mut *db.writer().await.unwrap())
            .await
            .unwrap();
        let keys: Vec<(&str, &str)> = jobs.iter().map(|j| (j.id.as_str(), j.lock.as_str())).collect();
        let mut done = queue.complete_many(&keys).await.unwrap();
        done.sort();
        let mut expected = vec![jobs[0].id.clone(), jobs[1].id.clone()];
        expected.sort();
        assert_eq!(done, expected);
        let state = |id: String| {
            let queue = queue.clone();
            async move { queue.state(&id).await.unwrap().unwrap().status }
        };
        assert_eq!(state(jobs[0].id.clone()).await, "done");
        assert_eq!(state(jobs[2].id.clone()).await, "running", "the other worker's to finish");
        assert!(!queue.complete(&jobs[2]).await.unwrap());
    }
}
