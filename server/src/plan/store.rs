//! Plans in the database: one per user, six sections (data in the contracts' JSON shape, and
//! whether the step is complete), a change feed with an ordered cursor, generated documents and
//! auto-saved drafts. Every change to a section is applied and recorded in one transaction.

use serde_json::Value as Json;
use sqlx::{AnyConnection, Row, any::AnyRow};

use super::{
    results::YearMonth,
    sections::{self, Step},
    taxes::Recorded,
};
use crate::{
    db::{Db, get_bool, notify},
    error::{AppError, Problem},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Draft,
    InProgress,
    Completed,
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

#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub version: i32,
    pub language: String,
    pub markdown: String,
    /// The content the PDF is rendered from.
    pub model: Json,
    pub generated_at: i64,
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
        let done = self.sections.iter().filter(|s| s.completed).count() as f64;
        (done * 100.0 / Step::ALL.len() as f64).round() as i32
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
    /// the sales expected a month (as `document::finance_inputs` asks).
    pub fn scenarios_ready(&self) -> bool {
        let finance = &self.section(Step::Finance).data;
        ["averageTicket", "expectedSalesPerMonth"].iter().all(|field| finance[*field].is_number())
    }

    pub fn status(&self) -> Status {
        if self.sections.iter().all(|s| s.completed) {
            Status::Completed
        } else if self.sections.iter().any(|s| s.completed || sections::has_content(s.step, &s.data)) {
            Status::InProgress
        } else {
            Status::Draft
        }
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

fn parse_json(text: &str) -> Json {
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
pub async fn find(
    conn: &mut AnyConnection,
    user_id: &str,
    detail: Detail,
    now: i64,
) -> Result<Option<Plan>, sqlx::Error> {
    // The plan, its sections and the revenue recorded in the twelve months before this one, in one
    // round trip (a plan without sections still gives one row).
    let (year_before, this_month) = recorded_window(now);
    let rows = sqlx::query(
        "select p.id, p.created_at, p.updated_at, s.step, s.data, s.completed, s.updated_at as section_updated_at, \
         r.revenue_cents, r.months \
         from business_plans p \
         cross join (select cast(coalesce(sum(revenue_cents), 0) as bigint) as revenue_cents, count(*) as months \
           from month_results where user_id = $1 and month >= $2 and month < $3) r \
         left join plan_sections s on s.plan_id = p.id where p.user_id = $1",
    )
    .bind(user_id)
    .bind(year_before)
    .bind(this_month)
    .fetch_all(&mut *conn)
    .await?;
    let Some(mut plan) = from_rows(&rows, user_id)? else {
        return Ok(None);
    };
    if detail == Detail::WithDocument {
        plan.document = latest_document(conn, &plan.id).await?;
    }
    Ok(Some(plan))
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
pub fn from_rows(rows: &[AnyRow], user_id: &str) -> Result<Option<Plan>, sqlx::Error> {
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
    Ok(Some(from_parts(plan, &stored, recorded)))
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
/// months recorded in the twelve before this one.
pub fn from_parts(
    (id, user_id, created_at, updated_at): (String, &str, i64, i64),
    stored: &[StoredSection],
    (revenue_cents, months): (i64, i64),
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
    }
}

/// The latest generated document of a plan, if one was generated.
async fn latest_document(conn: &mut AnyConnection, plan_id: &str) -> Result<Option<Document>, sqlx::Error> {
    sqlx::query(
        "select version, language, markdown, model, generated_at from plan_documents where plan_id = $1 \
         order by version desc limit 1",
    )
    .bind(plan_id)
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| -> Result<Document, sqlx::Error> {
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
pub async fn get_or_create(
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
            sqlx::query("insert into plan_sections (plan_id, step, data, completed, updated_at) values ($1, $2, $3, $4, $5)")
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

/// Where plan changes are announced to every server process (PostgreSQL): "<user id> <cursor>".
pub const CHANGES_CHANNEL: &str = "socio_plan_changes";

/// Applies the updates atomically (all or none) and records each in the change feed.
pub async fn apply(
    db: &Db,
    user_id: &str,
    actor_id: Option<&str>,
    source: Source,
    updates: &[StepUpdate],
) -> Result<(Plan, Vec<Change>), AppError> {
    let mut tx = db.begin().await?;
    let mut plan = get_or_create(&mut tx, user_id, Detail::Sections, db.now_ms()).await?;
    let now = db.now_ms();
    let mut changes = Vec::with_capacity(updates.len());
    for update in updates {
        let current = plan.section(update.step).clone();
        let (data, changed) = match &update.patch {
            None => (current.data.clone(), Json::Object(Default::default())),
            Some(Patch::Replace(new)) => {
                let data = sections::validate(update.step, new.clone(), &update.field)?;
                (data.clone(), data)
            }
            Some(Patch::Merge(fields)) => {
                let data =
                    sections::validate(update.step, sections::merge(&current.data, fields), &update.field)?;
                let keys: Vec<&String> = fields.as_object().map(|o| o.keys().collect()).unwrap_or_default();
                let changed = keys
                    .iter()
                    .filter_map(|k| data.get(k.as_str()).map(|v| ((*k).clone(), v.clone())))
                    .collect();
                (data, Json::Object(changed))
            }
        };
        let completed = update.completed.unwrap_or(current.completed);
        sqlx::query("update plan_sections set data = $1, completed = $2, updated_at = $3 where plan_id = $4 and step = $5")
            .bind(data.to_string())
            .bind(completed)
            .bind(now)
            .bind(&plan.id)
            .bind(update.step.key())
            .execute(&mut *tx)
            .await?;
        let cursor: i64 = sqlx::query(
            "insert into plan_changes (plan_id, step, data, completed, source, actor_id, created_at) \
             values ($1, $2, $3, $4, $5, $6, $7) returning seq",
        )
        .bind(&plan.id)
        .bind(update.step.key())
        .bind(changed.to_string())
        .bind(update.completed)
        .bind(source.key())
        .bind(actor_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?
        .try_get("seq")?;
        // The feed keeps the plan's latest changes only (`CHANGES_KEPT`).
        sqlx::query(
            "delete from plan_changes where plan_id = $1 and seq < (select min(seq) from \
             (select seq from plan_changes where plan_id = $1 order by seq desc limit $2) kept)",
        )
        .bind(&plan.id)
        .bind(CHANGES_KEPT)
        .execute(&mut *tx)
        .await?;
        // Other server processes learn of the change when this commits.
        notify::notify(db, &mut tx, CHANGES_CHANNEL, &format!("{user_id} {cursor}")).await?;
        let section = plan.sections.iter_mut().find(|s| s.step == update.step).expect("six sections");
        section.data = data;
        section.completed = completed;
        changes.push(Change {
            cursor,
            step: update.step,
            data: changed,
            completed: update.completed,
            source,
            actor_id: actor_id.map(str::to_owned),
            created_at: now,
        });
    }
    sqlx::query("update business_plans set updated_at = $1 where id = $2")
        .bind(now)
        .bind(&plan.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let mut conn = db.pool().acquire().await?;
    let plan = find(&mut conn, user_id, Detail::WithDocument, db.now_ms())
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("plan gone")))?;
    Ok((plan, changes))
}

/// The user's changes after `since`, oldest first, at most `limit`.
pub async fn changes_since(
    db: &Db,
    user_id: &str,
    since: i64,
    limit: i64,
) -> Result<Vec<Change>, sqlx::Error> {
    let rows = sqlx::query(
        "select c.seq, c.step, c.data, c.completed, c.source, c.actor_id, c.created_at from plan_changes c \
         join business_plans p on p.id = c.plan_id where p.user_id = $1 and c.seq > $2 order by c.seq limit $3",
    )
    .bind(user_id)
    .bind(since)
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .filter_map(|r| {
            let step = Step::parse(&r.try_get::<String, _>("step").ok()?)?;
            Some(Ok(Change {
                cursor: r.try_get("seq").ok()?,
                step,
                data: parse_json(&r.try_get::<String, _>("data").ok()?),
                completed: get_bool(r, "completed").ok()?,
                source: Source::parse(&r.try_get::<String, _>("source").ok()?),
                actor_id: r.try_get("actor_id").ok()?,
                created_at: r.try_get("created_at").ok()?,
            }))
        })
        .collect()
}

/// The newest cursor of the user's feed (0 when there is none).
pub async fn latest_cursor(db: &Db, user_id: &str) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "select max(c.seq) as seq from plan_changes c join business_plans p on p.id = c.plan_id where p.user_id = $1",
    )
    .bind(user_id)
    .fetch_one(db.pool())
    .await?;
    Ok(row.try_get::<Option<i64>, _>("seq")?.unwrap_or(0))
}

/// Deletes the plan and everything of it. False when there was none.
pub async fn delete(db: &Db, user_id: &str) -> Result<bool, sqlx::Error> {
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

/// Keeps what the user is typing, per context, without touching the sections.
pub async fn save_draft(db: &Db, user_id: &str, context: &str, data: &Json) -> Result<i64, AppError> {
    // One writer of a person's drafts at a time (across servers), so the count below holds.
    let _one_at_a_time = db.lock_key(&format!("drafts:{user_id}")).await?;
    let mut tx = db.begin().await?;
    let plan = get_or_create(&mut tx, user_id, Detail::Sections, db.now_ms()).await?;
    let now = db.now_ms();
    let row = sqlx::query(
        "select count(*) as n, sum(case when context = $2 then 1 else 0 end) as mine from plan_drafts where plan_id = $1",
    )
    .bind(&plan.id)
    .bind(context)
    .fetch_one(&mut *tx)
    .await?;
    let (contexts, exists): (i64, Option<i64>) = (row.try_get("n")?, row.try_get("mine")?);
    if exists.unwrap_or(0) == 0 && contexts >= MAX_DRAFT_CONTEXTS {
        return Err(AppError::invalid(
            "context",
            Problem::Format {
                pt_br: "um dos seus rascunhos: cada pessoa guarda no máximo 10 (reaproveite um contexto)",
                en: "one of your drafts: each person keeps at most 10 (reuse a context)",
            },
        ));
    }
    sqlx::query(
        "insert into plan_drafts (plan_id, context, data, saved_at) values ($1, $2, $3, $4) \
         on conflict (plan_id, context) do update set data = excluded.data, saved_at = excluded.saved_at",
    )
    .bind(&plan.id)
    .bind(context)
    .bind(data.to_string())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(now)
}

/// Drafts a person keeps: one per context, at most this many contexts (64 KB each).
pub const MAX_DRAFT_CONTEXTS: i64 = 10;

/// Changes the feed keeps per plan: older ones are compacted away (the plan itself holds their
/// result; a client whose cursor is older reads the plan again).
pub const CHANGES_KEPT: i64 = 500;

/// Generated documents kept per plan: the newest ones.
pub const DOCUMENTS_KEPT: i32 = 10;

/// Stores a newly generated document as the next version, forgetting those older than the last
/// [`DOCUMENTS_KEPT`].
pub async fn store_document(
    db: &Db,
    plan_id: &str,
    language: &str,
    markdown: &str,
    model: &Json,
) -> Result<Document, sqlx::Error> {
    let mut tx = db.begin().await?;
    let version: i32 =
        sqlx::query("select coalesce(max(version), 0) + 1 as v from plan_documents where plan_id = $1")
            .bind(plan_id)
            .fetch_one(&mut *tx)
            .await?
            .try_get::<i64, _>("v")? as i32;
    let now = db.now_ms();
    sqlx::query(
        "insert into plan_documents (id, plan_id, version, language, markdown, model, generated_at) \
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(plan_id)
    .bind(version)
    .bind(language)
    .bind(markdown)
    .bind(model.to_string())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query("delete from plan_documents where plan_id = $1 and version <= $2")
        .bind(plan_id)
        .bind(version - DOCUMENTS_KEPT)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Document {
        version,
        language: language.to_owned(),
        markdown: markdown.to_owned(),
        model: model.clone(),
        generated_at: now,
    })
}

/// Whether the user has a plan (a number change never merges such an account away).
pub async fn has_plan(conn: &mut sqlx::AnyConnection, user_id: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("select 1 from business_plans where user_id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .is_some())
}

/// LGPD erasure, the plan's part: the plan with its sections, change feed, drafts and documents.
pub async fn erase_user(conn: &mut sqlx::AnyConnection, user_id: &str) -> Result<(), sqlx::Error> {
    for sql in [
        "delete from plan_changes where plan_id in (select id from business_plans where user_id = $1)",
        "delete from plan_sections where plan_id in (select id from business_plans where user_id = $1)",
        "delete from plan_documents where plan_id in (select id from business_plans where user_id = $1)",
        "delete from plan_drafts where plan_id in (select id from business_plans where user_id = $1)",
        "delete from business_plans where user_id = $1",
    ] {
        sqlx::query(sql).bind(user_id).execute(&mut *conn).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{
        plan::document,
        proto::{json::from_json, socio::v1 as pb},
    };

    fn plan_with(market: Json, finance: Json) -> Plan {
        let data = |step| match step {
            Step::Market => market.clone(),
            Step::Finance => finance.clone(),
            _ => json!({}),
        };
        let sections =
            Step::ALL.iter().map(|&step| Section { step, data: data(step), completed: false, updated_at: 0 });
        Plan {
            id: "p".into(),
            user_id: "u".into(),
            sections: sections.collect(),
            document: None,
            recorded: None,
            created_at: 0,
            updated_at: 0,
        }
    }

    #[test]
    fn only_written_swot_quadrants_count() {
        let market = json!({"strengths": "Pão artesanal", "weaknesses": "  ", "threats": "Rede grande", "industry": "x"});
        assert_eq!(plan_with(market, json!({})).swot_quadrants_filled(), 2);
        assert_eq!(plan_with(json!({}), json!({})).swot_quadrants_filled(), 0);
    }

    #[test]
    fn scenarios_are_ready_exactly_when_the_finance_maths_can_run() {
        for finance in [
            json!({}),
            json!({"averageTicket": 25}),
            json!({"averageTicket": null, "expectedSalesPerMonth": 800}),
            json!({"averageTicket": 25, "expectedSalesPerMonth": 800}),
            json!({"averageTicket": 25.5, "expectedSalesPerMonth": 1, "monthlyFixedCosts": null}),
        ] {
            let inputs =
                from_json::<pb::FinanceData>(finance.clone()).ok().and_then(|d| document::finance_inputs(&d));
            assert_eq!(
                plan_with(json!({}), finance.clone()).scenarios_ready(),
                inputs.is_some(),
                "{finance}"
            );
        }
    }
}
