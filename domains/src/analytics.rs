//! Analytics for the admin panel: the landing page's A/B funnel (views, checkout starts, Pro
//! conversions by variant), messages per day, failed WhatsApp sends per day, and the WhatsApp
//! messages Meta billed per day by category with what they cost (`costs`). Landing events
//! count one visitor once a day per kind; the visitor is a random id the browser keeps, nothing
//! personal.

use std::{collections::HashMap, time::Duration};

use sqlx::Row;

use crate::{
    clock::{self, CivilDate},
    config::MessageRates,
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::AppError,
};

/// A page load sends one or two events; this leaves room for a busy shared address.
const EVENTS_PER_ADDRESS: Limit = Limit { max: 120, window: Duration::from_secs(60) };

/// The landing page's funnel as a service: its events counted, within their address's limit.
#[derive(Clone)]
pub struct Funnel {
    db: Db,
}

impl Funnel {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Counts the visitor's event (`record`), from `address` (`RateLimited` past its limit).
    pub async fn track(
        &self,
        kind: EventKind,
        variant: Variant,
        visitor: &VisitorId,
        address: Option<&str>,
    ) -> Result<(), AppError> {
        rate_limit::per_address(&self.db, "track", address, EVENTS_PER_ADDRESS).await?;
        record(&self.db, kind, variant, visitor).await
    }

    /// The funnel, the messages and their cost over the last `days` days in São Paulo (today
    /// included).
    pub async fn report(&self, days: i64, rates: &MessageRates) -> Result<Report, AppError> {
        report_at(&self.db, days, self.db.now_ms(), rates).await
    }
}

pub mod costs {
    //! What WhatsApp costs: the messages Meta reported as billable (`statuses[].pricing`), per São
    //! Paulo day and category, priced at the configured rates.

    use std::collections::BTreeMap;

    use sqlx::Row;

    use crate::{clock::CivilDate, config::MessageRates, db::Db, error::AppError};

    /// One day's billable messages by category (`marketing`, `utility`, `authentication`,
    /// `service`) and their cost in reais.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct BillableDay {
        pub day: String,
        pub counts: BTreeMap<String, i64>,
        pub cost_brl: f64,
    }

    /// The window's billable messages and what they cost.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Billing {
        /// Every day of the window, oldest first.
        pub days: Vec<BillableDay>,
        pub messages: i64,
        pub cost_brl: f64,
        /// The cost per person we wrote to in the window, scaled to 30 days.
        pub cost_per_person_month_brl: f64,
    }

    /// The category a reported one counts and is priced under (`authentication_international`
    /// as authentication, `marketing_lite` as marketing).
    fn bucket(category: &str) -> &'static str {
        match category {
            c if c.starts_with("marketing") => "marketing",
            "utility" => "utility",
            c if c.starts_with("authentication") => "authentication",
            _ => "service",
        }
    }

    /// From São Paulo day `first_day` (days since 1970) to `today`, starting at `since` (ms).
    pub(in crate::analytics) async fn billing(
        db: &Db,
        rates: &MessageRates,
        first_day: i64,
        today: i64,
        since: i64,
    ) -> Result<Billing, AppError> {
        let rows = sqlx::query(
            "select created_at, pricing_category from messages \
             where direction = 'outbound' and billable = 1 and created_at >= $1",
        )
        .bind(since)
        .fetch_all(db.pool())
        .await?;
        let mut per_day: BTreeMap<i64, BillableDay> = (first_day..=today)
            .map(|day| (day, BillableDay { day: CivilDate::from_days(day).iso(), ..Default::default() }))
            .collect();
        let mut billing = Billing::default();
        for row in rows {
            let at: i64 = row.try_get("created_at")?;
            let category: Option<String> = row.try_get("pricing_category")?;
            let category = bucket(&category.unwrap_or_default());
            let Some(day) = per_day.get_mut(&CivilDate::in_sao_paulo(at).days()) else { continue };
            *day.counts.entry(category.to_owned()).or_default() += 1;
            day.cost_brl += rates.of(category);
            billing.messages += 1;
            billing.cost_brl += rates.of(category);
        }
        let people: i64 = sqlx::query(
            "select count(distinct user_id) as n from messages where direction = 'outbound' and created_at >= $1",
        )
        .bind(since)
        .fetch_one(db.pool())
        .await?
        .try_get("n")?;
        let days = (today - first_day + 1).max(1) as f64;
        if people > 0 {
            billing.cost_per_person_month_brl = billing.cost_brl / people as f64 * 30.0 / days;
        }
        billing.days = per_day.into_values().collect();
        Ok(billing)
    }
}

