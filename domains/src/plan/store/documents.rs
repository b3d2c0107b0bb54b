//! A plan's generated documents: each kept with the plan's content at the time, the latest
//! `DOCUMENTS_KEPT` of them.

use crate::error::AppError;
use serde_json::Value as Json;
use sqlx::Row;

use super::*;
use crate::db::Db;

/// Generated documents kept per plan: the newest ones.
pub const DOCUMENTS_KEPT: i32 = 10;

/// Stores a newly generated document as the next version, forgetting those older than the last
/// [`DOCUMENTS_KEPT`].
pub(in crate::plan) async fn store_document(
    db: &Db,
    plan_id: &str,
    language: &str,
    markdown: &str,
    model: &Json,
) -> Result<Document, AppError> {
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
