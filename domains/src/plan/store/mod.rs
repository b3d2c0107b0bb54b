//! Plans in the database: one per user, six sections (data in the contracts' JSON shape, and
//! whether the step is complete), a change feed with an ordered cursor, generated documents and
//! auto-saved drafts. Every change to a section is applied and recorded in one transaction.
//!
//! Here: the plan's shape and reading it. Changing it (`changes`), its documents (`documents`)
//! and the builder's drafts (`drafts`) have modules of their own.

mod changes;
mod documents;
mod drafts;
#[cfg(test)]
mod tests;

pub use changes::{CHANGES_CHANNEL, CHANGES_KEPT};
pub(in crate::plan) use changes::{apply, changes_since, latest_cursor};
pub use documents::DOCUMENTS_KEPT;
pub(in crate::plan) use documents::store_document;
pub use drafts::MAX_DRAFT_CONTEXTS;
pub(in crate::plan) use drafts::save_draft;
use serde_json::Value as Json;
use sqlx::{AnyConnection, Row, any::AnyRow};

use super::{
    month::YearMonth,
    sections::{self, Step},
};
use crate::{
    db::{Db, get_bool},
    error::AppError,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Draft,
    InProgress,
    Completed,
}

impl Status {
    /// A plan's status from how many of its steps are complete and whether anything was written
    /// in it: what [`Plan::status`] says of a loaded plan, and what a list of many people (the
    /// admin's) says from two counts without loading each plan.
    pub fn of(completed_steps: usize, written: bool) -> Self {
        if completed_steps >= Step::ALL.len() {
            Status::Completed
        } else if completed_steps > 0 || written {
            Status::InProgress
        } else {
            Status::Draft
        }
    }
}

/// 0 to 100: the share of the plan's steps that are complete.
pub fn progress(completed_steps: usize) -> i32 {
    (completed_steps.min(Step::ALL.len()) as f64 * 100.0 / Step::ALL.len() as f64).round() as i32
}

/// Where a change came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Dashboard,
    Builder,
    WhatsApp,
    WebChat,
    Admin,
    Api,
}

impl Source {
    pub fn key(self) -> &'static str {
        match self {
            Source::Dashboard => "dashboard",
            Source::Builder => "builder",
            Source::WhatsApp => "whatsapp",
            Source::WebChat => "web_chat",
            Source::Admin => "admin",
            Source::Api => "api",
        }
    }
    pub fn parse(key: &str) -> Self {
        [Source::Dashboard, Source::Builder, Source::WhatsApp, Source::WebChat, Source::Admin, Source::Api]
            .into_iter()
            .find(|s| s.key() == key)
            .unwrap_or(Source::Api)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub step: Step,
    pub data: Json,
    pub completed: bool,
    pub updated_at: i64,
}

/// What a person recorded in one calendar year: the revenue, how many months and the first of them
/// (1-12) — a MEI's ceiling of that year is judged from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct YearRecorded {
    pub year: i64,
    pub revenue: f64,
    pub months: u32,
    pub first_month: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub version: i32,
    pub language: String,
    pub markdown: String,
    /// The content the PDF is rendered from.
    pub model: Json,
    pub generated_at: i64,
}

/// The revenue a person recorded in the twelve months before the current one (São Paulo): once a
/// month is recorded, the RBT12 comes from it instead of the plan's expectation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    pub revenue: f64,
    pub months: u32,
}

