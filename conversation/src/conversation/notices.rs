//! WhatsApp's system notices, kept once each by WhatsApp's message id and never answered.

use sqlx::AnyConnection;

use crate::whatsapp::payload::InboundMessage;

/// Keeps a notice; false when it was kept before (a redelivery), so it is acted on once.
pub(in crate::conversation) async fn record(
    conn: &mut AnyConnection,
    user_id: Option<&str>,
    message: &InboundMessage,
    received_at: i64,
) -> Result<bool, sqlx::Error> {
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

/// A number change absorbed `from` into `into`: its notices are `into`'s.
pub(in crate::conversation) async fn hand_over(
    conn: &mut AnyConnection,
    from: &str,
    into: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("update whatsapp_notices set user_id = $2 where user_id = $1")
        .bind(from)
        .bind(into)
        .execute(conn)
        .await?;
    Ok(())
}

/// LGPD erasure, the notices' part: what WhatsApp told us about the person.
pub(in crate::conversation) async fn erase_user(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from whatsapp_notices where user_id = $1").bind(user_id).execute(conn).await?;
    Ok(())
}
