//! Keeps the queue's table lean on PostgreSQL, where every claim and every ending leaves the job's
//! earlier version behind (its status is in the claim's partial indexes, so no update is HOT):
//! until a vacuum, each claim's scan of `jobs_due_idx` and `jobs_lease_idx` visits every version a
//! job has ever had there. Measured (2026-11-28, `socio-bench run --engines postgres`, this 2-core
//! machine, whose PostgreSQL runs with `autovacuum = off`): the second hundred of the reply
//! pipeline's messages claimed in 10.5 ms on average against 2.2 ms for the first hundred, and the
//! pipeline's p50 went from 8 to 21 ms; with a `vacuum jobs` each second it was 4 ms. Even with
//! autovacuum on, its default threshold (a fifth of the table dead) lets a queue that keeps its
//! history grow thousands of dead versions between two vacuums. So the workers vacuum the table
//! themselves, when they start and every few seconds while jobs end, never when none did — a
//! vacuum of a table whose pages are all visible but a few reads only those few. SQLite rewrites
//! its index entries in place and needs none of this.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use tokio::sync::watch;

use crate::db::{Db, Engine};

/// How many jobs ended since the last tidy: one counter for every lane of a process.
#[derive(Clone, Default)]
pub(super) struct Endings(Arc<AtomicU64>);

impl Endings {
    pub(super) fn one(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    fn take(&self) -> u64 {
        self.0.swap(0, Ordering::Relaxed)
    }
}

/// Vacuums the jobs table when the workers start (the queue they inherit may hold a backlog's or
/// a crash's old versions) and then every `every` in which a job ended, until `shutdown`; on
/// SQLite, nothing.
pub(super) async fn keep_tidy(
    db: Db,
    endings: Endings,
    every: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    if db.engine() != Engine::Postgres {
        return;
    }
    let mut due = true;
    while !*shutdown.borrow() {
        if due && let Err(err) = tidy(&db).await {
            tracing::warn!(error = %err, "could not vacuum the jobs table");
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = shutdown.changed() => break,
        }
        due = endings.take() > 0;
    }
}

/// One vacuum of the jobs table. `skip_locked`: another process's vacuum of it, already under
/// way, does the same work.
async fn tidy(db: &Db) -> Result<(), sqlx::Error> {
    sqlx::query("vacuum (skip_locked) jobs").execute(db.pool()).await.map(|_| ())
}
