//! The LGPD rights of art. 18 as a service: a complete copy of one person's data (asked by an
//! admin or by the person) and the erasure of everything personal, each recorded in the audit log
//! in the same transaction as what it records. Adapters sign the link and format the copy; the
//! reads and writes are here. It sits beside `erasure`, above the domains it gathers.

use crate::{
    audit,
    billing::subscriptions,
    conversation::messages::{Message, Messages},
    db::Db,
    erasure,
    error::AppError,
    identity::users::{self, User},
    plan::{
        Plans,
        store::Plan,
        tracking::{
            Results,
            results::{self, MonthResult, PlanForecast},
        },
    },
};

pub use crate::erasure::Request;

/// Everything Sócio keeps about one person, gathered at `at` (Unix ms).
pub struct Collected {
    pub user: User,
    pub subscriptions: Vec<subscriptions::Record>,
    pub plan: Option<Plan>,
    pub messages: Vec<Message>,
    pub months: Vec<MonthResult>,
    pub forecast: Option<PlanForecast>,
    pub at: i64,
}

#[derive(Clone)]
pub struct Privacy {
    db: Db,
    plans: Plans,
    messages: Messages,
    results: Results,
}

impl Privacy {
    pub fn new(db: Db, plans: Plans) -> Self {
        Self { messages: Messages::new(db.clone()), results: Results::new(plans.clone()), db, plans }
    }

    /// Now, by the server's clock (a link's expiry is counted from it).
    pub fn now_ms(&self) -> i64 {
        self.db.now_ms()
    }

    /// Records that `by` asked for a copy of `user_id`'s data; when it was recorded.
    pub async fn record_export(&self, user_id: &str, by: &Request<'_>) -> Result<i64, AppError> {
        let db = &self.db;
        let now = db.now_ms();
        let mut conn = db.pool().acquire().await?;
        audit::record(&mut conn, by.actor_id, by.action, user_id, by.detail, now).await?;
        Ok(now)
    }

    /// Erases the person and records who asked, in one transaction; false when there was none.
    pub async fn erase(&self, user_id: &str, by: &Request<'_>) -> Result<bool, AppError> {
        erasure::Erasure::new(self.db.clone()).erase_recorded(user_id, by).await
    }

    /// The person's data; None when there is no such person.
    pub async fn collect(&self, user_id: &str) -> Result<Option<Collected>, AppError> {
        let db = &self.db;
        let mut conn = db.pool().acquire().await?;
        let Some(user) = users::find_by_id(&mut conn, user_id).await? else { return Ok(None) };
        let subscriptions = subscriptions::history(&mut conn, user_id).await?;
        drop(conn);
        let plan = self.plans.find(user_id).await?;
        let messages = self.messages.conversation(user_id).await?;
        let months = self.results.months(user_id).await?;
        let forecast = plan.as_ref().and_then(results::forecast);
        Ok(Some(Collected { user, subscriptions, plan, messages, months, forecast, at: db.now_ms() }))
    }
}
