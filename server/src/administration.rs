//! The admin panel's use cases as a service: the directory of users and its figures, one person's
//! conversation, summary and months, the audit trail, failed sends and analytics — and the one
//! write that spans domains, a subscription override, committed with its audit record in one
//! transaction. It owns its reads and writes; the admin adapter holds no database.

use crate::{
    analytics::{self, Funnel},
    audit::{AuditEvent, AuditLog},
    billing::subscriptions::Subscriptions,
    config::MessageRates,
    conversation::{
        desk::Desk,
        messages::{FailedSend, Message},
        summaries::Summary,
    },
    db::Db,
    error::{AppError, Resource},
    identity::{
        directory::{Directory, Listed, Stats},
        users::Tier,
    },
    plan::{
        Plans,
        tracking::{
            Results,
            results::{MonthResult, PlanForecast},
        },
    },
};

/// One person as an admin sees them: the directory's row, the conversation's summary and the
/// months against the plan.
pub struct Detail {
    pub user: Listed,
    pub summary: Option<Summary>,
    pub months: Vec<MonthResult>,
    pub forecast: Option<PlanForecast>,
}

#[derive(Clone)]
pub struct Administration {
    db: Db,
    directory: Directory,
    desk: Desk,
    results: Results,
    audit: AuditLog,
    funnel: Funnel,
    subscriptions: Subscriptions,
}

impl Administration {
    pub fn new(db: Db, plans: Plans) -> Self {
        Self {
            directory: Directory::new(db.clone()),
            desk: Desk::new(db.clone()),
            results: Results::new(plans),
            audit: AuditLog::new(db.clone()),
            funnel: Funnel::new(db.clone()),
            subscriptions: Subscriptions::new(db.clone()),
            db,
        }
    }

    /// The person as the directory lists them, or `NotFound`.
    pub async fn user(&self, id: &str) -> Result<Listed, AppError> {
        self.directory.get(id).await?.ok_or(AppError::NotFound(Resource::User))
    }

    /// A page of users (most recently active first) and how many match in all.
    pub async fn users(
        &self,
        tier: Option<Tier>,
        search: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Listed>, i64), AppError> {
        self.directory.list(tier, search, limit, offset).await
    }

    pub async fn stats(&self) -> Result<Stats, AppError> {
        self.directory.stats().await
    }

    /// The person with their conversation's summary and their months.
    pub async fn detail(&self, id: &str) -> Result<Detail, AppError> {
        let user = self.user(id).await?;
        let summary = self.desk.summary(&user.id).await?;
        let months = self.results.months(&user.id).await?;
        let forecast = self.results.forecast_for(&user.id).await?;
        Ok(Detail { user, summary, months, forecast })
    }

    /// A page of the person's messages between `from` and `to` (Unix ms), and how many in all.
    pub async fn history(
        &self,
        id: &str,
        (from, to): (i64, i64),
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Message>, i64), AppError> {
        self.user(id).await?;
        self.desk.history(id, (from, to), limit, offset).await
    }

    /// Sets the person's tier by hand and records which admin did it, in one transaction: the
    /// override is never kept without its record. The person as listed after it.
    pub async fn override_tier(&self, actor_id: &str, id: &str, tier: Tier) -> Result<Listed, AppError> {
        self.user(id).await?;
        let mut tx = self.db.begin().await?;
        self.subscriptions.override_tier_in(&mut tx, id, tier).await?;
        let now = tx.now_ms();
        self.audit
            .record_in(&mut tx, actor_id, &format!("set_subscription_{}", tier.as_str()), id, "", now)
            .await?;
        tx.commit().await?;
        self.user(id).await
    }

    /// A page of the audit trail, newest first, and how many events in all.
    pub async fn audit_events(&self, limit: i64, offset: i64) -> Result<(Vec<AuditEvent>, i64), AppError> {
        self.audit.list(limit, offset).await
    }

    /// The funnel, the messages and their cost over the last `days`.
    pub async fn analytics(&self, days: i64, rates: &MessageRates) -> Result<analytics::Report, AppError> {
        self.funnel.report(days, rates).await
    }

    /// A page of the sends that failed, newest first, and how many in all.
    pub async fn failed_sends(&self, limit: i64, offset: i64) -> Result<(Vec<FailedSend>, i64), AppError> {
        self.desk.failed_sends(limit, offset).await
    }

    /// Today in São Paulo (YYYY-MM-DD), by the application's clock: the day the facts' statuses
    /// are for.
    pub fn today(&self) -> String {
        crate::clock::CivilDate::in_sao_paulo(self.db.now_ms()).iso()
    }
}
