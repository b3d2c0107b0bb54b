//! Fixed-window rate limits kept in the database, so every server process sharing it enforces the
//! same limits: one counter row per key and window.

use std::time::Duration;

use sqlx::Row;

use super::Db;
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

/// Counts one hit of `key`; Err when it goes over the limit.
pub async fn hit(db: &Db, key: &str, limit: Limit) -> Result<Result<(), Exceeded>, sqlx::Error> {
    let now = db.now_ms();
    let window_ms = limit.window.as_millis().max(1) as i64;
    let window_start = now - now.rem_euclid(window_ms);
    let count: i64 = sqlx::query(
        "insert into rate_limits (key, window_start, count) values ($1, $2, 1) \
         on conflict (key, window_start) do update set count = rate_limits.count + 1 returning count",
    )
    .bind(key)
    .bind(window_start)
    .fetch_one(db.pool())
    .await?
    .try_get("count")?;
    if count == 1 && rand::random::<u8>() < 3 {
        // Now and then, forget windows that ended a day ago.
        sqlx::query("delete from rate_limits where window_start < $1")
            .bind(now - crate::clock::DAY_MS)
            .execute(db.pool())
            .await?;
    }
    if count > limit.max {
        let retry_after = Duration::from_millis((window_start + window_ms - now).max(1000) as u64);
        return Ok(Err(Exceeded { retry_after }));
    }
    Ok(Ok(()))
}

/// Counts one hit of `key` (a user, a number); over the limit is `RateLimited` with the wait.
pub async fn per_key(db: &Db, key: &str, limit: Limit) -> Result<(), AppError> {
    hit(db, key, limit)
        .await?
        .map_err(|exceeded| AppError::RateLimited { retry_after_secs: exceeded.retry_after.as_secs().max(1) })
}

/// Counts one `action` from a client address; over the limit is `RateLimited` with the wait. No
/// address (an in-process call) is not limited.
pub async fn per_address(db: &Db, action: &str, address: Option<&str>, limit: Limit) -> Result<(), AppError> {
    let Some(address) = address else { return Ok(()) };
    per_key(db, &format!("{action}:ip:{address}"), limit).await
}
