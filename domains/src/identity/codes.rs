//! One-time login codes: 6 digits from a CSPRNG, stored only as an HMAC, valid 10 minutes, single
//! use, replaced by a newer one. A code dies after 5 wrong tries; a number's wrong tries add up
//! across resends and lock it for 15 minutes at 10. Sending is limited to once a minute and five
//! times an hour per number. A number here is a person: both spellings of a Brazilian mobile share
//! one code, one cooldown and one failure count (`PhoneNumber::identity`).

use std::time::Duration;

use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;
use sqlx::{AnyConnection, Row};

use super::phone::PhoneNumber;
use crate::{config::Secret, db::Db, error::AppError};

pub const CODE_TTL: Duration = Duration::from_secs(10 * 60);
pub const RESEND_AFTER: Duration = Duration::from_secs(60);
pub const MAX_SENDS_PER_HOUR: i64 = 5;
pub const MAX_TRIES_PER_CODE: i32 = 5;
pub const LOCK_AFTER_FAILURES: i32 = 10;
pub const LOCK_FOR: Duration = Duration::from_secs(15 * 60);

/// Hashes codes with a server-side key, so a leaked table does not reveal them.
#[derive(Clone)]
pub struct CodeHasher {
    key: Vec<u8>,
}

impl CodeHasher {
    pub fn new(secret: &Secret) -> Self {
        Self { key: secret.purpose_key("socio login codes") }
    }

