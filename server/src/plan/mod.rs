//! The business plan: six sections built over WhatsApp, the web chat and the builder, their
//! progress and status, the change feed that keeps dashboards live, the finance maths and the
//! complete plan document.

pub mod advice;
pub mod calendar;
pub mod ceiling;
pub mod checks;
pub mod document;
pub mod events;
pub mod finance;
pub mod finance_tables;
pub mod labels;
pub mod money;
pub mod pricing;
pub mod reminders;
pub mod results;
pub mod sections;
pub mod store;
pub mod taxes;

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
    identity::users::User,
    locale::Language,
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

    /// Writes the complete plan from the sections, as the next version of the document.
    pub async fn generate(
        &self,
        user: &User,
        language: Language,
        overview: Option<&str>,
    ) -> Result<(Plan, store::Document), AppError> {
        let plan = self.get_or_create(&user.id).await?;
        let model = document::model(&plan, user, language, overview, self.db.now_ms());
        let markdown = document::to_markdown(&model);
        let model = serde_json::to_value(&model).map_err(|e| AppError::Internal(e.into()))?;
        let stored = store::store_document(&self.db, &plan.id, language.tag(), &markdown, &model).await?;
        let plan = self.find(&user.id).await?.unwrap_or(plan);
        Ok((plan, stored))
    }
}
