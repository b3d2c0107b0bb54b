//! The dev outbox (`WHATSAPP_MODE=dev`): instead of phones, a table that the simulator page and
//! the dev API read. Login codes land here too, so the whole product can be tried on one machine,
//! and so do files (the plan's PDF), kept whole so the simulator can offer them for download.

use futures::future::BoxFuture;
use sqlx::Row;

use super::sender::{Document, Outgoing, SendError, Sent, WhatsAppSender};
use crate::db::Db;
use crate::error::AppError;

/// The dev outbox as a service: the sender that writes to it, and what the simulator reads of it.
#[derive(Clone)]
pub struct DevOutbox {
    db: Db,
}

impl DevOutbox {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The dev outbox's part of an erasure: what was "sent" to any of `phones` goes, in the
    /// erasure's transaction.
    pub async fn erase_in(&self, conn: &mut sqlx::AnyConnection, phones: &[String]) -> Result<(), AppError> {
        erase_to(conn, phones).await
    }

    pub fn now_ms(&self) -> i64 {
        self.db.now_ms()
    }

    /// What was sent to `to` (`delivered_to`).
    pub async fn delivered_to(&self, to: &str) -> Result<Vec<Delivered>, AppError> {
        delivered_to(&self.db, to).await
    }

    /// Whether `to` sees us typing (`typing`).
    pub async fn typing(&self, to: &str) -> Result<bool, AppError> {
        typing(&self.db, to).await
    }

    /// A file sent, by its place in the outbox (`file`).
    pub async fn file(&self, seq: i64) -> Result<Option<(String, Vec<u8>)>, AppError> {
        file(&self.db, seq).await
    }
}

/// One message as a phone would have received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// The outbox's own number for it (a file is fetched by it).
    pub seq: i64,
    /// E.164, or the business-scoped user id of a person without a visible number.
    pub to: String,
    pub text: String,
    pub kind: String,
    pub created_at: i64,
    /// A file's name, when it carries one.
    pub file_name: Option<String>,
    /// The answers to tap, for a closed question.
    pub choices: Vec<super::choices::Choice>,
}

/// One row of the outbox, as a phone would have received it.
struct Kept<'a> {
    body: &'a str,
    kind: &'a str,
    wa_message_id: &'a str,
    file: Option<&'a Document>,
    /// The answers to tap (JSON), for a closed question.
    choices: Option<String>,
}

/// How long WhatsApp shows "typing…" unless the answer comes first.
const TYPING_SHOWN_MS: i64 = 25_000;

impl WhatsAppSender for DevOutbox {
    /// Kept as a `typing` row, which the outbox reads as "typing…" until a message follows it.
    fn show_typing<'a>(
        &'a self,
        to: &'a str,
        _wa_message_id: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>> {
        let id = format!("typing.dev.{}", uuid::Uuid::new_v4().simple());
        Box::pin(async move {
            let kept = Kept { body: "", kind: "typing", wa_message_id: &id, file: None, choices: None };
            self.keep(to, kept).await
        })
    }

    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Sent, SendError>> {
        Box::pin(async move {
            let wa_message_id = format!("wamid.dev.{}", uuid::Uuid::new_v4().simple());
            let (file, choices) = match message {
                Outgoing::Document { file, .. } => (Some(file), None),
                Outgoing::Choices { choices, .. } => (None, serde_json::to_string(choices).ok()),
                Outgoing::Text { .. }
                | Outgoing::LoginCode { .. }
                | Outgoing::Notice { .. }
                | Outgoing::Template { .. } => (None, None),
            };
            let kept = Kept {
                body: &message.text(),
                kind: message.kind(),
                wa_message_id: &wa_message_id,
                file,
                choices,
            };
            self.keep(message.to(), kept).await?;
            Ok(Sent { wa_message_id })
        })
    }
}

impl DevOutbox {
    /// One row of the outbox, for `to`'s digits.
    async fn keep(&self, to: &str, kept: Kept<'_>) -> Result<(), SendError> {
        let unavailable = |e: sqlx::Error| SendError::Retryable(format!("outbox unavailable: {e}"));
        let mut writer = self.db.writer().await.map_err(unavailable)?;
        sqlx::query(
            "insert into whatsapp_outbox (to_phone, body, kind, wa_message_id, created_at, file_name, file_data, choices) \
             values ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(outbox_address(to))
        .bind(kept.body)
        .bind(kept.kind)
        .bind(kept.wa_message_id)
        .bind(self.db.now_ms())
        .bind(kept.file.map(|f| f.file_name.clone()))
        .bind(kept.file.map(|f| f.bytes.to_vec()))
        .bind(kept.choices)
        .execute(&mut *writer)
        .await
        .map_err(unavailable)?;
        Ok(())
    }
}

/// How the outbox names a WhatsApp address: E.164 for a number (`+5511987654321`), the
/// business-scoped user id as it is.
pub fn outbox_address(to: &str) -> String {
    if super::sender::is_business_scoped(to) { to.to_owned() } else { format!("+{to}") }
}

/// Whether `to` (E.164 or a business-scoped id) sees "typing…" now: an indicator shown less than 25 s ago and no message
/// since.
async fn typing(db: &Db, to: &str) -> Result<bool, AppError> {
    let latest = sqlx::query(
        "select kind, created_at from whatsapp_outbox where to_phone = $1 order by seq desc limit 1",
    )
    .bind(to)
    .fetch_optional(db.pool())
    .await?;
    Ok(match latest {
        Some(row) => {
            row.try_get::<String, _>("kind")? == "typing"
                && db.now_ms() - row.try_get::<i64, _>("created_at")? < TYPING_SHOWN_MS
        }
        None => false,
    })
}

/// Everything sent to `to` (E.164 or a business-scoped id), oldest first; at most the last 500.
async fn delivered_to(db: &Db, to: &str) -> Result<Vec<Delivered>, AppError> {
    let rows = sqlx::query(
        "select seq, to_phone, body, kind, created_at, file_name, choices from (select seq, to_phone, body, kind, \
         created_at, file_name, choices from whatsapp_outbox where to_phone = $1 and kind <> 'typing' order by seq desc limit 500) recent \
         order by seq",
    )
    .bind(to)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Delivered {
                seq: row.try_get("seq")?,
                to: row.try_get("to_phone")?,
                text: row.try_get("body")?,
                kind: row.try_get("kind")?,
                created_at: row.try_get("created_at")?,
                file_name: row.try_get("file_name")?,
                choices: row
                    .try_get::<Option<String>, _>("choices")?
                    .and_then(|json| serde_json::from_str(&json).ok())
                    .unwrap_or_default(),
            })
        })
        .collect()
}

/// A file the outbox kept: its name and bytes.
async fn file(db: &Db, seq: i64) -> Result<Option<(String, Vec<u8>)>, AppError> {
    let row = sqlx::query(
        "select file_name, file_data from whatsapp_outbox where seq = $1 and file_name is not null",
    )
    .bind(seq)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| Ok((r.try_get("file_name")?, r.try_get("file_data")?))).transpose()
}

/// LGPD erasure, the dev outbox's part: what was sent to these numbers and business-scoped ids.
async fn erase_to(conn: &mut sqlx::AnyConnection, phones: &[String]) -> Result<(), AppError> {
    for phone in phones {
        sqlx::query("delete from whatsapp_outbox where to_phone = $1")
            .bind(phone)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