/// The landing page's hero variant; anything but "B" is A, as the landing page reads `?variant=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    A,
    B,
}

impl Variant {
    pub fn parse(text: &str) -> Self {
        if text == "B" { Self::B } else { Self::A }
    }

    /// A variant only when the text names one ("A" or "B"); for attributing a checkout.
    pub fn named(text: &str) -> Option<Self> {
        match text {
            "A" => Some(Self::A),
            "B" => Some(Self::B),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::A => "A",
            Self::B => "B",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    LandingView,
    CheckoutStart,
}

impl EventKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::LandingView => "landing_view",
            Self::CheckoutStart => "checkout_start",
        }
    }
}

/// A browser's random id: 8 to 64 ASCII letters, digits or dashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VisitorId(String);

impl VisitorId {
    pub fn parse(text: &str) -> Option<Self> {
        let ok =
            (8..=64).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        ok.then(|| Self(text.to_owned()))
    }
}

/// Counts the event once per visitor, kind and day; repeats the same day change nothing.
pub(in crate::analytics) async fn record(
    db: &Db,
    kind: EventKind,
    variant: Variant,
    visitor: &VisitorId,
) -> Result<(), AppError> {
    let now = db.now_ms();
    sqlx::query(
        "insert into landing_events (kind, variant, visitor_id, day, created_at) values ($1, $2, $3, $4, $5) \
         on conflict (kind, visitor_id, day) do nothing",
    )
    .bind(kind.as_str())
    .bind(variant.as_str())
    .bind(&visitor.0)
    .bind(CivilDate::in_sao_paulo(now).days())
    .bind(now)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(())
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunnelRow {
    pub variant: Variant,
    pub landing_views: i64,
    pub checkout_starts: i64,
    pub pro_conversions: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyCount {
    /// YYYY-MM-DD (a day in São Paulo).
    pub day: String,
    pub count: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// A then B, always both.
    pub funnel: Vec<FunnelRow>,
    /// Pro checkouts paid that did not start on the landing page (a link sent on WhatsApp).
    pub pro_conversions_elsewhere: i64,
    /// Every day of the window, oldest first, zeros included.
    pub messages_per_day: Vec<DailyCount>,
    pub failed_sends_per_day: Vec<DailyCount>,
    pub billing: costs::Billing,
    pub reminders: RemindersSent,
}

/// The proactive messages of the window: check-ins sent and answered (the person wrote after
/// them), every reminder sent, and the people who said stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RemindersSent {
    pub checkins_sent: i64,
    pub checkins_answered: i64,
    pub reminders_sent: i64,
    pub stopped: i64,
}

/// The report as it reads at `now` (Unix ms).
pub(in crate::analytics) async fn report_at(
    db: &Db,
    days: i64,
    now: i64,
    rates: &MessageRates,
) -> Result<Report, AppError> {
    let today = CivilDate::in_sao_paulo(now).days();
    let first_day = today - days + 1;
    let since = CivilDate::from_days(first_day).starts_at();

    let mut funnel: HashMap<Variant, FunnelRow> = [Variant::A, Variant::B]
        .into_iter()
        .map(|v| (v, FunnelRow { variant: v, landing_views: 0, checkout_starts: 0, pro_conversions: 0 }))
        .collect();
    let events = sqlx::query(
        "select kind, variant, count(*) as n from landing_events where day >= $1 group by kind, variant",
    )
    .bind(first_day)
    .fetch_all(db.pool())
    .await?;
    for row in events {
        let row_for =
            funnel.get_mut(&Variant::parse(&row.try_get::<String, _>("variant")?)).expect("both variants");
        let n: i64 = row.try_get("n")?;
        match row.try_get::<String, _>("kind")?.as_str() {
            "landing_view" => row_for.landing_views += n,
            "checkout_start" => row_for.checkout_starts += n,
            _ => {}
        }
    }
    let paid = sqlx::query(
        "select landing_variant, count(*) as n from checkout_sessions \
         where status = 'paid' and plan_type = 'pro' and completed_at >= $1 group by landing_variant",
    )
    .bind(since)
    .fetch_all(db.pool())
    .await?;
    let mut pro_conversions_elsewhere = 0;
    for row in paid {
        let n = row.try_get::<i64, _>("n")?;
        match row.try_get::<Option<String>, _>("landing_variant")?.as_deref().and_then(Variant::named) {
            Some(variant) => funnel.get_mut(&variant).expect("both variants").pro_conversions += n,
            None => pro_conversions_elsewhere += n,
        }
    }

    let messages = per_day(db, "created_at", "1 = 1", since, now).await?;
    let failed =
        per_day(db, "updated_at", "direction = 'outbound' and status = 'failed'", since, now).await?;
    let series = |counts: &HashMap<i64, i64>| {
        (first_day..=today)
            .map(|day| DailyCount {
                day: CivilDate::from_days(day).iso(),
                count: counts.get(&day).copied().unwrap_or(0),
            })
            .collect::<Vec<_>>()
    };
    let mut funnel: Vec<FunnelRow> = funnel.into_values().collect();
    funnel.sort_by_key(|row| row.variant.as_str());
    let billing = costs::billing(db, rates, first_day, today, since).await?;
    let reminders = reminders(db, since).await?;
    Ok(Report {
        funnel,
        pro_conversions_elsewhere,
        messages_per_day: series(&messages),
        failed_sends_per_day: series(&failed),
        billing,
        reminders,
    })
}

async fn reminders(db: &Db, since: i64) -> Result<RemindersSent, AppError> {
    let row = sqlx::query(
        "select \
         coalesce(sum(case when kind = 'checkin' then 1 else 0 end), 0) as checkins, \
         coalesce(sum(case when kind = 'checkin' and answered_at is not null then 1 else 0 end), 0) as answered, \
         count(*) as every, \
         (select count(*) from reminder_preferences where stopped_at >= $1) as stopped \
         from reminders_sent where sent_at >= $1",
    )
    .bind(since)
    .fetch_one(db.pool())
    .await?;
    Ok(RemindersSent {
        checkins_sent: row.try_get("checkins")?,
        checkins_answered: row.try_get("answered")?,
        reminders_sent: row.try_get("every")?,
        stopped: row.try_get("stopped")?,
    })
}

/// Messages matching `filter` per São Paulo day (days since 1970) of their `column` time, from
/// `since`. Grouped by the database when the offset holds over the window (always since 2019),
/// else counted here day by day.
async fn per_day(
    db: &Db,
    column: &'static str,
    filter: &'static str,
    since: i64,
    now: i64,
) -> Result<HashMap<i64, i64>, AppError> {
    if let Some(offset) = clock::steady_offset_ms(since, now) {
        let sql = format!(
            "select ({column} + $2) / $3 as day, count(*) as n from messages where {filter} and {column} >= $1 \
             group by ({column} + $2) / $3"
        );
        return sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(since)
            .bind(offset)
            .bind(clock::DAY_MS)
            .fetch_all(db.pool())
            .await?
            .iter()
            .map(|row| Ok((row.try_get::<i64, _>("day")?, row.try_get::<i64, _>("n")?)))
            .collect();
    }
    let sql = format!("select {column} as at from messages where {filter} and {column} >= $1");
    let mut counts = HashMap::new();
    for row in sqlx::query(sqlx::AssertSqlSafe(sql)).bind(since).fetch_all(db.pool()).await? {
        *counts.entry(CivilDate::in_sao_paulo(row.try_get("at")?).days()).or_insert(0) += 1;
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anything_but_b_is_variant_a_and_only_a_or_b_attribute_a_checkout() {
        assert_eq!(Variant::parse("B"), Variant::B);
        assert_eq!(Variant::parse("b"), Variant::A);
        assert_eq!(Variant::parse("C"), Variant::A);
        assert_eq!(Variant::parse(""), Variant::A);
        assert_eq!(Variant::named("B"), Some(Variant::B));
        assert_eq!(Variant::named(""), None);
        assert_eq!(Variant::named("<script>"), None);
    }

    #[test]
    fn visitor_ids_are_short_plain_tokens() {
        assert!(VisitorId::parse("3f2b9c1e-8a7d-4e2f-9b1a-0c6d5e4f3a2b").is_some());
        assert!(VisitorId::parse("short").is_none());
        assert!(VisitorId::parse("has spaces in it").is_none());
        assert!(VisitorId::parse(&"x".repeat(65)).is_none());
    }
}
