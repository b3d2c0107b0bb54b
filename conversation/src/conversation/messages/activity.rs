//! A person's activity figures for the dashboard: messages this week, days active in the last
//! thirty, messages in all — days in São Paulo.

use crate::error::AppError;
use sqlx::Row;

use crate::{
    clock::{self, CivilDate},
    db::Db,
};

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
pub(in crate::conversation) async fn activity(
    db: &Db,
    user_id: &str,
    now: i64,
) -> Result<Activity, AppError> {
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
