//! The message store. Inbound messages are unique on WhatsApp's id, so a delivery Meta repeats —
//! even concurrently — is stored once. Inbound status: `received` → `processing` (a reply job took
//! it) → `answered`. Outbound status: `queued` → `sent` → `delivered` → `read`, or `failed` with
//! the reason; it only ever moves forward.
//!
//! Here: the message's shape and the reads of a conversation. What people send (`inbound`), what
//! Sócio sends (`outbound`), a send's progress (`sending`) and the dashboard's activity figures
//! (`activity`) have modules of their own; callers name them all as `messages::…`.

mod activity;
mod inbound;
mod outbound;
mod sending;

pub use activity::*;
pub(in crate::conversation) use inbound::*;
pub(in crate::conversation) use outbound::*;
pub use sending::*;
use sqlx::{AnyConnection, Row, any::AnyRow};

use crate::{
    db::Db,
    error::AppError,
    whatsapp::{choices::Choice, payload::MessageKind, templates::Filled},
};

/// Who wrote a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Author {
    User,
    Assistant,
}

impl Author {
    pub(crate) fn parse(value: &str) -> Self {
        if value == "assistant" { Author::Assistant } else { Author::User }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub id: String,
    pub user_id: String,
    pub author: Author,
    pub kind: MessageKind,
    pub content: String,
    pub status: String,
    pub error: Option<String>,
    pub wa_message_id: Option<String>,
    pub created_at: i64,
    /// When an admin wrote it as the consultant: their name (for admins' eyes only).
    pub sent_by_name: Option<String>,
    /// Answers offered to tap with a closed question of ours.
    pub choices: Vec<Choice>,
    /// A proactive message's template (check-in, reminder), which it goes as outside the window.
    pub template: Option<Filled>,
}

pub(super) const COLUMNS: &str = "id, user_id, author, kind, content, status, error, wa_message_id, created_at, sent_by_name, choices, template";

pub(super) fn from_row(row: &AnyRow) -> Result<Message, AppError> {
    Ok(Message {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        author: Author::parse(&row.try_get::<String, _>("author")?),
        kind: MessageKind::from_stored(&row.try_get::<String, _>("kind")?),
        content: row.try_get("content")?,
        status: row.try_get("status")?,
        error: row.try_get("error")?,
        wa_message_id: row.try_get("wa_message_id")?,
        created_at: row.try_get("created_at")?,
        sent_by_name: row.try_get("sent_by_name")?,
        choices: row
            .try_get::<Option<String>, _>("choices")?
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default(),
        template: row
            .try_get::<Option<String>, _>("template")?
            .and_then(|json| serde_json::from_str(&json).ok()),
    })
}

/// Our last message to the user, if any.
pub(in crate::conversation) async fn last_outbound(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<Message>, AppError> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 and direction = 'outbound' order by created_at desc limit 1"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// Our message to the user just before `message_id` (ours too): what an offer interrupted.
pub(in crate::conversation) async fn outbound_before(
    conn: &mut AnyConnection,
    user_id: &str,
    message_id: &str,
) -> Result<Option<Message>, AppError> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 and direction = 'outbound' \
         and created_at < (select m.created_at from messages m where m.id = $2) order by created_at desc limit 1"
    );
    let row =
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).bind(message_id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// When the user last wrote to us: WhatsApp's 24-hour customer-service window runs from there.
pub(in crate::conversation) async fn last_inbound_at(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<i64>, AppError> {
    let row = sqlx::query(
        "select max(created_at) as at from messages where user_id = $1 and direction = 'inbound'",
    )
    .bind(user_id)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("at")?)
}

pub(in crate::conversation) async fn get(db: &Db, id: &str) -> Result<Option<Message>, AppError> {
    let sql = format!("select {COLUMNS} from messages where id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(db.pool()).await?;
    row.as_ref().map(from_row).transpose()
}

/// A message about to be sent, and when its person last wrote to us (WhatsApp's 24-hour window
/// runs from then): one statement on `conn`, for the send job.
pub(in crate::conversation) async fn get_to_send(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Option<(Message, Option<i64>)>, AppError> {
    let sql = format!(
        "select {COLUMNS}, (select max(i.created_at) from messages i \
         where i.user_id = messages.user_id and i.direction = 'inbound') as last_inbound_at \
         from messages where id = $1"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(conn).await?;
    row.map(|row| Ok((from_row(&row)?, row.try_get("last_inbound_at")?))).transpose()
}

/// A user's whole conversation, oldest first.
pub(in crate::conversation) async fn conversation(db: &Db, user_id: &str) -> Result<Vec<Message>, AppError> {
    let sql = format!("select {COLUMNS} from messages where user_id = $1 order by created_at, id");
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_all(db.pool()).await?;
    rows.iter().map(from_row).collect()
}

/// The user's messages after `after` (ms) that are older than their latest `keep_latest`, oldest
/// first, at most `limit` (what a conversation summary folds in).
pub(in crate::conversation) async fn before_latest(
    conn: &mut AnyConnection,
    user_id: &str,
    after: i64,
    keep_latest: i64,
    limit: i64,
) -> Result<Vec<Message>, AppError> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 and created_at > $2 and id not in \
         (select id from messages where user_id = $1 order by created_at desc, id desc limit $3) \
         order by created_at, id limit $4"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .bind(after)
        .bind(keep_latest)
        .bind(limit)
        .fetch_all(conn)
        .await?;
    rows.iter().map(from_row).collect()
}

/// A page of the user's conversation, newest first, and how many messages there are in all.
pub(in crate::conversation) async fn page(
    conn: &mut AnyConnection,
    user_id: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Message>, i64), AppError> {
    let found = latest(conn, user_id, limit, offset).await?;
    // A page that came back short ends the conversation: it says the total itself (a reply's
    // context, most people's, is one statement instead of two).
    if let Some(total) = total_from_short_page(found.len(), limit, offset) {
        return Ok((found, total));
    }
    let total: i64 = sqlx::query("select count(*) as n from messages where user_id = $1")
        .bind(user_id)
        .fetch_one(conn)
        .await?
        .try_get("n")?;
    Ok((found, total))
}

/// How many messages there are in all, when a page of `found` rows asked for at `offset` says so:
/// fewer than `limit` came back, so the page ends the conversation — unless it is empty past the
/// start (the conversation may end anywhere before `offset`).
fn total_from_short_page(found: usize, limit: i64, offset: i64) -> Option<i64> {
    let found = i64::try_from(found).ok()?;
    (found < limit && (found > 0 || offset == 0)).then_some(offset + found)
}

/// The user's messages, newest first, without counting them all (the dashboard's preview).
pub(in crate::conversation) async fn latest(
    conn: &mut AnyConnection,
    user_id: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<Message>, AppError> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 order by created_at desc, id desc limit $2 offset $3"
    );
    let rows =
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).bind(limit).bind(offset).fetch_all(conn).await?;
    rows.iter().map(from_row).collect()
}

/// The WhatsApp media id of a message (voice notes, images), if any.
pub(in crate::conversation) async fn media_id(db: &Db, id: &str) -> Result<Option<String>, AppError> {
    let row =
        sqlx::query("select media_id from messages where id = $1").bind(id).fetch_optional(db.pool()).await?;
    Ok(row.map(|r| r.try_get::<Option<String>, _>("media_id")).transpose()?.flatten())
}

/// A user's messages between two times (Unix ms, inclusive), oldest first, and the count.
pub(in crate::conversation) async fn history(
    db: &Db,
    user_id: &str,
    from: i64,
    to: i64,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Message>, i64), AppError> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 and created_at >= $2 and created_at <= $3 \
         order by created_at, id limit $4 offset $5"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .bind(from)
        .bind(to)
        .bind(limit)
        .bind(offset)
        .fetch_all(db.pool())
        .await?;
    let total: i64 = sqlx::query(
        "select count(*) as n from messages where user_id = $1 and created_at >= $2 and created_at <= $3",
    )
    .bind(user_id)
    .bind(from)
    .bind(to)
    .fetch_one(db.pool())
    .await?
    .try_get("n")?;
    Ok((rows.iter().map(from_row).collect::<Result<_, _>>()?, total))
}

