//! Tracking: what happens after the plan — the months a person records against it (`results`),
//! the MEI's revenue ceiling at their pace (`ceiling`), the fiscal calendar and its deadlines
//! (`calendar`), and the reminders a person agreed to (`reminders`). This room reads the plan
//! itself and its money; nothing below reads it.

pub mod calendar;
pub mod ceiling;
pub mod reminders;
pub mod results;

use self::results::{MonthResult, PlanForecast, forecast, forecast_of, list, record};
use crate::{
    clock::CivilDate,
    error::AppError,
    plan::{Plans, month::YearMonth, store::Source},
};

/// A person's months as a service: recording one (by the dashboard or the model) and reading them
/// against the plan with a MEI's ceiling outlook. It owns its reads and writes; adapters hold no
/// database.
#[derive(Clone)]
pub struct Results {
    plans: Plans,
}

/// The recorded months (newest first) with what the plan expects of a month and, for a MEI, the
/// ceiling at the year's pace, or last year's excess in the new year's first months.
pub struct Outlook {
    pub months: Vec<MonthResult>,
    pub forecast: Option<PlanForecast>,
    pub ceiling: Option<calendar::CeilingOutlook>,
    /// The day São Paulo is on (what the ceiling's deadlines are read against).
    pub today: CivilDate,
}

impl Results {
    pub fn new(plans: Plans) -> Self {
        Self { plans }
    }

    /// Records `month` (`YYYY-MM`, not in the future) as the person gives it; the month and what
    /// the plan expects of one.
    pub async fn record(
        &self,
        user_id: &str,
        month: &str,
        figures: (f64, f64, i64),
        source: Source,
    ) -> Result<(MonthResult, Option<PlanForecast>), AppError> {
        let month = YearMonth::parse("month", month, self.plans.db().now_ms())?;
        let recorded = self.record_month(user_id, month, figures, source).await?;
        let plan = self.plans.get_or_create(user_id).await?;
        Ok((recorded, forecast(&plan)))
    }

    /// Records `month`'s revenue, costs and sales count (each checked; nothing stored on a bad one).
    pub async fn record_month(
        &self,
        user_id: &str,
        month: YearMonth,
        (revenue, costs, sales): (f64, f64, i64),
        source: Source,
    ) -> Result<MonthResult, AppError> {
        record(self.plans.db(), user_id, month, revenue, costs, sales, source).await
    }

    /// What the person's plan expects of a month, when they have a plan whose finance section
    /// says enough (none is made by asking).
    pub async fn forecast_for(&self, user_id: &str) -> Result<Option<PlanForecast>, AppError> {
        forecast_of(self.plans.db(), user_id).await
    }

    /// The recorded months, newest first.
    pub async fn months(&self, user_id: &str) -> Result<Vec<MonthResult>, AppError> {
        list(self.plans.db(), user_id).await
    }

    /// The person's months against the plan now.
    pub async fn outlook(&self, user_id: &str) -> Result<Outlook, AppError> {
        let db = self.plans.db();
        let months = list(db, user_id).await?;
        let now = db.now_ms();
        let (forecast, ceiling) = calendar::outlook(db, user_id, &months, now).await?;
        Ok(Outlook { months, forecast, ceiling, today: CivilDate::in_sao_paulo(now) })
    }
}
