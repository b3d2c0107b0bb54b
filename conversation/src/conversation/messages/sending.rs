//! A sent message's progress: `queued` → `sent` → `delivered` → `read`, or `failed` with the
//! reason, only ever forward, whatever order Meta's status updates arrive in; the failed sends the
//! admin sees.

use crate::error::AppError;
use sqlx::{AnyConnection, Row};

use crate::{
    db::Db,
    whatsapp::payload::{DeliveryStatus, StatusUpdate},
};

/// Takes our queued message for one request to Meta: true when this call moved it to `sending`.
pub(in crate::conversation) async fn mark_sending(db: &Db, id: &str) -> Result<bool, AppError> {
    let taken = sqlx::query(
        "update messages set status = 'sending', updated_at = $1 where id = $2 and status = 'queued'",
    )
    .bind(db.now_ms())
    .bind(id)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// [`mark_sending`] for several messages at once, in one statement: the ids of those it took.
pub(in crate::conversation) async fn mark_sending_many(
    db: &Db,
    ids: &[&str],
) -> Result<Vec<String>, AppError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let params: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "update messages set status = 'sending', updated_at = $1 where id in ({}) and status = 'queued' returning id",
        params.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(db.now_ms());
    for id in ids {
        query = query.bind(*id);
    }
    let rows = query.fetch_all(&mut *db.writer().await?).await?;
    Ok(rows.iter().map(|row| row.try_get("id")).collect::<Result<_, _>>()?)
}

