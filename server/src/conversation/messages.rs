//! The message store. Inbound messages are unique on WhatsApp's id, so a delivery Meta repeats —
//! even concurrently — is stored once. Inbound status: `received` → `processing` (a reply job took
//! it) → `answered`. Outbound status: `queued` → `sent` → `delivered` → `read`, or `failed` with
//! the reason; it only ever moves forward.

use sqlx::{AnyConnection, Row, any::AnyRow};

use crate::{
    clock::{self, CivilDate},
    db::Db,
    whatsapp::{
        choices::Choice,
        payload::{DeliveryStatus, InboundMessage, MessageKind, StatusUpdate},
        templates::Filled,
    },
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

const COLUMNS: &str = "id, user_id, author, kind, content, status, error, wa_message_id, created_at, sent_by_name, choices, template";

fn from_row(row: &AnyRow) -> Result<Message, sqlx::Error> {
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

/// Stores a message a user sent, at the time we received it (WhatsApp's own timestamp, in whole
/// seconds, stays in the raw JSON). None when it was stored before (a repeated delivery).
pub async fn insert_inbound(
    conn: &mut AnyConnection,
    user_id: &str,
    message: &InboundMessage,
    received_at: i64,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    let inserted = sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, wa_message_id, status, raw, media_id, created_at, updated_at) \
         values ($1, $2, 'inbound', 'user', $3, $4, $5, 'received', $6, $7, $8, $9) \
         on conflict (wa_message_id) do nothing returning id",
    )
    .bind(&id)
    .bind(user_id)
    .bind(message.kind.as_str())
    .bind(&message.text)
    .bind(&message.wa_message_id)
    .bind(message.raw.to_string())
    .bind(message.media_id.as_deref())
    .bind(received_at)
    .bind(now)
    .fetch_optional(conn)
    .await?;
    Ok(inserted.map(|_| id))
}

/// Takes the user's unanswered messages for a reply job: those still `received`, and those this
/// same job took before a crash. Oldest first.
pub async fn claim_unanswered(
    conn: &mut AnyConnection,
    user_id: &str,
    job_id: &str,
    now: i64,
) -> Result<Vec<Message>, sqlx::Error> {
    sqlx::query(
        "update messages set status = 'processing', reply_job = $1, updated_at = $2 \
         where user_id = $3 and direction = 'inbound' and status = 'received'",
    )
    .bind(job_id)
    .bind(now)
    .bind(user_id)
    .execute(&mut *conn)
    .await?;
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 and direction = 'inbound' and status = 'processing' \
         and reply_job = $2 order by created_at, id"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).bind(job_id).fetch_all(conn).await?;
    rows.iter().map(from_row).collect()
}

/// Marks what a reply job took as answered. The count tells whether they were still its own.
pub async fn mark_answered(conn: &mut AnyConnection, job_id: &str, now: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "update messages set status = 'answered', updated_at = $1 where reply_job = $2 and status = 'processing'",
    )
    .bind(now)
    .bind(job_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// A message that something other than a reply answered (a login by message): no reply job takes
/// it.
pub async fn mark_handled(conn: &mut AnyConnection, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update messages set status = 'answered', updated_at = $1 where id = $2")
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A person took the conversation over: what a reply job is composing an answer to is theirs to
/// answer now, so the job finds nothing of its own left and drops its answer.
pub async fn settle_in_progress(
    conn: &mut AnyConnection,
    user_id: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update messages set status = 'answered', updated_at = $1 \
         where user_id = $2 and direction = 'inbound' and status = 'processing'",
    )
    .bind(now)
    .bind(user_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores a message an admin wrote as the consultant, queued for sending.
pub async fn insert_by_person(
    conn: &mut AnyConnection,
    user_id: &str,
    admin_id: &str,
    admin_name: &str,
    content: &str,
    created_at: i64,
) -> Result<String, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, status, sent_by, sent_by_name, created_at, updated_at) \
         values ($1, $2, 'outbound', 'assistant', 'text', $3, 'queued', $4, $5, $6, $6)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(content)
    .bind(admin_id)
    .bind(admin_name)
    .bind(created_at)
    .execute(conn)
    .await?;
    Ok(id)
}

/// Stores a reply of ours, queued for sending, with the answers it offers to tap (if any).
pub async fn insert_outbound(
    conn: &mut AnyConnection,
    user_id: &str,
    content: &str,
    choices: &[Choice],
    created_at: i64,
) -> Result<String, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    insert_outbound_as(conn, &id, user_id, content, choices, created_at).await?;
    Ok(id)
}

