//! What a person agreed to receive without writing first: the monthly check-in (last month's
//! numbers) and the fiscal reminders, on their day and hour, and whether they stopped everything.
//! Nothing proactive is sent without this consent; "PARAR" stops it all at once and "VOLTAR"
//! resumes (`conversation::reminder_words`); the dashboard has the same switches.

use sqlx::{AnyConnection, Row, any::AnyRow};

use crate::{
    db::Db,
    error::{AppError, Problem},
};

/// A person's choices. Off until they agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preferences {
    pub monthly_checkin: bool,
    pub tax_reminders: bool,
    /// Day of the month (1-28) of the check-in; None: the first business day.
    pub day: Option<i32>,
    /// Hour (8-19, São Paulo) of the check-in; None: 9:00.
    pub hour: Option<i32>,
    pub consented_at: Option<i64>,
    /// Set while everything is stopped ("PARAR").
    pub stopped_at: Option<i64>,
}

impl Preferences {
    /// Whether anything may be sent to them now.
    pub fn active(&self) -> bool {
        self.stopped_at.is_none() && (self.monthly_checkin || self.tax_reminders)
    }
}

const COLUMNS: &str =
    "user_id, monthly_checkin, tax_reminders, checkin_day, checkin_hour, consented_at, stopped_at";

fn from_row(row: &AnyRow) -> Result<Preferences, AppError> {
    Ok(Preferences {
        monthly_checkin: row.try_get::<i32, _>("monthly_checkin")? != 0,
        tax_reminders: row.try_get::<i32, _>("tax_reminders")? != 0,
        day: row.try_get("checkin_day")?,
        hour: row.try_get("checkin_hour")?,
        consented_at: row.try_get("consented_at")?,
        stopped_at: row.try_get("stopped_at")?,
    })
}

pub(in crate::plan) async fn get(conn: &mut AnyConnection, user_id: &str) -> Result<Preferences, AppError> {
    let sql = format!("select {COLUMNS} from reminder_preferences where user_id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_optional(conn).await?;
    row.as_ref().map_or(Ok(Preferences::default()), from_row)
}

/// Everyone who agreed to something and has not said "PARAR", with their choices (the scheduler's
/// list).
async fn active(db: &Db) -> Result<Vec<(String, Preferences)>, AppError> {
    let sql = format!(
        "select {COLUMNS} from reminder_preferences where stopped_at is null and consented_at is not null \
         and (monthly_checkin = 1 or tax_reminders = 1) order by user_id"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(db.pool()).await?;
    rows.iter().map(|row| Ok((row.try_get("user_id")?, from_row(row)?))).collect()
}

/// Saves what the person chose (the dashboard, or "sim" on WhatsApp). Turning something on is
/// consent, recorded with its time, and resumes what was stopped.
pub(in crate::plan) async fn set(
    db: &Db,
    user_id: &str,
    monthly_checkin: bool,
    tax_reminders: bool,
    day: Option<i32>,
    hour: Option<i32>,
) -> Result<Preferences, AppError> {
    if day.is_some_and(|d| !(1..=28).contains(&d)) {
        return Err(AppError::invalid("day", Problem::OutOfRange { min: 1, max: 28 }));
    }
    if hour.is_some_and(|h| !(8..=19).contains(&h)) {
        // Never between 20:00 and 08:00.
        return Err(AppError::invalid("hour", Problem::OutOfRange { min: 8, max: 19 }));
    }
    let now = db.now_ms();
    let consenting = monthly_checkin || tax_reminders;
    sqlx::query(
        "insert into reminder_preferences (user_id, monthly_checkin, tax_reminders, checkin_day, checkin_hour, consented_at, stopped_at, updated_at) \
         values ($1, $2, $3, $4, $5, $6, null, $7) on conflict (user_id) do update set \
         monthly_checkin = excluded.monthly_checkin, tax_reminders = excluded.tax_reminders, \
         checkin_day = excluded.checkin_day, checkin_hour = excluded.checkin_hour, \
         consented_at = coalesce(excluded.consented_at, reminder_preferences.consented_at), \
         last_resume_at = case when reminder_preferences.stopped_at is null then reminder_preferences.last_resume_at \
         else excluded.updated_at end, \
         stopped_at = null, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(i32::from(monthly_checkin))
    .bind(i32::from(tax_reminders))
    .bind(day)
    .bind(hour)
    .bind(consenting.then_some(now))
    .bind(now)
    .execute(&mut *db.writer().await?)
    .await?;
    let mut conn = db.pool().acquire().await?;
    get(&mut conn, user_id).await
}

/// How a stop or resume reached us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// The person wrote it to us ("PARAR", "VOLTAR"): their latest word, as we received it.
    Typed,
    /// Meta reported it (the `user_preferences` webhook), dated by Meta's timestamp: ignored when
    /// older than the latest stop or resume, so a late or out-of-order report never undoes a newer
    /// choice.
    Reported,
}

/// "PARAR" (or Meta's stop of marketing messages, dated `at`): every proactive message stops at
/// once (what they agreed to is kept for "VOLTAR"). True when something was running.
pub(in crate::plan) async fn stop(
    conn: &mut AnyConnection,
    user_id: &str,
    at: i64,
    said: Said,
) -> Result<bool, AppError> {
    let in_order = match said {
        Said::Typed => "",
        Said::Reported => {
            " and (reminder_preferences.last_resume_at is null or reminder_preferences.last_resume_at <= excluded.last_stop_at)"
        }
    };
    let sql = format!(
        "insert into reminder_preferences (user_id, stopped_at, last_stop_at, updated_at) values ($1, $2, $2, $2) \
         on conflict (user_id) do update set stopped_at = excluded.stopped_at, \
         last_stop_at = excluded.last_stop_at, updated_at = excluded.updated_at \
         where reminder_preferences.stopped_at is null{in_order}"
    );
    let done = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).bind(at).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}

/// "VOLTAR" (or Meta's resume, dated `at`): what they had agreed to runs again. False when nothing
/// was stopped (or, reported, when the stop is newer than `at`).
pub(in crate::plan) async fn resume(
    conn: &mut AnyConnection,
    user_id: &str,
    at: i64,
    said: Said,
) -> Result<bool, AppError> {
    let in_order = match said {
        Said::Typed => "",
        Said::Reported => " and (last_stop_at is null or last_stop_at <= $2)",
    };
    let sql = format!(
        "update reminder_preferences set stopped_at = null, last_resume_at = $2, updated_at = $2 \
         where user_id = $1 and stopped_at is not null{in_order}"
    );
    let done = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).bind(at).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}