impl Recorded {
    /// The RBT12 as the Simples' rules count it (Res. CGSN 140/2018 art. 22): the revenue of the
    /// twelve months before; with fewer months (a business in its first year, or months not
    /// recorded) their average × 12. None without a month.
    pub fn rbt12(self) -> Option<f64> {
        match self.months {
            0 => None,
            12.. => Some(self.revenue.max(0.0)),
            n => Some(self.revenue.max(0.0) / f64::from(n) * 12.0),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub id: String,
    pub user_id: String,
    /// In step order, all six.
    pub sections: Vec<Section>,
    pub document: Option<Document>,
    /// The revenue recorded in the twelve months before the current one, once a month is (the
    /// Simples' RBT12 then comes from it).
    pub recorded: Option<Recorded>,
    pub created_at: i64,
    pub updated_at: i64,
    /// When it was read (the application's clock): its taxes and forecast are worked out for this
    /// day, never for the day it last changed — a plan saved in 2026 and read in 2027 pays 2027's.
    pub read_at: i64,
    /// What was recorded in the calendar year before the one it is read in, once a month was (a
    /// MEI that passed its ceiling then is an ME from 1 January).
    pub last_year: Option<YearRecorded>,
}

impl Plan {
    pub fn section(&self, step: Step) -> &Section {
        self.sections.iter().find(|s| s.step == step).expect("a plan has all six sections")
    }

    /// The latest document, when it still says what the plan says now (nothing changed since).
    pub fn current_document(&self) -> Option<&Document> {
        self.document.as_ref().filter(|d| d.generated_at >= self.updated_at)
    }

    /// 0 to 100: the share of completed steps.
    pub fn progress(&self) -> i32 {
        progress(self.sections.iter().filter(|s| s.completed).count())
    }

    /// How many of the SWOT's quadrants (in the market step) have something written: 0 to 4.
    /// Read from the stored JSON, without decoding the section: the dashboard asks on every read.
    pub fn swot_quadrants_filled(&self) -> usize {
        let market = &self.section(Step::Market).data;
        ["strengths", "weaknesses", "opportunities", "threats"]
            .iter()
            .filter(|quadrant| market[**quadrant].as_str().is_some_and(|text| !text.trim().is_empty()))
            .count()
    }

    /// Whether the finance step has what the scenarios are computed from: the average ticket and
    /// the sales expected a month (as `finance::finance_inputs` asks).
    pub fn scenarios_ready(&self) -> bool {
        let finance = &self.section(Step::Finance).data;
        ["averageTicket", "expectedSalesPerMonth"].iter().all(|field| finance[*field].is_number())
    }

    pub fn status(&self) -> Status {
        let done = self.sections.iter().filter(|s| s.completed).count();
        Status::of(done, self.sections.iter().any(|s| sections::has_content(s.step, &s.data)))
    }
}

/// One entry of the change feed.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Ordered across the whole database.
    pub cursor: i64,
    pub step: Step,
    /// The fields that changed, normalised.
    pub data: Json,
    pub completed: Option<bool>,
    pub source: Source,
    pub actor_id: Option<String>,
    pub created_at: i64,
}

/// New section data: the whole section, or some of its fields.
#[derive(Clone, Debug)]
pub enum Patch {
    Replace(Json),
    Merge(Json),
}

/// One requested change to one step. `field` names it in violations (`ideaData`, `updates[1].data`).
#[derive(Clone, Debug)]
pub struct StepUpdate {
    pub step: Step,
    pub patch: Option<Patch>,
    pub completed: Option<bool>,
    pub field: String,
}

pub(super) fn parse_json(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or(Json::Object(Default::default()))
}

/// How much of a plan a read brings back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// The plan and its six sections: progress, status and steps, what a dashboard shows.
    Sections,
    /// Also the latest generated document (its Markdown and PDF model can be large).
    WithDocument,
}

/// The user's plan with the `detail` asked for, if they have one.
pub(in crate::plan) async fn find(
    conn: &mut AnyConnection,
    user_id: &str,
    detail: Detail,
    now: i64,
) -> Result<Option<Plan>, AppError> {
    // The plan, its sections and the revenue recorded in the twelve months before this one, in one
    // round trip (a plan without sections still gives one row).
    let (year_before, this_month) = recorded_window(now);
    let year = YearMonth::current(now).year;
    let rows = sqlx::query(
        "select p.id, p.created_at, p.updated_at, s.step, s.data, s.completed, s.updated_at as section_updated_at, \
         r.revenue_cents, r.months, y.revenue_cents as last_year_cents, y.months as last_year_months, \
         y.first_month as last_year_first \
         from business_plans p \
         cross join (select cast(coalesce(sum(revenue_cents), 0) as bigint) as revenue_cents, count(*) as months \
           from month_results where user_id = $1 and month >= $2 and month < $3) r \
         cross join (select cast(coalesce(sum(revenue_cents), 0) as bigint) as revenue_cents, count(*) as months, \
           min(month) as first_month from month_results where user_id = $1 and month >= $4 and month < $5) y \
         left join plan_sections s on s.plan_id = p.id where p.user_id = $1",
    )
    .bind(user_id)
    .bind(year_before)
    .bind(this_month)
    .bind(format!("{:04}-01", year - 1))
    .bind(format!("{year:04}-01"))
    .fetch_all(&mut *conn)
    .await?;
    let Some(mut plan) = from_rows(&rows, user_id, now)? else {
        return Ok(None);
    };
    plan.last_year = last_year(&rows[0], year - 1)?;
    if detail == Detail::WithDocument {
        plan.document = latest_document(conn, &plan.id).await?;
    }
    Ok(Some(plan))
}