/// [`insert_outbound`] under an id the caller chose.
pub async fn insert_outbound_as(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    content: &str,
    choices: &[Choice],
    created_at: i64,
) -> Result<(), sqlx::Error> {
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
pub async fn insert_notice(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    content: &str,
    created_at: i64,
) -> Result<bool, sqlx::Error> {
    insert_once(conn, id, user_id, "notice", content, created_at).await
}

/// Keeps a proactive message of ours (a check-in, a reminder) under the caller's id, queued:
/// plain text inside the window, `template` outside it.
pub async fn insert_proactive(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    content: &str,
    template: &Filled,
    created_at: i64,
) -> Result<(), sqlx::Error> {
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
pub async fn insert_document(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
    caption: &str,
    created_at: i64,
) -> Result<bool, sqlx::Error> {
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
) -> Result<bool, sqlx::Error> {
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

/// Our last message to the user, if any.
pub async fn last_outbound(conn: &mut AnyConnection, user_id: &str) -> Result<Option<Message>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 and direction = 'outbound' order by created_at desc limit 1"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// True when we have ever written to this user.
pub async fn has_replied(conn: &mut AnyConnection, user_id: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("select 1 from messages where user_id = $1 and direction = 'outbound' limit 1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?;
    Ok(row.is_some())
}

/// When the user last wrote to us: WhatsApp's 24-hour customer-service window runs from there.
pub async fn last_inbound_at(conn: &mut AnyConnection, user_id: &str) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "select max(created_at) as at from messages where user_id = $1 and direction = 'inbound'",
    )
    .bind(user_id)
    .fetch_one(conn)
    .await?;
    row.try_get("at")
}

/// Whether one of our messages to the person, other than `except`, is still on its way (queued
/// or being sent): what goes out apart from the person's send queue waits for it, so the person
/// reads our messages in the order we wrote them.
pub async fn outbound_pending(db: &Db, user_id: &str, except: &str) -> Result<bool, sqlx::Error> {
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

pub async fn get(db: &Db, id: &str) -> Result<Option<Message>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from messages where id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(db.pool()).await?;
    row.as_ref().map(from_row).transpose()
}

/// Takes our queued message for one request to Meta: true when this call moved it to `sending`.
pub async fn mark_sending(db: &Db, id: &str) -> Result<bool, sqlx::Error> {
    let taken = sqlx::query(
        "update messages set status = 'sending', updated_at = $1 where id = $2 and status = 'queued'",
    )
    .bind(db.now_ms())
    .bind(id)
    .execute(db.pool())
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// Meta refused the request (it was not delivered): the message waits for the next try.
pub async fn requeue(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update messages set status = 'queued', updated_at = $1 where id = $2 and status = 'sending'",
    )
    .bind(db.now_ms())
    .bind(id)
    .execute(db.pool())
    .await?;
    Ok(())
}

/// WhatsApp accepted our message: `queued`/`sending` → `sent` with its wamid.
pub async fn record_sent(db: &Db, id: &str, wa_message_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update messages set status = 'sent', wa_message_id = $1, error = null, updated_at = $2 \
         where id = $3 and status in ('queued', 'sending')",
    )
    .bind(wa_message_id)
    .bind(db.now_ms())
    .bind(id)
    .execute(db.pool())
    .await?;
    Ok(())
}

/// Our message will not be delivered; the reason stays for the admin panel.
pub async fn record_failed(db: &Db, id: &str, reason: &str) -> Result<(), sqlx::Error> {
    sqlx::query("update messages set status = 'failed', error = $1, updated_at = $2 where id = $3 and direction = 'outbound'")
        .bind(reason.chars().take(1000).collect::<String>())
        .bind(db.now_ms())
        .bind(id)
        .execute(db.pool())
        .await?;
    Ok(())
}

/// Applies a delivery status to our message; statuses never move it backwards, and never reply.
/// What Meta says it billed the message as is kept whatever the order statuses arrive in.
pub async fn apply_status(
    conn: &mut AnyConnection,
    update: &StatusUpdate,
    now: i64,
) -> Result<bool, sqlx::Error> {
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

async fn advance_status(
    conn: &mut AnyConnection,
    update: &StatusUpdate,
    now: i64,
) -> Result<bool, sqlx::Error> {
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
pub async fn failed_sends(db: &Db, limit: i64, offset: i64) -> Result<(Vec<FailedSend>, i64), sqlx::Error> {
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
        .collect::<Result<_, sqlx::Error>>()?;
    Ok((sends, total))
}

/// A user's whole conversation, oldest first.
pub async fn conversation(db: &Db, user_id: &str) -> Result<Vec<Message>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from messages where user_id = $1 order by created_at, id");
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_all(db.pool()).await?;
    rows.iter().map(from_row).collect()
}

/// The user's messages after `after` (ms) that are older than their latest `keep_latest`, oldest
/// first, at most `limit` (what a conversation summary folds in).
pub async fn before_latest(
    conn: &mut AnyConnection,
    user_id: &str,
    after: i64,
    keep_latest: i64,
    limit: i64,
) -> Result<Vec<Message>, sqlx::Error> {
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
pub async fn page(
    db: &Db,
    user_id: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Message>, i64), sqlx::Error> {
    let found = latest(db, user_id, limit, offset).await?;
    let total: i64 = sqlx::query("select count(*) as n from messages where user_id = $1")
        .bind(user_id)
        .fetch_one(db.pool())
        .await?
        .try_get("n")?;
    Ok((found, total))
}

/// The user's messages, newest first, without counting them all (the dashboard's preview).
pub async fn latest(db: &Db, user_id: &str, limit: i64, offset: i64) -> Result<Vec<Message>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS} from messages where user_id = $1 order by created_at desc, id desc limit $2 offset $3"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(db.pool())
        .await?;
    rows.iter().map(from_row).collect()
}

/// Activity figures for the dashboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Activity {
    pub messages_this_week: i64,
    /// Distinct days (São Paulo time) with a message in the last 30.
    pub days_active: i64,
    pub total_messages: i64,
}

