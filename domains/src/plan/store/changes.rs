//! Changing a plan: updates applied atomically to its sections, each recorded in the change feed
//! (an ordered cursor, the latest `CHANGES_KEPT` kept) and announced to every server process.

use serde_json::Value as Json;
use sqlx::Row;

use super::*;
use crate::{
    db::{Db, Tx, get_bool, notify},
    error::AppError,
    plan::sections::{self, Step},
};

/// Where plan changes are announced to every server process (PostgreSQL): "<user id> <cursor>".
pub const CHANGES_CHANNEL: &str = "socio_plan_changes";

/// Applies the updates atomically (all or none) and records each in the change feed.
pub(in crate::plan) async fn apply(
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
        let (data, changed) = patched(update, &current.data)?;
        let completed = update.completed.unwrap_or(current.completed);
        sqlx::query(
            "update plan_sections set data = $1, completed = $2, updated_at = $3, filled = $6 \
             where plan_id = $4 and step = $5",
        )
        .bind(data.to_string())
        .bind(completed)
        .bind(now)
        .bind(&plan.id)
        .bind(update.step.key())
        .bind(sections::has_content(update.step, &data))
        .execute(&mut *tx)
        .await?;
        let mut change = Change {
            cursor: 0,
            step: update.step,
            data: changed,
            completed: update.completed,
            source,
            actor_id: actor_id.map(str::to_owned),
            created_at: now,
        };
        change.cursor = record(db, &mut tx, &plan.id, user_id, &change).await?;
        let section = plan.sections.iter_mut().find(|s| s.step == update.step).expect("six sections");
        section.data = data;
        section.completed = completed;
        changes.push(change);
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

/// A section's data after an update (validated) and what changed: the whole section when replaced,
/// the fields sent when merged, nothing when only its completion changes.
fn patched(update: &StepUpdate, current: &Json) -> Result<(Json, Json), AppError> {
    Ok(match &update.patch {
        None => (current.clone(), Json::Object(Default::default())),
        Some(Patch::Replace(new)) => {
            let data = sections::validate(update.step, new.clone(), &update.field)?;
            (data.clone(), data)
        }
        Some(Patch::Merge(fields)) => {
            let data = sections::validate(update.step, sections::merge(current, fields), &update.field)?;
            let keys: Vec<&String> = fields.as_object().map(|o| o.keys().collect()).unwrap_or_default();
            let changed =
                keys.iter().filter_map(|k| data.get(k.as_str()).map(|v| ((*k).clone(), v.clone()))).collect();
            (data, Json::Object(changed))
        }
    })
}

/// Records one update in the change feed (keeping the latest `CHANGES_KEPT`) and announces it to
/// the other server processes at commit; its cursor (the one `change` carries is not read).
async fn record(
    db: &Db,
    tx: &mut Tx,
    plan_id: &str,
    user_id: &str,
    change: &Change,
) -> Result<i64, AppError> {
    let cursor: i64 = sqlx::query(
        "insert into plan_changes (plan_id, step, data, completed, source, actor_id, created_at) \
         values ($1, $2, $3, $4, $5, $6, $7) returning seq",
    )
    .bind(plan_id)
    .bind(change.step.key())
    .bind(change.data.to_string())
    .bind(change.completed)
    .bind(change.source.key())
    .bind(change.actor_id.as_deref())
    .bind(change.created_at)
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    // The feed keeps the plan's latest changes only (`CHANGES_KEPT`).
    sqlx::query(
        "delete from plan_changes where plan_id = $1 and seq < (select min(seq) from \
         (select seq from plan_changes where plan_id = $1 order by seq desc limit $2) kept)",
    )
    .bind(plan_id)
    .bind(CHANGES_KEPT)
    .execute(&mut **tx)
    .await?;
    // Other server processes learn of the change when this commits.
    notify::notify(db, tx, CHANGES_CHANNEL, &format!("{user_id} {cursor}")).await?;
    Ok(cursor)
}

/// The user's changes after `since`, oldest first, at most `limit`.
pub(in crate::plan) async fn changes_since(
    db: &Db,
    user_id: &str,
    since: i64,
    limit: i64,
) -> Result<Vec<Change>, AppError> {
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
pub(in crate::plan) async fn latest_cursor(db: &Db, user_id: &str) -> Result<i64, AppError> {
    let row = sqlx::query(
        "select max(c.seq) as seq from plan_changes c join business_plans p on p.id = c.plan_id where p.user_id = $1",
    )
    .bind(user_id)
    .fetch_one(db.pool())
    .await?;
    Ok(row.try_get::<Option<i64>, _>("seq")?.unwrap_or(0))
}

/// Changes the feed keeps per plan: older ones are compacted away (the plan itself holds their
/// result; a client whose cursor is older reads the plan again).
pub const CHANGES_KEPT: i64 = 500;
