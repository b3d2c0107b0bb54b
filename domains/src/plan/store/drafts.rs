//! Auto-saved drafts of what a person is typing in the plan builder, per context, at most
//! `MAX_DRAFT_CONTEXTS` contexts.

use serde_json::Value as Json;
use sqlx::Row;

use super::*;
use crate::{
    db::Db,
    error::{AppError, Problem},
};

/// Keeps what the user is typing, per context, without touching the sections.
pub(in crate::plan) async fn save_draft(
    db: &Db,
    user_id: &str,
    context: &str,
    data: &Json,
) -> Result<i64, AppError> {
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
            Problem::Format(said!("store-drafts-format-one-of-your-drafts-each")),
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