/// "This week" is today and the six days before it, "days active" counts the days of the last 30
/// (today included) with a message: days in São Paulo.
pub async fn activity(db: &Db, user_id: &str, now: i64) -> Result<Activity, sqlx::Error> {
    let today = CivilDate::in_sao_paulo(now);
    let week_starts = today.plus_days(-6).starts_at();
    let month_starts = today.plus_days(-29).starts_at();
    // One round trip for the three figures; the days are counted by the database when São
    // Paulo's offset held still over the window (it has since 2019).
    let offset = clock::steady_offset_ms(month_starts, now);
    let row = sqlx::query(
        "select \
           (select count(*) from messages where user_id = $1 and created_at >= $2) as week, \
           (select count(*) from messages where user_id = $1) as total, \
           (select count(distinct (created_at + $4) / $5) from messages \
              where user_id = $1 and created_at >= $3) as days",
    )
    .bind(user_id)
    .bind(week_starts)
    .bind(month_starts)
    .bind(offset.unwrap_or(0))
    .bind(clock::DAY_MS)
    .fetch_one(db.pool())
    .await?;
    let days_active = match offset {
        Some(_) => row.try_get("days")?,
        // A change of offset inside the window (summer time, before 2019): day by day.
        None => {
            let times =
                sqlx::query("select created_at from messages where user_id = $1 and created_at >= $2")
                    .bind(user_id)
                    .bind(month_starts)
                    .fetch_all(db.pool())
                    .await?;
            let days: std::collections::BTreeSet<i64> = times
                .iter()
                .map(|r| r.try_get::<i64, _>("created_at").map(|t| CivilDate::in_sao_paulo(t).days()))
                .collect::<Result<_, _>>()?;
            days.len() as i64
        }
    };
    Ok(Activity {
        messages_this_week: row.try_get("week")?,
        days_active,
        total_messages: row.try_get("total")?,
    })
}

/// Stores a message the user wrote on the web chat (answered in the same request).
pub async fn insert_web_message(
    db: &Db,
    user_id: &str,
    author: Author,
    content: &str,
    at: i64,
) -> Result<Message, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    let (direction, author_key, status) = match author {
        Author::User => ("inbound", "user", "answered"),
        Author::Assistant => ("outbound", "assistant", "web"),
    };
    sqlx::query(
        "insert into messages (id, user_id, direction, author, kind, content, status, created_at, updated_at) \
         values ($1, $2, $3, $4, 'text', $5, $6, $7, $7)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(direction)
    .bind(author_key)
    .bind(content)
    .bind(status)
    .bind(at)
    .execute(db.pool())
    .await?;
    Ok(Message {
        id,
        user_id: user_id.to_owned(),
        author,
        kind: MessageKind::Text,
        content: content.to_owned(),
        status: status.to_owned(),
        error: None,
        wa_message_id: None,
        created_at: at,
        sent_by_name: None,
        choices: Vec::new(),
        template: None,
    })
}

/// The WhatsApp media id of a message (voice notes, images), if any.
pub async fn media_id(db: &Db, id: &str) -> Result<Option<String>, sqlx::Error> {
    let row =
        sqlx::query("select media_id from messages where id = $1").bind(id).fetch_optional(db.pool()).await?;
    Ok(row.map(|r| r.try_get::<Option<String>, _>("media_id")).transpose()?.flatten())
}

/// Keeps what a voice note said (its transcription) as the message's words.
pub async fn set_content(db: &Db, id: &str, content: &str) -> Result<(), sqlx::Error> {
    sqlx::query("update messages set content = $1, updated_at = $2 where id = $3")
        .bind(content)
        .bind(db.now_ms())
        .bind(id)
        .execute(db.pool())
        .await?;
    Ok(())
}

/// A user's messages between two times (Unix ms, inclusive), oldest first, and the count.
pub async fn history(
    db: &Db,
    user_id: &str,
    from: i64,
    to: i64,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Message>, i64), sqlx::Error> {
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

/// A number change absorbed `from` into `into`: its conversation is `into`'s.
pub async fn hand_over(conn: &mut AnyConnection, from: &str, into: &str) -> Result<(), sqlx::Error> {
    sqlx::query("update messages set user_id = $2 where user_id = $1")
        .bind(from)
        .bind(into)
        .execute(conn)
        .await?;
    Ok(())
}

/// LGPD erasure, the messages' part: every message to and from the person, and their name on
/// what they wrote to others as an admin.
pub async fn erase_user(conn: &mut AnyConnection, user_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("delete from messages where user_id = $1").bind(user_id).execute(&mut *conn).await?;
    sqlx::query("update messages set sent_by = null, sent_by_name = null where sent_by = $1")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}
