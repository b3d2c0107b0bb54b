//! Fixed-window rate limits kept in the database, so every server process sharing it enforces the
//! same limits: one counter row per key and window.

use std::time::Duration;

use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppError;

/// At most `max` hits per `window` for one key.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub max: i64,
    pub window: Duration,
}

/// Over the limit: wait this long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exceeded {
    pub retry_after: Duration,
}

impl Exceeded {
    /// The refusal a person reads: `RateLimited` with the wait in whole seconds, rounded up (59,9 s
    /// left is "60 segundos": a retry at the said time is never early), a second at least.
    fn refused(self) -> AppError {
        AppError::RateLimited { retry_after_secs: self.retry_after.as_millis().div_ceil(1000).max(1) as u64 }
    }
}

/// Counts one hit of `key`; Err when it goes over the limit.
pub async fn hit(db: &Db, key: &str, limit: Limit) -> Result<Result<(), Exceeded>, sqlx::Error> {
    let now = db.now_ms();
    let window_start = window_start(now, limit);
    let count = count_one(&mut *db.writer().await?, key, window_start).await?;
    if count == 1 && rand::random::<u8>() < 3 {
        // Now and then, forget windows that ended a day ago.
        sqlx::query("delete from rate_limits where window_start < $1")
            .bind(now - crate::clock::DAY_MS)
            .execute(&mut *db.writer().await?)
            .await?;
    }
    Ok(judge(count, window_start, now, limit))
}

/// Counts one hit of `key` inside the caller's transaction, so that the hit stands or goes with
/// what it limits (a refused rotation rolls its own hit back, and a limit that went over stays
/// over); `RateLimited` past the limit.
pub async fn per_key_in(tx: &mut Tx, key: &str, limit: Limit) -> Result<(), AppError> {
    let now = tx.now_ms();
    let window_start = window_start(now, limit);
    let count = count_one(tx, key, window_start).await?;
    judge(count, window_start, now, limit).map_err(Exceeded::refused)
}

fn window_start(now: i64, limit: Limit) -> i64 {
    let window_ms = limit.window.as_millis().max(1) as i64;
    now - now.rem_euclid(window_ms)
}

async fn count_one(conn: &mut sqlx::AnyConnection, key: &str, window_start: i64) -> Result<i64, sqlx::Error> {
    sqlx::query(
        "insert into rate_limits (key, window_start, count) values ($1, $2, 1) \
         on conflict (key, window_start) do update set count = rate_limits.count + 1 returning count",
    )
    .bind(key)
    .bind(window_start)
    .fetch_one(conn)
    .await?
    .try_get("count")
}

fn judge(count: i64, window_start: i64, now: i64, limit: Limit) -> Result<(), Exceeded> {
    if count > limit.max {
        let window_ms = limit.window.as_millis().max(1) as i64;
        let retry_after = Duration::from_millis((window_start + window_ms - now).max(1000) as u64);
        return Err(Exceeded { retry_after });
    }
    Ok(())
}

/// Counts one hit of `key` (a user, a number); over the limit is `RateLimited` with the wait.
pub async fn per_key(db: &Db, key: &str, limit: Limit) -> Result<(), AppError> {
    hit(db, key, limit).await?.map_err(Exceeded::refused)
}

/// Counts one `action` from a client address; over the limit is `RateLimited` with the wait. No
/// address (an in-process call) is not limited.
pub async fn per_address(db: &Db, action: &str, address: Option<&str>, limit: Limit) -> Result<(), AppError> {
    let Some(address) = address else { return Ok(()) };
    per_key(db, &format!("{action}:ip:{address}"), limit).await
}

/// Writes one person may make through the API, whatever the call (`api::access::WRITES`): far
/// above what an editor, the dashboard and the results form send (an autosave every few seconds),
/// far below a script's thousands, which would slow everyone else's writes.
pub const WRITES_PER_MINUTE: Limit = Limit { max: 180, window: Duration::from_secs(60) };
pub const WRITES_PER_HOUR: Limit = Limit { max: 2_400, window: Duration::from_secs(3_600) };

/// Each person's budget of writes through the API, kept in the database so that it holds across
/// servers: over it, a write is refused with `RateLimited` (a localised 429 with `retryAfter`)
/// before its service runs.
#[derive(Clone)]
pub struct WriteBudget {
    db: Db,
}

impl WriteBudget {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Counts one write of the person's against both windows.
    pub async fn spend(&self, user_id: &str) -> Result<(), AppError> {
        per_key(&self.db, &format!("writes:minute:user:{user_id}"), WRITES_PER_MINUTE).await?;
        per_key(&self.db, &format!("writes:hour:user:{user_id}"), WRITES_PER_HOUR).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_a_person_is_told_is_rounded_up_to_the_second() {
        let limit = Limit { max: 10, window: Duration::from_secs(60) };
        // The eleventh hit, 3 ms into the window: 59,997 s are left, said as 60.
        let exceeded = judge(11, 60_000, 60_003, limit).unwrap_err();
        assert!(matches!(exceeded.refused(), AppError::RateLimited { retry_after_secs: 60 }));
        // At the window's last moment, a second at least.
        let exceeded = judge(11, 60_000, 119_999, limit).unwrap_err();
        assert!(matches!(exceeded.refused(), AppError::RateLimited { retry_after_secs: 1 }));
        assert_eq!(judge(10, 60_000, 60_003, limit), Ok(()));
    }
}