/// Whether a proactive message written at `written_at` may still go: the person agrees to its kind
/// (`checkin`: the monthly check-in, else the fiscal reminders) and has not said "PARAR" since it
/// was written (a stop and a resume since still drop it). Asked in the transaction that stores a
/// reminder and in the one that hands it to WhatsApp: it holds the person's row until that
/// transaction ends, so a "PARAR" that commits meanwhile waits for it, and one that committed
/// first is seen (PostgreSQL re-reads a row it waited for).
pub(in crate::plan) async fn still_wanted(
    conn: &mut AnyConnection,
    user_id: &str,
    checkin: bool,
    written_at: i64,
) -> Result<bool, AppError> {
    let held = sqlx::query(
        "update reminder_preferences set updated_at = updated_at where user_id = $1 \
         and stopped_at is null and consented_at is not null \
         and (last_stop_at is null or last_stop_at < $2) \
         and (case when $3 = 1 then monthly_checkin else tax_reminders end) = 1",
    )
    .bind(user_id)
    .bind(written_at)
    .bind(i32::from(checkin))
    .execute(conn)
    .await?;
    Ok(held.rows_affected() == 1)
}

/// The id of the answer to tap that accepts the check-ins offered on WhatsApp, and of the one
/// that declines them.
pub const OFFER_YES: &str = "reminders.yes";
pub const OFFER_NO: &str = "reminders.no";

