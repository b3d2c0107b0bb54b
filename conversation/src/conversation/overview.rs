//! A person's overview — what the dashboard shows — in one round trip: their plan with its
//! sections and the revenue recorded in the twelve months before this one, their latest messages,
//! their activity figures and their recorded months. One statement per engine, one row: the
//! database builds the sections, the messages and the months as JSON beside the plan's values, so
//! a dashboard costs one query instead of four (issue 31; the same answers as reading each part alone, which the
//! first visit, before the plan exists, still does).

use std::sync::LazyLock;

use serde::Deserialize;
use sqlx::Row;

use super::messages::{self, Activity, Author};
use crate::{
    clock::{self, CivilDate},
    db::{Db, Engine},
    error::AppError,
    plan::{
        Plans,
        month::YearMonth,
        store::{self, Plan, StoredSection},
        tracking::{Results, results::MonthResult},
    },
    whatsapp::payload::MessageKind,
};

/// One of the latest messages, as a preview shows it: `content` is cut after `preview_chars` + 1
/// characters, so a caller knows whether there was more.
#[derive(Clone, Debug, PartialEq)]
pub struct Recent {
    pub id: String,
    pub author: Author,
    pub kind: MessageKind,
    pub content: String,
    pub created_at: i64,
}

impl From<messages::Message> for Recent {
    fn from(message: messages::Message) -> Self {
        Self {
            id: message.id,
            author: message.author,
            kind: message.kind,
            content: message.content,
            created_at: message.created_at,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Overview {
    pub plan: Plan,
    /// Newest first.
    pub recent: Vec<Recent>,
    pub activity: Activity,
    /// Newest first.
    pub months: Vec<MonthResult>,
}

/// The dashboard's reads as a service: a person's overview, their messages page by page, their
/// activity figures and progress. It owns its reads; the adapter holds no database.
#[derive(Clone)]
pub struct Overviews {
    plans: Plans,
}

impl Overviews {
    pub fn new(plans: Plans) -> Self {
        Self { plans }
    }

    /// A person's overview now, with `recent` messages (cut after `preview_chars` + 1 characters)
    /// and `months` recorded months: one round trip in the common case; on a first visit (no plan
    /// yet) the plan is created and the parts are read alone.
    pub async fn of(
        &self,
        user_id: &str,
        recent: i64,
        preview_chars: i64,
        months: i64,
    ) -> Result<Overview, AppError> {
        if let Some(overview) = self.in_one_read(user_id, recent, preview_chars, months).await? {
            return Ok(overview);
        }
        let db = self.plans.db();
        let now = db.now_ms();
        let plan = self.plans.outline(user_id).await?;
        let latest = messages::latest(&mut *db.pool().acquire().await?, user_id, recent, 0).await?;
        let activity = messages::activity(db, user_id, now).await?;
        let months = Results::new(self.plans.clone()).months(user_id).await?;
        Ok(Overview { plan, recent: latest.into_iter().map(Recent::from).collect(), activity, months })
    }

    /// The overview in one round trip, as [`Overviews::of`] reads it first: None while the person
    /// has no plan yet (`of` then creates it and reads the parts alone).
    pub async fn in_one_read(
        &self,
        user_id: &str,
        recent: i64,
        preview_chars: i64,
        months: i64,
    ) -> Result<Option<Overview>, AppError> {
        let db = self.plans.db();
        read(db, user_id, db.now_ms(), recent, preview_chars, months).await
    }

    /// A page of the person's messages, newest first, and how many there are.
    pub async fn messages(
        &self,
        user_id: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Recent>, i64), AppError> {
        let mut conn = self.plans.db().pool().acquire().await?;
        let (found, total) = messages::page(&mut conn, user_id, limit, offset).await?;
        Ok((found.into_iter().map(Recent::from).collect(), total))
    }

    /// The person's plan (its outline) and activity figures now.
    pub async fn stats(&self, user_id: &str) -> Result<(Plan, Activity), AppError> {
        let plan = self.plans.outline(user_id).await?;
        let activity = messages::activity(self.plans.db(), user_id, self.plans.db().now_ms()).await?;
        Ok((plan, activity))
    }
}

#[derive(Deserialize)]
struct SectionRow {
    step: String,
    data: String,
    completed: serde_json::Value,
    updated_at: i64,
}

#[derive(Deserialize)]
struct RecentRow {
    id: String,
    author: String,
    kind: String,
    content: Option<String>,
    created_at: i64,
}

#[derive(Deserialize)]
struct MonthRow {
    month: String,
    revenue_cents: i64,
    costs_cents: i64,
    sales_count: i64,
    recorded_at: i64,
}

/// The JSON each engine builds for the latest messages and the months (SQLite's `json_object`,
/// PostgreSQL's `json_build_object`); each array's order is restored in Rust.
fn statement(engine: Engine) -> String {
    let (object, array) = match engine {
        Engine::Sqlite => ("json_object", "json_group_array"),
        Engine::Postgres => ("json_build_object", "json_agg"),
    };
    let text = match engine {
        Engine::Sqlite => "",
        Engine::Postgres => "::text",
    };
    format!(
        "select p.id, p.created_at, p.updated_at, \
           (select coalesce({array}({object}('step', step, 'data', data, 'completed', completed, \
              'updated_at', updated_at)){text}, '[]') from plan_sections where plan_id = p.id) as sections, \
           r.revenue_cents, r.months, a.week, a.total, a.days, m.recent, y.months_json \
         from business_plans p \
         cross join (select cast(coalesce(sum(revenue_cents), 0) as bigint) as revenue_cents, count(*) as months \
           from month_results where user_id = $1 and month >= $2 and month < $3) r \
         cross join (select \
             (select count(*) from messages where user_id = $1 and created_at >= $4) as week, \
             (select count(*) from messages where user_id = $1) as total, \
             (select count(distinct (created_at + $6) / $7) from messages where user_id = $1 and created_at >= $5) as days) a \
         cross join (select coalesce({array}({object}('id', id, 'author', author, 'kind', kind, 'content', content, \
             'created_at', created_at)){text}, '[]') as recent \
           from (select id, author, kind, substr(content, 1, cast($8 as integer)) as content, created_at from messages \
             where user_id = $1 order by created_at desc, id desc limit $9) x) m \
         cross join (select coalesce({array}({object}('month', month, 'revenue_cents', revenue_cents, \
             'costs_cents', costs_cents, 'sales_count', sales_count, 'recorded_at', recorded_at)){text}, '[]') as months_json \
           from (select month, revenue_cents, costs_cents, sales_count, recorded_at from month_results \
             where user_id = $1 order by month desc limit $10) z) y \
         where p.user_id = $1"
    )
}

/// The overview as of `now`: `recent` messages (their text cut after `preview_chars` + 1
/// characters) and `months` recorded months at most. None when the person has no plan yet (the
/// caller creates it and reads the parts alone), or in the rare window where São Paulo's offset
/// changed within the last 30 days (the days are then counted one by one, in Rust).
pub(in crate::conversation) async fn read(
    db: &Db,
    user_id: &str,
    now: i64,
    recent: i64,
    preview_chars: i64,
    months: i64,
) -> Result<Option<Overview>, AppError> {
    let today = CivilDate::in_sao_paulo(now);
    let week_starts = today.plus_days(-6).starts_at();
    let month_starts = today.plus_days(-29).starts_at();
    let Some(offset) = clock::steady_offset_ms(month_starts, now) else { return Ok(None) };
    let (year_before, this_month) = store::recorded_window(now);
    static SQLITE: LazyLock<String> = LazyLock::new(|| statement(Engine::Sqlite));
    static POSTGRES: LazyLock<String> = LazyLock::new(|| statement(Engine::Postgres));
    let text: &'static str = match db.engine() {
        Engine::Sqlite => &SQLITE,
        Engine::Postgres => &POSTGRES,
    };
    let row = sqlx::query(sqlx::AssertSqlSafe(text))
        .bind(user_id)
        .bind(year_before)
        .bind(this_month)
        .bind(week_starts)
        .bind(month_starts)
        .bind(offset)
        .bind(clock::DAY_MS)
        .bind(preview_chars + 1)
        .bind(recent)
        .bind(months)
        .fetch_optional(db.pool())
        .await?;
    row.map(|row| from_row(&row, user_id, now)).transpose()
}

/// The overview from the statement's one row: the sections, messages and months arrive as JSON.
fn from_row(row: &sqlx::any::AnyRow, user_id: &str, now: i64) -> Result<Overview, AppError> {
    let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    let stored: Vec<SectionRow> =
        serde_json::from_str(&row.try_get::<String, _>("sections")?).map_err(decode)?;
    let stored: Vec<StoredSection> = stored
        .into_iter()
        .map(|s| StoredSection {
            step: s.step,
            data: s.data,
            // An integer on SQLite, a boolean on PostgreSQL.
            completed: s.completed.as_bool().unwrap_or(s.completed.as_i64() == Some(1)),
            updated_at: s.updated_at,
        })
        .collect();
    let plan = store::from_parts(
        (row.try_get("id")?, user_id, row.try_get("created_at")?, row.try_get("updated_at")?),
        &stored,
        (row.try_get("revenue_cents")?, row.try_get("months")?),
        now,
    );
    let activity = Activity {
        messages_this_week: row.try_get("week")?,
        days_active: row.try_get("days")?,
        total_messages: row.try_get("total")?,
    };
    let mut latest: Vec<Recent> =
        serde_json::from_str::<Vec<RecentRow>>(&row.try_get::<String, _>("recent")?)
            .map_err(decode)?
            .into_iter()
            .map(|m| Recent {
                id: m.id,
                author: messages::Author::parse(&m.author),
                kind: MessageKind::from_stored(&m.kind),
                content: m.content.unwrap_or_default(),
                created_at: m.created_at,
            })
            .collect();
    latest.sort_by(|a, b| b.created_at.cmp(&a.created_at).then_with(|| b.id.cmp(&a.id)));
    let mut recorded: Vec<MonthResult> =
        serde_json::from_str::<Vec<MonthRow>>(&row.try_get::<String, _>("months_json")?)
            .map_err(decode)?
            .into_iter()
            .filter_map(|m| {
                let (year, month) = m.month.split_once('-')?;
                Some(MonthResult {
                    month: YearMonth { year: year.parse().ok()?, month: month.parse().ok()? },
                    revenue: m.revenue_cents as f64 / 100.0,
                    costs: m.costs_cents as f64 / 100.0,
                    sales_count: m.sales_count,
                    recorded_at: m.recorded_at,
                })
            })
            .collect();
    recorded.sort_by_key(|m| std::cmp::Reverse(m.month.key()));
    Ok(Overview { plan, recent: latest, activity, months: recorded })
}