/// A person's messages as the layers above the conversation reach them (the consultant, the
/// export): one message, the whole conversation, a page, a voice note's media and its words once
/// transcribed, whether a reply of ours is still on its way, and the web chat's messages, which
/// never go through WhatsApp. Steps inside a caller's transaction (a reply's claim and answer)
/// take that transaction.
#[derive(Clone)]
pub struct Messages {
    db: Db,
}

impl Messages {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    pub async fn get(&self, id: &str) -> Result<Option<Message>, AppError> {
        get(&self.db, id).await
    }

    /// Stores a reply of ours, queued for sending, in the caller's transaction (which enqueues its
    /// send); its id.
    pub async fn insert_outbound_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        content: &str,
        choices: &[Choice],
        at: i64,
    ) -> Result<String, AppError> {
        insert_outbound(conn, user_id, content, choices, at).await
    }

    /// Keeps a document of ours (the plan's PDF, `caption` its words) under the caller's `id`,
    /// queued, and tells the live views, committed; a retried job writes it once.
    pub async fn keep_document(
        &self,
        id: &str,
        user_id: &str,
        caption: &str,
        at: i64,
    ) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        insert_document(&mut tx, id, user_id, caption, at).await?;
        super::updates::changed(&mut tx, user_id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Our last message to the person, if any.
    pub async fn last_outbound(&self, user_id: &str) -> Result<Option<Message>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        last_outbound(&mut conn, user_id).await
    }

    /// The person's whole conversation, oldest first.
    pub async fn conversation(&self, user_id: &str) -> Result<Vec<Message>, AppError> {
        conversation(&self.db, user_id).await
    }

    /// A page of the person's conversation, newest first, and how many messages there are in all.
    pub async fn page(
        &self,
        user_id: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Message>, i64), AppError> {
        page(&mut *self.db.pool().acquire().await?, user_id, limit, offset).await
    }

    /// [`Messages::page`] on the caller's connection.
    pub async fn page_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Message>, i64), AppError> {
        page(conn, user_id, limit, offset).await
    }

    /// The WhatsApp media id of a message (voice notes, images), if any.
    pub async fn media_id(&self, id: &str) -> Result<Option<String>, AppError> {
        media_id(&self.db, id).await
    }

    /// Keeps what a voice note said (its transcription) as the message's words.
    pub async fn set_content(&self, id: &str, content: &str) -> Result<(), AppError> {
        set_content(&self.db, id, content).await
    }

    /// Stores a message of the web chat, the person's (`Author::User`) or the consultant's, at
    /// `at` (Unix ms).
    pub async fn insert_web(
        &self,
        user_id: &str,
        author: Author,
        content: &str,
        at: i64,
    ) -> Result<Message, AppError> {
        insert_web_message(&self.db, user_id, author, content, at).await
    }

    /// Whether a message of ours to the person other than `except` is still queued or being sent.
    pub async fn outbound_pending(&self, user_id: &str, except: &str) -> Result<bool, AppError> {
        outbound_pending(&self.db, user_id, except).await
    }
}

#[cfg(test)]
mod tests {
    use super::total_from_short_page;

    #[test]
    fn a_short_page_says_how_many_messages_there_are_and_a_full_or_empty_one_past_the_start_does_not() {
        assert_eq!(total_from_short_page(0, 30, 0), Some(0), "nobody wrote yet");
        assert_eq!(total_from_short_page(12, 30, 0), Some(12));
        assert_eq!(total_from_short_page(5, 20, 40), Some(45), "the last page of three");
        assert_eq!(total_from_short_page(30, 30, 0), None, "a full page may have more after it");
        assert_eq!(total_from_short_page(0, 20, 40), None, "past the end: the total is somewhere before");
    }
}