/// [`mark_sending`] inside the caller's transaction (a proactive message's, after its consent
/// was checked in the same transaction).
pub(in crate::conversation) async fn mark_sending_in(
    conn: &mut AnyConnection,
    id: &str,
    now: i64,
) -> Result<bool, AppError> {
    let taken = sqlx::query(
        "update messages set status = 'sending', updated_at = $1 where id = $2 and status = 'queued'",
    )
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// A queued proactive message the person no longer wants ("PARAR" since it was written): it is
/// never sent, and stays in the conversation as `dropped` with the reason.
pub(in crate::conversation) async fn record_dropped(
    conn: &mut AnyConnection,
    id: &str,
    reason: &str,
    now: i64,
) -> Result<bool, AppError> {
    let dropped = sqlx::query(
        "update messages set status = 'dropped', error = $1, updated_at = $2 where id = $3 and status = 'queued'",
    )
    .bind(reason)
    .bind(now)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(dropped.rows_affected() == 1)
}

/// Meta refused the request (it was not delivered): the message waits for the next try.
pub(in crate::conversation) async fn requeue(db: &Db, id: &str) -> Result<(), AppError> {
    sqlx::query(
        "update messages set status = 'queued', updated_at = $1 where id = $2 and status = 'sending'",
    )
    .bind(db.now_ms())
    .bind(id)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(())
}

/// WhatsApp accepted our message: `queued`/`sending` → `sent` with its wamid.
pub(in crate::conversation) async fn record_sent(
    db: &Db,
    id: &str,
    wa_message_id: &str,
) -> Result<(), AppError> {
    sqlx::query(
        "update messages set status = 'sent', wa_message_id = $1, error = null, updated_at = $2 \
         where id = $3 and status in ('queued', 'sending')",
    )
    .bind(wa_message_id)
    .bind(db.now_ms())
    .bind(id)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(())
}

/// [`record_sent`] for several messages at once (`(id, wamid)`), in one statement: each by its id,
/// with its own wamid.
pub(in crate::conversation) async fn record_sent_many(
    db: &Db,
    sends: &[(&str, &str)],
) -> Result<(), AppError> {
    if sends.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = (0..sends.len()).map(|i| format!("${}", 2 * i + 2)).collect();
    let wamids: Vec<String> =
        (0..sends.len()).map(|i| format!("when ${} then ${}", 2 * i + 2, 2 * i + 3)).collect();
    let sql = format!(
        "update messages set status = 'sent', wa_message_id = case id {} end, error = null, updated_at = $1 \
         where id in ({}) and status in ('queued', 'sending')",
        wamids.join(" "),
        ids.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(db.now_ms());
    for (id, wamid) in sends {
        query = query.bind(*id).bind(*wamid);
    }
    query.execute(&mut *db.writer().await?).await?;
    Ok(())
}

/// Our message will not be delivered; the reason stays for the admin panel.
pub(in crate::conversation) async fn record_failed(db: &Db, id: &str, reason: &str) -> Result<(), AppError> {
    sqlx::query("update messages set status = 'failed', error = $1, updated_at = $2 where id = $3 and direction = 'outbound'")
        .bind(reason.chars().take(1000).collect::<String>())
        .bind(db.now_ms())
        .bind(id)
        .execute(&mut *db.writer().await?)
        .await?;
    Ok(())
}

/// Applies a delivery status to our message; statuses never move it backwards, and never reply.
/// What Meta says it billed the message as is kept whatever the order statuses arrive in.
pub(in crate::conversation) async fn apply_status(
    conn: &mut AnyConnection,
    update: &StatusUpdate,
    now: i64,
) -> Result<bool, AppError> {
    let priced = match &update.pricing {
        Some(pricing) => {
            sqlx::query(
                "update messages set billable = $1, pricing_category = $2, pricing_type = $3 \
                 where wa_message_id = $4 and direction = 'outbound'",
            )
            .bind(i32::from(pricing.billable))
            .bind(&pricing.category)
            .bind(&pricing.kind)
            .bind(&update.wa_message_id)
            .execute(&mut *conn)
            .await?
            .rows_affected()
                == 1
        }
        None => false,
    };
    Ok(advance_status(conn, update, now).await? || priced)
}

async fn advance_status(conn: &mut AnyConnection, update: &StatusUpdate, now: i64) -> Result<bool, AppError> {
    let earlier: &[&str] = match update.status {
        DeliveryStatus::Sent => &["queued"],
        DeliveryStatus::Delivered => &["queued", "sent"],
        DeliveryStatus::Read => &["queued", "sent", "delivered"],
        DeliveryStatus::Failed => &["queued", "sent", "delivered"],
    };
    let placeholders: Vec<String> = (0..earlier.len()).map(|i| format!("${}", i + 5)).collect();
    let sql = format!(
        "update messages set status = $1, error = coalesce($2, error), updated_at = $3 \
         where wa_message_id = $4 and direction = 'outbound' and status in ({})",
        placeholders.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(update.status.as_str())
        .bind(update.error.as_deref())
        .bind(now)
        .bind(&update.wa_message_id);
    for status in earlier {
        query = query.bind(*status);
    }
    Ok(query.execute(conn).await?.rows_affected() == 1)
}

/// A message we could not deliver, for the admin panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedSend {
    pub id: String,
    pub user_id: String,
    /// The number, or the username of someone without a visible one.
    pub phone_number: String,
    pub content: String,
    pub error: String,
    pub failed_at: i64,
}

/// Failed sends, newest first, and how many there are in all.
pub(in crate::conversation) async fn failed_sends(
    db: &Db,
    limit: i64,
    offset: i64,
) -> Result<(Vec<FailedSend>, i64), AppError> {
    let rows = sqlx::query(
        "select m.id, m.user_id, coalesce(u.phone_number, u.username, u.bsuid) as phone_number, m.content, m.error, m.updated_at from messages m \
         join users u on u.id = m.user_id where m.direction = 'outbound' and m.status = 'failed' \
         order by m.updated_at desc limit $1 offset $2",
    )
    .bind(limit)
    .bind(offset)
    .fetch_all(db.pool())
    .await?;
    let total: i64 =
        sqlx::query("select count(*) as n from messages where direction = 'outbound' and status = 'failed'")
            .fetch_one(db.pool())
            .await?
            .try_get("n")?;
    let sends = rows
        .iter()
        .map(|row| {
            Ok(FailedSend {
                id: row.try_get("id")?,
                user_id: row.try_get("user_id")?,
                phone_number: row.try_get("phone_number")?,
                content: row.try_get("content")?,
                error: row.try_get::<Option<String>, _>("error")?.unwrap_or_default(),
                failed_at: row.try_get("updated_at")?,
            })
        })
        .collect::<Result<_, AppError>>()?;
    Ok((sends, total))
}
