//! Live plan changes for open dashboards (`WatchBusinessPlan`). Within a process each user whose
//! plan is watched has a broadcast channel of their own, so a change reaches only its owner's
//! watchers, and a user has at most [`MAX_WATCHERS`] of them. On PostgreSQL, where several server processes may share the database, every
//! change is announced with NOTIFY in its transaction and each process's relay (LISTEN) publishes
//! it to its own watchers — including the changes it made itself, so each change is published once.
//! Watchers that fall behind catch up from the change feed by cursor.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast;

use super::store::{self, CHANGES_CHANNEL, Change, Detail, Status};
use crate::db::{Db, notify};
use crate::error::AppError;

#[derive(Clone, Debug)]
pub struct PlanEvent {
    pub user_id: String,
    pub change: Change,
    pub progress: i32,
    pub status: Status,
}

/// Streams one user may have open at once in one process.
pub const MAX_WATCHERS: usize = 5;
/// Changes a watcher may fall behind by before it catches up from the feed.
const BACKLOG: usize = 256;

/// Each watched user's channel.
#[derive(Clone, Default)]
pub struct PlanEvents {
    owners: Arc<Mutex<HashMap<String, broadcast::Sender<PlanEvent>>>>,
}

impl PlanEvents {
    /// Tells the owner's watchers, if they have any here.
    pub fn publish(&self, event: PlanEvent) {
        let mut owners = self.owners.lock().expect("the watchers' map is never poisoned");
        let user_id = event.user_id.clone();
        if let Some(sender) = owners.get(&user_id)
            && sender.send(event).is_err()
        {
            owners.remove(&user_id); // nobody watches any more
        }
    }

    /// A new watcher of the user's plan, or None when they already have [`MAX_WATCHERS`]. The
    /// watcher counts until its receiver is dropped.
    pub fn watch(&self, user_id: &str) -> Option<broadcast::Receiver<PlanEvent>> {
        let mut owners = self.owners.lock().expect("the watchers' map is never poisoned");
        if owners.len() > 1024 {
            owners.retain(|_, sender| sender.receiver_count() > 0);
        }
        let sender = owners.entry(user_id.to_owned()).or_insert_with(|| broadcast::channel(BACKLOG).0);
        (sender.receiver_count() < MAX_WATCHERS).then(|| sender.subscribe())
    }

    fn watched(&self, user_id: &str) -> bool {
        let owners = self.owners.lock().expect("the watchers' map is never poisoned");
        owners.get(user_id).is_some_and(|sender| sender.receiver_count() > 0)
    }

    /// On PostgreSQL, starts relaying every process's changes to this process's watchers; the
    /// caller then leaves publishing to the relay. Does nothing on SQLite.
    pub async fn start_relay(&self, db: Db) -> Result<(), AppError> {
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

    async fn relay(&self, db: &Db, payload: &str) -> Result<(), AppError> {
        let Some((user_id, cursor)) = payload.split_once(' ') else { return Ok(()) };
        let Ok(cursor) = cursor.parse::<i64>() else { return Ok(()) };
        if !self.watched(user_id) {
            return Ok(()); // nobody here watches this plan: nothing to read
        }
        let Some(change) = store::changes_since(db, user_id, cursor - 1, 1).await?.into_iter().next() else {
            return Ok(()); // the plan was deleted meanwhile
        };
        let mut conn = db.pool().acquire().await?;
        let Some(plan) = store::find(&mut conn, user_id, Detail::Sections, db.now_ms()).await? else {
            return Ok(());
        };
        self.publish(PlanEvent {
            user_id: user_id.to_owned(),
            change,
            progress: plan.progress(),
            status: plan.status(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{
        sections::Step,
        store::{Change, Source},
    };

    fn event(user_id: &str, cursor: i64) -> PlanEvent {
        PlanEvent {
            user_id: user_id.into(),
            change: Change {
                cursor,
                step: Step::Idea,
                data: serde_json::json!({"businessName": "Doces da Ana"}),
                completed: None,
                source: Source::Dashboard,
                actor_id: None,
                created_at: 0,
            },
            progress: 10,
            status: Status::InProgress,
        }
    }

    #[test]
    fn a_change_reaches_only_its_owners_watchers() {
        let events = PlanEvents::default();
        let mut ana = events.watch("ana").unwrap();
        let mut bruno = events.watch("bruno").unwrap();
        events.publish(event("ana", 1));
        assert_eq!(ana.try_recv().unwrap().change.cursor, 1);
        assert!(bruno.try_recv().is_err(), "Bruno hears nothing of Ana's plan");
    }

    #[test]
    fn a_user_has_at_most_five_watchers_and_a_closed_one_frees_its_place() {
        let events = PlanEvents::default();
        let mut open: Vec<_> = (0..MAX_WATCHERS).map(|_| events.watch("ana").unwrap()).collect();
        assert!(events.watch("ana").is_none());
        assert!(events.watch("bruno").is_some(), "the limit is per user");
        open.pop();
        assert!(events.watch("ana").is_some());
    }
}
