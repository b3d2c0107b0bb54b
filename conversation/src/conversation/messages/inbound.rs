//! What people send: a WhatsApp message stored once however often Meta delivers it, claimed by
//! the reply job that answers it (`received` → `processing` → `answered`), a web chat's message,
//! a voice note's transcription.

use crate::error::AppError;
use sqlx::{AnyConnection, Row};

use crate::{
    db::Db,
    whatsapp::payload::{InboundMessage, MessageKind},
};

use super::{Author, COLUMNS, Message, from_row};

/// Stores a message a user sent, at the time we received it (WhatsApp's own timestamp, in whole
/// seconds, stays in the raw JSON). None when it was stored before (a repeated delivery).
pub(in crate::conversation) async fn insert_inbound(
    conn: &mut AnyConnection,
    user_id: &str,
    message: &InboundMessage,
    received_at: i64,
    now: i64,
) -> Result<Option<String>, AppError> {
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

/// What a reply job's claim took, and what it saw of the person as it took it.
pub(in crate::conversation) struct Claimed {
    /// Oldest first; none when an earlier job of the burst answered them.
    pub messages: Vec<Message>,
    /// Whether a person holds the conversation (`handoff`): the messages are the admin's.
    pub taken: bool,
    /// Whether we never answered the person (the welcome goes first).
    pub first_contact: bool,
}

/// Takes the user's unanswered messages for a reply job: those still `received`, and those this
/// same job took before a crash. With nothing taken, `taken` and `first_contact` are false (there
/// is nothing to answer).
pub(in crate::conversation) async fn claim_unanswered(
    conn: &mut AnyConnection,
    user_id: &str,
    job_id: &str,
    now: i64,
) -> Result<Claimed, AppError> {
    // One statement, which also says whether a person holds the conversation and whether we ever
    // answered: on SQLite it runs inside the one writer's turn, on PostgreSQL every statement is a
    // round trip, and a crowd's thousand claims come at once (issue 46).
    let sql = format!(
        "{CLAIM} returning {COLUMNS}, \
         (select count(*) from handoffs h where h.user_id = $3 and h.status = 'taken') as taken, \
         (select count(*) from (select 1 from messages o where o.user_id = $3 and o.direction = 'outbound' limit 1) r) \
         as replied"
    );
    let rows =
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(job_id).bind(now).bind(user_id).fetch_all(conn).await?;
    // Counts (a boolean reads back as an integer on SQLite): none found is false.
    let found = |name: &str| -> Result<bool, AppError> {
        rows.first().map_or(Ok(false), |row| Ok(row.try_get::<i64, _>(name)? > 0))
    };
    let (taken, first_contact) = (found("taken")?, !rows.is_empty() && !found("replied")?);
    let mut messages = rows.iter().map(from_row).collect::<Result<Vec<_>, _>>()?;
    // RETURNING says nothing of the order: oldest first, as they were written.
    messages.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(Claimed { messages, taken, first_contact })
}

/// The claim of a person's unanswered messages for a reply job (`$1` the job, `$2` now, `$3` the
/// person): those received since, and those the same job claimed before it was interrupted (a
/// crash after the claim's commit: its retry, the same job, answers them).
const CLAIM: &str = "update messages set status = 'processing', reply_job = $1, updated_at = $2 \
     where user_id = $3 and direction = 'inbound' and status in ('received', 'processing') \
     and (status = 'received' or reply_job = $1)";

/// Marks what a reply job took — the person's messages in `processing` under its id — as answered.
/// The count tells whether they were still its own. Found through the person's messages by
/// status (`messages_user_status_idx`): by status alone it read every message being answered for
/// anyone, a thousand at a time in a crowd (issue 46).
pub(in crate::conversation) async fn mark_answered(
    conn: &mut AnyConnection,
    user_id: &str,
    job_id: &str,
    now: i64,
) -> Result<u64, AppError> {
    let done = sqlx::query(MARK_ANSWERED).bind(now).bind(job_id).bind(user_id).execute(conn).await?;
    Ok(done.rows_affected())
}

const MARK_ANSWERED: &str = "update messages set status = 'answered', updated_at = $1 \
     where user_id = $3 and direction = 'inbound' and status = 'processing' and reply_job = $2";

/// A message that something other than a reply answered (a login by message): no reply job takes
/// it.
pub(in crate::conversation) async fn mark_handled(
    conn: &mut AnyConnection,
    id: &str,
    now: i64,
) -> Result<(), AppError> {
    sqlx::query("update messages set status = 'answered', updated_at = $1 where id = $2")
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A person took the conversation over: what a reply job is composing an answer to is theirs to
/// answer now, so the job finds nothing of its own left and drops its answer.
pub(in crate::conversation) async fn settle_in_progress(
    conn: &mut AnyConnection,
    user_id: &str,
    now: i64,
) -> Result<(), AppError> {
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
pub(in crate::conversation) async fn insert_by_person(
    conn: &mut AnyConnection,
    user_id: &str,
    admin_id: &str,
    admin_name: &str,
    content: &str,
    created_at: i64,
) -> Result<String, AppError> {
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

/// Stores a message the user wrote on the web chat (answered in the same request).
pub(in crate::conversation) async fn insert_web_message(
    db: &Db,
    user_id: &str,
    author: Author,
    content: &str,
    at: i64,
) -> Result<Message, AppError> {
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
    .execute(&mut *db.writer().await?)
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

/// Keeps what a voice note said (its transcription) as the message's words.
pub(in crate::conversation) async fn set_content(db: &Db, id: &str, content: &str) -> Result<(), AppError> {
    sqlx::query("update messages set content = $1, updated_at = $2 where id = $3")
        .bind(content)
        .bind(db.now_ms())
        .bind(id)
        .execute(&mut *db.writer().await?)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::db::{Db, sqlite_query_plan};

    #[tokio::test]
    async fn a_retried_reply_job_takes_back_what_it_claimed_before_a_crash_and_what_came_since() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/claim.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        let mut writer = db.writer().await.unwrap();
        sqlx::query("insert into users (id, phone_number, created_at, updated_at) values ('u1', '+5511987654321', 0, 0)")
            .execute(&mut *writer)
            .await
            .unwrap();
        let receive = |id: &'static str, at: i64| {
            sqlx::query(
                "insert into messages (id, user_id, direction, author, kind, content, status, created_at, updated_at) \
                 values ($1, 'u1', 'inbound', 'user', 'text', $1, 'received', $2, $2)",
            )
            .bind(id)
            .bind(at)
        };
        receive("m1", 1).execute(&mut *writer).await.unwrap();
        let ids = |claimed: super::Claimed| claimed.messages.into_iter().map(|m| m.id).collect::<Vec<_>>();
        let first = super::claim_unanswered(&mut writer, "u1", "job-a", 10).await.unwrap();
        assert!(first.first_contact && !first.taken, "never answered, nobody holds the conversation");
        assert_eq!(ids(first), ["m1"]);
        // The server dies before answering; she writes again; the job's retry takes both.
        receive("m2", 20).execute(&mut *writer).await.unwrap();
        assert_eq!(ids(super::claim_unanswered(&mut writer, "u1", "job-a", 30).await.unwrap()), ["m1", "m2"]);
        // Another job finds nothing of job A's.
        let nothing = super::claim_unanswered(&mut writer, "u1", "job-b", 40).await.unwrap();
        assert!(nothing.messages.is_empty() && !nothing.first_contact && !nothing.taken);
        // We answered once, and an admin took the conversation over: the next claim says both.
        sqlx::query(
            "insert into messages (id, user_id, direction, author, kind, content, status, created_at, updated_at) \
             values ('out1', 'u1', 'outbound', 'assistant', 'text', 'Olá', 'sent', 50, 50)",
        )
        .execute(&mut *writer)
        .await
        .unwrap();
        sqlx::query(
            "insert into handoffs (user_id, status, reason, requested_at, updated_at) values ('u1', 'taken', 'admin', 55, 55)",
        )
        .execute(&mut *writer)
        .await
        .unwrap();
        receive("m3", 60).execute(&mut *writer).await.unwrap();
        let held = super::claim_unanswered(&mut writer, "u1", "job-c", 70).await.unwrap();
        assert!(held.taken && !held.first_contact, "an admin holds it, and we answered before");
        assert_eq!(ids(held), ["m3"]);
        drop(writer);
        let claim = format!("{} returning id", super::CLAIM);
        assert_eq!(
            sqlite_query_plan(&db, &claim).await,
            ["SEARCH messages USING INDEX messages_user_status_idx (user_id=? AND direction=? AND status=?)"]
        );
    }

    #[tokio::test]
    async fn a_reply_marks_its_messages_answered_through_the_person_s_messages_not_everyone_s_in_progress() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/answered.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        let plan = sqlite_query_plan(&db, super::MARK_ANSWERED).await;
        assert_eq!(
            plan,
            ["SEARCH messages USING INDEX messages_user_status_idx (user_id=? AND direction=? AND status=?)"]
        );
    }
}