    fn hash(&self, phone: &PhoneNumber, code: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(phone.identity().e164().as_bytes());
        mac.update(b":");
        mac.update(code.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    fn matches(&self, phone: &PhoneNumber, code: &str, stored_hex: &str) -> bool {
        let Ok(stored) = hex::decode(stored_hex) else { return false };
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(phone.identity().e164().as_bytes());
        mac.update(b":");
        mac.update(code.as_bytes());
        mac.verify_slice(&stored).is_ok()
    }
}

/// A uniformly random 6-digit code.
pub fn generate() -> String {
    format!("{:06}", rand::rng().random_range(0..1_000_000u32))
}

fn secs(ms: i64) -> u64 {
    (ms.max(0) as u64).div_ceil(1000).max(1)
}

/// Refuses when the number is locked, was sent a code less than a minute ago, or had five this hour.
/// Holds the number's row until the transaction ends, so of two sends racing only one gets a code.
pub(in crate::identity) async fn check_can_send(
    conn: &mut AnyConnection,
    phone: &PhoneNumber,
    now: i64,
) -> Result<(), AppError> {
    hold_number(conn, phone, now).await?;
    let rows = sqlx::query(
        "select created_at from login_codes where phone_number = $1 and created_at > $2 order by created_at",
    )
    .bind(phone.identity().e164())
    .bind(now - 3_600_000)
    .fetch_all(&mut *conn)
    .await?;
    let sent: Vec<i64> = rows.iter().map(|r| r.try_get("created_at")).collect::<Result<_, _>>()?;
    if let Some(last) = sent.last() {
        let wait = last + RESEND_AFTER.as_millis() as i64 - now;
        if wait > 0 {
            return Err(AppError::CodeAlreadySent { retry_after_secs: secs(wait) });
        }
    }
    if sent.len() as i64 >= MAX_SENDS_PER_HOUR {
        let oldest = sent[0];
        return Err(AppError::RateLimited { retry_after_secs: secs(oldest + 3_600_000 - now) });
    }
    Ok(())
}

/// Takes the number's state row for the rest of the transaction (creating it if need be) and refuses
/// when the number is locked. Every send and every guess of one number passes here first, so on
/// PostgreSQL they queue on the row lock and each sees the counts the one before it left; SQLite's
/// `begin immediate` already runs them one at a time.
async fn hold_number(conn: &mut AnyConnection, phone: &PhoneNumber, now: i64) -> Result<(), AppError> {
    let locked_until: Option<i64> = sqlx::query(
        "insert into phone_auth_state (phone_number, failures, updated_at) values ($1, 0, $2) \
         on conflict (phone_number) do update set updated_at = phone_auth_state.updated_at \
         returning locked_until",
    )
    .bind(phone.identity().e164())
    .bind(now)
    .fetch_one(conn)
    .await?
    .try_get("locked_until")?;
    match locked_until {
        Some(until) if until > now => Err(AppError::NumberLocked { retry_after_secs: secs(until - now) }),
        _ => Ok(()),
    }
}

/// Stores a new code for the number, replacing any earlier one. Returns its id.
pub(in crate::identity) async fn store(
    conn: &mut AnyConnection,
    hasher: &CodeHasher,
    phone: &PhoneNumber,
    code: &str,
    now: i64,
) -> Result<String, AppError> {
    sqlx::query("update login_codes set consumed_at = $1 where phone_number = $2 and consumed_at is null")
        .bind(now)
        .bind(phone.identity().e164())
        .execute(&mut *conn)
        .await?;
    let id = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "insert into login_codes (id, phone_number, code_hash, attempts, expires_at, created_at) values ($1, $2, $3, 0, $4, $5)",
    )
    .bind(&id)
    .bind(phone.identity().e164())
    .bind(hasher.hash(phone, code))
    .bind(now + CODE_TTL.as_millis() as i64)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(id)
}

/// Forgets a code that could not be delivered, so the cooldown does not block a new try.
pub(in crate::identity) async fn discard(db: &Db, id: &str) -> Result<(), AppError> {
    sqlx::query("delete from login_codes where id = $1").bind(id).execute(&mut *db.writer().await?).await?;
    Ok(())
}

/// Uses the number's current code. Wrong, dead or missing codes count as failures of the number.
pub(in crate::identity) async fn redeem(
    db: &Db,
    hasher: &CodeHasher,
    phone: &PhoneNumber,
    code: &str,
) -> Result<(), AppError> {
    let now = db.now_ms();
    let mut tx = db.begin().await?;
    hold_number(&mut tx, phone, now).await?;
    let current = sqlx::query(
        "select id, code_hash, attempts, expires_at from login_codes where phone_number = $1 and consumed_at is null \
         order by created_at desc limit 1",
    )
    .bind(phone.identity().e164())
    .fetch_optional(&mut *tx)
    .await?;
    let outcome = match current {
        Some(row) => {
            let id: String = row.try_get("id")?;
            let attempts: i32 = row.try_get("attempts")?;
            let expires_at: i64 = row.try_get("expires_at")?;
            let alive = attempts < MAX_TRIES_PER_CODE && expires_at > now;
            if alive && hasher.matches(phone, code, &row.try_get::<String, _>("code_hash")?) {
                let used = sqlx::query(
                    "update login_codes set consumed_at = $1 where id = $2 and consumed_at is null",
                )
                .bind(now)
                .bind(&id)
                .execute(&mut *tx)
                .await?;
                used.rows_affected() == 1
            } else if alive {
                sqlx::query("update login_codes set attempts = attempts + 1 where id = $1")
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?;
                false
            } else {
                false
            }
        }
        None => false,
    };
    if outcome {
        sqlx::query("delete from phone_auth_state where phone_number = $1")
            .bind(phone.identity().e164())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Ok(());
    }
    record_failure(&mut tx, phone, now).await?;
    tx.commit().await?;
    Err(AppError::InvalidCode)
}

async fn record_failure(conn: &mut AnyConnection, phone: &PhoneNumber, now: i64) -> Result<(), AppError> {
    let failures: i32 = sqlx::query(
        "insert into phone_auth_state (phone_number, failures, updated_at) values ($1, 1, $2) \
         on conflict (phone_number) do update set failures = phone_auth_state.failures + 1, updated_at = $2 \
         returning failures",
    )
    .bind(phone.identity().e164())
    .bind(now)
    .fetch_one(&mut *conn)
    .await?
    .try_get("failures")?;
    if failures >= LOCK_AFTER_FAILURES {
        sqlx::query("update phone_auth_state set locked_until = $1, failures = 0 where phone_number = $2")
            .bind(now + LOCK_FOR.as_millis() as i64)
            .bind(phone.identity().e164())
            .execute(conn)
            .await?;
        tracing::warn!(target: "security", event = "number_locked", phone = %phone.masked(), "too many wrong login codes");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..1000 {
            let code = generate();
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
    }

    #[test]
    fn codes_are_stored_as_a_keyed_hash_tied_to_the_number() {
        let hasher = CodeHasher::new(&Secret::new("s".repeat(40)));
        let ana = PhoneNumber::parse("+5511987654321").unwrap();
        let bruno = PhoneNumber::parse("+5521998765432").unwrap();
        let stored = hasher.hash(&ana, "123456");
        assert!(!stored.contains("123456"));
        assert!(hasher.matches(&ana, "123456", &stored));
        assert!(!hasher.matches(&ana, "123457", &stored));
        assert!(!hasher.matches(&bruno, "123456", &stored));
        let ana_without_nine = PhoneNumber::from_wa_id("551187654321").unwrap();
        assert!(hasher.matches(&ana_without_nine, "123456", &stored), "one person, one code");
        let other_server = CodeHasher::new(&Secret::new("t".repeat(40)));
        assert!(!other_server.matches(&ana, "123456", &stored));
    }
}
