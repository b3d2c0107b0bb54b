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

/// The plan's rows of a person, all erased: the plan with its sections, change feed, drafts and
/// documents (reached through the plan), the months recorded against it and the check-in choices;
/// the changes they made to other people's plans (as an admin) stay without their id. None is
/// handed over: an account with a plan is never absorbed by a number change.
pub const PERSONAL: &[Personal] = &[
    Personal::through("plan_changes", "plan_id", "business_plans"),
    Personal::through("plan_sections", "plan_id", "business_plans"),
    Personal::through("plan_documents", "plan_id", "business_plans"),
    Personal::through("plan_drafts", "plan_id", "business_plans"),
    Personal::of("business_plans", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("plan_changes", "actor_id", Erase::Forget(&["actor_id"]), HandOver::Stay),
    Personal::of("month_results", "user_id", Erase::Delete, HandOver::Stay),
    Personal::of("reminder_preferences", "user_id", Erase::Delete, HandOver::Stay),
];

use self::{
    events::{PlanEvent, PlanEvents},
    store::{Change, Detail, Plan, Source, StepUpdate},
};
use crate::{
    db::{
        Db, notify,
        personal::{Erase, HandOver, Personal},
        rate_limit::{self, Limit},
    },
    error::{AppError, Problem},
};

/// Writes per person through the real-time sync calls (a 429 with the seconds to wait beyond):
/// an editor saves every few seconds at most; a script writing faster is refused.
const AUTO_SAVES: Limit = Limit { max: 60, window: std::time::Duration::from_secs(60) };
const SYNC_UPDATES: Limit = Limit { max: 120, window: std::time::Duration::from_secs(60) };
const BATCH_UPDATES: Limit = Limit { max: 30, window: std::time::Duration::from_secs(60) };
/// A draft's size at most (its JSON), and its context's length.
pub const MAX_DRAFT_BYTES: usize = 64 * 1024;
const MAX_CONTEXT_CHARS: usize = 64;

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

    /// Whether the person has a plan, read in the caller's transaction (a number change never
    /// merges such an account away).
    pub async fn exists_in(&self, conn: &mut sqlx::AnyConnection, user_id: &str) -> Result<bool, AppError> {
        store::has_plan(conn, user_id).await
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

    /// One section's update from the real-time sync (`SYNC_UPDATES` a minute per person).
    pub async fn sync(
        &self,
        user_id: &str,
        source: Source,
        update: StepUpdate,
    ) -> Result<(Plan, Vec<Change>), AppError> {
        self.limited(&format!("sync_update:{user_id}"), SYNC_UPDATES).await?;
        self.update(user_id, Some(user_id), source, &[update]).await
    }

    /// Several sections' updates at once, all or none (`BATCH_UPDATES` batches a minute per person).
    pub async fn batch(
        &self,
        user_id: &str,
        source: Source,
        updates: &[StepUpdate],
    ) -> Result<(Plan, Vec<Change>), AppError> {
        self.limited(&format!("batch_updates:{user_id}"), BATCH_UPDATES).await?;
        self.update(user_id, Some(user_id), source, updates).await
    }

    /// Keeps the builder's unsaved edits under `context` ("general" when blank; at most 64
    /// characters, the data at most [`MAX_DRAFT_BYTES`]), `AUTO_SAVES` a minute per person; when
    /// they were saved.
    pub async fn auto_save(
        &self,
        user_id: &str,
        context: &str,
        data: &serde_json::Value,
    ) -> Result<i64, AppError> {
        self.limited(&format!("auto_save:{user_id}"), AUTO_SAVES).await?;
        let context = if context.trim().is_empty() { "general" } else { context.trim() };
        if context.chars().count() > MAX_CONTEXT_CHARS {
            return Err(AppError::invalid("context", Problem::TooLong { max: MAX_CONTEXT_CHARS }));
        }
        if data.to_string().len() > MAX_DRAFT_BYTES {
            return Err(AppError::invalid("data", Problem::TooLong { max: MAX_DRAFT_BYTES }));
        }
        store::save_draft(&self.db, user_id, context, data).await
    }

    /// The cursor of the person's latest change (0 with none).
    pub async fn latest_cursor(&self, user_id: &str) -> Result<i64, AppError> {
        store::latest_cursor(&self.db, user_id).await
    }

    /// The person's changes after `since`, oldest first, at most `limit`.
    pub async fn changes_since(
        &self,
        user_id: &str,
        since: i64,
        limit: i64,
    ) -> Result<Vec<Change>, AppError> {
        store::changes_since(&self.db, user_id, since, limit).await
    }

    pub async fn find(&self, user_id: &str) -> Result<Option<Plan>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        store::find(&mut conn, user_id, Detail::WithDocument, self.db.now_ms()).await
    }

    /// The plan with `detail`, as it stands at `at`, read in the caller's connection or transaction.
    pub async fn find_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        user_id: &str,
        detail: Detail,
        at: i64,
    ) -> Result<Option<Plan>, AppError> {
        store::find(conn, user_id, detail, at).await
    }

    pub async fn get_or_create(&self, user_id: &str) -> Result<Plan, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        store::get_or_create(&mut conn, user_id, Detail::WithDocument, self.db.now_ms()).await
    }

    /// The plan without its generated document (`document` is None): what a dashboard shows. A
    /// person without a plan sees six empty steps, and none is stored: reading never creates one.
    pub async fn outline(&self, user_id: &str) -> Result<Plan, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        let now = self.db.now_ms();
        Ok(store::find(&mut conn, user_id, Detail::Sections, now)
            .await?
            .unwrap_or_else(|| store::unsaved(user_id, now)))
    }

    /// [`Plans::outline`] on the caller's connection.
    pub async fn outline_in(&self, conn: &mut sqlx::AnyConnection, user_id: &str) -> Result<Plan, AppError> {
        store::get_or_create(conn, user_id, Detail::Sections, self.db.now_ms()).await
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

    /// Says of the sections written before the flag was kept whether they have anything filled
    /// in (at start: the admin's list reads the flag).
    pub async fn fill_section_flags(&self) -> Result<u64, AppError> {
        store::fill_section_flags(&self.db).await
    }

    pub async fn delete(&self, user_id: &str) -> Result<bool, AppError> {
        store::delete(&self.db, user_id).await
    }
}
