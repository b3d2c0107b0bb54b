//! The business plan: six sections built over WhatsApp, the web chat and the builder, their
//! progress and status, the change feed that keeps dashboards live (`Plans`, the domain's door).
//! Its rooms, top first (`layers::PLAN_ROOMS`, kept by a test): the complete plan `document` and
//! the `advice` read everything; `tracking` (the months recorded against the plan, the fiscal
//! calendar, the MEI's ceiling, reminders) reads money and the plan itself; `money` (finance maths,
//! taxes, prices, the figures worth a second look) reads the plan itself; the plan itself —
//! `sections`, `store`, `events`, `labels`, `month`, `amounts`, `price_request` and this service —
//! reads none of them.

pub mod advice;
pub mod amounts;
pub mod document;
pub mod events;
pub mod labels;
pub mod money;
pub mod month;
pub mod price_request;
pub mod sections;
pub mod store;
pub mod tracking;

use self::{
    events::{PlanEvent, PlanEvents},
    store::{Change, Detail, Plan, Source, StepUpdate},
};
use crate::{
    db::{
        Db, notify,
        rate_limit::{self, Limit},
    },
    error::AppError,
};

/// Plans, with every change published to live watchers.
#[derive(Clone)]
pub struct Plans {
    db: Db,
    events: PlanEvents,
}

impl Plans {
    pub fn new(db: Db, events: PlanEvents) -> Self {
        Self { db, events }
    }

    pub fn events(&self) -> &PlanEvents {
        &self.events
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Counts one more write under `key` (a person's kind of write); `RateLimited` past `limit`.
    pub async fn limited(&self, key: &str, limit: Limit) -> Result<(), AppError> {
        rate_limit::per_key(&self.db, key, limit).await
    }

    /// The cursor of the person's latest change (0 with none).
    pub async fn latest_cursor(&self, user_id: &str) -> Result<i64, AppError> {
        Ok(store::latest_cursor(&self.db, user_id).await?)
    }

    /// The person's changes after `since`, oldest first, at most `limit`.
    pub async fn changes_since(
        &self,
        user_id: &str,
        since: i64,
        limit: i64,
    ) -> Result<Vec<Change>, AppError> {
        Ok(store::changes_since(&self.db, user_id, since, limit).await?)
    }

    /// Keeps the builder's unsaved edits under `context`; when they were saved.
    pub async fn save_draft(
        &self,
        user_id: &str,
        context: &str,
        data: &serde_json::Value,
    ) -> Result<i64, AppError> {
        store::save_draft(&self.db, user_id, context, data).await
    }

    pub async fn find(&self, user_id: &str) -> Result<Option<Plan>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        Ok(store::find(&mut conn, user_id, Detail::WithDocument, self.db.now_ms()).await?)
    }

    pub async fn get_or_create(&self, user_id: &str) -> Result<Plan, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        store::get_or_create(&mut conn, user_id, Detail::WithDocument, self.db.now_ms()).await
    }

    /// The plan without its generated document (`document` is None): what a dashboard shows.
    pub async fn outline(&self, user_id: &str) -> Result<Plan, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        store::get_or_create(&mut conn, user_id, Detail::Sections, self.db.now_ms()).await
    }

    /// Applies updates atomically, then tells whoever watches this user's plan.
    pub async fn update(
        &self,
        user_id: &str,
        actor_id: Option<&str>,
        source: Source,
        updates: &[StepUpdate],
    ) -> Result<(Plan, Vec<Change>), AppError> {
        let (plan, changes) = store::apply(&self.db, user_id, actor_id, source, updates).await?;
        if notify::shared(&self.db) {
            return Ok((plan, changes)); // the relay publishes what every process announces
        }
        for change in &changes {
            self.events.publish(PlanEvent {
                user_id: user_id.to_owned(),
                change: change.clone(),
                progress: plan.progress(),
                status: plan.status(),
            });
        }
        Ok((plan, changes))
    }

    pub async fn delete(&self, user_id: &str) -> Result<bool, AppError> {
        Ok(store::delete(&self.db, user_id).await?)
    }
}
