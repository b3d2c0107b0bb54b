//! WhatsApp's system notices, kept once each by WhatsApp's message id and never answered.

use crate::error::AppError;
use sqlx::AnyConnection;

use crate::whatsapp::payload::InboundMessage;

/// Keeps a notice; false when it was kept before (a redelivery), so it is acted on once.
pub(in crate::conversation) async fn record(
    conn: &mut AnyConnection,
    user_id: Option<&str>,
    message: &InboundMessage,
    received_at: i64,
) -> Result<bool, AppError> {
    let kind = message.system.as_ref().map(|s| s.kind.as_str()).unwrap_or_default();
    let inserted = sqlx::query(
        "insert into whatsapp_notices (wa_message_id, user_id, kind, from_wa_id, body, raw, received_at) \
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (wa_message_id) do nothing",
    )
    .bind(&message.wa_message_id)
    .bind(user_id)
    .bind(kind)
    .bind(message.from.address().unwrap_or_default())
    .bind(&message.text)
    .bind(message.raw.to_string())
    .bind(received_at)
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}
