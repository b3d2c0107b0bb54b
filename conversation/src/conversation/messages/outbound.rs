//! What Sócio sends: replies, an admin's words as the consultant, notices, proactive messages
//! with their template, documents — each stored `queued` before it is sent, once per job.

use crate::error::AppError;
use sqlx::AnyConnection;

use crate::{
    db::Db,
    whatsapp::{choices::Choice, templates::Filled},
};

/// Stores a reply of ours, queued for sending, with the answers it offers to tap (if any).
pub(in crate::conversation) async fn insert_outbound(
    conn: &mut AnyConnection,
    user_id: &str,
    content: &str,
    choices: &[Choice],
    created_at: i64,
) -> Result<String, AppError> {
    let id = uuid::Uuid::new_v4().to_string();
    insert_outbound_as(conn, &id, user_id, content, choices, created_at).await?;
    Ok(id)
}

/// [`insert_outbound`] under an id the caller chose.
pub(in crate::conversation) async fn insert_outbound_as(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    content: &str,
    choices: &[Choice],
    created_at: i64,
) -> Result<(), AppError> {
    let choices = (!choices.is_empty()).then(|| serde_json::to_string(choices).unwrap_or_default());
    sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, status, choices, created_at, updated_at) \
         values ($1, $2, 'outbound', 'assistant', 'text', $3, 'queued', $4, $5, $5)",
    )
    .bind(id)
    .bind(user_id)
    .bind(content)
    .bind(choices)
    .bind(created_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps a notice of ours (billing, account), which outside the 24-hour window goes as a template.
/// `id` is chosen by the caller, so that a retried notice job writes it once. True when it was
/// written now.
pub(in crate::conversation) async fn insert_notice(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    content: &str,
    created_at: i64,
) -> Result<bool, AppError> {
    insert_once(conn, id, user_id, "notice", content, created_at).await
}

/// Keeps a proactive message of ours (a check-in, a reminder) under the caller's id, queued:
/// plain text inside the window, `template` outside it.
pub(in crate::conversation) async fn insert_proactive(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    content: &str,
    template: &Filled,
    created_at: i64,
) -> Result<(), AppError> {
    sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, status, template, created_at, updated_at) \
         values ($1, $2, 'outbound', 'assistant', 'reminder', $3, 'queued', $4, $5, $5)",
    )
    .bind(id)
    .bind(user_id)
    .bind(content)
    .bind(serde_json::to_string(template).unwrap_or_default())
    .bind(created_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps a document of ours (the plan's PDF; `caption` is its words), queued for sending. `id` is
/// chosen by the caller so that a retried job writes it once. True when written now.
pub(in crate::conversation) async fn insert_document(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    caption: &str,
    created_at: i64,
) -> Result<bool, AppError> {
    insert_once(conn, id, user_id, "document", caption, created_at).await
}

/// One outbound message of ours under the caller's id, queued; a second write of the id does
/// nothing. True when written now.
async fn insert_once(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    kind: &str,
    content: &str,
    created_at: i64,
) -> Result<bool, AppError> {
    let written = sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, status, created_at, updated_at) \
         values ($1, $2, 'outbound', 'assistant', $3, $4, 'queued', $5, $5) on conflict (id) do nothing",
    )
    .bind(id)
    .bind(user_id)
    .bind(kind)
    .bind(content)
    .bind(created_at)
    .execute(conn)
    .await?;
    Ok(written.rows_affected() == 1)
}

/// Whether one of our messages to the person, other than `except`, is still on its way (queued
/// or being sent): what goes out apart from the person's send queue waits for it, so the person
/// reads our messages in the order we wrote them.
pub(in crate::conversation) async fn outbound_pending(
    db: &Db,
    user_id: &str,
    except: &str,
) -> Result<bool, AppError> {
    let row = sqlx::query(
        "select 1 from messages where user_id = $1 and direction = 'outbound' \
         and status in ('queued', 'sending') and id <> $2 limit 1",
    )
    .bind(user_id)
    .bind(except)
    .fetch_optional(db.pool())
    .await?;
    Ok(row.is_some())
}
