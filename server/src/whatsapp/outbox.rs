//! The dev outbox (`WHATSAPP_MODE=dev`): instead of phones, a table that the simulator page and
//! the dev API read. Login codes land here too, so the whole product can be tried on one machine.

use futures::future::BoxFuture;
use sqlx::Row;

use super::sender::{Outgoing, SendError, Sent, WhatsAppSender};
use crate::db::{Db, now_ms};

pub struct DevOutbox {
    db: Db,
}

impl DevOutbox {
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

/// One message as a phone would have received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// E.164.
    pub to: String,
    pub text: String,
    pub kind: String,
    pub created_at: i64,
}

impl WhatsAppSender for DevOutbox {
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Sent, SendError>> {
        Box::pin(async move {
            let wa_message_id = format!("wamid.dev.{}", uuid::Uuid::new_v4().simple());
            sqlx::query(
                "insert into whatsapp_outbox (to_phone, body, kind, wa_message_id, created_at) \
                 values ($1, $2, $3, $4, $5)",
            )
            .bind(format!("+{}", message.to()))
            .bind(message.text())
            .bind(message.kind())
            .bind(&wa_message_id)
            .bind(now_ms())
            .execute(self.db.pool())
            .await
            .map_err(|e| SendError::Retryable(format!("outbox unavailable: {e}")))?;
            Ok(Sent { wa_message_id })
        })
    }
}

/// Everything sent to `to` (E.164), oldest first; at most the last 500.
pub async fn delivered_to(db: &Db, to: &str) -> Result<Vec<Delivered>, sqlx::Error> {
    let rows = sqlx::query(
        "select to_phone, body, kind, created_at from (select seq, to_phone, body, kind, created_at \
         from whatsapp_outbox where to_phone = $1 order by seq desc limit 500) recent order by seq",
    )
    .bind(to)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Delivered {
                to: row.try_get("to_phone")?,
                text: row.try_get("body")?,
                kind: row.try_get("kind")?,
                created_at: row.try_get("created_at")?,
            })
        })
        .collect()
}

/// LGPD erasure, the dev outbox's part: what was sent to these numbers.
pub async fn erase_to(conn: &mut sqlx::AnyConnection, phones: &[String]) -> Result<(), sqlx::Error> {
    for phone in phones {
        sqlx::query("delete from whatsapp_outbox where to_phone = $1")
            .bind(phone)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
