//! Memory beyond the window: the model is shown a person's latest messages only, so what was said
//! before them is kept as a summary per person, brought up to date by a job (`consultant::memory`)
//! once enough messages have slid out of the window. The summary goes into the model's context
//! and the admin's user detail; erasure removes it.

use sqlx::{AnyConnection, Row};

use super::messages::{self, Message};
use crate::{
    db::{
        Db,
        jobs::{JobPayload, NewJob},
    },
    error::AppError,
};

/// The job that brings a person's summary up to date.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryJob {
    pub user_id: String,
}

impl JobPayload for SummaryJob {
    const KIND: &'static str = "conversation_summary";
}
/// Messages the model sees as they were (the rest is summarised).
pub const WINDOW: i64 = 30;
/// A summary is brought up to date once this many messages have left the window since.
pub const EVERY: i64 = 20;
/// The most messages one update reads.
const MAX_READ: i64 = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub text: String,
    pub covers_until: i64,
    /// `model` or `guide`.
    pub source: String,
    pub updated_at: i64,
}

pub(in crate::conversation) async fn get(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<Summary>, AppError> {
    let row = sqlx::query(
        "select summary, covers_until, source, updated_at from conversation_summaries where user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    row.map(|r| {
        Ok(Summary {
            text: r.try_get("summary")?,
            covers_until: r.try_get("covers_until")?,
            source: r.try_get("source")?,
            updated_at: r.try_get("updated_at")?,
        })
    })
    .transpose()
}

/// The update to enqueue when enough messages have left the window since the summary's end (one
/// update waits per person and end, by its key): read before the answer's turn at the writer, and
/// enqueued in it.
pub(in crate::conversation) async fn due_update(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<NewJob>, AppError> {
    // The summary's end and the messages since, in one statement (a reply's answer waits on it).
    let row = sqlx::query(
        "select s.covers_until as covers_until, (select count(*) from messages m \
         where m.user_id = $1 and m.created_at > coalesce(s.covers_until, $2)) as n \
         from (select 1 as one) o left join conversation_summaries s on s.user_id = $1",
    )
    .bind(user_id)
    .bind(i64::MIN)
    .fetch_one(&mut *conn)
    .await?;
    let covers_until = row.try_get::<Option<i64>, _>("covers_until")?.unwrap_or(i64::MIN);
    let since: i64 = row.try_get("n")?;
    Ok((since >= WINDOW + EVERY).then(|| {
        SummaryJob { user_id: user_id.to_owned() }
            .job()
            .subject(user_id)
            .dedupe_key(format!("summary:{user_id}:{covers_until}"))
    }))
}

/// The messages the update should fold in: after the summary's end and before the window, oldest
/// first (at most [`MAX_READ`]).
async fn to_fold_in(conn: &mut AnyConnection, user_id: &str) -> Result<Vec<Message>, AppError> {
    let covers_until = get(conn, user_id).await?.map_or(i64::MIN, |s| s.covers_until);
    messages::before_latest(conn, user_id, covers_until, WINDOW, MAX_READ).await
}

/// Keeps the summary, now covering up to `covers_until`.
async fn store(
    conn: &mut AnyConnection,
    user_id: &str,
    text: &str,
    covers_until: i64,
    source: &str,
    now: i64,
) -> Result<(), AppError> {
    sqlx::query(
        "insert into conversation_summaries (user_id, summary, covers_until, source, updated_at) values ($1, $2, $3, $4, $5) \
         on conflict (user_id) do update set summary = excluded.summary, covers_until = excluded.covers_until, \
         source = excluded.source, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(text)
    .bind(covers_until)
    .bind(source)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// A person's summary as a service, for the consultant: the summary as it stands, the messages its
/// next update folds in, and the update kept (on the write connection).
#[derive(Clone)]
pub struct Summaries {
    db: Db,
}

impl Summaries {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    pub async fn get(&self, user_id: &str) -> Result<Option<Summary>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        get(&mut conn, user_id).await
    }

    /// [`Summaries::get`] on the caller's connection.
    pub async fn get_in(&self, conn: &mut AnyConnection, user_id: &str) -> Result<Option<Summary>, AppError> {
        get(conn, user_id).await
    }

    /// The summary as it stands and the messages its update should fold in, in one read.
    pub async fn with_what_to_fold_in(
        &self,
        user_id: &str,
    ) -> Result<(Option<Summary>, Vec<Message>), AppError> {
        let mut conn = self.db.pool().acquire().await?;
        let summary = get(&mut conn, user_id).await?;
        Ok((summary, to_fold_in(&mut conn, user_id).await?))
    }

    /// Keeps the summary, now covering up to `covers_until`, written by `source` (the model, the guide).
    pub async fn store(
        &self,
        user_id: &str,
        text: &str,
        covers_until: i64,
        source: &str,
    ) -> Result<(), AppError> {
        let now = self.db.now_ms();
        let mut writer = self.db.writer().await?;
        store(&mut writer, user_id, text, covers_until, source, now).await
    }
}