/// The calendar year `year`'s recorded months from the plan's row (`last_year_cents`,
/// `last_year_months`, `last_year_first` as YYYY-MM); None without a month.
fn last_year(row: &AnyRow, year: i64) -> Result<Option<YearRecorded>, AppError> {
    let months: i64 = row.try_get("last_year_months")?;
    let first: Option<String> = row.try_get("last_year_first")?;
    let cents: i64 = row.try_get("last_year_cents")?;
    let first_month = first.as_deref().and_then(|m| m.get(5..7)).and_then(|m| m.parse().ok());
    Ok(first_month.filter(|_| months > 0).map(|first_month| YearRecorded {
        year,
        revenue: cents as f64 / 100.0,
        months: u32::try_from(months).unwrap_or(12),
        first_month,
    }))
}

/// The months whose revenue counts as the plan's recorded RBT12: from the month twelve before this
/// one (`YYYY-MM`, included) to this one (excluded).
pub fn recorded_window(now: i64) -> (String, String) {
    let this_month = YearMonth::current(now);
    let year_before = (0..12).fold(this_month, |m, _| m.previous());
    (year_before.key(), this_month.key())
}

/// A plan from the rows of a query joining `business_plans p` (`id`, `created_at`, `updated_at`),
/// its `plan_sections s` (`step`, `data`, `completed`, `section_updated_at`; one row a section, or
/// one row of nulls) and the recorded months (`revenue_cents`, `months`); without its document.
/// None without a row.
fn from_rows(rows: &[AnyRow], user_id: &str, now: i64) -> Result<Option<Plan>, AppError> {
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let mut stored = Vec::with_capacity(rows.len());
    for r in rows {
        if let Some(step) = r.try_get::<Option<String>, _>("step")? {
            stored.push(StoredSection {
                step,
                data: r.try_get("data")?,
                completed: get_bool(r, "completed")?.unwrap_or(false),
                updated_at: r.try_get("section_updated_at")?,
            });
        }
    }
    let plan = (row.try_get("id")?, user_id, row.try_get("created_at")?, row.try_get("updated_at")?);
    let recorded = (row.try_get("revenue_cents")?, row.try_get("months")?);
    Ok(Some(from_parts(plan, &stored, recorded, now)))
}

/// A section as a read gives it: its step's key, its data as stored (JSON text), whether it is
/// done and when it changed.
pub struct StoredSection {
    pub step: String,
    pub data: String,
    pub completed: bool,
    pub updated_at: i64,
}

/// A plan from its row's values and its stored sections (any order, any subset: a missing step is
/// empty and not done), without its document. `recorded`: the revenue in cents and the number of
/// months recorded in the twelve before this one; `read_at`: when it is read (the day its taxes are
/// worked out for).
pub fn from_parts(
    (id, user_id, created_at, updated_at): (String, &str, i64, i64),
    stored: &[StoredSection],
    (revenue_cents, months): (i64, i64),
    read_at: i64,
) -> Plan {
    let sections = Step::ALL
        .iter()
        .map(|&step| match stored.iter().find(|s| s.step == step.key()) {
            Some(s) => {
                Section { step, data: parse_json(&s.data), completed: s.completed, updated_at: s.updated_at }
            }
            None => Section { step, data: Json::Object(Default::default()), completed: false, updated_at: 0 },
        })
        .collect();
    Plan {
        id,
        user_id: user_id.to_owned(),
        sections,
        document: None,
        recorded: match months {
            0 => None,
            months => Some(Recorded {
                revenue: revenue_cents as f64 / 100.0,
                months: u32::try_from(months).unwrap_or(12),
            }),
        },
        created_at,
        updated_at,
        read_at,
        last_year: None,
    }
}

