//! Live plan changes for open dashboards (`WatchBusinessPlan`). Within a process this is a
//! broadcast channel. On PostgreSQL, where several server processes may share the database, every
//! change is announced with NOTIFY in its transaction and each process's relay (LISTEN) publishes
//! it to its own watchers — including the changes it made itself, so each change is published once.
//! Watchers that fall behind catch up from the change feed by cursor.

use tokio::sync::broadcast;

use super::store::{self, CHANGES_CHANNEL, Change, Detail, Status};
use crate::db::{Db, notify};

#[derive(Clone, Debug)]
pub struct PlanEvent {
    pub user_id: String,
    pub change: Change,
    pub progress: i32,
    pub status: Status,
}

#[derive(Clone)]
pub struct PlanEvents {
    sender: broadcast::Sender<PlanEvent>,
}

impl Default for PlanEvents {
    fn default() -> Self {
        Self { sender: broadcast::channel(1024).0 }
    }
}

impl PlanEvents {
    pub fn publish(&self, event: PlanEvent) {
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<PlanEvent> {
        self.sender.subscribe()
    }

    /// On PostgreSQL, starts relaying every process's changes to this process's watchers; the
    /// caller then leaves publishing to the relay. Does nothing on SQLite.
    pub async fn start_relay(&self, db: Db) -> Result<(), sqlx::Error> {
        let Some(mut announced) = notify::listen(&db, CHANGES_CHANNEL).await? else { return Ok(()) };
        let events = self.clone();
        tokio::spawn(async move {
            while let Some(payload) = announced.recv().await {
                if let Err(error) = events.relay(&db, &payload).await {
                    tracing::warn!(%error, %payload, "could not relay a plan change");
                }
            }
        });
        Ok(())
    }

    async fn relay(&self, db: &Db, payload: &str) -> Result<(), sqlx::Error> {
        let Some((user_id, cursor)) = payload.split_once(' ') else { return Ok(()) };
        let Ok(cursor) = cursor.parse::<i64>() else { return Ok(()) };
        let Some(change) = store::changes_since(db, user_id, cursor - 1, 1).await?.into_iter().next() else {
            return Ok(()); // the plan was deleted meanwhile
        };
        let mut conn = db.pool().acquire().await?;
        let Some(plan) = store::find(&mut conn, user_id, Detail::Sections).await? else { return Ok(()) };
        self.publish(PlanEvent {
            user_id: user_id.to_owned(),
            change,
            progress: plan.progress(),
            status: plan.status(),
        });
        Ok(())
    }
}
