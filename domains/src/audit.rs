//! The audit trail: every admin action (who, what, on whom, when), kept for admins to read.

use sqlx::{AnyConnection, Row};

use crate::db::Db;
use crate::error::AppError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEvent {
    pub id: String,
    pub actor_id: Option<String>,
    pub action: String,
    pub target_id: Option<String>,
    pub detail: String,
    pub created_at: i64,
}

/// The audit trail as the admins read it, and written: an event is recorded inside the transaction
/// of the action it records ([`AuditLog::record_in`]).
#[derive(Clone)]
pub struct AuditLog {
    db: Db,
}

impl AuditLog {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Records that `actor_id` did `action` on `target_id` now, on its own (an action that changes
    /// nothing else: a copy of a person's data asked for).
    pub async fn record(
        &self,
        actor_id: &str,
        action: &str,
        target_id: &str,
        detail: &str,
    ) -> Result<i64, AppError> {
        let now = self.db.now_ms();
        let mut writer = self.db.writer().await?;
        self.record_in(&mut writer, actor_id, action, target_id, detail, now).await?;
        Ok(now)
    }

    /// Records that `actor_id` did `action` on `target_id`, at `now`, in the caller's connection or
    /// transaction — the one of the action it records, so neither is kept without the other.
    pub async fn record_in(
        &self,
        conn: &mut AnyConnection,
        actor_id: &str,
        action: &str,
        target_id: &str,
        detail: &str,
        now: i64,
    ) -> Result<(), AppError> {
        sqlx::query("insert into audit_events (id, actor_id, action, target_id, detail, created_at) values ($1, $2, $3, $4, $5, $6)")
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(actor_id)
            .bind(action)
            .bind(target_id)
            .bind(detail)
            .bind(now)
            .execute(conn)
            .await?;
        tracing::info!(target: "security", event = "admin_action", actor = %actor_id, action, target = %target_id);
        Ok(())
    }

    /// Newest first, and how many there are.
    pub async fn list(&self, limit: i64, offset: i64) -> Result<(Vec<AuditEvent>, i64), AppError> {
        let db = &self.db;
        let rows = sqlx::query(
            "select id, actor_id, action, target_id, detail, created_at from audit_events order by created_at desc limit $1 offset $2",
        )
        .bind(limit)
        .bind(offset)
        .fetch_all(db.pool())
        .await?;
        let total: i64 =
            sqlx::query("select count(*) as n from audit_events").fetch_one(db.pool()).await?.try_get("n")?;
        let events = rows
            .iter()
            .map(|r| {
                Ok(AuditEvent {
                    id: r.try_get("id")?,
                    actor_id: r.try_get("actor_id")?,
                    action: r.try_get("action")?,
                    target_id: r.try_get("target_id")?,
                    detail: r.try_get("detail")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<_, AppError>>()?;
        Ok((events, total))
    }
}