/// The latest generated document of a plan, if one was generated.
pub(super) async fn latest_document(
    conn: &mut AnyConnection,
    plan_id: &str,
) -> Result<Option<Document>, AppError> {
    sqlx::query(
        "select version, language, markdown, model, generated_at from plan_documents where plan_id = $1 \
         order by version desc limit 1",
    )
    .bind(plan_id)
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| -> Result<Document, AppError> {
        Ok(Document {
            version: r.try_get("version")?,
            language: r.try_get("language")?,
            markdown: r.try_get("markdown")?,
            model: parse_json(&r.try_get::<String, _>("model")?),
            generated_at: r.try_get("generated_at")?,
        })
    })
    .transpose()
}

/// The user's plan, started now if they had none.
/// The plan of someone who has none yet, as a read shows it — six empty steps — without storing
/// it: reading never creates a plan (its id is empty).
pub(in crate::plan) fn unsaved(user_id: &str, now: i64) -> Plan {
    from_parts((String::new(), user_id, now, now), &[], (0, 0), now)
}

pub(in crate::plan) async fn get_or_create(
    conn: &mut AnyConnection,
    user_id: &str,
    detail: Detail,
    now: i64,
) -> Result<Plan, AppError> {
    // Nearly always there: a read, so that dashboards never queue for SQLite's one writer.
    if let Some(plan) = find(conn, user_id, detail, now).await? {
        return Ok(plan);
    }
    let id = uuid::Uuid::new_v4().to_string();
    let created = sqlx::query(
        "insert into business_plans (id, user_id, created_at, updated_at) values ($1, $2, $3, $3) \
         on conflict (user_id) do nothing returning id",
    )
    .bind(&id)
    .bind(user_id)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?
    .is_some();
    if created {
        for step in Step::ALL {
            let empty = sections::validate(step, Json::Object(Default::default()), "")?;
            sqlx::query("insert into plan_sections (plan_id, step, data, completed, updated_at, filled) values ($1, $2, $3, $4, $5, $4)")
                .bind(&id)
                .bind(step.key())
                .bind(empty.to_string())
                .bind(false)
                .bind(now)
                .execute(&mut *conn)
                .await?;
        }
    }
    find(conn, user_id, detail, now)
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("a plan vanished while being read")))
}

/// Says of each section written before `filled` was kept whether it has anything filled in
/// (`sections::has_content`); how many were said.
/// The sections not yet judged: read through their partial index (migration 0031), so once all
/// are judged a start reads none.
const UNJUDGED_SECTIONS: &str = "select plan_id, step, data from plan_sections where filled is null";

pub(in crate::plan) async fn fill_section_flags(db: &Db) -> Result<u64, AppError> {
    let rows = sqlx::query(UNJUDGED_SECTIONS).fetch_all(db.pool()).await?;
    if rows.is_empty() {
        return Ok(0);
    }
    // One transaction for them all: one commit, not one a section (on SQLite, a write-ahead log
    // grown by thousands of commits slows every later read until it is checkpointed).
    let mut tx = db.begin().await?;
    let mut said = 0;
    for row in rows {
        let (plan_id, step, data): (String, String, String) =
            (row.try_get("plan_id")?, row.try_get("step")?, row.try_get("data")?);
        let Some(step) = Step::parse(&step) else { continue };
        let filled = serde_json::from_str(&data).is_ok_and(|data| sections::has_content(step, &data));
        said += sqlx::query(
            "update plan_sections set filled = $1 where plan_id = $2 and step = $3 and filled is null",
        )
        .bind(filled)
        .bind(plan_id)
        .bind(step.key())
        .execute(&mut *tx)
        .await?
        .rows_affected();
    }
    tx.commit().await?;
    Ok(said)
}

/// Deletes the plan and everything of it. False when there was none.
pub(in crate::plan) async fn delete(db: &Db, user_id: &str) -> Result<bool, AppError> {
    let mut tx = db.begin().await?;
    let id: Option<String> = sqlx::query("select id from business_plans where user_id = $1")
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?
        .map(|r| r.try_get("id"))
        .transpose()?;
    let Some(id) = id else { return Ok(false) };
    for table in ["plan_changes", "plan_sections", "plan_documents", "plan_drafts"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("delete from {table} where plan_id = $1")))
            .bind(&id)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("delete from business_plans where id = $1").bind(&id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(true)
}

/// Whether the user has a plan (a number change never merges such an account away).
pub(in crate::plan) async fn has_plan(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
) -> Result<bool, AppError> {
    Ok(sqlx::query("select 1 from business_plans where user_id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .is_some())
}