/// Claims the one offer of the check-ins for a person who never agreed nor was offered them, as
/// the message `message_id`. False when it was offered before (or they agreed already).
pub(in crate::plan) async fn claim_offer(
    conn: &mut AnyConnection,
    user_id: &str,
    message_id: &str,
    at: i64,
) -> Result<bool, AppError> {
    let done = sqlx::query(
        "insert into reminder_preferences (user_id, offered_at, offer_message_id, updated_at) values ($1, $2, $3, $2) \
         on conflict (user_id) do update set offered_at = excluded.offered_at, \
         offer_message_id = excluded.offer_message_id, updated_at = excluded.updated_at \
         where reminder_preferences.offered_at is null and reminder_preferences.consented_at is null",
    )
    .bind(user_id)
    .bind(at)
    .bind(message_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The message that offered the check-ins, while the offer waits for an answer.
pub(in crate::plan) async fn open_offer(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<String>, AppError> {
    Ok(sqlx::query_scalar(
        "select offer_message_id from reminder_preferences where user_id = $1 \
         and offer_answered_at is null and consented_at is null",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?
    .flatten())
}

/// The answer to the offer: "sim" turns the check-in and the fiscal reminders on (consent, with
/// its time); "agora não" leaves everything off. Either way the offer is answered.
pub(in crate::plan) async fn answer_offer(
    conn: &mut AnyConnection,
    user_id: &str,
    yes: bool,
    at: i64,
) -> Result<(), AppError> {
    sqlx::query(
        "update reminder_preferences set offer_answered_at = $2, updated_at = $2, \
         monthly_checkin = case when $3 = 1 then 1 else monthly_checkin end, \
         tax_reminders = case when $3 = 1 then 1 else tax_reminders end, \
         consented_at = case when $3 = 1 then $2 else consented_at end, \
         last_resume_at = case when $3 = 1 and stopped_at is not null then $2 else last_resume_at end, \
         stopped_at = case when $3 = 1 then null else stopped_at end \
         where user_id = $1",
    )
    .bind(user_id)
    .bind(at)
    .bind(i32::from(yes))
    .execute(conn)
    .await?;
    Ok(())
}

/// A person's choice of proactive messages as a service (read, and changed with its consent).
#[derive(Clone)]
pub struct Reminders {
    db: Db,
}

impl Reminders {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Everyone who agreed to something and has not said "PARAR", with their choices.
    pub async fn active(&self) -> Result<Vec<(String, Preferences)>, AppError> {
        active(&self.db).await
    }

    /// What the person chose (nothing yet: all off).
    pub async fn of(&self, user_id: &str) -> Result<Preferences, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        get(&mut conn, user_id).await
    }

    /// Changes the choices (`set`): the check-in's day 1–28 and hour 8–19 when given.
    pub async fn choose(
        &self,
        user_id: &str,
        monthly_checkin: bool,
        tax_reminders: bool,
        day: Option<i32>,
        hour: Option<i32>,
    ) -> Result<Preferences, AppError> {
        set(&self.db, user_id, monthly_checkin, tax_reminders, day, hour).await
    }

    /// "PARAR" (typed, or Meta's reported stop) at `at`, in the caller's transaction: every
    /// proactive message stops (see [`stop`]); false when nothing changed.
    pub async fn stop_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        at: i64,
        said: Said,
    ) -> Result<bool, AppError> {
        stop(conn, user_id, at, said).await
    }

    /// "VOLTAR" (typed, or Meta's reported resume) at `at`, in the caller's transaction (see
    /// [`resume`]); false when nothing changed.
    pub async fn resume_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        at: i64,
        said: Said,
    ) -> Result<bool, AppError> {
        resume(conn, user_id, at, said).await
    }

    /// Whether a proactive message written at `written_at` may still go, held in the caller's
    /// transaction (see [`still_wanted`]).
    pub async fn still_wanted_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        checkin: bool,
        written_at: i64,
    ) -> Result<bool, AppError> {
        still_wanted(conn, user_id, checkin, written_at).await
    }

    /// Claims the one offer of check-ins a person ever gets, in the caller's transaction (see
    /// [`claim_offer`]); false when it was made before.
    pub async fn claim_offer_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        message_id: &str,
        at: i64,
    ) -> Result<bool, AppError> {
        claim_offer(conn, user_id, message_id, at).await
    }

    /// The offer's message, while it waits for an answer, read in the caller's transaction.
    pub async fn open_offer_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
    ) -> Result<Option<String>, AppError> {
        open_offer(conn, user_id).await
    }

    /// The person answered the offer (yes: check-ins on), in the caller's transaction.
    pub async fn answer_offer_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        yes: bool,
        at: i64,
    ) -> Result<(), AppError> {
        answer_offer(conn, user_id, yes, at).await
    }
}
